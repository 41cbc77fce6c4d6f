/**
 * Review R1 of the cached tools/list (list-cache.ts, tool-list.ts): what a consumer of the body, a
 * middleware in front, or a throwing visibleTools predicate does to it. Failing tests are findings
 * (reproductions for workerd and the validator in .scratch/ of the review worktree, not committed).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import express from 'express';
import { Hono } from 'hono';
import { compress } from 'hono/compress';
import { type AnyTool, defineTool, type McpMountOptions, validateMcpSchemas } from 'mcp-mount';
import { createMcpFetchHandler } from 'mcp-mount/adapter';
import { mcp as expressMcp } from 'mcp-mount/express';
import { mcp } from 'mcp-mount/hono';
import { mcp as nextMcp } from 'mcp-mount/next';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { reference } from '../support/list-reference.js';
import { listen } from '../support/server.js';

const tools: AnyTool[] = Array.from({ length: 40 }, (_, i) =>
  defineTool({
    name: `t${String(i).padStart(2, '0')}`,
    description: `tool ${i} ${'x'.repeat(200)}`,
    input: z.object({ a: z.string(), n: z.number().optional() }),
    handler: () => 'ok',
  }),
);
const silent = { warn: () => {}, error: () => {} };
const options = (extra: McpMountOptions = {}, mode: 'json' | 'sse' = 'json'): McpMountOptions => ({
  server: { name: 'cache', version: '1.2.3' },
  projection: 'flat',
  protocol: { responseMode: mode },
  schemaValidation: { policy: 'warn' },
  observe: { logger: silent },
  ...extra,
});

function listRequest(url = 'http://localhost/mcp', extra: Record<string, string> = {}): Request {
  return new Request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...extra },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });
}

async function sdkText(extra: McpMountOptions, shown: (name: string) => boolean, mode: 'json' | 'sse' = 'json') {
  const listed = validateMcpSchemas(tools, options(extra, mode)).tools.filter((t) => shown(t.name));
  return (await reference(listed, mode).fetch(listRequest())).text();
}

/** Equal texts, reported by where they first differ rather than by a 20 KB diff. */
function same(actual: string, expected: string) {
  let at = 0;
  while (at < actual.length && actual[at] === expected[at]) at++;
  expect({ length: actual.length, firstDifference: at === actual.length && at === expected.length ? -1 : at }).toEqual({
    length: expected.length,
    firstDifference: -1,
  });
}

/** Reads `response`'s body as a byte stream would re-stream it: each chunk's ArrayBuffer transferred (Streams spec). */
async function transferred(response: Response): Promise<void> {
  const reader = response.body!.getReader();
  const bytes = new ReadableStream({
    type: 'bytes',
    async pull(controller) {
      const { value, done } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
  });
  await new Response(bytes).text().catch(() => undefined);
}

// Chunks are the cache's own bytes, shared by every list (ADR 0025): writing into one is not guarded (that would
// cost a copy per list); transferring one empties the cache's buffer, which the next list notices.
describe('a reader that transfers a cached list chunk does not break the next list', () => {
  it('a consumer re-streaming the body as a byte stream leaves later lists intact, with one warning', async () => {
    const warned: unknown[] = [];
    const logger = { ...silent, warn: (...args: unknown[]) => void warned.push(args[0]) };
    const mount = createMcpFetchHandler(tools, options({ observe: { logger } }));
    const expected = await sdkText({}, () => true);
    await transferred(await mount.fetch(listRequest()));
    same(await (await mount.fetch(listRequest())).text(), expected);
    same(await (await mount.fetch(listRequest())).text(), expected);
    expect(warned).toEqual([expect.stringContaining('transferred its bytes')]);
  });

  it('the same for a filtered list sent as views of the shared buffer', async () => {
    const visible = ['t01', 't02', 't30'];
    const extra = { access: { visibleTools: () => visible }, observe: { logger: silent } };
    const mount = createMcpFetchHandler(tools, options(extra));
    const expected = await sdkText(extra, (n) => visible.includes(n));
    await transferred(await mount.fetch(listRequest()));
    same(await (await mount.fetch(listRequest())).text(), expected);
  });
});

describe('filters of every shape, byte for byte with the SDK', () => {
  const names = tools.map((t) => t.name);
  const patterns: Record<string, string[]> = {
    none: [],
    all: names,
    one: ['t17'],
    first: ['t00'],
    last: ['t39'],
    'every other (20 runs: copied)': names.filter((_, i) => i % 2 === 0),
    'eight runs': names.filter((_, i) => i % 5 === 0),
    'nine runs': names.filter((_, i) => i % 4 === 0 && i < 36),
    reversed: [...names].reverse().slice(0, 9),
    duplicates: ['t03', 't03', 't04', 't03'],
    'unknown names': ['nope', 't05', 'also-nope'],
    'all but one': names.slice(1),
    'as many names as tools, one unknown': [...names.slice(1), 'nope'],
  };
  for (const mode of ['json', 'sse'] as const) {
    for (const [label, visible] of Object.entries(patterns)) {
      it(`${mode}: ${label}`, async () => {
        const extra = { access: { visibleTools: () => visible } };
        const mount = createMcpFetchHandler(tools, options(extra, mode));
        const expected = await sdkText(extra, (n) => visible.includes(n), mode);
        same(await (await mount.fetch(listRequest())).text(), expected);
        same(await (await mount.fetch(listRequest())).text(), expected);
      });
    }
  }
});

const MODERN = {
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': 'tools/list',
};
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'review', version: '1.0.0' },
};
function modernList(url: string, extra: Record<string, string> = {}): Request {
  return new Request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...MODERN, ...extra },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: META } }),
  });
}

