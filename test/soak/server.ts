/**
 * A soak-test server in its own process: `node --expose-gc --import tsx test/soak/server.ts <adapter>`, where
 * <adapter> is `hono` (the Hono adapter on @hono/node-server), `express`, `fetch` (the fetch adapter behind
 * @hono/node-server's `serve`) or `sdk` (the plain SDK v2 handler with the same tools, the baseline).
 * It reports `{ port }` over IPC once listening, and answers a `'heap'` message with the heap after two full
 * collections, so the parent reads memory without touching the server's HTTP path.
 */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createMcpHandler as createSdkHandler, McpServer } from '@modelcontextprotocol/server';
import express from 'express';
import { Hono } from 'hono';
import { defineTool } from 'mcp-mount';
import { mcp as expressMcp } from 'mcp-mount/express';
import { mcp as fetchMcp } from 'mcp-mount/fetch';
import { mcp as honoMcp } from 'mcp-mount/hono';
import { z } from 'zod';
import { sendMessage } from '../../examples/shared/tools.js';

const add = defineTool({
  name: 'add',
  description: 'Add two numbers.',
  input: z.object({ a: z.number(), b: z.number() }),
  handler: ({ input }) => ({ sum: input.a + input.b }),
});
const tools = [sendMessage, add];
const options = { flattenUnionInput: true };

function sdkBaseline() {
  const handler = createSdkHandler(() => {
    const server = new McpServer({ name: 'baseline', version: '0.0.0' });
    server.registerTool('add', { inputSchema: z.object({ a: z.number(), b: z.number() }) }, ({ a, b }) => ({
      content: [{ type: 'text', text: JSON.stringify({ sum: a + b }) }],
    }));
    return server;
  });
  return (request: Request) => handler.fetch(request);
}

const adapter = process.argv[2] ?? 'hono';
let listening: ReturnType<typeof serve> | ReturnType<ReturnType<typeof express>['listen']>;
if (adapter === 'express') {
  const app = express();
  app.use('/mcp', expressMcp(tools, options));
  listening = app.listen(0, '127.0.0.1');
} else {
  let fetch: (request: Request) => Response | Promise<Response>;
  if (adapter === 'hono') {
    const app = new Hono();
    app.all('/mcp', honoMcp(tools, options));
    fetch = app.fetch;
  } else if (adapter === 'fetch') {
    const worker = fetchMcp(tools, { ...options, path: '/mcp' });
    fetch = (request) => worker.fetch(request);
  } else if (adapter === 'sdk') {
    fetch = sdkBaseline();
  } else throw new Error(`unknown adapter ${adapter}`);
  listening = serve({ fetch, port: 0, hostname: '127.0.0.1' });
}

listening.once('listening', () => {
  process.send?.({ port: (listening.address() as AddressInfo).port });
});
process.on('message', async (message) => {
  if (message !== 'heap') return;
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  // FinalizationRegistry callbacks (undici's signal followers) run as tasks after a collection: let them.
  for (let i = 0; i < 4; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  process.send?.({ heapUsed: process.memoryUsage().heapUsed });
});
process.on('disconnect', () => process.exit(0));
