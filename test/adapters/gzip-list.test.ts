/**
 * `tools/list` gzip-encoded for a client that accepts it (`protocol.compressList`, list-cache.ts, http/gzip.ts),
 * over real HTTP (@hono/node-server, Express): decoded, the body is byte for byte the uncompressed answer, in
 * both eras, JSON and SSE, for the full list and a `visibleTools` list, whatever the JSON-RPC id; it is one gzip
 * member a strict decoder reads to its end; both official clients and a plain `fetch` get it transparently; an
 * app's own compression (Hono's `compress()`, Express's `compression`) leaves it alone and compresses the rest.
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import * as zlib from 'node:zlib';
import express from 'express';
import { Hono } from 'hono';
import { compress } from 'hono/compress';
import { type AnyTool, defineTool, type McpMountOptions } from 'mcp-mount';
import { mcp as expressMcp } from 'mcp-mount/express';
import { mcp } from 'mcp-mount/hono';
import { mcp as nextMcp } from 'mcp-mount/next';
// Express's `compression` middleware, as Next.js compiles it in (`next start` compresses with it): the package
// itself is no dependency of this repository.
// @ts-expect-error no types for Next's compiled copy
import compression from 'next/dist/compiled/compression/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { listen, type Running } from '../support/server.js';
import { strictGunzip } from '../support/strict-gunzip.js';
import { connect, eras } from './support/clients.js';
import { listenApp } from './support/listen.js';

/** Tools whose input is an object holding a discriminated union, as the peer benchmark's. */
const tools: AnyTool[] = Array.from({ length: 30 }, (_, i) =>
  defineTool({
    name: `tool_${i}`,
    description: `Tool ${i}: does op${i} — «ünïcödé» 🦄`,
    input: z.object({
      requestId: z.string(),
      action: z.discriminatedUnion(
        'type',
        Array.from({ length: 4 + (i % 5) }, (_, v) =>
          z.object({
            type: z.literal(`op${v}`),
            target: z.string().describe('What the operation acts on'),
            amount: z.number().int().min(0).max(1000).optional(),
            [`only${v}`]: z.boolean().optional(),
          }),
        ) as never,
      ),
    }),
    handler: () => 'ok',
  }),
);
const bigAnswer = defineTool({ name: 'big_answer', handler: () => 'x'.repeat(20_000) });

const GZIP = 'gzip, deflate';
const VISIBLE = ['tool_1', 'tool_2', 'tool_7', 'tool_20', 'tool_29'];
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'gzip-test', version: '1.0.0' },
};

type Era = 'modern' | 'legacy';

interface BinaryResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** One POST over node:http with exactly these headers; the body as sent on the wire (never decoded). */
function post(url: string, headers: Record<string, string>, body: string): Promise<BinaryResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A `tools/list` of `era` with `id`, accepting `accept` and, when given, `acceptEncoding`. */
function list(url: string, era: Era, id: unknown, accept: string, acceptEncoding?: string) {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept };
  if (acceptEncoding !== undefined) headers['accept-encoding'] = acceptEncoding;
  if (era === 'modern') {
    headers['mcp-protocol-version'] = '2026-07-28';
    headers['mcp-method'] = 'tools/list';
  } else headers['mcp-protocol-version'] = '2025-11-25';
  const params = era === 'modern' ? { _meta: META } : {};
  return post(url, headers, JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list', params }));
}

/** Serves `tools` on Hono at /mcp, with `options`, behind `before` (an app's own middleware) when given. */
function honoMount(options: McpMountOptions, before?: Parameters<Hono['use']>[1]) {
  const app = new Hono();
  if (before) app.use('/mcp', before);
  app.all('/mcp', mcp([...tools, bigAnswer], { server: { name: 'gzip', version: '1.0.0' }, ...options }));
  return listen(app.fetch);
}

const mounts: Record<string, McpMountOptions> = {
  plain: {},
  sse: { protocol: { responseMode: 'sse' } },
  visible: { access: { visibleTools: () => VISIBLE } },
  off: { protocol: { compressList: false } },
};
const running: Record<string, Running> = {};

beforeAll(async () => {
  for (const [name, options] of Object.entries(mounts)) running[name] = await honoMount(options);
});
afterAll(async () => {
  for (const r of Object.values(running)) await r.close();
});

