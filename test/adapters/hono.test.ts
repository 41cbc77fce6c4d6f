/**
 * The Hono adapter (`mcp-mount/hono`) in-process: the middleware mounted on a `Hono` app and driven with
 * `app.request(...)`, no socket. Calls, repair, refusals, HTTP errors, and what the app hands the tool:
 * `c.env` as `ctx.host.env`, `c` as `ctx.host.context`, and `c.get('authInfo')` from an upstream
 * middleware as `ctx.authInfo`, typed as a tool declares them. Then, over real HTTP (@hono/node-server)
 * with both official clients, a body a middleware before the mount already read.
 * The Hono example over real HTTP with both official clients is in test/integration/hono-end-to-end.test.ts.
 */
import { type Context, Hono, type MiddlewareHandler } from 'hono';
import { validator } from 'hono/validator';
import { defineTool, type McpMountOptions } from 'mcp-mount';
import { type HonoHost, mcp } from 'mcp-mount/hono';
import { describe, expect, it, vi } from 'vitest';
import { options, tools } from '../../examples/shared/tools.js';
import { listen } from '../support/server.js';
import { eras } from './support/clients.js';
import { checkTranscript, parseBody, runSession } from './support/session.js';
import { contextTool, jsonRpcHeaders, rpc } from './support/tools.js';

const AUTH = { token: 't', clientId: 'c', scopes: ['tools'] };
const media = [{ url: 'https://example.com/1.png' }, { url: 'https://example.com/2.png' }];

type Env = { Bindings: { GREETING: string }; Variables: { authInfo: typeof AUTH; user: string } };

/** A tool that declares the Hono host, so its handler reads `env` and the context typed. */
const honoTool = defineTool.for<{ host: HonoHost<Env> }>()({
  name: 'hono_context',
  handler: (_args, ctx) => ({
    greeting: ctx.host.env.GREETING,
    user: ctx.host.context.get('user'),
    clientId: ctx.authInfo?.clientId ?? null,
  }),
});

/** The example tools and `context` at /mcp, behind a middleware that sets `authInfo` as an auth layer would. */
function app() {
  const hono = new Hono<Env>();
  hono.use('/mcp', async (c, next) => {
    c.set('authInfo', AUTH);
    c.set('user', 'ada');
    await next();
  });
  hono.all('/mcp', mcp([...tools, contextTool, honoTool], options));
  return hono;
}

/** POSTs a JSON-RPC body to /mcp in-process, with `env` as the Hono env (`c.env`). */
function post(body: string, headers: Record<string, string> = {}, env?: Env['Bindings']) {
  return app().request('/mcp', { method: 'POST', headers: { ...jsonRpcHeaders, ...headers }, body }, env);
}

/** The JSON-RPC result of a tools/call. */
async function callTool(name: string, args: unknown, env?: Env['Bindings']) {
  const response = await post(rpc('tools/call', { name, arguments: args }), {}, env);
  expect(response.status).toBe(200);
  return parseBody(await response.text()).result as { isError?: boolean; content: Array<{ text: string }> };
}

/** `send_message` with `args` succeeds, and its handler sent both media of the album to `chatId`. */
async function expectAlbumSent(args: unknown, chatId: string) {
  const result = await callTool('send_message', args);
  expect(result.isError ?? false).toBe(false);
  expect(JSON.parse(result.content[0]!.text)).toEqual({ sent: true, chatId, type: 'mediaGroup', attachments: 2 });
}

