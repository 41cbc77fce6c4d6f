/**
 * The steps of a task as changes to one plain record: the state machine the in-memory store and the Durable
 * Object run in JavaScript (the Redis store runs the same steps as Lua scripts, and the shared contract tests
 * hold the two to one behaviour). Each function takes the store's clock reading; none does I/O: `applyStep`
 * runs a step on what a backend's read found, and the backend stores what it changed.
 */
import { absent, type CallerStep, isCallerStep, type LeaseStep, type Step, type StepAnswer } from './steps.js';
import {
  type Claimed,
  type Created,
  type CreateTask,
  isTerminal,
  type JsonObject,
  type JsonValue,
  LAPSED_ERROR,
  type Lease,
  newTaskId,
  type Refused,
  type TaskError,
  type TaskOutcome,
  type TaskStatus,
  type TaskUpdate,
  type TaskView,
} from './store.js';

/** One task as a backend keeps it (JSON-serialisable: the Durable Object stores it as it is). */
export interface TaskRecord {
  taskId: string;
  owner: string;
  /** The tool's name (`CreateTask.tool`); unlike `call`, kept once the task ends. */
  tool?: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: number;
  lastUpdatedAt: number;
  ttlMs: number | null;
  /** `createdAt + ttlMs`; null: never. */
  expiresAt: number | null;
  pollIntervalMs?: number;
  call: JsonValue;
  /** Pending input requests by key. */
  inputRequests: Record<string, JsonObject>;
  /** Answers to the current round, by key. */
  inputResponses: Record<string, JsonObject>;
  result?: JsonObject;
  error?: TaskError;
  /** The current lease's token; null when unclaimed or terminal. */
  leaseToken: string | null;
  /** When a task that is not terminal lapses (its lease's end, or its claim deadline); null: never. */
  deadline: number | null;
}

/** A new `working` record, claimed with `token` when `request.leaseMs` is given. */
export function newRecord(request: CreateTask, taskId: string, now: number, token: string): TaskRecord {
  const claimed = request.leaseMs !== undefined;
  const claimWithin = request.claimWithinMs ?? null;
  return {
    taskId,
    owner: request.owner,
    ...(request.tool !== undefined && { tool: request.tool }),
    status: 'working',
    createdAt: now,
    lastUpdatedAt: now,
    ttlMs: request.ttlMs,
    expiresAt: request.ttlMs === null ? null : now + request.ttlMs,
    ...(request.pollIntervalMs !== undefined && { pollIntervalMs: request.pollIntervalMs }),
    call: request.call,
    inputRequests: {},
    inputResponses: {},
    leaseToken: claimed ? token : null,
    deadline: claimed ? now + request.leaseMs! : claimWithin === null ? null : now + claimWithin,
  };
}

/** The lease a record's holder has, when claimed. */
function leaseOf(record: TaskRecord): Lease | undefined {
  if (record.leaseToken === null || record.deadline === null) return undefined;
  return { taskId: record.taskId, token: record.leaseToken, expiresAt: record.deadline };
}

/** True once the task's TTL has passed: it is gone. */
export function isExpired(record: TaskRecord, now: number): boolean {
  return record.expiresAt !== null && now >= record.expiresAt;
}

/**
 * Settles `failed` a task that is not terminal and whose deadline has passed (its worker stopped, or no worker
 * claimed it in time). True when it did: the caller must store the record.
 */
export function lapse(record: TaskRecord, now: number): boolean {
  if (isTerminal(record.status) || record.deadline === null || now <= record.deadline) return false;
  settleRecord(record, { status: 'failed', error: LAPSED_ERROR }, now);
  return true;
}

/** True when the task counts against its owner's cap: not terminal (after `lapse`). */
export function isOpen(record: TaskRecord): boolean {
  return !isTerminal(record.status);
}

/** What the owner sees. */
function viewOf(record: TaskRecord): TaskView {
  return {
    taskId: record.taskId,
    ...(record.tool !== undefined && { tool: record.tool }),
    status: record.status,
    ...(record.statusMessage !== undefined && { statusMessage: record.statusMessage }),
    createdAt: record.createdAt,
    lastUpdatedAt: record.lastUpdatedAt,
    ttlMs: record.ttlMs,
    ...(record.pollIntervalMs !== undefined && { pollIntervalMs: record.pollIntervalMs }),
    ...(record.status === 'input_required' && { inputRequests: { ...record.inputRequests } }),
    ...(record.status === 'completed' && record.result !== undefined && { result: record.result }),
    ...(record.status === 'failed' && record.error !== undefined && { error: record.error }),
  };
}

/** `answer`: true when the record changed. */
function answerRecord(record: TaskRecord, responses: Readonly<Record<string, JsonObject>>, now: number): boolean {
  if (isTerminal(record.status)) return false;
  let changed = false;
  for (const key of Object.keys(responses)) {
    if (!Object.hasOwn(record.inputRequests, key)) continue;
    delete record.inputRequests[key];
    record.inputResponses[key] = responses[key]!;
    changed = true;
  }
  if (!changed) return false;
  if (record.status === 'input_required' && Object.keys(record.inputRequests).length === 0) record.status = 'working';
  record.lastUpdatedAt = now;
  return true;
}

/** `requestCancel`: true when the record changed (it was not terminal). */
function cancelRecord(record: TaskRecord, now: number): boolean {
  if (isTerminal(record.status)) return false;
  settleRecord(record, { status: 'cancelled' }, now);
  return true;
}

