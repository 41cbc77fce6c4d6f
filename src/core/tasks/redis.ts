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
import {
  type Beat,
  type Claimed,
  type Created,
  type CreateTask,
  checkCreate,
  checkLeaseMs,
  type JsonObject,
  LAPSED_ERROR,
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

/** Lua helpers every script starts with. `LAPSED` is the error a lapsed task is settled with. */
const PRELUDE = `
local LAPSED = ${luaString(JSON.stringify(LAPSED_ERROR))}
local TERMINAL = { completed = true, failed = true, cancelled = true }
local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local function fmt(n) return string.format('%.0f', n) end
-- The owner index expires with the latest of its tasks (never while one of them has no TTL).
local function index_expiry(idx)
  local top = redis.call('ZRANGE', idx, -1, -1, 'WITHSCORES')
  if #top == 0 then return end
  if top[2] == 'inf' then redis.call('PERSIST', idx) else redis.call('PEXPIREAT', idx, top[2]) end
end
-- A key created after its task (the input hashes) expires with it.
local function expire_like(key, t)
  local exp = redis.call('HGET', t, 'exp')
  if exp then redis.call('PEXPIREAT', key, exp) end
end
local function settle(t, tin, tout, id, status, field, value, now)
  redis.call('HSET', t, 'status', status, 'updated', fmt(now))
  if field then redis.call('HSET', t, field, value) end
  redis.call('HDEL', t, 'token', 'deadline', 'call')
  redis.call('DEL', tin, tout)
  local idx = redis.call('HGET', t, 'idx')
  if idx then
    redis.call('ZREM', idx, id)
    index_expiry(idx)
  end
end
-- The task's status after settling it failed when its deadline passed; nil when there is no such task.
-- The second value is true when this read settled it.
local function lapse(t, tin, tout, id, now)
  local fields = redis.call('HMGET', t, 'status', 'deadline', 'exp')
  local status, deadline, exp = fields[1], fields[2], fields[3]
  if not status then return nil, false end
  -- Redis drops a key only once its time is strictly past; the task is gone at its expiry, as elsewhere.
  if exp and now >= tonumber(exp) then return nil, false end
  if not TERMINAL[status] and deadline and now > tonumber(deadline) then
    settle(t, tin, tout, id, 'failed', 'error', LAPSED, now)
    return 'failed', true
  end
  return status, false
end
-- For worker steps: nil when the lease may act, else the refusal.
local function fence(t, tin, tout, id, token, now)
  local status, lapsed = lapse(t, tin, tout, id, now)
  if not status then return {'unknown'} end
  if lapsed then return {'lost'} end
  if TERMINAL[status] then return {'settled', status} end
  if redis.call('HGET', t, 'token') ~= token then return {'lost'} end
  return nil
end
local T, TIN, TOUT = KEYS[1], KEYS[1] .. ':in', KEYS[1] .. ':out'
`;

/** KEYS[1] task hash, KEYS[2] owner index; ARGV id, owner, ttl, poll, call, leaseMs, claimWithin, maxOpen, token, prefix. */
const CREATE = `${PRELUDE}
local id, owner, ttl, poll, call, lease, within, max, token, prefix = unpack(ARGV)
local now = now_ms()
local idx = KEYS[2]
if redis.call('EXISTS', T) == 1 then return {'collision'} end
if max ~= '' then
  redis.call('ZREMRANGEBYSCORE', idx, '-inf', fmt(now))
  for _, other in ipairs(redis.call('ZRANGE', idx, 0, -1)) do
    local ot = prefix .. '{' .. other .. '}'
    local status = lapse(ot, ot .. ':in', ot .. ':out', other, now)
    if not status or TERMINAL[status] then redis.call('ZREM', idx, other) end
  end
  if redis.call('ZCARD', idx) >= tonumber(max) then return {'full'} end
end
redis.call('HSET', T, 'owner', owner, 'status', 'working', 'created', fmt(now), 'updated', fmt(now), 'call', call, 'idx', idx)
if poll ~= '' then redis.call('HSET', T, 'poll', poll) end
local deadline = nil
if lease ~= '' then
  deadline = now + tonumber(lease)
  redis.call('HSET', T, 'token', token)
elseif within ~= '' then
  deadline = now + tonumber(within)
end
if deadline then redis.call('HSET', T, 'deadline', fmt(deadline)) end
if ttl ~= '' then
  local exp = now + tonumber(ttl)
  redis.call('HSET', T, 'ttl', ttl, 'exp', fmt(exp))
  redis.call('PEXPIREAT', T, fmt(exp))
  redis.call('ZADD', idx, fmt(exp), id)
else
  redis.call('ZADD', idx, '+inf', id)
end
index_expiry(idx)
return {'ok', fmt(now)}
`;

/** The fields `get` answers with, in this order, then the pending requests (key, JSON, …). */
const VIEW_FIELDS = ['status', 'msg', 'created', 'updated', 'ttl', 'poll', 'result', 'error'] as const;

/** KEYS[1] task hash; ARGV owner, id. */
const GET = `${PRELUDE}
local now = now_ms()
local status = lapse(T, TIN, TOUT, ARGV[2], now)
if not status or redis.call('HGET', T, 'owner') ~= ARGV[1] then return {} end
local fields = redis.call('HMGET', T, ${VIEW_FIELDS.map((f) => `'${f}'`).join(', ')})
local pending = {}
if status == 'input_required' then pending = redis.call('HGETALL', TIN) end
return {fields, pending}
`;

/** KEYS[1] task hash; ARGV owner, id, then key, JSON pairs. */
const ANSWER = `${PRELUDE}
local now = now_ms()
local status = lapse(T, TIN, TOUT, ARGV[2], now)
if not status or redis.call('HGET', T, 'owner') ~= ARGV[1] then return 0 end
if TERMINAL[status] then return 1 end
local changed = false
for i = 3, #ARGV, 2 do
  if redis.call('HDEL', TIN, ARGV[i]) == 1 then
    redis.call('HSET', TOUT, ARGV[i], ARGV[i + 1])
    changed = true
  end
end
if changed then
  expire_like(TOUT, T)
  if status == 'input_required' and redis.call('HLEN', TIN) == 0 then redis.call('HSET', T, 'status', 'working') end
  redis.call('HSET', T, 'updated', fmt(now))
end
return 1
`;

/** KEYS[1] task hash; ARGV owner, id. */
const CANCEL = `${PRELUDE}
local now = now_ms()
local status = lapse(T, TIN, TOUT, ARGV[2], now)
if not status or redis.call('HGET', T, 'owner') ~= ARGV[1] then return 0 end
if not TERMINAL[status] then settle(T, TIN, TOUT, ARGV[2], 'cancelled', nil, nil, now) end
return 1
`;

/** KEYS[1] task hash; ARGV id, token, leaseMs. */
const CLAIM = `${PRELUDE}
local id, token, lease = ARGV[1], ARGV[2], tonumber(ARGV[3])
local now = now_ms()
local status = lapse(T, TIN, TOUT, id, now)
if not status then return {'unknown'} end
if TERMINAL[status] then return {'settled', status} end
if redis.call('HEXISTS', T, 'token') == 1 then return {'held'} end
local deadline = fmt(now + lease)
redis.call('HSET', T, 'token', token, 'deadline', deadline)
local fields = redis.call('HMGET', T, 'owner', 'call')
return {'ok', deadline, fields[1], fields[2]}
`;

/** KEYS[1] task hash; ARGV id, token, leaseMs. */
const HEARTBEAT = `${PRELUDE}
local id, token, lease = ARGV[1], ARGV[2], tonumber(ARGV[3])
local now = now_ms()
local refused = fence(T, TIN, TOUT, id, token, now)
if refused then return refused end
local deadline = fmt(now + lease)
redis.call('HSET', T, 'deadline', deadline)
return {'ok', deadline, redis.call('HGET', T, 'status'), redis.call('HGETALL', TOUT)}
`;

/** KEYS[1] task hash; ARGV id, token, has message ('1' or ''), message, then request key, JSON pairs. */
const UPDATE = `${PRELUDE}
local id, token = ARGV[1], ARGV[2]
local now = now_ms()
local refused = fence(T, TIN, TOUT, id, token, now)
if refused then return refused end
if ARGV[3] == '1' then redis.call('HSET', T, 'msg', ARGV[4]) end
if #ARGV > 4 then
  redis.call('DEL', TIN, TOUT)
  for i = 5, #ARGV, 2 do redis.call('HSET', TIN, ARGV[i], ARGV[i + 1]) end
  expire_like(TIN, T)
  redis.call('HSET', T, 'status', 'input_required')
end
redis.call('HSET', T, 'updated', fmt(now))
return {'ok'}
`;

/** KEYS[1] task hash; ARGV id, token, status, field ('result', 'error' or ''), JSON. */
const SETTLE = `${PRELUDE}
local id, token, status, field, value = unpack(ARGV)
local now = now_ms()
local refused = fence(T, TIN, TOUT, id, token, now)
if refused then return refused end
if field == '' then field = nil end
settle(T, TIN, TOUT, id, status, field, value, now)
return {'ok'}
`;

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
  const taskKey = (id: string) => `${prefix}{${id}}`;
  const run = scriptRunner(client);

  return {
    async create(request: CreateTask): Promise<Created> {
      checkCreate(request);
      const id = newTaskId();
      const token = newTaskId();
      const index = `${prefix}owner:${await sha256(request.owner)}`;
      const reply = (await run(
        CREATE,
        [taskKey(id), index],
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
        ],
      )) as string[];
      if (reply[0] === 'full') return { ok: false, reason: 'full' };
      if (reply[0] !== 'ok') throw new Error(`Redis task store: create answered ${String(reply[0])}`);
      const now = Number(reply[1]);
      const task: TaskView = {
        taskId: id,
        status: 'working',
        createdAt: now,
        lastUpdatedAt: now,
        ttlMs: request.ttlMs,
        ...(request.pollIntervalMs !== undefined && { pollIntervalMs: request.pollIntervalMs }),
      };
      if (request.leaseMs === undefined) return { ok: true, task };
      return { ok: true, task, lease: { taskId: id, token, expiresAt: now + request.leaseMs } };
    },

    async get(owner: string, taskId: string): Promise<TaskView | undefined> {
      if (!isId(taskId)) return undefined;
      const reply = (await run(GET, [taskKey(taskId)], [owner, taskId])) as [(string | null)[], string[]] | [];
      if (reply.length === 0) return undefined;
      const [fields, pending] = reply;
      const [status, msg, created, updated, ttl, poll, result, error] = fields;
      return {
        taskId,
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
    },

    async answer(owner: string, taskId: string, inputResponses: Readonly<Record<string, JsonObject>>) {
      if (!isId(taskId)) return false;
      const args = [owner, taskId];
      for (const [key, value] of Object.entries(inputResponses)) args.push(key, JSON.stringify(value));
      return (await run(ANSWER, [taskKey(taskId)], args)) === 1;
    },

    async requestCancel(owner: string, taskId: string) {
      if (!isId(taskId)) return false;
      return (await run(CANCEL, [taskKey(taskId)], [owner, taskId])) === 1;
    },

    async claim(taskId: string, leaseMs: number): Promise<Claimed | Refused> {
      checkLeaseMs(leaseMs);
      if (!isId(taskId)) return { ok: false, reason: 'unknown' };
      const token = newTaskId();
      const reply = (await run(CLAIM, [taskKey(taskId)], [taskId, token, String(leaseMs)])) as string[];
      if (reply[0] !== 'ok') return refusal(reply);
      return {
        ok: true,
        lease: { taskId, token, expiresAt: Number(reply[1]) },
        owner: reply[2]!,
        call: JSON.parse(reply[3]!),
      };
    },

    async heartbeat(lease: Lease, leaseMs: number): Promise<Beat | Refused> {
      checkLeaseMs(leaseMs);
      if (!isId(lease.taskId)) return { ok: false, reason: 'unknown' };
      const reply = (await run(HEARTBEAT, [taskKey(lease.taskId)], [lease.taskId, lease.token, String(leaseMs)])) as [
        string,
        string,
        'working' | 'input_required',
        string[],
      ];
      if (reply[0] !== 'ok') return refusal(reply as unknown as string[]);
      return {
        ok: true,
        lease: { taskId: lease.taskId, token: lease.token, expiresAt: Number(reply[1]) },
        status: reply[2],
        inputResponses: pairs(reply[3]),
      };
    },

    async update(lease: Lease, change: TaskUpdate): Promise<{ ok: true } | Refused> {
      if (!isId(lease.taskId)) return { ok: false, reason: 'unknown' };
      const message = change.statusMessage;
      const args = [lease.taskId, lease.token, message === undefined ? '' : '1', message ?? ''];
      for (const [key, value] of Object.entries(change.inputRequests ?? {})) args.push(key, JSON.stringify(value));
      const reply = (await run(UPDATE, [taskKey(lease.taskId)], args)) as string[];
      return reply[0] === 'ok' ? { ok: true } : refusal(reply);
    },

    async settle(lease: Lease, outcome: TaskOutcome): Promise<{ ok: true } | Refused> {
      if (!isId(lease.taskId)) return { ok: false, reason: 'unknown' };
      const [field, value] =
        outcome.status === 'completed'
          ? ['result', JSON.stringify(outcome.result)]
          : outcome.status === 'failed'
            ? ['error', JSON.stringify(outcome.error)]
            : ['', ''];
      const reply = (await run(
        SETTLE,
        [taskKey(lease.taskId)],
        [lease.taskId, lease.token, outcome.status, field, value],
      )) as string[];
      return reply[0] === 'ok' ? { ok: true } : refusal(reply);
    },
  };
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

/** A Lua long string holding `text` (no `]]` can end it early: the level grows until none appears). */
function luaString(text: string): string {
  let level = '';
  while (text.includes(`]${level}]`)) level += '=';
  return `[${level}[${text}]${level}]`;
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
