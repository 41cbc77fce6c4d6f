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
import { applyStep, createdOf, type Found, isExpired, isOpen, lapse, newRecord, type TaskRecord } from './record.js';
import { absent, checkStep, isCallerStep, isStep, type Step, storeOfSteps, taskIdOf } from './steps.js';
import { type Created, type CreateTask, checkCreate, newTaskId, type TaskStore } from './store.js';

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

/** What the client sends the object: `create` with the id the client chose, or any other step. */
type ObjectStep = { op: 'create'; args: [request: CreateTask, taskId: string] } | Step;

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
    let step: ObjectStep;
    try {
      step = (await request.json()) as ObjectStep;
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

  private async run(step: ObjectStep): Promise<unknown> {
    const now = Date.now();
    if (step.op === 'create') return this.create(step.args[0], step.args[1], now);
    if (!isStep(step)) throw new TypeError(`unknown step ${String((step as { op?: unknown }).op)}`);
    checkStep(step);
    const { value, changed } = applyStep(step, await this.live(taskIdOf(step), now), now);
    if (changed) await this.save(changed);
    return value;
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
    return createdOf(record);
  }

  /** The live record: undefined when unknown or expired (then removed); a lapsed one settled and stored. */
  private async live(taskId: string, now: number): Promise<Found> {
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
  return storeOfSteps({
    async create(request) {
      const id = ownerObjectId(namespace, request.owner);
      const taskId = `${shardOf(id)}.${newTaskId()}`;
      return send(namespace.get(id), { op: 'create', args: [request, taskId] });
    },
    async run(step) {
      const object = objectOfStep(namespace, step);
      return object ? ((await send(object, step)) ?? undefined) : absent(step);
    },
  });
}

type ObjectStub = ReturnType<DurableObjectNamespaceLike['get']>;

/** Sends one step to an object and answers its value; rejects as the object's step did. */
async function send(object: ObjectStub, step: ObjectStep): Promise<any> {
  const response = await object.fetch('https://task-store/', { method: 'POST', body: JSON.stringify(step) });
  const body = (await response.json()) as { value?: unknown; error?: string; type?: string };
  if (response.ok) return body.value;
  if (body.type === 'TypeError') throw new TypeError(body.error);
  throw new Error(`Durable Object task store: ${body.error ?? `HTTP ${response.status}`}`);
}

function ownerObjectId(namespace: DurableObjectNamespaceLike, owner: string) {
  return namespace.idFromName(`owner:${owner}`);
}

/** The first part of the ids of the tasks an object holds: its id, base64url. */
function shardOf(objectId: { toString(): string }): string {
  return base64url(hexBytes(objectId.toString()));
}

/**
 * The object a step goes to: for a caller's step, the object of the caller's own task (undefined when the id
 * is not one, or is another owner's); for a worker's, the object that holds the task.
 */
function objectOfStep(namespace: DurableObjectNamespaceLike, step: Step): ObjectStub | undefined {
  const taskId = taskIdOf(step);
  if (!isCallerStep(step)) return objectOf(namespace, taskId);
  const owned = typeof taskId === 'string' && taskId.startsWith(`${shardOf(ownerObjectId(namespace, step.args[0]))}.`);
  return owned ? objectOf(namespace, taskId) : undefined;
}

/** The object that holds `taskId`, or undefined for an id no object of this namespace made. */
function objectOf(namespace: DurableObjectNamespaceLike, taskId: unknown): ObjectStub | undefined {
  if (typeof taskId !== 'string') return undefined;
  const match = /^([A-Za-z0-9_-]{43})\.[A-Za-z0-9_-]{22}$/.exec(taskId);
  if (!match) return undefined;
  try {
    return namespace.get(namespace.idFromString(hex(fromBase64url(match[1]!))));
  } catch {
    return undefined;
  }
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
