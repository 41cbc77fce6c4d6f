/**
 * One call that may become a task, run in the process that accepted it (docs/design/tasks.md, Where the work
 * runs; ADR 0036): the call starts on a signal of its own; if it has not finished within the tool's inline
 * wait, the task is created with a lease (durable before the CreateTaskResult is answered), the call keeps
 * running, a heartbeat every third of the lease keeps the lease and learns of a cancel, and the outcome is
 * settled through the store.
 */
import type { TasksPolicy, ToolTaskPolicy } from './settle.js';
import type { JsonObject, JsonValue, Lease, Refused, TaskError, TaskOutcome, TaskView } from './store.js';

/** How a call that ran ended: a result (an `isError` one included), or a JSON-RPC error (the task `failed`). */
export type CallOutcome = { status: 'completed'; result: JsonObject } | { status: 'failed'; error: TaskError };

/** What a task-capable call came to, for the request that made it. */
export type TaskCallAnswer<T> =
  /** It finished within the inline wait: answered as a plain call, with what `start` resolved to. */
  | { kind: 'inline'; value: T }
  /** It runs on as a task: answer this view's CreateTaskResult. */
  | { kind: 'task'; view: TaskView }
  /** The caller has `maxOpen` open tasks: the call was stopped (its signal aborted) and no task made. */
  | { kind: 'full' };

/**
 * One task's run under a lease, as the default run (`runLeased`) does it wherever it holds the lease: in the
 * process that accepted the call (`runTaskCall`), or in a queue's consumer that claimed the task.
 */
export interface TaskRun<T> {
  readonly tasks: TasksPolicy;
  /**
   * Starts the call on `signal`, which aborts on the client's cancel, a lost lease, or a full store;
   * `status` sets the task's status message (kept until the task exists, then written; never rejects).
   */
  start(signal: AbortSignal, status: (message: string) => Promise<void>): Promise<T>;
  /** What the call came to, once it ran on as a task. */
  outcome(value: T): CallOutcome;
  /**
   * The input requests `value` asks the client for (a handler's `InputRequiredResult`, by key), or undefined
   * when it is the call's outcome. Inside a task they become the task's `inputRequests`, answered by
   * `tasks/update`.
   */
  inputRequests?(value: T): Readonly<Record<string, JsonObject>> | undefined;
  /** Runs the call again with the answers to every request `value` made, on the task's signal. */
  resume?(value: T, answers: Readonly<Record<string, JsonObject>>): Promise<T>;
  /** A step the store refused the worker (a settle after a cancel excepted), or a store that failed. */
  onTrouble?(what: { step: 'heartbeat' | 'update' | 'settle'; refused?: Refused; error?: unknown }): void;
  /** Told what the task did, for `observe.onTask`: in order, each at most once but `input_required`; never throws. */
  told?(event: RunEvent): void;
}

/**
 * What a task's run tells: the task created (by `runTaskCall`: after the inline wait, or at once for
 * `inlineMs: 0`), a round of input requests stored, and how the run ended (`RunEnd`), once.
 */
export type RunEvent =
  | { kind: 'created'; taskId: string; via: 'inline-wait' | 'immediate' }
  | { kind: 'input_required' }
  | { kind: RunEnd };

/** One call, as `runTaskCall` runs it: a run, and what its task is created with. */
export interface TaskCall<T> extends TaskRun<T> {
  readonly tool: ToolTaskPolicy;
  /** The tool's name: the task is created with it (`CreateTask.tool`), so its polls can check access to it. */
  readonly name: string;
  /** The caller's owner key (`callerOwner`). */
  readonly owner: string;
  /** What the store keeps for the call (the tool's name): opaque to it. */
  readonly call: JsonValue;
  /** The request's signal: followed until the task exists, then no longer (the request has been answered). */
  readonly parent: AbortSignal;
  /**
   * Handed the rest of the task's run once the task exists, which settles when the task does: a Worker's
   * `waitUntil`, so that the run outlives the response. Left out: the run goes on on its own (Node).
   */
  keep?(rest: Promise<unknown>): void;
}

