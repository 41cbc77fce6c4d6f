/**
 * The stateless seams real clients trip on, one test each, in both protocol eras, on every adapter over real
 * HTTP: empty argument encodings (`""`, `[]`), `params: []`, `Accept` negotiation, an input request to a
 * client that cannot answer it (answered as each era's spec says), and a handler's `isError` result whose
 * `structuredContent` its output schema refuses. Raw requests where the official clients never send the shape; the official clients where they do.
 */
import { inputRequired } from '@modelcontextprotocol/server';
import express from 'express';
import { Hono } from 'hono';
import { type AnyTool, type CallEvent, defineTool, type McpMountOptions } from 'mcp-mount';
import { mcp as expressMcp } from 'mcp-mount/express';
import { mcp as fetchMcp } from 'mcp-mount/fetch';
import { mcp as honoMcp } from 'mcp-mount/hono';
import { mcp as nextMcp } from 'mcp-mount/next';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { connectSdk, type SdkEra, sdkEras } from '../support/sdk-clients.js';
import { listen, textOf } from '../support/server.js';
import { type Listening, listenApp } from './support/listen.js';

const repairsSeen: unknown[] = [];
const ping = defineTool({
  name: 'ping',
  input: z.object({ limit: z.number().optional() }),
  handler: (_args, ctx) => {
    repairsSeen.push(ctx.repairs);
    return 'pong';
  },
});
const needsA = defineTool({ name: 'needs_a', input: z.object({ a: z.string() }), handler: () => 'never' });
const askName = defineTool({
  name: 'ask_name',
  input: z.object({}),
  handler: () =>
    inputRequired({
      inputRequests: {
        who: inputRequired.elicit({ message: 'Your name?', requestedSchema: z.object({ name: z.string() }) }),
      },
    }),
});
const failing = defineTool({
  name: 'failing',
  input: z.object({}),
  output: z.object({ rows: z.number() }),
  handler: () => ({
    content: [{ type: 'text' as const, text: 'the database is down' }],
    structuredContent: { reason: 'down' },
    isError: true,
  }),
});
const failingWithExtra = defineTool({
  name: 'failing_extra',
  input: z.object({}),
  output: z.object({ ok: z.boolean(), n: z.number().default(0) }),
  handler: () => ({
    content: [{ type: 'text' as const, text: 'partly failed' }],
    structuredContent: { ok: false, debug: 'x' },
    isError: true,
  }),
});
const tools = [ping, needsA, askName, failing, failingWithExtra] as AnyTool[];
const calls: CallEvent[] = [];
const options: McpMountOptions = { observe: { onCall: (e) => calls.push(e) } };

const adapters: Record<string, () => Promise<Listening | { url: string; close(): Promise<void> }>> = {
  hono: async () => {
    const app = new Hono();
    app.all('/mcp', honoMcp(tools, options));
    return listen(app.fetch);
  },
  express: async () => {
    const app = express();
    app.use('/mcp', expressMcp(tools, options));
    return listenApp(app);
  },
  fetch: async () => {
    const worker = fetchMcp(tools, options);
    return listen((r) => worker.fetch(r));
  },
  next: async () => {
    const routes = nextMcp(tools, options);
    return listen((r) => routes.POST(r, { params: Promise.resolve({}) }));
  },
};

const MODERN = '2026-07-28';
const BOTH = 'application/json, text/event-stream';

/** A raw JSON-RPC POST as a client of `era` sends it: the 2026-07-28 envelope and headers, or 2025-11-25's. */
async function send(url: string, era: SdkEra, method: string, params: unknown, accept: string | null = BOTH) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (accept !== null) headers.accept = accept;
  let sent = params;
  if (era === 'modern') {
    Object.assign(headers, { 'mcp-protocol-version': MODERN, 'mcp-method': method });
    if (method === 'tools/call') headers['mcp-name'] = (params as { name: string }).name;
    const _meta = {
      'io.modelcontextprotocol/protocolVersion': MODERN,
      'io.modelcontextprotocol/clientInfo': { name: 'seams', version: '1.0.0' },
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    if (!Array.isArray(params)) sent = { ...(params as object), _meta };
  } else headers['mcp-protocol-version'] = '2025-11-25';
  const response = await fetch(url, {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params: sent }),
  });
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  const data = type.startsWith('text/event-stream') ? (/^data: (.*)$/m.exec(text)?.[1] ?? 'null') : text;
  return { status: response.status, type, body: JSON.parse(data) };
}

