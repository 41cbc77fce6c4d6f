/**
 * The task store: the one truth about a task for every replica (docs/design/tasks.md, Store). Each method is
 * one atomic step on one task; a backend (in memory, Redis, a Durable Object) makes it so. Two sides use it:
 *
 * - the client's side, on behalf of a caller: `create` (before the CreateTaskResult is answered), `get`
 *   (`tasks/get`), `answer` (`tasks/update`), `requestCancel` (`tasks/cancel`), each bound to the caller's
 *   owner key, so that another caller's task reads exactly as an unknown one;
 * - the worker's side, which runs the handler: `claim` (take the lease), `heartbeat` (extend it, and learn of
 *   answers and cancellation), `update` (status message, input requests), `settle` (the outcome). Each step
 *   after `claim` is fenced by the lease: a step from a worker whose lease lapsed or was taken is refused, so a
 *   late settle from a dead worker never overwrites what the others saw.
 *
 * Nothing sweeps: a task that is not terminal and whose lease (or claim deadline) has lapsed is settled
 * `failed` by whichever step reads it next. A task past its `ttlMs` (counted from its creation) is gone: every
 * step reads it as unknown, and the backend removes what it stored.
 */
import type { JsonValue } from '../json-schema/types.js';

export type { JsonValue };

/** A JSON object: a tool result, an input request or response, an error's `data`. */
export type JsonObject = { [key: string]: JsonValue };

/** The five statuses of the tasks extension (2026-07-28). */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** The statuses a task never leaves. */
export type TerminalStatus = 'completed' | 'failed' | 'cancelled';