/**
 * How a task's run ended for the process that ran it: the status it settled the task with, or `lost` (the
 * store refused or failed the settle, or the lease lapsed: the task reads `failed` by now), or `cancelled`
 * (the client cancelled it while it ran).
 */
export type RunEnd = 'completed' | 'failed' | 'cancelled' | 'lost';

/** The reason `ctx.signal` carries when the client cancelled the task. */
const CANCELLED = 'Task cancelled by the client';

/** The reason `ctx.signal` carries when the task's lease was lost (it lapsed, or the store refused it). */
const LOST = 'Task lease lost';

/**
 * Runs one task-capable call: inline when it finishes within `tool.inlineMs` (0: the task is created before
 * the call starts), else as a task. Resolves once the request can be answered; the task's run goes on after.
 * @throws what the store's `create` rejects with (the call's signal is then aborted), and what `start` throws
 *   before the task exists.
 */
export async function runTaskCall<T>(run: TaskCall<T>): Promise<TaskCallAnswer<T>> {
  const controller = new AbortController();
  const follow = () => controller.abort(run.parent.reason);
  if (run.parent.aborted) follow();
  else run.parent.addEventListener('abort', follow, { once: true });
  let running: Promise<T> | undefined;
  const held: Held = {};
  const status = statusOf(run, held);
  try {
    if (run.tool.inlineMs > 0) {
      running = run.start(controller.signal, status);
      // Its outcome is read below or by the task's run; a call stopped for a full store is not read at all.
      running.catch(() => undefined);
      const inline = await finishedWithin(running, run.tool.inlineMs);
      if (inline.done) return { kind: 'inline', value: inline.value };
    }
    const created = await run.tasks.store
      .create({
        owner: run.owner,
        tool: run.name,
        ttlMs: run.tool.ttlMs,
        pollIntervalMs: run.tool.pollIntervalMs,
        call: run.call,
        leaseMs: run.tasks.leaseMs,
        ...(run.tasks.maxOpen !== undefined && { maxOpen: run.tasks.maxOpen }),
      })
      .catch((error: unknown) => {
        controller.abort(error);
        throw error;
      });
    if (!created.ok) {
      controller.abort(new DOMException('Too many open tasks', 'AbortError'));
      return { kind: 'full' };
    }
    run.parent.removeEventListener('abort', follow);
    held.lease = created.lease!;
    run.told?.({ kind: 'created', taskId: created.task.taskId, via: running ? 'inline-wait' : 'immediate' });
    running ??= run.start(controller.signal, status);
    if (held.message !== undefined) void status(held.message);
    const rest = carryOn(run, running, held, controller);
    run.keep?.(rest);
    return { kind: 'task', view: created.task };
  } finally {
    run.parent.removeEventListener('abort', follow);
  }
}

/** One call handed to a queue, as `handToQueue` creates and hands it. */
export interface QueueCall {
  readonly tasks: TasksPolicy & { readonly run: NonNullable<TasksPolicy['run']> };
  readonly tool: ToolTaskPolicy;
  readonly name: string;
  readonly owner: string;
  /** What the consumer reads when it claims the task (`queuedCall`). */
  readonly call: JsonValue;
  /**
   * The error a task is failed with when the hook threw: reports `error` (to `onError`) and words what the
   * client reads, masked.
   */
  failure(error: unknown): TaskError;
  /** The store failed while the task was being failed. */
  onTrouble?(error: unknown): void;
}

/**
 * Creates the task unclaimed, then hands it to `tasks.run`: the task exists (durably) before the hook hears of
 * it, and the hook has taken it before the request is answered. A hook that throws leaves the task `failed`,
 * unless a consumer has claimed it already (the claim fences the two); the answer is then the task as it
 * reads after that.
 * @throws what the store's `create` rejects with.
 */