describe.each(Object.keys(adapters))('stateless seams on %s', (adapter) => {
  let server: { url: string; close(): Promise<void> };
  beforeAll(async () => {
    server = await adapters[adapter]!();
  });
  afterAll(() => server.close());

  describe.each(sdkEras)('%s era', (era) => {
    it('runs arguments "" and [] as {} for a tool that accepts {}, reported as a repair', async () => {
      for (const empty of ['', []]) {
        repairsSeen.length = 0;
        const { status, body } = await send(server.url, era, 'tools/call', { name: 'ping', arguments: empty });
        expect(status).toBe(200);
        expect(body.result.isError ?? false, JSON.stringify(body)).toBe(false);
        expect(body.result.content[0].text).toBe('pong');
        expect(repairsSeen).toEqual([[{ path: '', from: 'empty-arguments' }]]);
      }
      // A tool that does not accept {} says what is missing, not "expected an object".
      const { body } = await send(server.url, era, 'tools/call', { name: 'needs_a', arguments: '' });
      expect(body.result.isError).toBe(true);
      expect(body.result.content[0].text).toContain('a: required');
      expect(body.result.content[0].text).not.toContain('expected an object');
    });

    it('reads params: [] as no params', async () => {
      const { status, body } = await send(server.url, era, 'tools/list', []);
      if (era === 'legacy') {
        expect(status).toBe(200);
        expect(body.result.tools.map((t: { name: string }) => t.name)).toEqual(tools.map((t) => t.name));
      } else {
        // A 2026-07-28 request carries its envelope in `params._meta`: with no params there is none to read,
        // and the SDK says so (never the by-position "not a JSON-RPC message").
        expect(status).toBe(400);
        expect(body.error.message).toContain('_meta');
      }
    });

    it('answers JSON to a client that accepts JSON at all, SSE to one that accepts only SSE', async () => {
      for (const accept of ['*/*', 'application/json', 'application/*', null, 'application/json, text/*']) {
        const { status, type, body } = await send(server.url, era, 'tools/list', {}, accept);
        expect(status, String(accept)).toBe(200);
        expect(type, String(accept)).toMatch(/^application\/json/);
        expect(body.result.tools).toHaveLength(tools.length);
      }
      const sse = await send(server.url, era, 'tools/call', { name: 'ping', arguments: {} }, 'text/event-stream');
      expect(sse.status).toBe(200);
      expect(sse.body.result.content[0].text).toBe('pong');
      const refused = await send(server.url, era, 'tools/list', {}, 'text/html');
      if (era === 'legacy') expect(refused.status).toBe(406);
    });

    it('answers an input request the client cannot answer with an error naming what was needed', async () => {
      const client = await connectSdk(era, server.url);
      try {
        if (era === 'legacy') {
          // 2025-era stateless serving cannot ask; the SDK answers with an isError result the model reads.
          const result = await client.callTool('ask_name', {});
          expect(result.isError).toBe(true);
          expect(textOf(result)).toContain("Cannot request input 'who' (elicitation/create)");
        } else {
          // 2026-07-28 says the server MUST reject with -32021 (the conformance suite checks it): the
          // SDK's protocol error, naming the input and the capability it needs.
          await expect(client.callTool('ask_name', {})).rejects.toMatchObject({
            code: -32021,
            message: expect.stringContaining("Cannot request input 'who' (elicitation/create)"),
          });
        }
      } finally {
        await client.close();
      }
    });

    it("sends a handler's isError result without structuredContent its output schema refuses", async () => {
      const client = await connectSdk(era, server.url);
      try {
        const result = await client.callTool('failing', {});
        expect(result.isError).toBe(true);
        expect(result.structuredContent).toBeUndefined();
        expect(textOf(result)).toContain('the database is down');
        expect(textOf(result)).toContain("does not match the tool's output schema");
      } finally {
        await client.close();
      }
    });

    it("sends a handler's isError structuredContent as its output schema parses it (keys stripped, defaults filled)", async () => {
      const client = await connectSdk(era, server.url);
      try {
        const result = await client.callTool('failing_extra', {});
        expect(result.isError).toBe(true);
        expect(result.structuredContent).toEqual({ ok: false, n: 0 });
      } finally {
        await client.close();
      }
    });
  });
});
