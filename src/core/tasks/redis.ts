/**
 * The Redis task store: every replica reads and writes the same tasks in the user's own Redis, through the
 * client they already run (ioredis, or any client with ioredis's `eval` and `evalsha`), taken structurally:
 * mcp-mount imports no Redis client, as `limits.rate.store` imports none.
 *
 * Each step is one Lua script (EVALSHA, and EVAL when the server does not have it yet), so it is atomic on the
 * server and reads the server's clock (`TIME`): replicas with skewed clocks agree on leases and TTLs. A step
 * resolves once the primary has run the script, so a `create` that resolved is read by a `get` from any
 * replica of the mount at once. Results, calls and input payloads are stored as the JSON text the mount
 * wrote, never decoded by a script (Lua's JSON codec would turn `[]` into `{}` and round numbers).
 *
 * Keys, under `prefix` (default `mcp-mount:tasks:`): a hash per task (`<prefix>{<id>}`), its pending input
 * requests and its answers (`<prefix>{<id>}:in`, `…:out`), and an index of each owner's open tasks for the cap
 * (`<prefix>owner:<SHA-256 of the owner key>`). Every key of a task expires with its TTL, and the owner index
 * at the latest expiry among its tasks, so nothing is left once the tasks are gone. Scripts touch the owner
 * index and other tasks of the same owner by name: one Redis primary (standalone or under Sentinel), not a
 * Cluster.
 */
import { ANSWER, CANCEL, CLAIM, CREATE, GET, HEARTBEAT, SETTLE, UPDATE } from './redis-scripts.js';
import { absent, type Step, type StepAnswer, type StepAnswers, storeOfSteps, taskIdOf } from './steps.js';
import {
  type Beat,
  type Claimed,
  type Created,
  type CreateTask,
  type JsonObject,
  type Lease,
  newTaskId,
  type Refused,
  type TaskOutcome,
  type TaskStatus,
  type TaskStore,
  type TaskUpdate,
  type TaskView,
  type TerminalStatus,
} from './store.js';

/**
 * What the store needs of a Redis client: ioredis's `evalsha` and `eval` (`Redis` and `Cluster` of ioredis
 * 5 have them). Replies are ioredis's: bulk strings as strings, arrays as arrays, nil as null.
 */
export interface RedisScriptClient {
  evalsha(sha1: string, numKeys: number, ...args: string[]): Promise<unknown>;
  eval(script: string, numKeys: number, ...args: string[]): Promise<unknown>;
}

/** Options of `createRedisTaskStore`. */
export interface RedisTaskStoreOptions {
  /**
   * The client every step runs through (`new Redis(url)` of ioredis). Its `keyPrefix` option must be unset:
   * scripts name some keys themselves, which ioredis would not prefix. Use `prefix` here instead.
   */
  client: RedisScriptClient;
  /** Prepended to every key. Default `mcp-mount:tasks:`. Mounts that share a Redis but not tasks use two. */
  prefix?: string;
}

/**
 * A task store in the user's Redis.
 * @throws TypeError at construction when `client` has no `eval`/`evalsha`, or has ioredis's `keyPrefix` set.
 * @example
 * ```ts
 * import { Redis } from 'ioredis';
 * import { createRedisTaskStore } from './redis.js';
 * const store = createRedisTaskStore({ client: new Redis(process.env.REDIS_URL!) });
 * ```
 */
export function createRedisTaskStore(options: RedisTaskStoreOptions): TaskStore {
  const redis = redisOf(options);
  return storeOfSteps({
    create: (request) => create(redis, request),
    // An id not of `newTaskId`'s form is no task of this store: answered without a round trip, never a key.
    run: async (step) => (isId(taskIdOf(step)) ? runStep(redis, step) : absent(step)),
  });
}

/** What every step needs: the script runner on the user's client, and the key prefix. */
interface RedisTasks {
  readonly run: ReturnType<typeof scriptRunner>;
  readonly prefix: string;
}

