/**
 * CORS (`cors`) for browser clients: a real preflight and request with a browser-like `Origin` on Hono
 * and Express over HTTP, and through the Next.js route's `OPTIONS` export; CORS answers only the origins
 * the Origin check lets in, so it never weakens that check, also when a CORS middleware sits in front.
 */
import express from 'express';
import { Hono } from 'hono';
import { cors as honoCors } from 'hono/cors';
import { defineTool, type McpMountOptions } from 'mcp-mount';
import { mcp as expressMcp } from 'mcp-mount/express';
import { mcp as honoMcp } from 'mcp-mount/hono';
import { mcp as nextMcp } from 'mcp-mount/next';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { mergedOptions } from '../support/options.js';
import { listen } from '../support/server.js';
import { listenApp } from './support/listen.js';
import { parseBody } from './support/session.js';
import { jsonRpcHeaders, rpc } from './support/tools.js';

const echo = defineTool({ name: 'echo', input: z.object({ text: z.string() }), handler: ({ input }) => input.text });
const APP = 'https://app.example.com';
const LOCAL = 'http://localhost:5173';
const options: McpMountOptions = { access: { cors: true, origins: [APP] } };

/** What a browser's preflight for an MCP POST from `origin` sends. */
const preflightHeaders = (origin: string) => ({
  origin,
  'access-control-request-method': 'POST',
  'access-control-request-headers':
    'authorization, content-type, mcp-method, mcp-name, mcp-param-region, mcp-protocol-version, x-not-allowed',
});

const servers = {
  hono: async (more: McpMountOptions = {}) => {
    const app = new Hono();
    app.all('/mcp', honoMcp([echo], mergedOptions(options, more)));
    return listen(app.fetch);
  },
  express: async (more: McpMountOptions = {}) => {
    const app = express();
    app.use('/mcp', expressMcp([echo], mergedOptions(options, more)));
    return listenApp(app);
  },
};

