/**
 * Rate limits that hold across replicas: a real `redis-server` (Debian's; `.ci/run` installs it when missing)
 * started here on a free port, and two mount instances, each with its own ioredis client, whose
 * `limits.rate.store` is `rate-limiter-flexible`'s `RateLimiterRedis`. The N+1th call across both is limited;
 * parallel calls from one caller are counted, not queued; a store that goes away lets requests through and
 * logs the failure.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { Redis } from 'ioredis';
import type { ErrorInfo, McpMountOptions, RefusalEvent } from 'mcp-mount';
import { createMcpFetchHandler } from 'mcp-mount/adapter';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../adapters/support/processes.js';
import { parseBody } from '../adapters/support/session.js';
import { jsonRpcHeaders, rpc, sleepTool, subjectKeys } from '../adapters/support/tools.js';
import { listen, type Running } from '../support/server.js';

const slow = sleepTool('slow');
/** `Bearer <subject>` is a valid API key of client `app` for that subject. */
const verify = subjectKeys;

let redis: ChildProcess;
let port: number;
const clients: Redis[] = [];
const servers: Running[] = [];

beforeAll(async () => {
  port = await freePort();
  redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  redis.once('error', (error) => {
    throw new Error(`redis-server could not start (apt-get install -y redis-server): ${error.message}`);
  });
  // Ready once it answers PING.
  for (let tries = 0; ; tries++) {
    const probe = new Redis({ port, host: '127.0.0.1', lazyConnect: true, retryStrategy: () => null });
    probe.on('error', () => {});
    try {
      await probe.connect();
      expect(await probe.ping()).toBe('PONG');
      probe.disconnect();
      break;
    } catch (error) {
      probe.disconnect();
      if (tries > 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  for (const client of clients) client.disconnect();
  redis?.kill('SIGTERM');
});

/** One replica: its own Redis client and mount, the limit counted in the shared server. */
async function replica(name: string, limits: McpMountOptions['limits']) {
  const client = new Redis({ port, host: '127.0.0.1', maxRetriesPerRequest: 0, enableOfflineQueue: false });
  client.on('error', () => {});
  clients.push(client);
  await new Promise((resolve) => client.once('ready', resolve));
  const refusals: RefusalEvent[] = [];
  const errors: ErrorInfo[] = [];
  const handler = createMcpFetchHandler([slow], {
    server: { name },
    access: { auth: { verify } },
    limits: {
      ...limits,
      rate: { ...limits?.rate, store: (options) => new RateLimiterRedis({ storeClient: client, ...options }) },
    },
    observe: {
      onRefusal: (e) => refusals.push(e),
      onError: (_e, info) => errors.push(info),
      logger: { warn() {}, error() {} },
    },
  });
  const running = await listen(handler.fetch);
  servers.push(running);
  return { url: running.url, refusals, errors, client };
}

async function call(url: string, token: string, ms = 0): Promise<string> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...jsonRpcHeaders, authorization: `Bearer ${token}` },
    body: rpc('tools/call', { name: 'slow', arguments: { ms } }),
  });
  return parseBody(await response.text()).result.content[0].text;
}

describe('rate limits in Redis, shared by two replicas', () => {
  it('limits the N+1th call across both replicas, and counts another caller apart', async () => {
    // One mount name: the replicas of one deployment share their windows' keys.
    const limits = { rate: { perCaller: { points: 4, durationSeconds: 60 } } };
    const a = await replica('notes', limits);
    const b = await replica('notes', limits);
    const results = [];
    for (const url of [a.url, b.url, a.url, b.url]) results.push(await call(url, 'ada'));
    expect(results).toEqual(Array(4).fill('done'));
    const fifth = await call(b.url, 'ada');
    expect(fifth).toMatch(/^Tool slow is rate limited: retry in \d+ s$/);
    expect(await call(a.url, 'ada')).toMatch(/rate limited/);
    expect(await call(a.url, 'bob')).toBe('done');
    expect([a.refusals.length, b.refusals.length]).toEqual([1, 1]);
    expect(b.refusals[0]).toMatchObject({ reason: 'rate-limited', tool: 'slow', caller: { subject: 'ada' } });
    // The counts are Redis's: the key the windows share holds them.
    expect(await a.client.keys('mcp-mount:notes:caller:*')).toEqual(
      expect.arrayContaining(['mcp-mount:notes:caller:sub:ada', 'mcp-mount:notes:caller:sub:bob']),
    );
  });

  it('counts invalid calls on one replica and unknown-tool calls on the other: the next valid call is refused', async () => {
    const limits = { rate: { perCaller: { points: 4, durationSeconds: 60 } } };
    const a = await replica('fill', limits);
    const b = await replica('fill', limits);
    const send = async (url: string, name: string, args: unknown) => {
      const response = await fetch(url, {
        method: 'POST',
        headers: { ...jsonRpcHeaders, authorization: 'Bearer erin' },
        body: rpc('tools/call', { name, arguments: args }),
      });
      return parseBody(await response.text());
    };
    for (let i = 0; i < 2; i++) {
      expect((await send(a.url, 'slow', { ms: 'never' })).result.isError).toBe(true);
      expect((await send(b.url, 'made_up', {})).error.code).toBe(-32602);
    }
    // Every one of them is in Redis: the window is full before any valid call was made.
    expect(await a.client.get('mcp-mount:fill:caller:sub:erin')).toBe('4');
    expect(await call(a.url, 'erin')).toMatch(/^Tool slow is rate limited: retry in \d+ s$/);
    expect(await call(b.url, 'erin')).toMatch(/^Tool slow is rate limited: retry in \d+ s$/);
    expect(await call(b.url, 'frank')).toBe('done');
  });

  it('counts parallel calls of one caller without queueing them', async () => {
    const limits = {
      rate: {
        perCaller: { points: 100, durationSeconds: 60 },
        perTool: { slow: { points: 100, durationSeconds: 60 } },
      },
    };
    const a = await replica('parallel', limits);
    const b = await replica('parallel', limits);
    const started = performance.now();
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => call(i % 2 ? a.url : b.url, 'carol', 300)));
    const elapsed = performance.now() - started;
    expect(results).toEqual(Array(8).fill('done'));
    // One after another: 2.4 s; side by side, about 0.3 s.
    expect(elapsed).toBeLessThan(1_500);
    expect(await a.client.get('mcp-mount:parallel:caller:sub:carol')).toBe('8');
  });

  it('lets requests through when the store fails, and logs it (phase limits)', async () => {
    const a = await replica('outage', { rate: { perCaller: { points: 1, durationSeconds: 60 } } });
    a.client.disconnect();
    expect(await call(a.url, 'dave')).toBe('done');
    expect(await call(a.url, 'dave')).toBe('done');
    expect(a.errors.map((e) => e.phase)).toEqual(['limits', 'limits']);
    expect(a.refusals).toEqual([]);
  });
});