describe('middleware in front, over real HTTP', () => {
  it('Hono compress: the gzipped 2026-07-28 JSON list is the SDK list, on every request', async () => {
    const app = new Hono();
    app.use(compress({ encoding: 'gzip' }));
    app.all('/mcp', mcp(tools, options()));
    const running = await listen(app.fetch);
    try {
      const listed = validateMcpSchemas(tools, options()).tools;
      const expected = await (await reference(listed, 'json').fetch(modernList('http://localhost/mcp'))).text();
      for (let i = 0; i < 3; i++) {
        const response = await fetch(modernList(running.url, { 'accept-encoding': 'gzip' }));
        // fetch decodes the gzip itself.
        expect(response.headers.get('content-encoding')).toBe('gzip');
        same(await response.text(), expected);
      }
    } finally {
      await running.close();
    }
  });
});

describe('a 2025-era SSE answer collapsed to JSON for a JSON-only client', () => {
  it("has the SDK JSON answer's headers, not the event stream's (no-transform keeps every proxy from compressing it)", async () => {
    const mount = createMcpFetchHandler(tools, options({}, 'sse'));
    const response = await mount.fetch(listRequest('http://localhost/mcp', { accept: 'application/json' }));
    expect(response.headers.get('content-type')).toBe('application/json');
    // The SDK's own JSON answer (2026-07-28, or responseMode json where it applies) sends content-type alone.
    expect({
      cacheControl: response.headers.get('cache-control'),
      connection: response.headers.get('connection'),
      accelBuffering: response.headers.get('x-accel-buffering'),
    }).toEqual({ cacheControl: null, connection: null, accelBuffering: null });
  });

  it('is compressed by Hono compress like any JSON answer', async () => {
    const app = new Hono();
    app.use(compress({ encoding: 'gzip' }));
    app.all('/mcp', mcp(tools, options({}, 'sse')));
    const response = await app.request(
      listRequest('http://localhost/mcp', { accept: 'application/json', 'accept-encoding': 'gzip' }),
    );
    expect(response.headers.get('content-encoding')).toBe('gzip');
  });
});

describe('a visibleTools predicate that throws while a tools/list is answered', () => {
  it("is the mount's 500 that onError sees, as for a call, never its text in the result, batched or not", async () => {
    const seen: unknown[] = [];
    const extra: McpMountOptions = {
      access: {
        visibleTools: () => () => {
          throw new Error('db password=hunter2');
        },
      },
      observe: { logger: silent, onError: (error) => void seen.push(error) },
    };
    const mount = createMcpFetchHandler(tools, options(extra));
    // A 2025-era client may batch a list with other requests.
    const batch = new Request('http://localhost/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify([
        { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
        { jsonrpc: '2.0', id: 2, method: 'ping' },
      ]),
    });
    for (const request of [listRequest(), modernList('http://localhost/mcp'), batch]) {
      const response = await mount.fetch(request);
      const text = await response.text();
      expect(text).not.toContain('hunter2');
      expect(response.status).toBe(500);
    }
    expect(seen).toHaveLength(3);
  });
});

describe('a large cached list over real sockets, on every Node adapter', () => {
  const many = Array.from({ length: 400 }, (_, i) =>
    defineTool({
      name: `m${i}`,
      description: 'y'.repeat(1000),
      input: z.object({ a: z.string() }),
      handler: () => 'ok',
    }),
  );
  const servers: Record<string, () => http.Server> = {
    hono: () => {
      const app = new Hono();
      app.all('/mcp', mcp(many, options({}, 'sse')));
      return serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as http.Server;
    },
    express: () =>
      express()
        .use('/mcp', expressMcp(many, options({}, 'sse')))
        .listen(0, '127.0.0.1'),
    next: () => {
      const route = nextMcp(many, options({}, 'sse'));
      return serve({ fetch: (r) => route.POST(r, { params: {} }), port: 0, hostname: '127.0.0.1' }) as http.Server;
    },
  };
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
  const send = (port: number, agent: http.Agent, onResponse: (res: http.IncomingMessage) => void) => {
    const headers = { 'content-type': 'application/json', accept: 'application/json', 'content-length': body.length };
    const req = http.request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', agent, headers }, onResponse);
    req.on('error', () => {});
    req.end(body);
    return req;
  };
  const read = (port: number, agent: http.Agent, delayMs = 0) =>
    new Promise<{ text: string; socket: unknown }>((resolve) => {
      send(port, agent, (res) => {
        res.pause();
        const parts: Buffer[] = [];
        setTimeout(() => res.on('data', (c: Buffer) => parts.push(c)).resume(), delayMs);
        res.on('end', () => resolve({ text: Buffer.concat(parts).toString(), socket: res.socket }));
      });
    });

  for (const [name, make] of Object.entries(servers)) {
    it(`${name}: the same list (an SSE mount collapsed to JSON) after a client aborts mid-body, beside a slow reader, on a reused connection`, async () => {
      const server = make();
      await new Promise<void>((resolve) => (server.listening ? resolve() : server.once('listening', resolve)));
      const { port } = server.address() as AddressInfo;
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        const first = await read(port, agent);
        expect(JSON.parse(first.text).result.tools).toHaveLength(400);
        await new Promise<void>((resolve) => {
          const req = send(port, agent, (res) => {
            res.once('data', () => {
              req.destroy();
              resolve();
            });
          });
        });
        const slow = read(port, new http.Agent(), 300);
        const others = await Promise.all([1, 2, 3].map(() => read(port, new http.Agent())));
        const [a, b] = [await read(port, agent), await read(port, agent)];
        expect(a.socket).toBe(b.socket);
        for (const r of [...others, a, b, await slow]) expect(r.text === first.text).toBe(true);
      } finally {
        agent.destroy();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    });
  }
});