/** True for `completed`, `failed` and `cancelled`. */
export function isTerminal(status: TaskStatus): status is TerminalStatus {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

/** A JSON-RPC error, as a `failed` task carries it (`code`, `message`, optional `data`). */
export interface TaskError {
  readonly code: number;
  readonly message: string;
  readonly data?: JsonValue;
}

/**
 * The error a task is settled with when its lease (or its claim deadline) lapsed before it settled: its worker
 * died, hung or lost the store. `-32603` (Internal error); the text says nothing of the worker.
 */
export const LAPSED_ERROR: TaskError = Object.freeze({ code: -32603, message: 'Task failed: its worker stopped' });

/**
 * What a caller sees of a task (`tasks/get`): the DetailedTask's fields. Times are milliseconds since the
 * epoch by the store's clock (Redis's, the Durable Object's), so every replica reads the same.
 */
export interface TaskView {
  readonly taskId: string;
  /**
   * The tool the task runs, as `create` was given it, kept after the task ends: a caller's request on the task
   * is checked against the caller's access to this tool now, not only when the task was created. Never sent.
   */
  readonly tool?: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  readonly createdAt: number;
  readonly lastUpdatedAt: number;
  /** Retention from creation, in milliseconds; null: kept until removed by its backend's owner. */
  readonly ttlMs: number | null;
  readonly pollIntervalMs?: number;
  /** `input_required` only: the requests still unanswered, by the key the worker gave each. */
  readonly inputRequests?: Readonly<Record<string, JsonObject>>;
  /** `completed` only: the tool's result (an `isError` result is `completed` too). */
  readonly result?: JsonObject;
  /** `failed` only. */
  readonly error?: TaskError;
}

/** A worker's hold on a task: steps after `claim` present it, and are refused once it is not the current one. */
export interface Lease {
  readonly taskId: string;
  /** Unguessable, new at each claim. */
  readonly token: string;
  /** When the lease lapses unless extended, in milliseconds since the epoch (the store's clock). */
  readonly expiresAt: number;
}

/** What `create` takes. */
export interface CreateTask {
  /** The caller's owner key (`taskOwner`). Only this key reads, answers or cancels the task. */
  readonly owner: string;
  /**
   * The tool's name, kept for the task's whole life (unlike `call`, which goes when the task ends) and read
   * back in the owner's view (`TaskView.tool`).
   */
  readonly tool?: string;
  /** Retention from creation in milliseconds (a positive integer), or null for none. */
  readonly ttlMs: number | null;
  /** The interval the client is asked to poll at, in milliseconds (a positive integer). */
  readonly pollIntervalMs?: number;
  /**
   * What the worker needs to run the call (the tool's name, its arguments as sent, what it needs of the
   * caller), stored as given and handed to whoever claims it. Opaque to the store.
   */
  readonly call: JsonValue;
  /**
   * Claim the task in the same step for this long (milliseconds): the process that accepted the call runs it,
   * and there is no moment at which the task exists unclaimed. Left out: the task waits for a `claim` (a queue
   * consumer's) until `claimWithinMs` passes.
   */
  readonly leaseMs?: number;
  /**
   * For a task created without a lease: how long it may wait for its first claim, in milliseconds, before it
   * reads as `failed` (the queue lost it). Null or left out: it waits until its TTL.
   */
  readonly claimWithinMs?: number | null;
  /**
   * Most tasks this owner may have open (not terminal) at once, this one included; past it `create` refuses
   * with `full`. Left out: no cap.
   */
  readonly maxOpen?: number;
}

export type Created = { ok: true; task: TaskView; lease?: Lease } | { ok: false; reason: 'full' };

/** What `claim` hands the worker. */
export interface Claimed {
  readonly ok: true;
  readonly lease: Lease;
  readonly owner: string;
  readonly call: JsonValue;
}

/**
 * Why a worker's step was refused:
 * - `unknown`: no such task, or it expired;
 * - `settled`: the task is terminal already (`status` says how: `cancelled` when the caller cancelled it);
 * - `lost`: the lease is not the current one, or it lapsed (the task is then `failed`);
 * - `held` (`claim` only): another worker holds a live lease.
 */
export type Refused =
  | { ok: false; reason: 'unknown' | 'lost' | 'held' }
  | { ok: false; reason: 'settled'; status: TerminalStatus };

/** What a live worker learns at each heartbeat. */
export interface Beat {
  readonly ok: true;
  readonly lease: Lease;
  readonly status: 'working' | 'input_required';
  /** Answers received for the current input requests, by key. */
  readonly inputResponses: Readonly<Record<string, JsonObject>>;
}

/** A worker's change to a running task. */
export interface TaskUpdate {
  /** The new status message (task progress is told this way, not by progress notifications). */
  readonly statusMessage?: string;
  /**
   * A new round of input requests, by key (unique in the task; `elicitation/create`, `sampling/createMessage`,
   * `roots/list` requests): the task becomes `input_required` until every key is answered, and the previous
   * round's answers are dropped. An empty object is no change.
   */
  readonly inputRequests?: Readonly<Record<string, JsonObject>>;
}

/** How a task ends. A tool's `isError` result is `completed`; only a JSON-RPC error is `failed`. */
export type TaskOutcome =
  | { status: 'completed'; result: JsonObject }
  | { status: 'failed'; error: TaskError }
  | { status: 'cancelled' };

/**
 * A task store. Every method is one atomic step, durable when its promise resolves (a `create` that resolved
 * can be read by a `get` on any replica at once), and rejects only when the store itself failed (the
 * connection, the backend): a refusal is a value.
 *
 * Backends: `createMemoryTaskStore` (`src/core/tasks/memory.ts`, one process), `createRedisTaskStore`
 * (`src/core/tasks/redis.ts`, the user's own client), `createDurableObjectTaskStore` with `TaskStoreObject`
 * (`src/core/tasks/durable-object.ts`, Cloudflare Workers). `test/support/task-store-contract.ts` holds every
 * backend to the same behaviour. The design: docs/design/tasks.md; the decision: ADR 0031.
 */
export interface TaskStore {
  /**
   * Creates a `working` task with a new unguessable id (`newTaskId`), claimed at once when `leaseMs` is given;
   * `{ ok: false, reason: 'full' }` when the owner has `maxOpen` open tasks.
   * @throws TypeError (a rejection) for a value that means nothing (`checkCreate`), before anything is stored.
   */
  create(request: CreateTask): Promise<Created>;
  /** The task as its owner sees it; undefined when unknown, expired, or another owner's. */
  get(owner: string, taskId: string): Promise<TaskView | undefined>;
  /**
   * Records answers to pending input requests (`tasks/update`): each key still pending is answered and leaves
   * `inputRequests`; keys not pending (unknown, answered before) are ignored. When none is left pending the
   * task is `working` again. True when the owner's task exists (answered, or nothing to answer: the request is
   * acknowledged either way); false when unknown, expired, or another owner's.
   */
  answer(owner: string, taskId: string, inputResponses: Readonly<Record<string, JsonObject>>): Promise<boolean>;
  /**
   * Cancels the task (`tasks/cancel`): a task not yet terminal is settled `cancelled` in this step, and its
   * worker learns it at its next heartbeat (its later steps are refused). A terminal task is left as it is.
   * True when the owner's task exists; false when unknown, expired, or another owner's.
   */
  requestCancel(owner: string, taskId: string): Promise<boolean>;
  /**
   * Takes the lease of a task that was created without one, for `leaseMs` milliseconds: a task is claimed once.
   * A task whose lease lapsed is `failed` by then (refused as `settled`): a worker that died is not replaced,
   * since the handler may have done part of its work.
   * @throws TypeError (a rejection) when `leaseMs` is not a positive integer.
   */
  claim(taskId: string, leaseMs: number): Promise<Claimed | Refused>;
  /**
   * Extends the lease to `leaseMs` from now; tells the worker the answers received, and by refusing
   * (`settled`, `cancelled`) that the caller cancelled. Heartbeat well within the lease (a third of it).
   * @throws TypeError (a rejection) when `leaseMs` is not a positive integer.
   */
  heartbeat(lease: Lease, leaseMs: number): Promise<Beat | Refused>;
  /** Sets the status message and/or a new round of input requests. */
  update(lease: Lease, change: TaskUpdate): Promise<{ ok: true } | Refused>;
  /** Ends the task: `completed` with its result, `failed` with its error, or `cancelled`. */
  settle(lease: Lease, outcome: TaskOutcome): Promise<{ ok: true } | Refused>;
}

/**
 * Who a task belongs to. An authenticated caller is its token's issuer, client id and subject (any of them may
 * be missing, and the key tells a missing one from an empty one); an anonymous caller only by an explicit key
 * the mount chose to trust (an API key's hash, a session the platform vouches for): there is no shared
 * anonymous owner.
 */
export type TaskOwnerIdentity =
  | { readonly issuer?: string; readonly clientId?: string; readonly subject?: string }
  | { readonly anonymous: string };

/**
 * The owner key of an identity: a string no other identity maps to (JSON of the parts, tagged).
 * @throws TypeError for an anonymous key that is empty, or an identity with no part at all.
 * @example
 * ```ts
 * taskOwner({ issuer: 'https://auth.example.com', clientId: 'app', subject: 'ada' });
 * taskOwner({ anonymous: apiKeyHash });
 * ```
 */
export function taskOwner(identity: TaskOwnerIdentity): string {
  if ('anonymous' in identity) {
    if (typeof identity.anonymous !== 'string' || identity.anonymous === '') {
      throw new TypeError('taskOwner: an anonymous owner needs a non-empty key');
    }
    return JSON.stringify(['anonymous', identity.anonymous]);
  }
  const { issuer, clientId, subject } = identity;
  if (issuer === undefined && clientId === undefined && subject === undefined) {
    throw new TypeError('taskOwner: an identity needs an issuer, a client id or a subject');
  }
  return JSON.stringify(['caller', issuer ?? null, clientId ?? null, subject ?? null]);
}

/**
 * Bytes of randomness in a task id and a lease token: 128 bits.
 * @internal exported for its tests alone
 */
export const ID_BYTES = 16;

/**
 * A new unguessable id: `ID_BYTES` bytes from the platform's CSPRNG (`crypto.getRandomValues`, in Node.js and
 * Workers alike), in base64url without padding (22 characters).
 */
export function newTaskId(): string {
  const bytes = new Uint8Array(ID_BYTES);
  crypto.getRandomValues(bytes);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * Checks what `create` takes and throws a `TypeError` naming the field, so that every backend refuses the same
 * values before anything is stored.
 */
export function checkCreate(request: CreateTask): void {
  if (typeof request.owner !== 'string' || request.owner === '')
    throw new TypeError('create: owner must be a non-empty string');
  if (request.ttlMs !== null && !isPositiveInteger(request.ttlMs)) {
    throw new TypeError('create: ttlMs must be a positive integer (milliseconds) or null');
  }
  if (request.pollIntervalMs !== undefined && !isPositiveInteger(request.pollIntervalMs)) {
    throw new TypeError('create: pollIntervalMs must be a positive integer (milliseconds)');
  }
  if (request.leaseMs !== undefined) checkLeaseMs(request.leaseMs, 'create: leaseMs');
  if (
    request.claimWithinMs !== undefined &&
    request.claimWithinMs !== null &&
    !isPositiveInteger(request.claimWithinMs)
  ) {
    throw new TypeError('create: claimWithinMs must be a positive integer (milliseconds) or null');
  }
  if (request.maxOpen !== undefined && !isPositiveInteger(request.maxOpen)) {
    throw new TypeError('create: maxOpen must be a positive integer');
  }
}

/** @throws TypeError when `leaseMs` is not a positive integer. */
export function checkLeaseMs(leaseMs: number, what = 'leaseMs'): void {
  if (!isPositiveInteger(leaseMs)) throw new TypeError(`${what} must be a positive integer (milliseconds)`);
}

function isPositiveInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}
