/**
 * Cost of the mount and of one request through the core handler (in process, no sockets), so the
 * per-request path can be watched: `npx tsx bench/handler.bench.ts`.
 * Prints: preparation time per mount for the example tool set and for 50 union tools; mean and p99
 * latency of `tools/list` and of a repaired `tools/call`, over the 2025-era (stateless) leg; and, as the
 * floor, the bare SDK serving one plain Zod tool the same way.
 */
import { createMcpHandler as createSdkHandler, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { options, sendMessage, tools } from '../examples/shared/tools.js';
import { createMcpFetchHandler } from '../src/adapter.js';

const ITER = Number(process.env.BENCH_ITER ?? 2000);

function post(body: unknown): Request {
  return new Request('http://bench.local/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify(body),
  });
}

async function time(label: string, n: number, run: () => Promise<unknown>) {
  for (let i = 0; i < Math.min(200, n); i++) await run(); // warm-up
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await run();
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  const mean = samples.reduce((a, b) => a + b, 0) / n;
  const p99 = samples[Math.floor(n * 0.99)]!;
  console.log(`${label.padEnd(48)} mean ${mean.toFixed(3)} ms   p99 ${p99.toFixed(3)} ms   (n=${n})`);
}

const many = Array.from({ length: 50 }, (_, i) => ({ ...sendMessage, name: `send_message_${i}` }));
let t = performance.now();
for (let i = 0; i < 20; i++) createMcpFetchHandler(tools, options);
console.log(
  `${'mount: example tool set (3 tools)'.padEnd(48)} ${((performance.now() - t) / 20).toFixed(2)} ms per mount`,
);
t = performance.now();
for (let i = 0; i < 5; i++) createMcpFetchHandler(many, options);
console.log(`${'mount: 50 union tools'.padEnd(48)} ${((performance.now() - t) / 5).toFixed(2)} ms per mount`);

const handler = createMcpFetchHandler(tools, options);
const list = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
const call = {
  jsonrpc: '2.0',
  id: 2,
  method: 'tools/call',
  params: {
    name: 'send_message',
    arguments: {
      chatId: 'c',
      type: 'mediaGroup',
      media: JSON.stringify([{ url: 'https://e.x/1' }, { url: 'https://e.x/2' }]),
    },
  },
};
await time('tools/list (3 tools)', ITER, async () => (await handler.fetch(post(list))).text());
await time('tools/call send_message, media repaired', ITER, async () => (await handler.fetch(post(call))).text());
const manyHandler = createMcpFetchHandler(many, options);
await time('tools/list (50 tools)', ITER / 4, async () => (await manyHandler.fetch(post(list))).text());
await time('tools/call (mount of 50 tools)', ITER / 4, async () =>
  (await manyHandler.fetch(post({ ...call, params: { ...call.params, name: 'send_message_7' } }))).text(),
);

// Baseline: the SDK alone, one tool registered with its own Zod schema (the SDK converts and validates).
const bare = createSdkHandler(() => {
  const server = new McpServer({ name: 'bare', version: '0' }, { capabilities: { tools: {} } });
  server.registerTool('echo', { inputSchema: z.object({ q: z.string() }) }, async ({ q }) => ({
    content: [{ type: 'text', text: q }],
  }));
  return server;
});
const echo = { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'echo', arguments: { q: 'x' } } };
await time('baseline: bare SDK tools/list (1 tool)', ITER, async () => (await bare.fetch(post(list))).text());
await time('baseline: bare SDK tools/call', ITER, async () => (await bare.fetch(post(echo))).text());
