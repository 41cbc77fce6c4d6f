/**
 * The Express adapter: the example app on a real listening server driven by both official
 * clients (Express 5, and Express 4), HTTP edge cases through supertest and raw sockets, a body a parser
 * already read, the mount path, auth and host extras, client aborts, throwing handlers, the startup probe.
 */
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect as netConnect } from 'node:net';
import { join } from 'node:path';
import express from 'express';
import express4 from 'express4';
import { type AnyTool, type ErrorInfo, type McpMountOptions, McpMountSchemaError } from 'mcp-mount';
import { mcp } from 'mcp-mount/express';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../examples/express/app.js';
import { options, tools } from '../../examples/shared/tools.js';
import { mergedOptions } from '../support/options.js';
import { connect, eras } from './support/clients.js';
import { exampleAuth } from './support/example-auth.js';
import { type Listening, listenApp } from './support/listen.js';
import { freePort, type RunningProcess, repoRoot, startProcess } from './support/processes.js';
import { checkTranscript, parseBody, runSession } from './support/session.js';
import { boomTool, contextTool, datedTool, jsonRpcHeaders, rpc, slowTool } from './support/tools.js';

const LIMIT = 2048;

/** An app with the MCP endpoint, a small body limit, and a JSON 404 that shows what fell through. */
function edgeApp(extra: AnyTool[] = [], more: McpMountOptions = {}) {
  const app = express();
  app.use(
    '/mcp',
    mcp(
      [...tools, ...extra],
      mergedOptions<McpMountOptions>(options, { limits: { maxRequestBodyBytes: LIMIT } }, more),
    ),
  );
  app.use((req, res) => {
    res.status(404).json({ fellThrough: req.originalUrl });
  });
  return app;
}

describe('Express 5: the example app with both official clients', () => {
  let server: Listening;
  beforeAll(async () => {
    server = await listenApp(createApp((await exampleAuth()).auth));
  });
  afterAll(() => server.close());

  it.each(eras.map((era) => [era]))('runs the scripted session with client %s (no token)', async (era) => {
    checkTranscript(await runSession(server.url, era));
  });

  it("still serves the app's own routes", async () => {
    const response = await fetch(`${server.url.replace(/\/mcp$/, '')}/`);
    expect(await response.text()).toContain('Express example');
  });
});

describe('the Express example started by its documented command, with tokens', () => {
  let example: RunningProcess;
  let tokens: { write: string; none: string };
  beforeAll(async () => {
    // `npm run example:express` is `tsx examples/express/server.ts`: run exactly that, on a free port.
    const scripts = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).scripts;
    expect(scripts['example:express']).toBe('tsx examples/express/server.ts');
    const port = await freePort();
    example = await startProcess('node_modules/tsx/dist/cli.mjs', ['examples/express/server.ts'], {
      origin: `http://127.0.0.1:${port}`,
      env: { PORT: String(port) },
    });
    const printed = (label: string) => new RegExp(`${label}:\\s+(\\S+)`).exec(example.output())?.[1] ?? '';
    // The tokens are printed just after the server listens: wait for them however long that takes (the
    // hook's timeout is the bound), rather than for a fixed time a loaded machine may need more than.
    while (!printed('no scope')) await new Promise((r) => setTimeout(r, 50));
    tokens = { write: printed('notes:write'), none: printed('no scope') };
  });
  afterAll(() => example?.stop());
  const url = () => `${example.origin}/mcp`;

  it('prints its endpoint and two development tokens', () => {
    expect(example.output()).toContain(`MCP endpoint: ${url()}`);
    expect(tokens.write).toMatch(/^ey/);
    expect(tokens.none).toMatch(/^ey/);
  });

  it.each(eras.map((era) => [era]))('client %s: the notes:write token sees archive_note and calls it', async (era) => {
    const client = await connect(era, url(), fetch, { token: tokens.write });
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('archive_note');
      const result = await client.callTool('archive_note', { id: 'n-1' });
      expect(JSON.parse(result.content[0]!.text!)).toEqual({ archived: 'n-1', by: 'dev-writer' });
    } finally {
      await client.close();
    }
  });

  it.each(eras.map((era) => [era]))(
    'client %s: a token without the scope does not see it; its call gets 403',
    async (era) => {
      const client = await connect(era, url(), fetch, { token: tokens.none });
      try {
        expect((await client.listTools()).tools.map((t) => t.name)).toEqual([
          'send_message',
          'publish_post',
          'search_notes',
        ]);
        await expect(client.callTool('archive_note', { id: 'n-1' })).rejects.toThrow();
        expect(client.exchanges.at(-1)?.status).toBe(403);
      } finally {
        await client.close();
      }
    },
  );

  it('answers a bad token with 401 pointing at the metadata it serves', async () => {
    const response = await fetch(url(), {
      method: 'POST',
      headers: { ...jsonRpcHeaders, authorization: 'Bearer nope' },
      body: rpc('tools/list'),
    });
    expect(response.status).toBe(401);
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(response.headers.get('www-authenticate') ?? '')?.[1];
    expect(metadataUrl).toBe(`${example.origin}/.well-known/oauth-protected-resource/mcp`);
    expect(await (await fetch(metadataUrl!)).json()).toEqual({
      resource: url(),
      authorization_servers: [`${example.origin}/dev-issuer`],
      scopes_supported: ['notes:write'],
      bearer_methods_supported: ['header'],
    });
  });
});