/** The store's options, checked. @throws TypeError as `createRedisTaskStore` says. */
function redisOf(options: RedisTaskStoreOptions): RedisTasks {
  const { client } = options;
  if (typeof client?.eval !== 'function' || typeof client.evalsha !== 'function') {
    throw new TypeError('createRedisTaskStore: client must be an ioredis client (it needs eval and evalsha)');
  }
  const keyPrefix = (client as { options?: { keyPrefix?: unknown } }).options?.keyPrefix;
  if (typeof keyPrefix === 'string' && keyPrefix !== '') {
    throw new TypeError("createRedisTaskStore: the client's keyPrefix must be unset; pass prefix to the store instead");
  }
  const prefix = options.prefix ?? 'mcp-mount:tasks:';
  if (typeof prefix !== 'string') throw new TypeError('createRedisTaskStore: prefix must be a string');
  return { run: scriptRunner(client), prefix };
}

/** The key of a task's hash. */
function taskKey(redis: RedisTasks, id: string): string {
  return `${redis.prefix}{${id}}`;
}

async function create(redis: RedisTasks, request: CreateTask): Promise<Created> {
  const { run, prefix } = redis;
  const id = newTaskId();
  const token = newTaskId();
  const index = `${prefix}owner:${await sha256(request.owner)}`;
  const reply = (await run(
    CREATE,
    [taskKey(redis, id), index],
    [
      id,
      request.owner,
      optional(request.ttlMs ?? undefined),
      optional(request.pollIntervalMs),
      JSON.stringify(request.call ?? null),
      optional(request.leaseMs),
      optional(request.claimWithinMs ?? undefined),
      optional(request.maxOpen),
      token,
      prefix,
      request.tool ?? '',
    ],
  )) as string[];
  if (reply[0] === 'full') return { ok: false, reason: 'full' };
  if (reply[0] !== 'ok') throw new Error(`Redis task store: create answered ${String(reply[0])}`);
  const now = Number(reply[1]);
  const task: TaskView = {
    taskId: id,
    ...(request.tool !== undefined && { tool: request.tool }),
    status: 'working',
    createdAt: now,
    lastUpdatedAt: now,
    ttlMs: request.ttlMs,
    ...(request.pollIntervalMs !== undefined && { pollIntervalMs: request.pollIntervalMs }),
  };
  if (request.leaseMs === undefined) return { ok: true, task };
  return { ok: true, task, lease: { taskId: id, token, expiresAt: now + request.leaseMs } };
}

async function get(redis: RedisTasks, owner: string, taskId: string): Promise<TaskView | undefined> {
  const reply = (await redis.run(GET, [taskKey(redis, taskId)], [owner, taskId])) as [(string | null)[], string[]] | [];
  if (reply.length === 0) return undefined;
  const [fields, pending] = reply;
  const [status, msg, created, updated, ttl, poll, result, error, tool] = fields;
  return {
    taskId,
    ...(tool != null && { tool }),
    status: status as TaskStatus,
    ...(msg != null && { statusMessage: msg }),
    createdAt: Number(created),
    lastUpdatedAt: Number(updated),
    ttlMs: ttl == null ? null : Number(ttl),
    ...(poll != null && { pollIntervalMs: Number(poll) }),
    ...(status === 'input_required' && { inputRequests: pairs(pending) }),
    ...(status === 'completed' && result != null && { result: JSON.parse(result) }),
    ...(status === 'failed' && error != null && { error: JSON.parse(error) }),
  };
}

async function answer(
  redis: RedisTasks,
  owner: string,
  taskId: string,
  inputResponses: Readonly<Record<string, JsonObject>>,
): Promise<boolean> {
  const args = [owner, taskId];
  for (const [key, value] of Object.entries(inputResponses)) args.push(key, JSON.stringify(value));
  return (await redis.run(ANSWER, [taskKey(redis, taskId)], args)) === 1;
}

async function requestCancel(redis: RedisTasks, owner: string, taskId: string): Promise<boolean> {
  return (await redis.run(CANCEL, [taskKey(redis, taskId)], [owner, taskId])) === 1;
}

async function claim(redis: RedisTasks, taskId: string, leaseMs: number): Promise<Claimed | Refused> {
  const token = newTaskId();
  const reply = (await redis.run(CLAIM, [taskKey(redis, taskId)], [taskId, token, String(leaseMs)])) as string[];
  if (reply[0] !== 'ok') return refusal(reply);
  return {
    ok: true,
    lease: { taskId, token, expiresAt: Number(reply[1]) },
    owner: reply[2]!,
    call: JSON.parse(reply[3]!),
  };
}