const BOTH = 'application/json, text/event-stream';
/** Every framing: 2026-07-28 JSON and SSE (`responseMode: 'sse'`), 2025 SSE and JSON (collapsed, accept.ts). */
const framings: Array<[string, string, Era, string, string]> = [
  ['2026-07-28 JSON', 'plain', 'modern', BOTH, 'application/json'],
  ['2026-07-28 SSE', 'sse', 'modern', BOTH, 'text/event-stream'],
  ['2025 SSE', 'plain', 'legacy', BOTH, 'text/event-stream'],
  ['2025 JSON (an SSE answer collapsed)', 'plain', 'legacy', 'application/json', 'application/json'],
  ['2026-07-28 JSON, a visibleTools list', 'visible', 'modern', BOTH, 'application/json'],
  ['2025 SSE, a visibleTools list', 'visible', 'legacy', BOTH, 'text/event-stream'],
];
const IDS: unknown[] = [
  1,
  0,
  9_007_199_254_740_991,
  -42,
  'a',
  '',
  'ключ 🦄 «é»',
  'quote " and \\ and \u2028',
  'x'.repeat(300),
];

describe('tools/list sent gzip-encoded', () => {
  it.each(framings)(
    'decodes, %s, to the uncompressed answer byte for byte, for every id, as one gzip member',
    async (_name, mount, era, accept, type) => {
      const url = running[mount]!.url;
      for (const id of IDS) {
        const plain = await list(url, era, id, accept);
        const gzipped = await list(url, era, id, accept, GZIP);
        expect(plain.status).toBe(200);
        expect(gzipped.status).toBe(200);
        expect(plain.headers['content-type']).toContain(type);
        expect(gzipped.headers['content-type']).toBe(plain.headers['content-type']);
        expect(plain.headers['content-encoding']).toBeUndefined();
        expect(gzipped.headers['content-encoding']).toBe('gzip');
        expect(plain.headers.vary).toBe('Accept-Encoding');
        expect(gzipped.headers.vary).toBe('Accept-Encoding');
        expect(gzipped.headers['content-length']).toBe(String(gzipped.body.length));
        expect(gzipped.headers['transfer-encoding']).toBeUndefined();
        expect(zlib.gunzipSync(gzipped.body).equals(plain.body)).toBe(true);
        expect(strictGunzip(gzipped.body).equals(plain.body)).toBe(true);
        expect(gzipped.body.length * 5).toBeLessThan(plain.body.length);
      }
      const text = (await list(url, era, 'id', accept)).body.toString('utf8');
      const message = JSON.parse(type === 'application/json' ? text : text.slice(text.indexOf('data: ') + 6));
      const names = message.result.tools.map((t: { name: string }) => t.name);
      expect(names).toEqual(mount === 'visible' ? VISIBLE : [...tools, bigAnswer].map((t) => t.name));
    },
  );

  it.each([
    ['gzip', true],
    ['*', true],
    ['br;q=1, gzip;q=0.5', true],
    ['x-gzip', true],
    ['identity', false],
    ['gzip;q=0', false],
    ['*;q=0', false],
    ['gzip;q=0.5, identity', false],
    ['br, deflate', false],
    ['', false],
  ])('reads Accept-Encoding %j as gzip accepted: %s', async (acceptEncoding, gzip) => {
    const answer = await list(running.plain!.url, 'modern', 1, BOTH, acceptEncoding);
    expect(answer.headers['content-encoding']).toBe(gzip ? 'gzip' : undefined);
    expect(answer.headers.vary).toBe('Accept-Encoding');
    const body = gzip ? zlib.gunzipSync(answer.body) : answer.body;
    expect(JSON.parse(body.toString('utf8')).result.tools).toHaveLength(tools.length + 1);
  });

  it('sends no Accept-Encoding header: the list as it is', async () => {
    const answer = await list(running.plain!.url, 'legacy', 1, BOTH);
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.body.toString('utf8')).toMatch(/^event: message\ndata: \{"result":\{"tools":\[/);
  });

  it('is off with protocol.compressList false: no Content-Encoding, no Vary', async () => {
    for (const era of ['modern', 'legacy'] as const) {
      const answer = await list(running.off!.url, era, 1, BOTH, GZIP);
      expect(answer.headers['content-encoding']).toBeUndefined();
      expect(answer.headers.vary).toBeUndefined();
      expect(answer.body.toString('utf8')).toContain('"name":"tool_29"');
    }
    expect(() => mcp(tools, { protocol: { compressList: 'yes' as never } })).toThrow(
      /protocol\.compressList must be a boolean, got yes/,
    );
  });

  it('compresses only tools/list: a call and an error answer are sent as they were', async () => {
    const call = await post(
      running.plain!.url,
      {
        'content-type': 'application/json',
        accept: BOTH,
        'accept-encoding': GZIP,
        'mcp-protocol-version': '2025-11-25',
      },
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'big_answer', arguments: {} } }),
    );
    expect(call.headers['content-encoding']).toBeUndefined();
    expect(call.body.toString('utf8')).toContain('x'.repeat(100));
    const refused = await post(
      running.plain!.url,
      {
        'content-type': 'application/json',
        accept: BOTH,
        'accept-encoding': GZIP,
        'mcp-protocol-version': '2025-11-25',
      },
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { cursor: 'nope' } }),
    );
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(refused.body.toString('utf8')).toContain('-32602');
  });
});