describe('Express 4: the same mount line', () => {
  let server: Listening;
  beforeAll(async () => {
    const app = express4();
    app.use('/mcp', mcp(tools, options));
    server = await listenApp(app);
  });
  afterAll(() => server.close());

  it.each(eras.map((era) => [era]))('runs the scripted session with client %s', async (era) => {
    checkTranscript(await runSession(server.url, era));
  });

  it('works after express.json() (Express 4 sets req.body = {} even when it skips a body)', async () => {
    const app = express4();
    app.use(express4.json());
    app.use('/mcp', mcp([contextTool], options));
    const res = await supertest(app)
      .post('/mcp')
      .set(jsonRpcHeaders)
      .send(rpc('tools/call', { name: 'context', arguments: {} }));
    expect(res.status).toBe(200);
    expect(parseBody(res.text).result.isError ?? false).toBe(false);
  });
});

describe('Express: HTTP edge cases', () => {
  const app = edgeApp();

  it('answers a valid tools/list', async () => {
    const res = await supertest(app).post('/mcp').set(jsonRpcHeaders).send(rpc('tools/list'));
    expect(res.status).toBe(200);
    expect(parseBody(res.text).result.tools.map((t: { name: string }) => t.name)).toEqual([
      'send_message',
      'publish_post',
      'search_notes',
    ]);
  });

  it('a failure of the Node bridge itself is a JSON-RPC 500 that onError sees, and the app keeps serving', async () => {
    const errors: unknown[] = [];
    const broken = express();
    // A middleware that leaves a URL no parser takes: the bridge fails before the core runs.
    broken.use((req, _res, next) => {
      if (req.headers['x-break'] === '1') req.originalUrl = 'http://[::1';
      next();
    });
    broken.use('/mcp', mcp(tools, { ...options, observe: { onError: (error) => errors.push(error) } }));
    const res = await supertest(broken)
      .post('/mcp')
      .set({ ...jsonRpcHeaders, 'x-break': '1' })
      .send(rpc('tools/list'));
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal server error' } });
    expect(errors).toHaveLength(1);
    const ok = await supertest(broken).post('/mcp').set(jsonRpcHeaders).send(rpc('tools/list'));
    expect(ok.status).toBe(200);
  });

  it('answers bad JSON with 400 and a JSON-RPC parse error', async () => {
    const res = await supertest(app).post('/mcp').set(jsonRpcHeaders).send('{"jsonrpc": "2.0", nope');
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.body).toMatchObject({ jsonrpc: '2.0', error: { code: -32700 } });
  });

  it('answers a wrong content type with 415', async () => {
    const res = await supertest(app)
      .post('/mcp')
      .set({ ...jsonRpcHeaders, 'content-type': 'text/plain' })
      .send(rpc('tools/list'));
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject({ jsonrpc: '2.0', error: { code: expect.any(Number) } });
  });

  it('answers a body over maxRequestBodyBytes with 413 (Content-Length sent)', async () => {
    const res = await supertest(app)
      .post('/mcp')
      .set(jsonRpcHeaders)
      .send(rpc('tools/list', { pad: 'x'.repeat(LIMIT) }));
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ jsonrpc: '2.0', error: { message: expect.stringContaining(String(LIMIT)) } });
  });

  it('answers a chunked body (no Content-Length) over the limit with 413, counting bytes read', async () => {
    const server = await listenApp(app);
    try {
      const body = rpc('tools/list', { pad: 'x'.repeat(LIMIT * 4) });
      const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
        const req = httpRequest(server.url, { method: 'POST', headers: jsonRpcHeaders }, (res) => {
          let text = '';
          res.on('data', (d) => {
            text += d;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        });
        req.on('error', reject);
        for (let i = 0; i < body.length; i += 500) req.write(body.slice(i, i + 500));
        req.end();
      });
      expect(status).toBe(413);
      expect(JSON.parse(text)).toMatchObject({ jsonrpc: '2.0', error: { code: expect.any(Number) } });
    } finally {
      await server.close();
    }
  });

  it('answers GET (no stateless SSE stream) with 405 and a JSON-RPC error', async () => {
    const res = await supertest(app).get('/mcp').set('accept', 'text/event-stream');
    expect(res.status).toBe(405);
    expect(res.body).toMatchObject({ jsonrpc: '2.0', error: {} });
  });

  it('hands other paths under the mount to next()', async () => {
    const res = await supertest(app).post('/mcp/other').set(jsonRpcHeaders).send(rpc('tools/list'));
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ fellThrough: '/mcp/other' });
  });

  it('serves the mount with a trailing slash and under app.all / app.post routes', async () => {
    expect((await supertest(app).post('/mcp/').set(jsonRpcHeaders).send(rpc('tools/list'))).status).toBe(200);
    const routed = express();
    routed.post('/rpc', mcp(tools, options));
    expect((await supertest(routed).post('/rpc').set(jsonRpcHeaders).send(rpc('tools/list'))).status).toBe(200);
  });

  it('survives a client that sends half a body and hangs up, then serves the next request', async () => {
    const server = await listenApp(app);
    try {
      const { port } = new URL(server.url);
      await new Promise<void>((resolve) => {
        const socket = netConnect(Number(port), '127.0.0.1', () => {
          socket.write(
            'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
              'Accept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n{"jsonrpc":"2.0",',
          );
          setTimeout(() => socket.destroy(), 100);
        });
        socket.on('close', () => resolve());
        socket.on('error', () => resolve());
      });
      const res = await fetch(server.url, { method: 'POST', headers: jsonRpcHeaders, body: rpc('tools/list') });
      expect(res.status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

describe('Express: a body a parser already read', () => {
  const call = rpc('tools/call', { name: 'search_notes', arguments: { query: 'zod', limit: '1' } });

  it.each([
    ['express.json()', () => express.json()],
    ['express.raw()', () => express.raw({ type: 'application/json' })],
    ['express.text()', () => express.text({ type: 'application/json' })],
  ])('serves a tools/call after %s', async (_name, parser) => {
    const app = express();
    app.use(parser());
    app.use('/mcp', mcp(tools, options));
    const res = await supertest(app).post('/mcp').set(jsonRpcHeaders).send(call);
    expect(res.status).toBe(200);
    const result = parseBody(res.text).result;
    expect(result.structuredContent).toEqual({ query: 'zod', results: [{ id: 'n-1', title: 'First note about zod' }] });
  });

  it('serves both official clients behind express.json()', async () => {
    const app = express();
    app.use(express.json());
    app.use('/mcp', mcp(tools, options));
    const server = await listenApp(app);
    try {
      for (const era of eras) checkTranscript(await runSession(server.url, era));
    } finally {
      await server.close();
    }
  });

  it('still answers 413 when express.json() accepted a body over maxRequestBodyBytes', async () => {
    const app = express();
    app.use(express.json({ limit: '10mb' }));
    app.use('/mcp', mcp(tools, { ...options, limits: { maxRequestBodyBytes: LIMIT } }));
    const res = await supertest(app)
      .post('/mcp')
      .set(jsonRpcHeaders)
      .send(rpc('tools/list', { pad: 'x'.repeat(LIMIT) }));
    expect(res.status).toBe(413);
  });
});

describe('Express: what reaches the tool', () => {
  it('keeps the mount path in the request URL, passes req.auth as authInfo and req/res as host extras', async () => {
    const app = express();
    app.use((req, _res, next) => {
      (req as typeof req & { auth: unknown }).auth = { token: 't', clientId: 'c', scopes: ['tools'] };
      next();
    });
    app.use('/api/mcp', mcp([contextTool], options));
    const res = await supertest(app)
      .post('/api/mcp?x=1')
      .set(jsonRpcHeaders)
      .send(rpc('tools/call', { name: 'context', arguments: {} }));
    expect(res.status).toBe(200);
    const seen = JSON.parse(parseBody(res.text).result.content[0].text);
    expect(new URL(seen.url).pathname + new URL(seen.url).search).toBe('/api/mcp?x=1');
    expect(seen.originalUrl).toBe('/api/mcp?x=1');
    expect(seen.hostKeys).toEqual(['req', 'res']);
    expect(seen.authInfo).toEqual({ token: 't', clientId: 'c', scopes: ['tools'] });
  });

  it('aborts the tool when the client goes away, and keeps serving', async () => {
    let aborted!: (reason: unknown) => void;
    const abortSeen = new Promise((resolve) => {
      aborted = resolve;
    });
    let started!: () => void;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const app = express();
    app.use('/mcp', mcp([...tools, slowTool((reason) => aborted(reason), started)], options));
    const server = await listenApp(app);
    try {
      const controller = new AbortController();
      const pending = fetch(server.url, {
        method: 'POST',
        headers: jsonRpcHeaders,
        body: rpc('tools/call', { name: 'slow', arguments: {} }),
        signal: controller.signal,
      })
        .then((r) => r.text())
        .catch(() => 'aborted');
      // The client goes away once the handler runs, not after a guess at how long that takes.
      await running;
      controller.abort();
      await pending;
      // Without the abort reaching the tool this waits out the test's timeout (the tool's own is 20 s).
      await abortSeen;
      const next = await fetch(server.url, { method: 'POST', headers: jsonRpcHeaders, body: rpc('tools/list') });
      expect(next.status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('turns a throwing handler into a masked isError result; onError observes it and cannot change the response', async () => {
    const seen: Array<[unknown, ErrorInfo]> = [];
    const body = rpc('tools/call', { name: 'boom', arguments: {} });
    const logger = { warn: vi.fn(), error: vi.fn() };
    const quiet = await supertest(edgeApp([boomTool], { observe: { onError: (e, info) => seen.push([e, info]) } }))
      .post('/mcp')
      .set(jsonRpcHeaders)
      .send(body);
    const throwing = await supertest(
      edgeApp([boomTool], {
        observe: {
          logger,
          onError: () => {
            throw new Error('hook failure');
          },
        },
      }),
    )
      .post('/mcp')
      .set(jsonRpcHeaders)
      .send(body);
    for (const res of [quiet, throwing]) {
      expect(res.status).toBe(200);
      const result = parseBody(res.text).result;
      expect(result.isError).toBe(true);
      expect(result.content[0].text).toMatch(/^Tool boom failed \(error id [0-9a-f-]{36}\)$/);
    }
    // The same answer but for the error id, which is new for each failure.
    const withoutId = (text: string) => text.replace(/[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}/g, '<id>');
    expect(withoutId(quiet.text)).toBe(withoutId(throwing.text));
    expect(seen).toHaveLength(1);
    expect(seen[0]![0]).toMatchObject({ message: 'boom from the tool' });
    expect(seen[0]![1]).toEqual({ phase: 'handler', tool: 'boom', errorId: expect.any(String), requestId: 1 });
    expect(parseBody(quiet.text).result.content[0].text).toContain(seen[0]![1].errorId);
    expect(logger.error).toHaveBeenCalledWith('mcp-mount: onError threw', expect.any(Error));
  });
});

describe('Express: the startup probe at construction', () => {
  it("throws McpMountSchemaError under policy 'throw' (the default)", () => {
    expect(() => mcp([...tools, datedTool], options)).toThrow(McpMountSchemaError);
    expect(() => mcp([...tools, datedTool], options)).toThrow(/dated/);
  });

  it("serves the good tools under policy 'warn', and logs the rest", async () => {
    const logger = { warn: vi.fn(), error: vi.fn() };
    const app = express();
    app.use(
      '/mcp',
      mcp([...tools, datedTool], { ...options, observe: { logger }, schemaValidation: { policy: 'warn' } }),
    );
    expect(logger.warn).toHaveBeenCalledWith(expect.stringContaining('dated'));
    const res = await supertest(app).post('/mcp').set(jsonRpcHeaders).send(rpc('tools/list'));
    expect(parseBody(res.text).result.tools.map((t: { name: string }) => t.name)).toEqual([
      'send_message',
      'publish_post',
      'search_notes',
    ]);
  });
});