/** `claim` on a record that is not expired and was passed through `lapse`. */
function claimRecord(record: TaskRecord, token: string, leaseMs: number, now: number): Claimed | Refused {
  if (isTerminal(record.status)) return { ok: false, reason: 'settled', status: record.status };
  if (record.leaseToken !== null) return { ok: false, reason: 'held' };
  record.leaseToken = token;
  record.deadline = now + leaseMs;
  return {
    ok: true,
    lease: leaseOf(record)!,
    owner: record.owner,
    call: record.call,
  };
}

/**
 * Whether `lease` may act on the record (not expired; passed through `lapse` by the caller, which reports
 * `lost` when that settled it): undefined when it may, else the refusal.
 */
function fence(record: TaskRecord, lease: Lease): Refused | undefined {
  if (isTerminal(record.status)) return { ok: false, reason: 'settled', status: record.status };
  if (record.leaseToken !== lease.token) return { ok: false, reason: 'lost' };
  return undefined;
}

/** `heartbeat` on a fenced record. */
function beatRecord(record: TaskRecord, leaseMs: number, now: number) {
  record.deadline = now + leaseMs;
  return {
    ok: true as const,
    lease: leaseOf(record)!,
    status: record.status as 'working' | 'input_required',
    inputResponses: { ...record.inputResponses },
  };
}

/** `update` on a fenced record. */
function updateRecord(record: TaskRecord, change: TaskUpdate, now: number): void {
  if (change.statusMessage !== undefined) record.statusMessage = change.statusMessage;
  if (change.inputRequests !== undefined && Object.keys(change.inputRequests).length > 0) {
    record.inputRequests = { ...change.inputRequests };
    record.inputResponses = {};
    record.status = 'input_required';
  }
  record.lastUpdatedAt = now;
}

/** `settle` on a fenced record, and the terminal steps (`lapse`, `requestCancel`). */
function settleRecord(record: TaskRecord, outcome: TaskOutcome, now: number): void {
  record.status = outcome.status;
  if (outcome.status === 'completed') record.result = outcome.result;
  if (outcome.status === 'failed') record.error = outcome.error;
  // A terminal task is only read: what the worker needed to run it goes.
  record.call = null;
  record.inputRequests = {};
  record.inputResponses = {};
  record.leaseToken = null;
  record.deadline = null;
  record.lastUpdatedAt = now;
}

/**
 * What a backend's read of a task found: its live record, passed through `lapse` (`lapsed`: that read settled
 * it, and the backend stored it); undefined when the task is unknown or expired (the backend removed it).
 */
export type Found = { record: TaskRecord; lapsed: boolean } | undefined;

/** A step's answer, and its record when the step changed it: the backend stores that record. */
export interface Applied {
  readonly value: StepAnswer;
  readonly changed?: TaskRecord;
}

/** What `create` answers for a record it stored: the owner's view, and the lease when it was created claimed. */
export function createdOf(record: TaskRecord): Created {
  const lease = leaseOf(record);
  return { ok: true, task: viewOf(record), ...(lease && { lease }) };
}

/**
 * Runs a step (any but `create`) on what the backend's read of its task (`taskIdOf(step)`, at `now`) found:
 * the steps the in-memory store and the Durable Object share. A caller's step reaches its own task only (another
 * owner's reads as unknown); a worker's step under a lease is fenced by it. `keep` is what the record takes of
 * a value the step brings (answers, a change, an outcome): the in-memory store keeps a copy, so that no caller's
 * object is ever what it holds. Default: the value itself.
 */
export function applyStep(step: Step, found: Found, now: number, keep: Keep = (value) => value): Applied {
  if (isCallerStep(step)) {
    const owned = found && found.record.owner === step.args[0] ? found.record : undefined;
    return owned ? callerStep(step, owned, now, keep) : { value: absent(step) };
  }
  if (step.op === 'claim') {
    if (!found) return { value: absent(step) };
    const claimed = claimRecord(found.record, newTaskId(), step.args[1], now);
    return claimed.ok ? { value: claimed, changed: found.record } : { value: claimed };
  }
  const fenced = fencedRecord(step.args[0], found);
  return 'ok' in fenced ? { value: fenced } : leaseStep(step, fenced, now, keep);
}

/** What a record takes of a value a step brings. */
type Keep = <T>(value: T) => T;

/** `get`, `answer` and `requestCancel` on the caller's own record. */
function callerStep(step: CallerStep, record: TaskRecord, now: number, keep: Keep): Applied {
  if (step.op === 'get') return { value: viewOf(record) };
  const changed = step.op === 'answer' ? answerRecord(record, keep(step.args[2]), now) : cancelRecord(record, now);
  return changed ? { value: true, changed: record } : { value: true };
}

/** The record `lease` may act on, or why not: `lost` when the read that found it settled it (it lapsed). */
function fencedRecord(lease: Lease, found: Found): TaskRecord | Refused {
  if (!found) return { ok: false, reason: 'unknown' };
  if (found.lapsed) return { ok: false, reason: 'lost' };
  return fence(found.record, lease) ?? found.record;
}

/** `heartbeat`, `update` and `settle` on a fenced record. */
function leaseStep(step: LeaseStep, record: TaskRecord, now: number, keep: Keep): Applied {
  if (step.op === 'heartbeat') return { value: beatRecord(record, step.args[1], now), changed: record };
  if (step.op === 'update') updateRecord(record, keep(step.args[1]), now);
  else settleRecord(record, keep(step.args[1]), now);
  return { value: { ok: true }, changed: record };
}
