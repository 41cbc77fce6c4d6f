/**
 * The in-memory task store: one process's `Map`, for a single instance and for tests. Every step runs to its
 * end without yielding, so each is atomic. Tasks are not shared with other processes or replicas: a poll that
 * lands elsewhere does not find them (use the Redis or Durable Object store there).
 */
import {
  answerRecord,
  beatRecord,
  cancelRecord,
  claimRecord,
  fence,
  isExpired,
  isOpen,
  lapse,
  leaseOf,
  newRecord,
  settleRecord,
  type TaskRecord,
  updateRecord,
  viewOf,
} from './record.js';
import {
  type Beat,
  type Claimed,
  type Created,
  type CreateTask,
  checkCreate,
  checkLeaseMs,
  type JsonObject,
  type Lease,
  newTaskId,
  type Refused,
  type TaskOutcome,
  type TaskStore,
  type TaskUpdate,
  type TaskView,
} from './store.js';

/** The longest delay `setTimeout` takes (about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Options of `createMemoryTaskStore`. */
export interface MemoryTaskStoreOptions {
  /** The clock, in milliseconds since the epoch. Default `Date.now`; tests pass their own. */
  now?: () => number;
}

/** The in-memory store, with what an operator (or a test) may ask of it beside the `TaskStore` steps. */
export interface MemoryTaskStore extends TaskStore {
  /** Records held now, expired ones not yet removed included (each is removed at its expiry, or when read). */
  size(): number;
  /** Whether a record of `taskId` is held now (an expired one not yet removed included). */
  holds(taskId: string): boolean;
}

/**
 * A task store in this process's memory. Expired tasks are removed at their expiry by a timer that does not
 * keep the process alive (and when read after it), so memory follows the live tasks.
 * @example
 * ```ts
 * import { createMemoryTaskStore } from './memory.js';
 * const store = createMemoryTaskStore();
 * const created = await store.create({ owner, ttlMs: 3_600_000, call: { tool: 'report', arguments }, leaseMs: 30_000 });
 * ```
 */
export function createMemoryTaskStore(options: MemoryTaskStoreOptions = {}): MemoryTaskStore {
  const now = options.now ?? Date.now;
  const records = new Map<string, TaskRecord>();
  /** Each owner's open tasks, for the cap: a task leaves it when read terminal or expired. */
  const open = new Map<string, Set<string>>();
  const timers = new Map<string, ReturnType<typeof setTimeout>>();

  const remove = (record: TaskRecord) => {
    records.delete(record.taskId);
    leaveOpen(record);
    const timer = timers.get(record.taskId);
    if (timer !== undefined) clearTimeout(timer);
    timers.delete(record.taskId);
  };
  const leaveOpen = (record: TaskRecord) => {
    const set = open.get(record.owner);
    if (!set) return;
    set.delete(record.taskId);
    if (set.size === 0) open.delete(record.owner);
  };
  /**
   * Removes the record once the clock says it expired. A timer waits at most `MAX_TIMER_MS` (longer delays
   * overflow and fire at once) and looks again; it does not keep the process alive.
   */
  const removeAtExpiry = (record: TaskRecord) => {
    const delay = Math.min(Math.max(record.expiresAt! - now(), 0), MAX_TIMER_MS);
    const timer = setTimeout(() => {
      if (records.get(record.taskId) !== record) return;
      if (isExpired(record, now())) remove(record);
      else removeAtExpiry(record);
    }, delay);
    (timer as { unref?: () => void }).unref?.();
    timers.set(record.taskId, timer);
  };
  /** The live record of `taskId`: undefined when unknown or expired (then removed); lapsed ones settled. */
  const live = (taskId: string, at: number): { record: TaskRecord; lapsed: boolean } | undefined => {
    const record = typeof taskId === 'string' ? records.get(taskId) : undefined;
    if (!record) return undefined;
    if (isExpired(record, at)) {
      remove(record);
      return undefined;
    }
    const lapsed = lapse(record, at);
    if (!isOpen(record)) leaveOpen(record);
    return { record, lapsed };
  };
  const owned = (owner: string, taskId: string, at: number) => {
    const found = live(taskId, at);
    return found && found.record.owner === owner ? found.record : undefined;
  };
  /** The record `lease` may act on, or why not. */
  const fenced = (lease: Lease, at: number): TaskRecord | Refused => {
    const found = live(lease.taskId, at);
    if (!found) return { ok: false, reason: 'unknown' };
    if (found.lapsed) return { ok: false, reason: 'lost' };
    return fence(found.record, lease) ?? found.record;
  };

  const store: MemoryTaskStore = {
    async create(request: CreateTask): Promise<Created> {
      checkCreate(request);
      const at = now();
      if (request.maxOpen !== undefined) {
        const ids = [...(open.get(request.owner) ?? [])];
        for (const id of ids) live(id, at);
        if ((open.get(request.owner)?.size ?? 0) >= request.maxOpen) return { ok: false, reason: 'full' };
      }
      const record = newRecord(structuredClone(request), newTaskId(), at, newTaskId());
      records.set(record.taskId, record);
      const set = open.get(record.owner) ?? new Set<string>();
      open.set(record.owner, set.add(record.taskId));
      if (record.expiresAt !== null) removeAtExpiry(record);
      const lease = leaseOf(record);
      return { ok: true, task: structuredClone(viewOf(record)), ...(lease && { lease }) };
    },

    async get(owner: string, taskId: string): Promise<TaskView | undefined> {
      const record = owned(owner, taskId, now());
      return record && structuredClone(viewOf(record));
    },

    async answer(owner: string, taskId: string, inputResponses: Readonly<Record<string, JsonObject>>) {
      const at = now();
      const record = owned(owner, taskId, at);
      if (!record) return false;
      answerRecord(record, structuredClone(inputResponses), at);
      return true;
    },

    async requestCancel(owner: string, taskId: string) {
      const at = now();
      const record = owned(owner, taskId, at);
      if (!record) return false;
      if (cancelRecord(record, at)) leaveOpen(record);
      return true;
    },

    async claim(taskId: string, leaseMs: number): Promise<Claimed | Refused> {
      checkLeaseMs(leaseMs);
      const at = now();
      const found = live(taskId, at);
      if (!found) return { ok: false, reason: 'unknown' };
      return structuredClone(claimRecord(found.record, newTaskId(), leaseMs, at));
    },

    async heartbeat(lease: Lease, leaseMs: number): Promise<Beat | Refused> {
      checkLeaseMs(leaseMs);
      const at = now();
      const record = fenced(lease, at);
      if ('ok' in record) return record;
      return structuredClone(beatRecord(record, leaseMs, at));
    },

    async update(lease: Lease, change: TaskUpdate): Promise<{ ok: true } | Refused> {
      const at = now();
      const record = fenced(lease, at);
      if ('ok' in record) return record;
      updateRecord(record, structuredClone(change), at);
      return { ok: true };
    },

    async settle(lease: Lease, outcome: TaskOutcome): Promise<{ ok: true } | Refused> {
      const at = now();
      const record = fenced(lease, at);
      if ('ok' in record) return record;
      settleRecord(record, structuredClone(outcome), at);
      leaveOpen(record);
      return { ok: true };
    },

    size: () => records.size,
    holds: (taskId) => records.has(taskId),
  };
  return store;
}
