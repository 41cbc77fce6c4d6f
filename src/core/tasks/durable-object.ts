/**
 * The Durable Object task store, for Cloudflare Workers: every isolate of a Worker reaches one object per task
 * owner, whose storage is strongly consistent (KV is not: its writes take up to 60 s to be seen elsewhere).
 *
 * Two halves: `TaskStoreObject`, the Durable Object class the Worker exports and binds (its steps are the ones
 * the in-memory store runs, in `record.ts`), and `createDurableObjectTaskStore`, the `TaskStore` a Worker uses,
 * which sends each step to the owner's object through its stub. A task id carries its object's id
 * (`<object id, base64url>.<128 random bits, base64url>`), so worker steps, which name only the task, reach it
 * too; a step on an id whose object is not the caller's is answered unknown without a request.
 *
 * Atomicity: an object runs one step at a time (its steps are queued in the object), and a step's writes are
 * confirmed before its answer leaves the object (the runtime's output gate), so a `create` that resolved is
 * read by a `get` from any isolate. An alarm removes each task at its TTL.
 *
 * Only types are taken from the runtime (structurally), so this module imports nothing of Cloudflare's and the
 * Worker entry without tasks does not change.
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

/** The part of a Durable Object's storage the store uses (the key-value API; SQLite-backed objects have it). */
export interface DurableObjectStorageLike {
  get(key: string): Promise<unknown>;
  put(entries: Record<string, unknown>): Promise<void>;
  delete(keys: string[]): Promise<number>;
  list(options: { prefix?: string; start?: string; end?: string; limit?: number }): Promise<Map<string, unknown>>;
  getAlarm(): Promise<number | null>;
  setAlarm(scheduledTime: number): Promise<void>;
}

/** The part of a Durable Object's state the store uses (`ctx` of the object's constructor). */
export interface DurableObjectStateLike {
  readonly storage: DurableObjectStorageLike;
}

/** The part of a Durable Object namespace binding the store uses (`env.TASKS`). */
export interface DurableObjectNamespaceLike {
  idFromName(name: string): { toString(): string };
  idFromString(id: string): { toString(): string };
  get(id: { toString(): string }): { fetch(input: string, init?: RequestInit): Promise<Response> };
}

/** Options of `createDurableObjectTaskStore`. */
export interface DurableObjectTaskStoreOptions {
  /** The binding of the `TaskStoreObject` class (`env.TASKS` for a binding named `TASKS`). */
  namespace: DurableObjectNamespaceLike;
}

/** A step as the client sends it to the object. */
type Step =
  | { op: 'create'; args: [request: CreateTask, taskId: string] }
  | { op: 'get' | 'requestCancel'; args: [owner: string, taskId: string] }
  | { op: 'answer'; args: [owner: string, taskId: string, responses: Record<string, JsonObject>] }
  | { op: 'claim'; args: [taskId: string, leaseMs: number] }
  | { op: 'heartbeat'; args: [lease: Lease, leaseMs: number] }
  | { op: 'update'; args: [lease: Lease, change: TaskUpdate] }
  | { op: 'settle'; args: [lease: Lease, outcome: TaskOutcome] };

const TASK = 'task:';
const OPEN = 'open:';
const EXPIRY = 'exp:';

/**
 * The Durable Object that holds one owner's tasks. Export it from the Worker and bind it (a SQLite-backed
 * class: `migrations: [{ tag: 'v1', new_sqlite_classes: ['TaskStoreObject'] }]` and
 * `durable_objects.bindings: [{ name: 'TASKS', class_name: 'TaskStoreObject' }]` in wrangler.jsonc).
 * @example
 * ```ts
 * export { TaskStoreObject } from './tasks/durable-object.js';
 * // in the fetch handler:
 * const store = createDurableObjectTaskStore({ namespace: env.TASKS });
 * ```
 */
export class TaskStoreObject {
  protected readonly storage: DurableObjectStorageLike;
  /** The steps run one after another: each is atomic within the object. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(state: DurableObjectStateLike, _env?: unknown) {
    this.storage = state.storage;
  }

  /** Runs one step sent by `createDurableObjectTaskStore`: `POST` with `{ op, args }`, answered `{ value }`. */
  async fetch(request: Request): Promise<Response> {
    let step: Step;
    try {
      step = (await request.json()) as Step;
    } catch {
      return Response.json({ error: 'bad step' }, { status: 400 });
    }
    const run = this.queue.then(() => this.run(step));
    this.queue = run.catch(() => {});
    try {
      return Response.json({ value: (await run) ?? null });
    } catch (error) {
      // A TypeError is a value that means nothing (checked again here); anything else is the store failing.
      if (error instanceof TypeError)
        return Response.json({ error: error.message, type: 'TypeError' }, { status: 400 });
      return Response.json({ error: 'task store failed' }, { status: 500 });
    }
  }