describe('Hono adapter in-process (app.request)', () => {
  it('lists the mounted tools, with the union input served as one flat object', async () => {
    const response = await post(rpc('tools/list'));
    expect(response.status).toBe(200);
    const listed = parseBody(await response.text()).result.tools as Array<{ name: string; inputSchema: unknown }>;
    expect(listed.map((t) => t.name)).toEqual([
      'send_message',
      'publish_post',
      'search_notes',
      'context',
      'hono_context',
    ]);
    const sendMessage = listed.find((t) => t.name === 'send_message');
    expect(JSON.stringify(sendMessage?.inputSchema)).not.toMatch(/"(oneOf|anyOf|allOf)"/);
  });

  it('answers a valid call with what the handler returned', async () => {
    await expectAlbumSent({ chatId: 'c-1', type: 'mediaGroup', media }, 'c-1');
  });

  it('repairs an array sent as a JSON string before the handler sees it', async () => {
    await expectAlbumSent({ chatId: 'c-2', type: 'mediaGroup', media: JSON.stringify(media) }, 'c-2');
  });

  it('answers an invalid call with an isError result naming the failing path', async () => {
    const result = await callTool('send_message', {
      chatId: 'c-3',
      type: 'mediaGroup',
      media: [{ url: 42 }, media[1]],
    });
    expect(result.isError).toBe(true);
    expect(result.content.map((c) => c.text).join('\n')).toContain('media[0].url');
  });

  it('answers a body that is not JSON with 400 and a JSON-RPC parse error', async () => {
    const response = await post('{"jsonrpc": "2.0", nope');
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    expect(await response.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32700 } });
  });

  it('answers a wrong content type with 415 and a JSON-RPC error', async () => {
    const response = await post(rpc('tools/list'), { 'content-type': 'text/plain' });
    expect(response.status).toBe(415);
    expect(await response.json()).toMatchObject({ jsonrpc: '2.0', error: { code: expect.any(Number) } });
  });

  it('answers GET (no stateless SSE stream) with 405 and a JSON-RPC error', async () => {
    const response = await app().request('/mcp', { headers: { accept: 'text/event-stream' } });
    expect(response.status).toBe(405);
    expect(await response.json()).toMatchObject({ jsonrpc: '2.0', error: {} });
  });

  it("hands the app's env (c.env) and the context (c) to the tool as ctx.host.env and ctx.host.context", async () => {
    const env = { GREETING: 'hello from env' };
    const result = await callTool('context', {}, env);
    expect(result.isError ?? false).toBe(false);
    expect(JSON.parse(result.content[0]!.text)).toMatchObject({ env, hostKeys: ['context', 'env'] });
  });

  it('gives a tool that declares HonoHost<Env> the env, the context and the auth info, typed', async () => {
    const result = await callTool('hono_context', {}, { GREETING: 'hi' });
    expect(JSON.parse(result.content[0]!.text)).toEqual({ greeting: 'hi', user: 'ada', clientId: 'c' });
  });

  it('serves a call after a middleware read the body with c.req.json() (a web Request, as on Workers and Bun)', async () => {
    const hono = new Hono();
    hono.use('/mcp', async (c, next) => {
      await c.req.json();
      await next();
    });
    hono.all('/mcp', mcp(tools, options));
    const body = rpc('tools/call', { name: 'search_notes', arguments: { query: 'zod', limit: 1 } });
    const response = await hono.request('/mcp', { method: 'POST', headers: jsonRpcHeaders, body });
    expect(response.status).toBe(200);
    expect(parseBody(await response.text()).result.structuredContent).toEqual({
      query: 'zod',
      results: [{ id: 'n-1', title: 'First note about zod' }],
    });
  });

  it("hands c.get('authInfo'), set by an upstream middleware, to the tool as ctx.authInfo", async () => {
    const result = await callTool('context', {});
    expect(JSON.parse(result.content[0]!.text)).toMatchObject({ authInfo: AUTH });
  });
});

describe('Hono: a body a middleware before the mount already read', () => {
  /** An app whose `before` middleware runs ahead of the mount at /mcp, served over real HTTP. */
  async function served(before: MiddlewareHandler, mountOptions: McpMountOptions = options) {
    const hono = new Hono();
    hono.use('/mcp', before);
    hono.all('/mcp', mcp(tools, mountOptions));
    return listen(hono.fetch);
  }

  /** A logger that reads each POST body with `read` before handing the request on, as request loggers do. */
  function logger(read: (c: Context) => Promise<unknown>) {
    const seen: string[] = [];
    const middleware: MiddlewareHandler = async (c, next) => {
      if (c.req.method === 'POST') {
        const body = await read(c);
        seen.push((typeof body === 'string' ? JSON.parse(body) : body).method);
      }
      await next();
    };
    return { seen, middleware };
  }

  it.each([
    ['c.req.json()', (c: Context) => c.req.json()],
    ['c.req.text()', (c: Context) => c.req.text()],
  ])(
    'serves tools/list and tools/call to both official clients after a logger read the body with %s',
    async (_name, read) => {
      const { seen, middleware } = logger(read);
      const server = await served(middleware);
      try {
        for (const era of eras) checkTranscript(await runSession(server.url, era));
      } finally {
        await server.close();
      }
      expect(seen).toEqual(expect.arrayContaining(['initialize', 'tools/list', 'tools/call']));
    },
  );

  it("serves both official clients behind Hono's validator('json')", async () => {
    const server = await served(validator('json', (value) => value));
    try {
      for (const era of eras) checkTranscript(await runSession(server.url, era));
    } finally {
      await server.close();
    }
  });

  it('still answers 413 for a body over maxRequestBodyBytes that a middleware already read', async () => {
    const limit = 2048;
    const server = await served(logger((c) => c.req.json()).middleware, {
      ...options,
      limits: { maxRequestBodyBytes: limit },
    });
    try {
      const body = rpc('tools/list', { pad: 'x'.repeat(limit) });
      const response = await fetch(server.url, { method: 'POST', headers: jsonRpcHeaders, body });
      expect(response.status).toBe(413);
      expect(await response.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
    } finally {
      await server.close();
    }
  });

  it('answers a body read around Hono (c.req.raw) with a JSON-RPC 500 saying so, and onError learns how to fix it', async () => {
    const onError = vi.fn();
    const server = await served(
      async (c, next) => {
        await c.req.raw.json();
        await next();
      },
      { ...options, observe: { onError } },
    );
    try {
      const response = await fetch(server.url, { method: 'POST', headers: jsonRpcHeaders, body: rpc('tools/list') });
      expect(response.status).toBe(500);
      expect(await response.json()).toMatchObject({
        jsonrpc: '2.0',
        error: {
          code: -32603,
          message: expect.stringMatching(
            /^Internal server error: the request body was already read \(error id [0-9a-f-]{36}\)$/,
          ),
        },
      });
      expect(onError).toHaveBeenCalledWith(
        expect.objectContaining({ message: expect.stringContaining('request.clone()') }),
        { phase: 'request', errorId: expect.any(String) },
      );
    } finally {
      await server.close();
    }
  });
});
