/**
 * A soak-test server in its own process: `node --expose-gc --import tsx test/soak/server.ts <adapter>`, where
 * <adapter> is `hono` (the Hono adapter on @hono/node-server), `express`, or `fetch` (the fetch adapter behind
 * @hono/node-server's `serve`), each serving the example tool set.
 * It reports `{ port }` over IPC once listening, and answers a `'heap'` message with the heap after two full
 * collections, so the parent reads memory without touching the server's HTTP path.
 */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import express from 'express';
import { Hono } from 'hono';
import { mcp as expressMcp } from 'mcp-mount/express';
import { mcp as fetchMcp } from 'mcp-mount/fetch';
import { mcp as honoMcp } from 'mcp-mount/hono';
import { tools as exampleTools } from '../../examples/shared/tools.js';
import { reportHeapOnRequest } from './heap-reporter.mjs';

const tools = exampleTools;
const options = { flattenUnionInput: true };

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
  } else throw new Error(`unknown adapter ${adapter}`);
  listening = serve({ fetch, port: 0, hostname: '127.0.0.1' });
}

listening.once('listening', () => {
  process.send?.({ port: (listening.address() as AddressInfo).port });
});
reportHeapOnRequest();
