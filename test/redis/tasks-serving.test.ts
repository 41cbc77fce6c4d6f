/**
 * Two mounts (two servers, each with its own Redis connection) sharing one task store on a real
 * `redis-server`: a task created through A is read through B at once (the durable create), polled on B to the
 * result a plain call gives, cancelled through B with A's handler seeing its signal abort, and gone from
 * Redis, keys included, after its TTL. And a replica in its own process, killed while it runs a task: the
 * other reads the task `failed` once its lease has passed.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { defineTool, type McpMountOptions } from 'mcp-mount';
import { createRedisTaskStore } from 'mcp-mount/tasks/redis';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { repoRoot } from '../adapters/support/processes.js';
import { type RunningRedis, startRedis } from '../support/redis-server.js';
import { type Running, serveTools } from '../support/server.js';
import { call, pollTask, rpc } from '../support/tasks.js';

const PREFIX = 'serving:';
const aborted: string[] = [];
let release: (() => void) | undefined;

const build = defineTool({
  name: 'build',
  input: z.object({ target: z.string(), wait: z.boolean() }),
  task: { support: 'optional', inlineMs: 0, ttlMs: 60_000 },
  handler: async ({ input }, ctx) => {
    if (!input.wait) return `built ${input.target}`;
    await new Promise<void>((resolve) => {
      release = resolve;
      ctx.signal.addEventListener('abort', () => {
        aborted.push(String((ctx.signal.reason as Error)?.message));
        resolve();
      });
    });
    return `built ${input.target}`;
  },
});
const brief = defineTool({
  name: 'brief',
  task: { support: 'required', ttlMs: 500 },
  handler: () => 'brief',
});

let redis: RunningRedis;
let client: Redis;
let a: Running;
let b: Running;
const headers = { authorization: 'Bearer ada' };

beforeAll(async () => {
  redis = await startRedis();
  client = await redis.client();
  const mount = async (): Promise<Running> => {
    const options: McpMountOptions = {
      access: {
        auth: {
          verify: (token) => ({ token, clientId: 'app', scopes: [], expiresAt: 'never', extra: { sub: token } }),
        },
      },
      tasks: { store: createRedisTaskStore({ client: await redis.client(), prefix: PREFIX }), leaseMs: 600 },
    };
    return serveTools([build, brief], options);
  };
  a = await mount();
  b = await mount();
});
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
  await redis?.stop();
});

describe('two mounts on one Redis task store', () => {
  it('create on A, get on B at once; poll on B to the result a plain call on A gives', async () => {
    const created = (await call(a.url, 'build', { target: 'docs', wait: true }, { headers })).message.result;
    expect(created.resultType).toBe('task');
    const seen = await rpc(b.url, 'tasks/get', { taskId: created.taskId }, { headers });
    expect(seen.message.result).toMatchObject({ taskId: created.taskId, status: 'working' });
    // The handler runs on A once the task exists; release it when it has started.
    for (let i = 0; i < 100 && !release; i++) await new Promise((r) => setTimeout(r, 10));
    release!();
    const done = await pollTask(b.url, created.taskId, { headers });
    const plain = await call(a.url, 'build', { target: 'docs', wait: false }, { headers, declare: false });
    const { _meta: _m, ...synchronous } = plain.message.result;
    expect(synchronous).toEqual({ content: [{ type: 'text', text: 'built docs' }], resultType: 'complete' });
    expect(done).toMatchObject({ status: 'completed', result: synchronous });
  });

  it("cancel on B settles cancelled and aborts the handler running on A at A's next heartbeat", async () => {
    const created = (await call(a.url, 'build', { target: 'site', wait: true }, { headers })).message.result;
    const ack = await rpc(b.url, 'tasks/cancel', { taskId: created.taskId }, { headers });
    expect(ack.message.result.resultType).toBe('complete');
    expect((await rpc(a.url, 'tasks/get', { taskId: created.taskId }, { headers })).message.result.status).toBe(
      'cancelled',
    );
    for (let i = 0; i < 100 && aborted.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(aborted).toEqual(['Task cancelled by the client']);
    // The handler's late settle is refused: what clients read stays cancelled.
    await new Promise((r) => setTimeout(r, 100));
    expect((await rpc(b.url, 'tasks/get', { taskId: created.taskId }, { headers })).message.result.status).toBe(
      'cancelled',
    );
  });

  it("reads another caller's task as unknown on the other mount too", async () => {
    const created = (await call(a.url, 'build', { target: 'now', wait: false }, { headers })).message.result;
    const foreign = await rpc(
      b.url,
      'tasks/get',
      { taskId: created.taskId },
      { headers: { authorization: 'Bearer bob' } },
    );
    expect(foreign.message.error).toEqual({ code: -32602, message: 'Unknown task' });
  });

  it('answers -32602 after the TTL on either mount, and leaves no key of the task in Redis', async () => {
    const created = (await call(a.url, 'brief', {}, { headers })).message.result;
    expect(created.ttlMs).toBe(500);
    await pollTask(b.url, created.taskId, { headers });
    await new Promise((r) => setTimeout(r, 700));
    for (const mount of [a, b]) {
      const gone = await rpc(mount.url, 'tasks/get', { taskId: created.taskId }, { headers });
      expect(gone.message.error).toEqual({ code: -32602, message: 'Unknown task' });
    }
    expect(await client.keys(`${PREFIX}{${created.taskId}}*`)).toEqual([]);
  });

  it('reads a task whose process was killed as failed on the other replica once its lease has passed', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'test/redis/fixtures/mount-replica.ts', String(redis.port), PREFIX],
      { cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      const url = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout! }).once('line', (line) => resolve(JSON.parse(line).url));
        child.once('exit', (code) => reject(new Error(`the replica exited (${code})`)));
      });
      const created = (await call(url, 'forever', {}, { headers })).message.result;
      expect(created.resultType).toBe('task');
      expect((await rpc(b.url, 'tasks/get', { taskId: created.taskId }, { headers })).message.result.status).toBe(
        'working',
      );
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
      const failed = await pollTask(b.url, created.taskId, { headers });
      expect(failed).toMatchObject({
        status: 'failed',
        error: { code: -32603, message: 'Task failed: its worker stopped' },
      });
      expect(failed).not.toHaveProperty('result');
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });
});
