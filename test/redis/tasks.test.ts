/**
 * The Redis task store against a real `redis-server` started here: the shared contract (leases and TTLs on
 * Redis's own clock, so the test waits in real time), no key left once tasks expire, scripts reloaded after the
 * server forgot them, and two processes on one Redis: what one writes the other reads at once.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisTaskStore } from '../../src/core/tasks/redis.js';
import { type TaskStore, taskOwner } from '../../src/core/tasks/store.js';
import { repoRoot } from '../adapters/support/processes.js';
import { type RunningRedis, startRedis } from '../support/redis-server.js';
import { taskStoreContract } from '../support/task-store-contract.js';

let redis: RunningRedis;
let client: Redis;
let store: TaskStore;
const PREFIX = 'contract:';

beforeAll(async () => {
  redis = await startRedis();
  client = await redis.client();
  store = createRedisTaskStore({ client, prefix: PREFIX });
});
afterAll(() => redis?.stop());

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

taskStoreContract('Redis', {
  store: () => store,
  advance: sleep,
  // A real clock on a shared machine: a unit of margin is 400 ms.
  unit: 400,
  stored: async (taskId) => (await client.keys(`${PREFIX}{${taskId}}*`)).length,
});

describe('the Redis task store', () => {
  it('leaves no key once every task has expired: task hashes, input hashes and the owner index', async () => {
    const prefix = 'expiry:';
    const own = createRedisTaskStore({ client, prefix });
    const owner = taskOwner({ subject: 'ttl' });
    const done = await own.create({ owner, ttlMs: 400, call: { a: 1 }, leaseMs: 10_000, maxOpen: 5 });
    const asking = await own.create({ owner, ttlMs: 600, call: null, leaseMs: 10_000 });
    await own.create({ owner, ttlMs: 500, call: null, claimWithinMs: 10_000 });
    if (!done.ok || !asking.ok) throw new Error('not created');
    await own.settle(done.lease!, { status: 'completed', result: { content: [] } });
    await own.update(asking.lease!, { inputRequests: { a: { method: 'roots/list' }, b: { method: 'roots/list' } } });
    await own.answer(owner, asking.task.taskId, { a: { roots: [] } });
    const keys = await client.keys(`${prefix}*`);
    expect(keys.some((k) => k.includes(':owner:'))).toBe(true);
    expect(keys.some((k) => k.endsWith(':in'))).toBe(true);
    expect(keys.some((k) => k.endsWith(':out'))).toBe(true);
    // No step reads them again: Redis's own expiry removes every key.
    await expect.poll(() => client.keys(`${prefix}*`), { timeout: 5_000, interval: 100 }).toEqual([]);
  });

  it('keeps the owner index while one of its tasks has no TTL, and lets it go when that task settles', async () => {
    const prefix = 'forever:';
    const own = createRedisTaskStore({ client, prefix });
    const owner = taskOwner({ subject: 'forever' });
    const kept = await own.create({ owner, ttlMs: null, call: null, leaseMs: 10_000 });
    await own.create({ owner, ttlMs: 300, call: null, leaseMs: 10_000 });
    if (!kept.ok) throw new Error('not created');
    const [index] = await client.keys(`${prefix}owner:*`);
    expect(await client.pttl(index!)).toBe(-1);
    await own.settle(kept.lease!, { status: 'completed', result: { content: [] } });
    expect(await client.pttl(index!)).toBeGreaterThan(0);
    await own.requestCancel(owner, kept.task.taskId);
    await expect.poll(() => client.keys(`${prefix}owner:*`), { timeout: 5_000, interval: 100 }).toEqual([]);
    // The settled task without a TTL stays, as asked.
    expect((await own.get(owner, kept.task.taskId))?.status).toBe('completed');
  });

  it('loads its scripts again when the server forgot them (SCRIPT FLUSH, a restart)', async () => {
    const owner = taskOwner({ subject: 'flush' });
    const created = await store.create({ owner, ttlMs: 10_000, call: null });
    if (!created.ok) throw new Error('not created');
    await client.script('FLUSH');
    expect((await store.get(owner, created.task.taskId))?.status).toBe('working');
  });

  it('refuses a client with a keyPrefix, and one that is not a Redis client', async () => {
    const prefixed = Object.assign(Object.create(client), { options: { keyPrefix: 'app:' } });
    expect(() => createRedisTaskStore({ client: prefixed })).toThrow(/keyPrefix must be unset/);
    expect(() => createRedisTaskStore({ client: {} as never })).toThrow(/eval and evalsha/);
  });

  it('reads an id that is not one of its own as unknown, without a key of its making', async () => {
    const owner = taskOwner({ subject: 'odd' });
    for (const id of ['', '*', 'x}{y', `${'A'.repeat(21)}*`, 'A'.repeat(23)]) {
      expect(await store.get(owner, id)).toBeUndefined();
      expect(await store.claim(id, 1_000)).toEqual({ ok: false, reason: 'unknown' });
    }
  });
});

describe('two processes on one Redis', () => {
  let child: ChildProcess;
  let other: (method: keyof TaskStore, ...args: unknown[]) => Promise<any>;

  beforeAll(async () => {
    child = spawn(
      process.execPath,
      ['--import', 'tsx', 'test/redis/fixtures/task-replica.ts', String(redis.port), PREFIX],
      {
        cwd: repoRoot,
        stdio: ['pipe', 'pipe', 'inherit'],
      },
    );
    const waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
    let ready: () => void;
    const started = new Promise<void>((resolve) => {
      ready = resolve;
    });
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const message = JSON.parse(line);
      if (message.ready) return ready();
      const pending = waiting.get(message.id)!;
      waiting.delete(message.id);
      if ('error' in message) pending.reject(new Error(message.error));
      else pending.resolve(message.value);
    });
    let next = 0;
    other = (method, ...args) =>
      new Promise((resolve, reject) => {
        const id = ++next;
        waiting.set(id, { resolve, reject });
        child.stdin!.write(`${JSON.stringify({ id, method, args })}\n`);
      });
    await started;
  });
  afterAll(() => {
    child?.stdin?.end();
    child?.kill('SIGTERM');
  });

  it('reads at once in this process a task the other created, and the other sees its answer and cancel', async () => {
    const owner = taskOwner({ issuer: 'https://issuer.test', clientId: 'app', subject: 'replicas' });
    const created = await other('create', {
      owner,
      ttlMs: 60_000,
      pollIntervalMs: 1_000,
      call: { tool: 't' },
      leaseMs: 60_000,
    });
    expect(created.ok).toBe(true);
    // The first read here, right after the other process's create resolved.
    expect(await store.get(owner, created.task.taskId)).toEqual(created.task);

    expect(await other('update', created.lease, { inputRequests: { q: { method: 'roots/list' } } })).toEqual({
      ok: true,
    });
    expect(await store.get(owner, created.task.taskId)).toMatchObject({ status: 'input_required' });
    expect(await store.answer(owner, created.task.taskId, { q: { roots: [] } })).toBe(true);
    expect(await other('heartbeat', created.lease, 60_000)).toMatchObject({
      ok: true,
      inputResponses: { q: { roots: [] } },
    });

    expect(await store.requestCancel(owner, created.task.taskId)).toBe(true);
    expect(await other('heartbeat', created.lease, 60_000)).toEqual({
      ok: false,
      reason: 'settled',
      status: 'cancelled',
    });
    expect(await other('get', owner, created.task.taskId)).toMatchObject({ status: 'cancelled' });
  });

  it('lets the other process claim and settle a task created here, and refuses this one a second claim', async () => {
    const owner = taskOwner({ subject: 'queued' });
    const created = await store.create({ owner, ttlMs: 60_000, call: { tool: 'report', arguments: { n: 1 } } });
    if (!created.ok) throw new Error('not created');
    const claimed = await other('claim', created.task.taskId, 60_000);
    expect(claimed).toMatchObject({ ok: true, owner, call: { tool: 'report', arguments: { n: 1 } } });
    expect(await store.claim(created.task.taskId, 60_000)).toEqual({ ok: false, reason: 'held' });
    const result = { content: [{ type: 'text', text: 'report ready' }] };
    expect(await other('settle', claimed.lease, { status: 'completed', result })).toEqual({ ok: true });
    expect(await store.get(owner, created.task.taskId)).toMatchObject({ status: 'completed', result });
  });
});