export async function handToQueue(queue: QueueCall): Promise<{ kind: 'task'; view: TaskView } | { kind: 'full' }> {
  const { tasks, tool } = queue;
  const created = await tasks.store.create({
    owner: queue.owner,
    tool: queue.name,
    ttlMs: tool.ttlMs,
    pollIntervalMs: tool.pollIntervalMs,
    call: queue.call,
    ...(tasks.maxOpen !== undefined && { maxOpen: tasks.maxOpen }),
  });
  if (!created.ok) return { kind: 'full' };
  try {
    await tasks.run({ taskId: created.task.taskId, tool: queue.name });
    return { kind: 'task', view: created.task };
  } catch (error) {
    const failed = queue.failure(error);
    try {
      const claimed = await tasks.store.claim(created.task.taskId, tasks.leaseMs);
      if (claimed.ok) await tasks.store.settle(claimed.lease, { status: 'failed', error: failed });
      const view = await tasks.store.get(queue.owner, created.task.taskId);
      return { kind: 'task', view: view ?? created.task };
    } catch (trouble) {
      queue.onTrouble?.(trouble);
      return { kind: 'task', view: created.task };
    }
  }
}

/**
 * The default run of a task whose lease is held already (a queue's consumer claimed it): the call started on
 * the run's signal, heartbeats, input rounds, and the settle. Resolves once the task is settled, or the run
 * stopped for a cancel or a lost lease; never rejects (the store's trouble goes to `onTrouble`).
 */
export function runLeased<T>(run: TaskRun<T>, lease: Lease): Promise<RunEnd> {
  const controller = new AbortController();
  const held: Held = { lease };
  let running: Promise<T>;
  try {
    running = run.start(controller.signal, statusOf(run, held));
  } catch (error) {
    running = Promise.reject(error);
  }
  return carryOn(run, running, held, controller);
}

/** The current lease (none until the task exists) and a status message set before it did. */
interface Held {
  lease?: Lease;
  message?: string;
}

/** The status message: kept while the task does not exist, written through the current lease once it does. */
function statusOf(run: TaskRun<unknown>, held: Held): (message: string) => Promise<void> {
  return async (message) => {
    if (typeof message !== 'string') return;
    if (held.lease === undefined) {
      held.message = message;
      return;
    }
    try {
      await run.tasks.store.update(held.lease, { statusMessage: message });
    } catch (error) {
      run.onTrouble?.({ step: 'update', error });
    }
  };
}

/** While the task waits for input, the heartbeat also polls for the answers this often at most. */
const INPUT_POLL_MS = 200;

/**
 * The task's run after its creation: heartbeats until the call ends (more often while it waits for input),
 * a round of input requests stored and the call resumed with their answers, then the settle.
 */
async function carryOn<T>(
  run: TaskRun<T>,
  running: Promise<T>,
  held: Held,
  controller: AbortController,
): Promise<RunEnd> {
  const heartbeat = new Heartbeat(run, held, controller);
  heartbeat.schedule();
  let outcome: TaskOutcome;
  try {
    outcome = run.outcome(await finalValue(run, running, heartbeat));
  } catch {
    outcome = { status: 'failed', error: { code: -32603, message: 'Task failed' } };
  }
  heartbeat.end();
  // Cancelled, or the lease lost: the store settled the task already, and would refuse this run's outcome.
  const reason = (controller.signal.reason as { message?: unknown } | undefined)?.message;
  const end =
    reason === CANCELLED ? 'cancelled' : reason === LOST ? 'lost' : await settle(run, heartbeat.lease, outcome);
  run.told?.({ kind: end });
  return end;
}

/**
 * What the call comes to once every round of input requests it makes is answered: each round stored as the
 * task's `inputRequests`, and the call resumed with the answers.
 */
async function finalValue<T>(run: TaskRun<T>, running: Promise<T>, heartbeat: Heartbeat<T>): Promise<T> {
  let value = await running;
  for (let asked = run.inputRequests?.(value); asked && run.resume; asked = run.inputRequests?.(value)) {
    const updated = await run.tasks.store.update(heartbeat.lease, { inputRequests: asked });
    if (!updated.ok) throw new Error(`input requests refused: ${updated.reason}`);
    run.told?.({ kind: 'input_required' });
    const answers = await heartbeat.answers();
    value = await run.resume(value, answers);
  }
  return value;
}

/**
 * Settles the task with `outcome`; a refusal (a settle after a cancel excepted) or a failure is trouble.
 * How the run ended: the outcome's status when this settle ended the task.
 */
