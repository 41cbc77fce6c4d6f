/**
 * A refused request never breaks the connection it came on: after a 413 (a body over
 * `maxRequestBodyBytes`), the client's next request succeeds, 20 times in a row, on every Node adapter,
 * with a real keep-alive HTTP client (one socket at a time).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import express from 'express';
import { Hono } from 'hono';
import { defineTool, type McpMountOptions } from 'mcp-mount';
import { mcp as expressMcp } from 'mcp-mount/express';
import { mcp as fetchMcp } from 'mcp-mount/fetch';
import { mcp as honoMcp } from 'mcp-mount/hono';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { post } from '../support/keep-alive-post.js';

const LIMIT = 1024;
const add = defineTool({
  name: 'add',
  input: z.object({ a: z.number(), b: z.number() }),
  handler: ({ input }) => ({ sum: input.a + input.b }),
});
const options: McpMountOptions = { limits: { maxRequestBodyBytes: LIMIT } };

const servers: Record<string, () => http.Server> = {
  hono: () => {
    const app = new Hono();
    app.all('/mcp', honoMcp([add], options));
    return serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as http.Server;
  },
  express: () => {
    const app = express();
    app.use('/mcp', expressMcp([add], options));
    return app.listen(0, '127.0.0.1');
  },
  fetch: () => {
    const worker = fetchMcp([add], options);
    return serve({ fetch: (r) => worker.fetch(r), port: 0, hostname: '127.0.0.1' }) as http.Server;
  },
};

const call = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'add', arguments: { a: 2, b: 3 } },
});
const oversized = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', pad: 'x'.repeat(2 * 1024 * 1024) });

describe('the request after a 413', () => {
  let server: http.Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    server = undefined;
  });

  for (const [name, start] of Object.entries(servers)) {
    it(`${name}: an oversized request, then a normal call, 20 times in a row`, async () => {
      server = start();
      await new Promise((resolve) => server!.once('listening', resolve));
      const { port } = server.address() as AddressInfo;
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      const seen: string[] = [];
      try {
        for (let i = 0; i < 20; i++) {
          const refused = await post(agent, port, oversized);
          seen.push(`413? ${refused.status} ${refused.error ?? ''}`.trim());
          expect(refused.status).toBe(413);
          expect(JSON.parse(refused.text).error.code).toBe(-32000);
          const ok = await post(agent, port, call);
          seen.push(`ok? ${ok.status} ${ok.error ?? ''}`.trim());
          expect(ok.error).toBeUndefined();
          expect(ok.status).toBe(200);
          expect(ok.text).toContain('{\\"sum\\":5}');
        }
      } catch (error) {
        throw new Error(`${(error as Error).message}\nseen: ${seen.join(' | ')}`);
      } finally {
        agent.destroy();
      }
    });
  }
});
