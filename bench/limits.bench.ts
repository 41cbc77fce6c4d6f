/**
 * What rate limits cost per call, beside the plain SDK v2 in one process: `npx tsx bench/limits.bench.ts`.
 *
 * One small `tools/call` (2026-07-28, JSON response) through `fetch(Request)`, no sockets, the caller passed
 * as `extras.authInfo` (no token check), for: the plain SDK; mcp-mount without limits; with a per-caller
 * and a per-tool window and a concurrency cap in memory (the default store); and the same windows in Redis
 * (a `redis-server` started here on a free port, on loopback, through ioredis; left out when redis-server is
 * not on PATH). The windows are never full, so every call runs its handler. Each figure is the median over
 * BENCH_ROUNDS (default 15) batches of BENCH_BATCH (default 200) sequential calls, the servers measured in
 * turn so drift hits all alike.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { Redis } from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import * as z from 'zod';
import { createMcpFetchHandler, type McpFetchHandler } from '../src/adapter.js';
import { defineTool, type LimitsOptions } from '../src/index.js';
import { median } from './median.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const BATCH = Number(process.env.BENCH_BATCH ?? 200);
const input = z.object({ q: z.string() });
const authInfo = { token: 't', clientId: 'bench', scopes: [], extra: { sub: 'ada' } };

const headers = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': 'tools/call',
  'mcp-name': 'search',
};
const meta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1.0.0' },
};
const body = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'search', arguments: { q: 'x' }, _meta: meta },
});
const request = () => new Request('http://bench.local/mcp', { method: 'POST', headers, body });

const windows = (store?: NonNullable<LimitsOptions['rate']>['store']): LimitsOptions => ({
  rate: {
    perCaller: { points: 1_000_000_000, durationSeconds: 3600 },
    perTool: { search: { points: 1_000_000_000, durationSeconds: 3600 } },
    ...(store && { store }),
  },
  concurrency: 64,
});
const mount = (limits?: LimitsOptions): McpFetchHandler =>
  createMcpFetchHandler([defineTool({ name: 'search', input, handler: ({ input }) => ({ hits: [input.q] }) })], {
    ...(limits && { limits }),
  });

const plain = createMcpHandler(() => {
  const server = new McpServer({ name: 'plain', version: '0.0.0' });
  server.registerTool('search', { inputSchema: input as never }, (({ q }: { q: string }) => ({
    content: [{ type: 'text', text: JSON.stringify({ hits: [q] }) }],
  })) as never);
  return server;
});

const none = mount();
const memory = mount(windows());
const servers: Array<[string, (r: Request) => Promise<Response>]> = [
  ['plain SDK', (r) => plain.fetch(r, { authInfo })],
  ['mcp-mount, no limits', (r) => none.fetch(r, { authInfo })],
  ['limits in memory', (r) => memory.fetch(r, { authInfo })],
];

const redis = await startRedis();
if (redis) {
  const redisMount = mount(windows((options) => new RateLimiterRedis({ storeClient: redis.client, ...options })));
  servers.push(['limits in Redis (loopback)', (r) => redisMount.fetch(r, { authInfo })]);
}

const runs = servers.map(() => [] as number[]);
for (let round = 0; round < ROUNDS + 2; round++) {
  for (const [i, [, fetch]] of servers.entries()) {
    const started = performance.now();
    for (let n = 0; n < BATCH; n++) await (await fetch(request())).text();
    // The first two rounds warm up.
    if (round >= 2) runs[i]!.push(((performance.now() - started) * 1000) / BATCH);
  }
}
const base = median(runs[1]!);
const sdk = median(runs[0]!);
console.log(`${'server'.padEnd(30)}${'µs/call'.padStart(10)}${'vs SDK'.padStart(9)}${'+µs vs no limits'.padStart(18)}`);
for (const [i, [label]] of servers.entries()) {
  const us = median(runs[i]!);
  const extra = i < 2 ? '' : `+${(us - base).toFixed(1)}`;
  console.log(
    `${label.padEnd(30)}${us.toFixed(1).padStart(10)}${(us / sdk).toFixed(2).padStart(9)}${extra.padStart(18)}`,
  );
}
if (!redis) console.log('(redis-server is not on PATH: the Redis row is left out)');
redis?.stop();

async function startRedis() {
  if (spawnSync('redis-server', ['--version']).status !== 0) return undefined;
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  let client: Redis | undefined;
  for (let tries = 0; tries < 50 && !client; tries++) {
    const probe = new Redis({ port, host: '127.0.0.1', lazyConnect: true, retryStrategy: () => null });
    probe.on('error', () => {});
    try {
      await probe.connect();
      client = probe;
    } catch {
      probe.disconnect();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  if (!client) throw new Error('redis-server did not start');
  return {
    client,
    stop() {
      client.disconnect();
      child.kill('SIGTERM');
    },
  };
}