  /** Removes the tasks whose TTL has passed, and sets the alarm for the next one. */
  async alarm(): Promise<void> {
    const run = this.queue.then(async () => {
      const now = Date.now();
      const due = await this.storage.list({ prefix: EXPIRY, end: `${EXPIRY}${pad(now + 1)}` });
      for (const taskId of due.values()) await this.remove(taskId as string);
      await this.storage.delete([...due.keys()]);
      await this.scheduleNext();
    });
    this.queue = run.catch(() => {});
    await run;
  }

  private async run(step: Step): Promise<unknown> {
    const now = Date.now();
    switch (step.op) {
      case 'create':
        return this.create(step.args[0], step.args[1], now);
      case 'get': {
        const record = await this.owned(step.args[0], step.args[1], now);
        return record && viewOf(record);
      }
      case 'answer': {
        const record = await this.owned(step.args[0], step.args[1], now);
        if (!record) return false;
        if (answerRecord(record, step.args[2], now)) await this.save(record);
        return true;
      }
      case 'requestCancel': {
        const record = await this.owned(step.args[0], step.args[1], now);
        if (!record) return false;
        if (cancelRecord(record, now)) await this.save(record);
        return true;
      }
      case 'claim': {
        checkLeaseMs(step.args[1]);
        const found = await this.live(step.args[0], now);
        if (!found) return { ok: false, reason: 'unknown' };
        const claimed = claimRecord(found.record, newTaskId(), step.args[1], now);
        if (claimed.ok) await this.save(found.record);
        return claimed;
      }
      case 'heartbeat': {
        checkLeaseMs(step.args[1]);
        const record = await this.fenced(step.args[0], now);
        if ('ok' in record) return record;
        const beat = beatRecord(record, step.args[1], now);
        await this.save(record);
        return beat;
      }
      case 'update': {
        const record = await this.fenced(step.args[0], now);
        if ('ok' in record) return record;
        updateRecord(record, step.args[1], now);
        await this.save(record);
        return { ok: true };
      }
      case 'settle': {
        const record = await this.fenced(step.args[0], now);
        if ('ok' in record) return record;
        settleRecord(record, step.args[1], now);
        await this.save(record);
        return { ok: true };
      }
      default:
        throw new TypeError(`unknown step ${String((step as { op?: unknown }).op)}`);
    }
  }

  private async create(request: CreateTask, taskId: string, now: number): Promise<Created> {
    checkCreate(request);
    if (request.maxOpen !== undefined) {
      const open = await this.storage.list({ prefix: OPEN });
      let count = 0;
      for (const key of open.keys()) {
        const found = await this.live(key.slice(OPEN.length), now);
        if (found && isOpen(found.record)) count++;
      }
      if (count >= request.maxOpen) return { ok: false, reason: 'full' };
    }
    if ((await this.storage.get(TASK + taskId)) !== undefined) throw new Error('task id collision');
    const record = newRecord(request, taskId, now, newTaskId());
    const entries: Record<string, unknown> = { [TASK + taskId]: record, [OPEN + taskId]: true };
    if (record.expiresAt !== null) entries[expiryKey(record)] = taskId;
    await this.storage.put(entries);
    if (record.expiresAt !== null) {
      const alarm = await this.storage.getAlarm();
      if (alarm === null || alarm > record.expiresAt) await this.storage.setAlarm(record.expiresAt);
    }
    const lease = leaseOf(record);
    return { ok: true, task: viewOf(record), ...(lease && { lease }) };
  }

  /** The live record: undefined when unknown or expired (then removed); a lapsed one settled and stored. */
  private async live(taskId: string, now: number): Promise<{ record: TaskRecord; lapsed: boolean } | undefined> {
    const record = (await this.storage.get(TASK + taskId)) as TaskRecord | undefined;
    if (!record) return undefined;
    if (isExpired(record, now)) {
      await this.remove(taskId);
      return undefined;
    }
    const lapsed = lapse(record, now);
    if (lapsed) await this.save(record);
    return { record, lapsed };
  }

  private async owned(owner: string, taskId: string, now: number): Promise<TaskRecord | undefined> {
    const found = await this.live(taskId, now);
    return found && found.record.owner === owner ? found.record : undefined;
  }

  private async fenced(lease: Lease, now: number): Promise<TaskRecord | Refused> {
    const found = await this.live(lease.taskId, now);
    if (!found) return { ok: false, reason: 'unknown' };
    if (found.lapsed) return { ok: false, reason: 'lost' };
    return fence(found.record, lease) ?? found.record;
  }

  private async save(record: TaskRecord): Promise<void> {
    await this.storage.put({ [TASK + record.taskId]: record });
    if (!isOpen(record)) await this.storage.delete([OPEN + record.taskId]);
  }

  private async remove(taskId: string): Promise<void> {
    const record = (await this.storage.get(TASK + taskId)) as TaskRecord | undefined;
    const keys = [TASK + taskId, OPEN + taskId];
    if (record && record.expiresAt !== null) keys.push(expiryKey(record));
    await this.storage.delete(keys);
  }

