/**
 * The Origin check on the Node adapters over real HTTP (Hono, Express, the fetch adapter), on by default:
 * a foreign `Origin` gets 403 and the tool does not run; a localhost origin and no origin get 200; the
 * conformance suite's DNS rebinding probes are refused and their localhost twins accepted.
 * Next.js and workerd: test/adapters/runtimes/.
 */

import express from 'express';
import { Hono } from 'hono';
import { defineTool } from 'mcp-mount';
import { mcp as expressMcp } from 'mcp-mount/express';
import { mcp as fetchMcp } from 'mcp-mount/fetch';
import { mcp as honoMcp } from 'mcp-mount/hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { listen } from '../support/server.js';
import { listenApp } from './support/listen.js';
import { rawRequest, rebindingProbe } from './support/raw.js';
import { parseBody } from './support/session.js';
import { jsonRpcHeaders, rpc } from './support/tools.js';

let runs = 0;
const counted = defineTool({
  name: 'counted',
  input: z.object({}),
  handler: () => {
    runs++;
    return 'ran';
  },
});

const adapters = {
  hono: async () => {
    const app = new Hono();
    app.all('/mcp', honoMcp([counted]));
    return listen(app.fetch);
  },
  express: async () => {
    const app = express();
    app.use('/mcp', expressMcp([counted]));
    return listenApp(app);
  },
  fetch: async () => listen(fetchMcp([counted]).fetch),
};

describe.each(Object.entries(adapters))('the Origin check on %s', (_name, start) => {
  let server: { url: string; close(): Promise<void> };
  beforeAll(async () => {
    server = await start();
  });
  afterAll(() => server.close());

  const call = async (headers: Record<string, string>) => {
    const before = runs;
    const response = await fetch(server.url, {
      method: 'POST',
      headers: { ...jsonRpcHeaders, ...headers },
      body: rpc('tools/call', { name: 'counted', arguments: {} }),
    });
    return { status: response.status, body: parseBody(await response.text()), ran: runs > before };
  };

  it('refuses a foreign Origin with 403, and the tool does not run', async () => {
    expect(await call({ origin: 'http://evil.example' })).toEqual({
      status: 403,
      ran: false,
      body: { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Invalid Origin: evil.example' } },
    });
  });

  it('serves a localhost origin and a request without Origin', async () => {
    expect(await call({ origin: 'http://localhost:5173' })).toMatchObject({ status: 200, ran: true });
    expect(await call({})).toMatchObject({ status: 200, ran: true });
  });

  it.each([['2025-11-25'], ['2026-07-28']] as const)(
    'refuses the DNS rebinding probe (%s) with 403 and accepts its localhost twin',
    async (era) => {
      const attack = await rebindingProbe(server.url, 'evil.example.com', era);
      expect(attack.status).toBe(403);
      const valid = await rebindingProbe(server.url, new URL(server.url).host, era);
      expect(valid.status, valid.text).toBe(200);
      expect(parseBody(valid.text).result).toBeDefined();
    },
  );

  it('refuses a foreign Origin on GET and DELETE too', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await rawRequest(server.url, { method, headers: { origin: 'http://evil.example' } });
      expect(response.status, method).toBe(403);
    }
  });
});
