/**
 * A store's steps after `create` as values (`{ op, args }`: the method's name and its arguments), and what
 * every backend does around them the same way: `storeOfSteps` builds the `TaskStore` from a backend's runner,
 * checking what the steps take before the backend reads anything, and `absent` is what a step answers for a
 * task that is not there. The Durable Object sends these values to its objects as they are.
 */
import {
  type Beat,
  type Claimed,
  type Created,
  type CreateTask,
  checkCreate,
  checkLeaseMs,
  type JsonObject,
  type Lease,
  type Refused,
  type TaskOutcome,
  type TaskStore,
  type TaskUpdate,
  type TaskView,
} from './store.js';

/** A `TaskStore` method after `create`, as a value. */
export type Step =
  | { op: 'get'; args: [owner: string, taskId: string] }
  | { op: 'requestCancel'; args: [owner: string, taskId: string] }
  | { op: 'answer'; args: [owner: string, taskId: string, responses: Readonly<Record<string, JsonObject>>] }
  | { op: 'claim'; args: [taskId: string, leaseMs: number] }
  | { op: 'heartbeat'; args: [lease: Lease, leaseMs: number] }
  | { op: 'update'; args: [lease: Lease, change: TaskUpdate] }
  | { op: 'settle'; args: [lease: Lease, outcome: TaskOutcome] };

/** The steps a caller takes on its own task, named by owner and task id. */
export type CallerStep = Extract<Step, { op: 'get' | 'requestCancel' | 'answer' }>;

/** The steps a worker takes under a lease. */
export type LeaseStep = Extract<Step, { op: 'heartbeat' | 'update' | 'settle' }>;

/** What each step answers (its method's result). */
export interface StepAnswers {
  get: TaskView | undefined;
  requestCancel: boolean;
  answer: boolean;
  claim: Claimed | Refused;
  heartbeat: Beat | Refused;
  update: { ok: true } | Refused;
  settle: { ok: true } | Refused;
}

/** The answer of some step. */
export type StepAnswer = StepAnswers[Step['op']];

const OPS: ReadonlySet<string> = new Set<Step['op']>([
  'get',
  'requestCancel',
  'answer',
  'claim',
  'heartbeat',
  'update',
  'settle',
]);

/** True when `step.op` names a step (for values that crossed a wire). */
export function isStep(step: { op?: unknown }): step is Step {
  return typeof step.op === 'string' && OPS.has(step.op);
}

/** True for the steps a caller takes on its own task (`get`, `answer`, `requestCancel`). */
export function isCallerStep(step: Step): step is CallerStep {
  return step.op === 'get' || step.op === 'answer' || step.op === 'requestCancel';
}

/** The id of the task a step acts on: as given, so not always a string when it crossed a wire. */
export function taskIdOf(step: Step): string {
  if (isCallerStep(step)) return step.args[1];
  if (step.op === 'claim') return step.args[0];
  return step.args[0].taskId;
}

/**
 * What a step answers when its task is not there (unknown, expired, or an id the backend never made): `get`
 * undefined, `answer` and `requestCancel` false, a worker's step refused `unknown`.
 */
export function absent(step: Step): StepAnswer {
  if (step.op === 'get') return undefined;
  if (step.op === 'answer' || step.op === 'requestCancel') return false;
  return { ok: false, reason: 'unknown' };
}

/**
 * Checks what a step takes, the same on every backend and before anything is read.
 * @throws TypeError when the `leaseMs` of a `claim` or `heartbeat` is not a positive integer.
 */
export function checkStep(step: Step): void {
  if (step.op === 'claim' || step.op === 'heartbeat') checkLeaseMs(step.args[1]);
}

/** A backend as the store sees it: its `create`, and a runner for every other step. */
export interface StepBackend {
  /** Creates the task; `request` has passed `checkCreate`. */
  create(request: CreateTask): Promise<Created>;
  /** Runs one step, which has passed `checkStep`, and resolves to what `StepAnswers` says it answers. */
  run(step: Step): Promise<StepAnswer>;
}

/**
 * The `TaskStore` over a backend: each method checks what it takes (`checkCreate`, `checkStep`: a TypeError, as a
 * rejection, before the backend reads anything) and hands its step to the backend.
 */
export function storeOfSteps(backend: StepBackend): TaskStore {
  const run = async <A extends StepAnswer>(step: Step): Promise<A> => {
    checkStep(step);
    return (await backend.run(step)) as A;
  };
  return {
    async create(request) {
      checkCreate(request);
      return backend.create(request);
    },
    get: (owner, taskId) => run<TaskView | undefined>({ op: 'get', args: [owner, taskId] }),
    answer: (owner, taskId, responses) => run<boolean>({ op: 'answer', args: [owner, taskId, responses] }),
    requestCancel: (owner, taskId) => run<boolean>({ op: 'requestCancel', args: [owner, taskId] }),
    claim: (taskId, leaseMs) => run<Claimed | Refused>({ op: 'claim', args: [taskId, leaseMs] }),
    heartbeat: (lease, leaseMs) => run<Beat | Refused>({ op: 'heartbeat', args: [lease, leaseMs] }),
    update: (lease, change) => run<{ ok: true } | Refused>({ op: 'update', args: [lease, change] }),
    settle: (lease, outcome) => run<{ ok: true } | Refused>({ op: 'settle', args: [lease, outcome] }),
  };
}