  private async scheduleNext(): Promise<void> {
    const [next] = (await this.storage.list({ prefix: EXPIRY, limit: 1 })).keys();
    if (next !== undefined) await this.storage.setAlarm(Number(next.slice(EXPIRY.length, EXPIRY.length + 15)));
  }
}

/**
 * A task store on `TaskStoreObject`s: one object per owner, reached through `namespace`.
 * @throws TypeError at construction when `namespace` is not a Durable Object namespace binding.
 * @example
 * ```ts
 * export default {
 *   async fetch(request: Request, env: { TASKS: DurableObjectNamespace }) {
 *     const store = createDurableObjectTaskStore({ namespace: env.TASKS });
 *     // …
 *   },
 * };
 * ```
 */
export function createDurableObjectTaskStore(options: DurableObjectTaskStoreOptions): TaskStore {
  const { namespace } = options;
  if (typeof namespace?.idFromName !== 'function' || typeof namespace.get !== 'function') {
    throw new TypeError('createDurableObjectTaskStore: namespace must be a Durable Object namespace binding');
  }
  const ownerObjectId = (owner: string) => namespace.idFromName(`owner:${owner}`);
  const shardOf = (owner: string) => base64url(hexBytes(ownerObjectId(owner).toString()));

  /** The object that holds `taskId`, or undefined for an id no object of this namespace made. */
  const objectOf = (taskId: unknown) => {
    if (typeof taskId !== 'string') return undefined;
    const match = /^([A-Za-z0-9_-]{43})\.[A-Za-z0-9_-]{22}$/.exec(taskId);
    if (!match) return undefined;
    try {
      return namespace.get(namespace.idFromString(hex(fromBase64url(match[1]!))));
    } catch {
      return undefined;
    }
  };
  const send = async (object: ReturnType<DurableObjectNamespaceLike['get']>, step: Step): Promise<any> => {
    const response = await object.fetch('https://task-store/', { method: 'POST', body: JSON.stringify(step) });
    const body = (await response.json()) as { value?: unknown; error?: string; type?: string };
    if (response.ok) return body.value;
    if (body.type === 'TypeError') throw new TypeError(body.error);
    throw new Error(`Durable Object task store: ${body.error ?? `HTTP ${response.status}`}`);
  };
  /** The object of an owner's own task: undefined when the id is not one, or is another owner's. */
  const ownedObject = (owner: string, taskId: string) =>
    typeof taskId === 'string' && taskId.startsWith(`${shardOf(owner)}.`) ? objectOf(taskId) : undefined;

  return {
    async create(request: CreateTask): Promise<Created> {
      checkCreate(request);
      const id = ownerObjectId(request.owner);
      const taskId = `${base64url(hexBytes(id.toString()))}.${newTaskId()}`;
      return send(namespace.get(id), { op: 'create', args: [request, taskId] });
    },
    async get(owner: string, taskId: string): Promise<TaskView | undefined> {
      const object = ownedObject(owner, taskId);
      return object ? ((await send(object, { op: 'get', args: [owner, taskId] })) ?? undefined) : undefined;
    },
    async answer(owner: string, taskId: string, inputResponses: Readonly<Record<string, JsonObject>>) {
      const object = ownedObject(owner, taskId);
      return object ? send(object, { op: 'answer', args: [owner, taskId, { ...inputResponses }] }) : false;
    },
    async requestCancel(owner: string, taskId: string) {
      const object = ownedObject(owner, taskId);
      return object ? send(object, { op: 'requestCancel', args: [owner, taskId] }) : false;
    },
    async claim(taskId: string, leaseMs: number): Promise<Claimed | Refused> {
      checkLeaseMs(leaseMs);
      const object = objectOf(taskId);
      return object ? send(object, { op: 'claim', args: [taskId, leaseMs] }) : { ok: false, reason: 'unknown' };
    },
    async heartbeat(lease: Lease, leaseMs: number): Promise<Beat | Refused> {
      checkLeaseMs(leaseMs);
      const object = objectOf(lease.taskId);
      return object ? send(object, { op: 'heartbeat', args: [lease, leaseMs] }) : { ok: false, reason: 'unknown' };
    },
    async update(lease: Lease, change: TaskUpdate): Promise<{ ok: true } | Refused> {
      const object = objectOf(lease.taskId);
      return object ? send(object, { op: 'update', args: [lease, change] }) : { ok: false, reason: 'unknown' };
    },
    async settle(lease: Lease, outcome: TaskOutcome): Promise<{ ok: true } | Refused> {
      const object = objectOf(lease.taskId);
      return object ? send(object, { op: 'settle', args: [lease, outcome] }) : { ok: false, reason: 'unknown' };
    },
  };
}

/** Milliseconds as 15 digits, so that expiry keys sort by time. */
function pad(ms: number): string {
  return String(ms).padStart(15, '0');
}

function expiryKey(record: TaskRecord): string {
  return `${EXPIRY}${pad(record.expiresAt!)}:${record.taskId}`;
}

function hexBytes(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(text.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

function hex(bytes: Uint8Array): string {
  return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
}

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64url(text: string): Uint8Array {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}