async function settle<T>(run: TaskRun<T>, lease: Lease, outcome: TaskOutcome): Promise<RunEnd> {
  try {
    const settled = await run.tasks.store.settle(lease, outcome);
    if (settled.ok) return outcome.status;
    if (settled.reason === 'settled' && settled.status === 'cancelled') return 'cancelled';
    run.onTrouble?.({ step: 'settle', refused: settled });
  } catch (error) {
    run.onTrouble?.({ step: 'settle', error });
  }
  return 'lost';
}

/**
 * The heartbeat of a task's run: renews the lease every `heartbeatMs` (every `INPUT_POLL_MS` at most while
 * the run waits for input), hands the run the answers to its input requests, and stops the run on a cancel
 * or a lost lease.
 */
class Heartbeat<T> {
  /** The current lease, shared with the status messages the handler sets (through `held`). */
  lease: Lease;
  private waiting: ((answers: Readonly<Record<string, JsonObject>>) => void) | undefined;
  // Each stored round of input requests counts one up: a beat that began before the round was stored reads
  // the task as it was before, and must not be taken for the answers.
  private round = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly run: TaskRun<T>;
  private readonly held: Held;
  private readonly controller: AbortController;

  constructor(run: TaskRun<T>, held: Held, controller: AbortController) {
    this.run = run;
    this.held = held;
    this.controller = controller;
    this.lease = held.lease!;
  }

  /** The next beat, unless the run was stopped. */
  schedule(): void {
    if (this.controller.signal.aborted) return;
    const { heartbeatMs } = this.run.tasks;
    this.timer = setTimeout(() => void this.beat(), this.waiting ? Math.min(heartbeatMs, INPUT_POLL_MS) : heartbeatMs);
    (this.timer as { unref?: () => void }).unref?.();
  }

  /** No more beats: the call ended. */
  end(): void {
    clearTimeout(this.timer);
  }

  /**
   * The answers to the round of input requests just stored, from the first beat that began after it (the
   * beats now poll for them); rejects when the run is stopped first.
   */
  async answers(): Promise<Readonly<Record<string, JsonObject>>> {
    this.round += 1;
    const answered = new Promise<Readonly<Record<string, JsonObject>>>((resolve) => {
      this.waiting = resolve;
    });
    clearTimeout(this.timer);
    this.schedule();
    const { signal } = this.controller;
    const aborted = new Promise<never>((_, reject) => {
      if (signal.aborted) reject(signal.reason);
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
    const answers = await Promise.race([answered, aborted]);
    this.waiting = undefined;
    return answers;
  }

  private async beat(): Promise<void> {
    const began = this.round;
    try {
      const answer = await this.run.tasks.store.heartbeat(this.lease, this.run.tasks.leaseMs);
      if (answer.ok) {
        this.renew(answer.lease);
        if (this.waiting && began === this.round && answer.status === 'working') this.waiting(answer.inputResponses);
      } else {
        const cancelled = answer.reason === 'settled' && answer.status === 'cancelled';
        if (!cancelled) this.run.onTrouble?.({ step: 'heartbeat', refused: answer });
        this.stop(cancelled ? CANCELLED : LOST);
        return;
      }
    } catch (error) {
      // The store failed this time: the lease holds until it lapses, and the next beat tries again.
      this.run.onTrouble?.({ step: 'heartbeat', error });
    }
    this.schedule();
  }

  private renew(next: Lease): void {
    this.lease = next;
    this.held.lease = next;
  }

  private stop(reason: string): void {
    this.controller.abort(new DOMException(reason, 'AbortError'));
    this.waiting = undefined;
  }
}

/** Whether `running` settled within `ms`, and its value (a rejection within `ms` is thrown). */
async function finishedWithin<T>(running: Promise<T>, ms: number): Promise<{ done: true; value: T } | { done: false }> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<{ done: false }>((resolve) => {
    timer = setTimeout(() => resolve({ done: false }), ms);
  });
  try {
    return await Promise.race([running.then((value) => ({ done: true as const, value })), late]);
  } finally {
    clearTimeout(timer);
  }
}