async function heartbeat(redis: RedisTasks, lease: Lease, leaseMs: number): Promise<Beat | Refused> {
  const reply = (await redis.run(
    HEARTBEAT,
    [taskKey(redis, lease.taskId)],
    [lease.taskId, lease.token, String(leaseMs)],
  )) as [string, string, 'working' | 'input_required', string[]];
  if (reply[0] !== 'ok') return refusal(reply as unknown as string[]);
  return {
    ok: true,
    lease: { taskId: lease.taskId, token: lease.token, expiresAt: Number(reply[1]) },
    status: reply[2],
    inputResponses: pairs(reply[3]),
  };
}

async function update(redis: RedisTasks, lease: Lease, change: TaskUpdate): Promise<{ ok: true } | Refused> {
  const message = change.statusMessage;
  const args = [lease.taskId, lease.token, message === undefined ? '' : '1', message ?? ''];
  for (const [key, value] of Object.entries(change.inputRequests ?? {})) args.push(key, JSON.stringify(value));
  const reply = (await redis.run(UPDATE, [taskKey(redis, lease.taskId)], args)) as string[];
  return reply[0] === 'ok' ? { ok: true } : refusal(reply);
}

async function settle(redis: RedisTasks, lease: Lease, outcome: TaskOutcome): Promise<{ ok: true } | Refused> {
  const [field, value] =
    outcome.status === 'completed'
      ? ['result', JSON.stringify(outcome.result)]
      : outcome.status === 'failed'
        ? ['error', JSON.stringify(outcome.error)]
        : ['', ''];
  const reply = (await redis.run(
    SETTLE,
    [taskKey(redis, lease.taskId)],
    [lease.taskId, lease.token, outcome.status, field, value],
  )) as string[];
  return reply[0] === 'ok' ? { ok: true } : refusal(reply);
}

/** Each step (but `create`) by its script, on a task id of the store's form. */
const STEPS: {
  [K in Step['op']]: (redis: RedisTasks, ...args: Extract<Step, { op: K }>['args']) => Promise<StepAnswers[K]>;
} = { get, answer, requestCancel, claim, heartbeat, update, settle };

function runStep(redis: RedisTasks, step: Step): Promise<StepAnswer> {
  // The table pairs each op with its arguments; TypeScript cannot follow the pair through `step.op`.
  const run = STEPS[step.op] as (redis: RedisTasks, ...args: Step['args']) => Promise<StepAnswer>;
  return run(redis, ...step.args);
}

/**
 * Runs a script by its SHA-1 (EVALSHA), loading it with EVAL when the server answers NOSCRIPT (first use, or
 * after a restart or SCRIPT FLUSH).
 */
function scriptRunner(client: RedisScriptClient) {
  const digests = new Map<string, Promise<string>>();
  return async (script: string, keys: string[], args: string[]): Promise<unknown> => {
    const digest = digests.get(script) ?? sha1(script);
    digests.set(script, digest);
    try {
      return await client.evalsha(await digest, keys.length, ...keys, ...args);
    } catch (error) {
      if (!/NOSCRIPT/.test(String((error as Error)?.message ?? error))) throw error;
      return await client.eval(script, keys.length, ...keys, ...args);
    }
  };
}

function refusal(reply: string[]): Refused {
  if (reply[0] === 'settled') return { ok: false, reason: 'settled', status: reply[1] as TerminalStatus };
  if (reply[0] === 'unknown' || reply[0] === 'lost' || reply[0] === 'held') return { ok: false, reason: reply[0] };
  throw new Error(`Redis task store: unexpected reply ${String(reply[0])}`);
}

/** `[key, json, key, json, …]` as an object of parsed values. */
function pairs(flat: readonly string[]): Record<string, JsonObject> {
  const out: Record<string, JsonObject> = {};
  for (let i = 0; i + 1 < flat.length; i += 2) out[flat[i]!] = JSON.parse(flat[i + 1]!);
  return out;
}

function optional(value: number | undefined): string {
  return value === undefined ? '' : String(value);
}

/** A task id as `newTaskId` makes them: anything else is unknown without a round trip, and never a key. */
function isId(taskId: unknown): taskId is string {
  return typeof taskId === 'string' && /^[A-Za-z0-9_-]{22}$/.test(taskId);
}

async function sha1(text: string): Promise<string> {
  return hex(await crypto.subtle.digest('SHA-1', new TextEncoder().encode(text)));
}

async function sha256(text: string): Promise<string> {
  return hex(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
}

function hex(buffer: ArrayBuffer): string {
  return [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, '0')).join('');
}
