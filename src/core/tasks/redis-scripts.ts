/**
 * The Lua scripts of the Redis task store (redis.ts), one per step: each runs atomically on the server and
 * reads the server's clock. Keys and arguments are named above each script.
 */
import { LAPSED_ERROR } from './store.js';

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

/** KEYS[1] task hash, KEYS[2] owner index; ARGV id, owner, ttl, poll, call, leaseMs, claimWithin, maxOpen, token, prefix, tool. */
export const CREATE = `${PRELUDE}
local id, owner, ttl, poll, call, lease, within, max, token, prefix, tool = unpack(ARGV)
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
if tool ~= '' then redis.call('HSET', T, 'tool', tool) end
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
const VIEW_FIELDS = ['status', 'msg', 'created', 'updated', 'ttl', 'poll', 'result', 'error', 'tool'] as const;

/** KEYS[1] task hash; ARGV owner, id. */
export const GET = `${PRELUDE}
local now = now_ms()
local status = lapse(T, TIN, TOUT, ARGV[2], now)
if not status or redis.call('HGET', T, 'owner') ~= ARGV[1] then return {} end
local fields = redis.call('HMGET', T, ${VIEW_FIELDS.map((f) => `'${f}'`).join(', ')})
local pending = {}
if status == 'input_required' then pending = redis.call('HGETALL', TIN) end
return {fields, pending}
`;

/** KEYS[1] task hash; ARGV owner, id, then key, JSON pairs. */
export const ANSWER = `${PRELUDE}
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
export const CANCEL = `${PRELUDE}
local now = now_ms()
local status = lapse(T, TIN, TOUT, ARGV[2], now)
if not status or redis.call('HGET', T, 'owner') ~= ARGV[1] then return 0 end
if not TERMINAL[status] then settle(T, TIN, TOUT, ARGV[2], 'cancelled', nil, nil, now) end
return 1
`;

/** KEYS[1] task hash; ARGV id, token, leaseMs. */
export const CLAIM = `${PRELUDE}
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
export const HEARTBEAT = `${PRELUDE}
local id, token, lease = ARGV[1], ARGV[2], tonumber(ARGV[3])
local now = now_ms()
local refused = fence(T, TIN, TOUT, id, token, now)
if refused then return refused end
local deadline = fmt(now + lease)
redis.call('HSET', T, 'deadline', deadline)
return {'ok', deadline, redis.call('HGET', T, 'status'), redis.call('HGETALL', TOUT)}
`;

/** KEYS[1] task hash; ARGV id, token, has message ('1' or ''), message, then request key, JSON pairs. */
export const UPDATE = `${PRELUDE}
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
export const SETTLE = `${PRELUDE}
local id, token, status, field, value = unpack(ARGV)
local now = now_ms()
local refused = fence(T, TIN, TOUT, id, token, now)
if refused then return refused end
if field == '' then field = nil end
settle(T, TIN, TOUT, id, status, field, value, now)
return {'ok'}
`;

/** A Lua long string holding `text` (no `]]` can end it early: the level grows until none appears). */
function luaString(text: string): string {
  let level = '';
  while (text.includes(`]${level}]`)) level += '=';
  return `[${level}[${text}]${level}]`;
}
