/**
 * The in-memory task store: one process's `Map`, for a single instance and for tests. Every step runs to its
 * end without yielding, so each is atomic. Tasks are not shared with other processes or replicas: a poll that
 * lands elsewhere does not find them (use the Redis or Durable Object store there).
 */
import { applyStep, createdOf, type Found, isExpired, isOpen, lapse, newRecord, type TaskRecord } from './record.js';
import { type Step, type StepAnswer, storeOfSteps, taskIdOf } from './steps.js';
import { type Created, type CreateTask, newTaskId, type TaskStore } from './store.js';

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
  const held = new MemoryRecords(now);
  return {
    ...storeOfSteps({
      create: async (request) => held.create(request, now()),
      run: async (step) => held.run(step, now()),
    }),
    size: () => held.size(),
    holds: (taskId) => held.holds(taskId),
  };
}

/**
 * One process's records, each owner's open tasks (for the cap) and the timers that remove records at their
 * expiry. Every method runs to its end without yielding, which is what makes each step atomic. What a step
 * brings is stored as a copy and what it answers is one, so no caller's object is ever what the store holds.
 */
class MemoryRecords {
  private readonly records = new Map<string, TaskRecord>();
  /** Each owner's open tasks, for the cap: a task leaves it when read terminal or expired. */
  private readonly open = new Map<string, Set<string>>();
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly now: () => number;

  constructor(now: () => number) {
    this.now = now;
  }

  size(): number {
    return this.records.size;
  }

  holds(taskId: string): boolean {
    return this.records.has(taskId);
  }

  create(request: CreateTask, at: number): Created {
    if (request.maxOpen !== undefined) {
      const ids = [...(this.open.get(request.owner) ?? [])];
      for (const id of ids) this.live(id, at);
      if ((this.open.get(request.owner)?.size ?? 0) >= request.maxOpen) return { ok: false, reason: 'full' };
    }
    const record = newRecord(structuredClone(request), newTaskId(), at, newTaskId());
    this.records.set(record.taskId, record);
    const set = this.open.get(record.owner) ?? new Set<string>();
    this.open.set(record.owner, set.add(record.taskId));
    if (record.expiresAt !== null) this.removeAtExpiry(record);
    return structuredClone(createdOf(record));
  }

  run(step: Step, at: number): StepAnswer {
    const { value, changed } = applyStep(step, this.live(taskIdOf(step), at), at, structuredClone);
    if (changed && !isOpen(changed)) this.leaveOpen(changed);
    return structuredClone(value);
  }

  /** The live record of `taskId`: undefined when unknown or expired (then removed); lapsed ones settled. */
  private live(taskId: string, at: number): Found {
    const record = typeof taskId === 'string' ? this.records.get(taskId) : undefined;
    if (!record) return undefined;
    if (isExpired(record, at)) {
      this.remove(record);
      return undefined;
    }
    const lapsed = lapse(record, at);
    if (!isOpen(record)) this.leaveOpen(record);
    return { record, lapsed };
  }

  private remove(record: TaskRecord): void {
    this.records.delete(record.taskId);
    this.leaveOpen(record);
    const timer = this.timers.get(record.taskId);
    if (timer !== undefined) clearTimeout(timer);
    this.timers.delete(record.taskId);
  }

  private leaveOpen(record: TaskRecord): void {
    const set = this.open.get(record.owner);
    if (!set) return;
    set.delete(record.taskId);
    if (set.size === 0) this.open.delete(record.owner);
  }

  /**
   * Removes the record once the clock says it expired. A timer waits at most `MAX_TIMER_MS` (longer delays
   * overflow and fire at once) and looks again; it does not keep the process alive.
   */
  private removeAtExpiry(record: TaskRecord): void {
    const delay = Math.min(Math.max(record.expiresAt! - this.now(), 0), MAX_TIMER_MS);
    const timer = setTimeout(() => {
      if (this.records.get(record.taskId) !== record) return;
      if (isExpired(record, this.now())) this.remove(record);
      else this.removeAtExpiry(record);
    }, delay);
    (timer as { unref?: () => void }).unref?.();
    this.timers.set(record.taskId, timer);
  }
}