describe('clients of a gzip-encoded tools/list', () => {
  it.each(eras)(
    'the official %s client lists the same tools through it as from a mount that never compresses',
    async (era) => {
      const listed = async (url: string) => {
        const encodings: Array<string | null> = [];
        const send = async (input: string | URL | Request, init?: RequestInit) => {
          const response = await fetch(input, init);
          if (typeof init?.body === 'string' && init.body.includes('"tools/list"')) {
            encodings.push(response.headers.get('content-encoding'));
          }
          return response;
        };
        const client = await connect(era, url, send);
        try {
          return { tools: (await client.listTools()).tools, encodings, body: await client.lastBody('tools/list') };
        } finally {
          await client.close();
        }
      };
      const gzipped = await listed(running.plain!.url);
      const plain = await listed(running.off!.url);
      expect(gzipped.encodings).toEqual(['gzip']);
      expect(plain.encodings).toEqual([null]);
      expect(gzipped.tools).toEqual(plain.tools);
      expect(gzipped.tools).toHaveLength(tools.length + 1);
      expect(gzipped.body).toBe(plain.body);
    },
  );

  it('a plain fetch (undici) asks for gzip by itself and reads the list decoded', async () => {
    const init = (url: string) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: BOTH, 'mcp-protocol-version': '2025-11-25' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 'é', method: 'tools/list', params: {} }),
      });
    const gzipped = await init(running.plain!.url);
    expect(gzipped.headers.get('content-encoding')).toBe('gzip');
    const plain = await list(running.plain!.url, 'legacy', 'é', BOTH);
    expect(await gzipped.text()).toBe(plain.body.toString('utf8'));
  });
});

describe("an app's own compression beside it", () => {
  /** A 2026-07-28 tools/list and a call with a 20 KB answer through `url`, accepting gzip, as sent on the wire. */
  async function listAndCall(url: string) {
    const send = (id: number, method: string, params: object) =>
      post(
        url,
        {
          'content-type': 'application/json',
          accept: BOTH,
          'accept-encoding': GZIP,
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': method,
          ...(method === 'tools/call' && { 'mcp-name': 'big_answer' }),
        },
        JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: META } }),
      );
    const listed = await send(1, 'tools/list', {});
    const called = await send(2, 'tools/call', { name: 'big_answer', arguments: {} });
    return { listed, called };
  }

  /** The list was gzip-encoded once: decoding it once gives the JSON-RPC answer. */
  function expectListEncodedOnce(listed: BinaryResponse) {
    expect(listed.headers['content-encoding']).toBe('gzip');
    const text = zlib.gunzipSync(listed.body).toString('utf8');
    expect(JSON.parse(text).result.tools).toHaveLength(tools.length + 1);
  }

  /**
   * An app's own compression beside the mount: the list left as the mount gzip-encoded it and a call's large
   * answer compressed by the app; with `compressList` off, the app compresses the list as it did before.
   */
  async function compressesBeside(
    serve: (compressList: boolean) => Promise<{ url: string; close(): Promise<void> }>,
  ): Promise<void> {
    const server = await serve(true);
    try {
      const { listed, called } = await listAndCall(server.url);
      expectListEncodedOnce(listed);
      expect(called.headers['content-encoding']).toBe('gzip');
      expect(zlib.gunzipSync(called.body).toString('utf8')).toContain('x'.repeat(100));
    } finally {
      await server.close();
    }
    const off = await serve(false);
    try {
      expectListEncodedOnce((await listAndCall(off.url)).listed);
    } finally {
      await off.close();
    }
  }

  it("Hono's compress() leaves the gzip-encoded list alone and compresses a call's large answer", async () => {
    await compressesBeside((compressList) =>
      honoMount({ protocol: { responseMode: 'json', compressList } }, compress()),
    );
  });

  it("Express's compression leaves the gzip-encoded list alone and compresses a call's large answer", async () => {
    await compressesBeside((compressList) => {
      const app = express();
      app.use(compression());
      app.use('/mcp', expressMcp([...tools, bigAnswer], { protocol: { responseMode: 'json', compressList } }));
      return listenApp(app);
    });
  });
});

describe('the Next.js route handlers', () => {
  it('never gzip-encode tools/list, even with compressList set: Next drops a route’s Content-Encoding as it sends', async () => {
    const { POST } = nextMcp(tools, { protocol: { compressList: true } });
    const response = await POST(
      new Request('http://mcp.example.com/mcp', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'accept-encoding': 'gzip, deflate',
          'mcp-protocol-version': '2025-06-18',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      }),
      { params: Promise.resolve({}) },
    );
    expect(response.headers.get('content-encoding')).toBeNull();
    const text = await response.text();
    expect(text.startsWith('event: message\ndata: {"result":{"tools":[')).toBe(true);
  });
});