describe.each(Object.entries(servers))('cors on %s', (_name, start) => {
  let server: { url: string; close(): Promise<void> };
  beforeAll(async () => {
    server = await start();
  });
  afterAll(() => server.close());

  it('answers a preflight from an allowed origin with 204 allowing the MCP headers, not others', async () => {
    for (const origin of [APP, LOCAL]) {
      const response = await fetch(server.url, { method: 'OPTIONS', headers: preflightHeaders(origin) });
      expect(response.status, origin).toBe(204);
      expect(Object.fromEntries([...response.headers].filter(([k]) => k.startsWith('access-control-')))).toEqual({
        'access-control-allow-origin': origin,
        'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
        'access-control-allow-headers':
          'authorization, content-type, mcp-method, mcp-name, mcp-param-region, mcp-protocol-version',
        'access-control-max-age': '600',
      });
      expect(response.headers.get('vary')).toContain('Origin');
    }
  });

  it('answers the request that follows with the origin allowed and Mcp-Session-Id exposed', async () => {
    const response = await fetch(server.url, {
      method: 'POST',
      headers: { ...jsonRpcHeaders, origin: APP },
      body: rpc('tools/call', { name: 'echo', arguments: { text: 'hi' } }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe(APP);
    expect(response.headers.get('access-control-expose-headers')).toBe(
      'Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate',
    );
    expect(parseBody(await response.text()).result.content[0].text).toBe('hi');
  });

  it('refuses a preflight and a request from an origin the Origin check refuses, with no CORS headers', async () => {
    const preflight = await fetch(server.url, { method: 'OPTIONS', headers: preflightHeaders('https://evil.example') });
    expect(preflight.status).toBe(403);
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    const post = await fetch(server.url, {
      method: 'POST',
      headers: { ...jsonRpcHeaders, origin: 'https://evil.example' },
      body: rpc('tools/list'),
    });
    expect([post.status, post.headers.get('access-control-allow-origin')]).toEqual([403, null]);
  });

  it('lets a browser read a 401 challenge: WWW-Authenticate is exposed to allowed origins', async () => {
    const authed = await start({ access: { auth: { verify: () => undefined } } });
    try {
      const response = await fetch(authed.url, {
        method: 'POST',
        headers: { ...jsonRpcHeaders, origin: APP },
        body: rpc('tools/list'),
      });
      expect(response.status).toBe(401);
      expect(response.headers.get('access-control-allow-origin')).toBe(APP);
      expect(response.headers.get('access-control-expose-headers')).toContain('WWW-Authenticate');
      // The preflight before it carries no credentials, and is not asked for them.
      expect((await fetch(authed.url, { method: 'OPTIONS', headers: preflightHeaders(APP) })).status).toBe(204);
    } finally {
      await authed.close();
    }
  });

  it('without cors, sends no CORS headers and leaves OPTIONS to the SDK (405)', async () => {
    const plain = await start({ access: { cors: false } });
    try {
      const response = await fetch(plain.url, { method: 'OPTIONS', headers: preflightHeaders(APP) });
      expect([response.status, response.headers.get('access-control-allow-origin')]).toEqual([405, null]);
    } finally {
      await plain.close();
    }
  });
});

describe('cors on the Next.js route', () => {
  it('answers a preflight through the OPTIONS export, and the request after it', async () => {
    const { OPTIONS, POST } = nextMcp([echo], options);
    const context = { params: Promise.resolve({}) };
    const url = 'https://mcp.example.com/mcp';
    const preflight = await OPTIONS(new Request(url, { method: 'OPTIONS', headers: preflightHeaders(APP) }), context);
    expect([preflight.status, preflight.headers.get('access-control-allow-origin')]).toEqual([204, APP]);
    const post = await POST(
      new Request(url, { method: 'POST', headers: { ...jsonRpcHeaders, origin: APP }, body: rpc('tools/list') }),
      context,
    );
    expect([post.status, post.headers.get('access-control-allow-origin')]).toEqual([200, APP]);
    const evil = await OPTIONS(
      new Request(url, { method: 'OPTIONS', headers: preflightHeaders('https://evil.example') }),
      context,
    );
    expect(evil.status).toBe(403);
  });
});

describe('a CORS middleware in front (hono/cors allowing every origin)', () => {
  it('answers preflights, but a request from an origin the Origin check refuses still gets 403', async () => {
    const app = new Hono();
    app.use('/mcp', honoCors({ origin: '*', allowHeaders: ['content-type', 'mcp-protocol-version'] }));
    app.all('/mcp', honoMcp([echo], { access: { origins: [APP] } }));
    const server = await listen(app.fetch);
    try {
      const preflight = await fetch(server.url, {
        method: 'OPTIONS',
        headers: preflightHeaders('https://evil.example'),
      });
      expect(preflight.status).toBe(204); // the middleware's answer
      const evil = await fetch(server.url, {
        method: 'POST',
        headers: { ...jsonRpcHeaders, origin: 'https://evil.example' },
        body: rpc('tools/call', { name: 'echo', arguments: { text: 'hi' } }),
      });
      expect(evil.status).toBe(403);
      const allowed = await fetch(server.url, {
        method: 'POST',
        headers: { ...jsonRpcHeaders, origin: APP },
        body: rpc('tools/list'),
      });
      expect(allowed.status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

describe('cors options', () => {
  it('takes extra headers, a max age and credentials, and refuses what cannot mean anything', async () => {
    const { OPTIONS } = nextMcp([echo], {
      access: {
        origins: [APP],
        cors: { allowHeaders: ['X-Tenant'], exposeHeaders: ['X-Request-Id'], maxAgeSeconds: 60, credentials: true },
      },
    });
    const headers = { ...preflightHeaders(APP), 'access-control-request-headers': 'content-type, x-tenant' };
    const response = await OPTIONS(new Request('https://mcp.example.com/mcp', { method: 'OPTIONS', headers }), {
      params: {},
    });
    expect(response.headers.get('access-control-allow-headers')).toBe('content-type, x-tenant');
    expect(response.headers.get('access-control-max-age')).toBe('60');
    expect(response.headers.get('access-control-allow-credentials')).toBe('true');
    for (const cors of [{ allowHeaders: ['bad header'] }, { maxAgeSeconds: -1 }, 'yes']) {
      expect(() => nextMcp([echo], { access: { cors: cors as never } }), JSON.stringify(cors)).toThrow(TypeError);
    }
  });
});
