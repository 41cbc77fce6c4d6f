/**
 * The fetch adapter (`mcp-mount/fetch`: Workers, Bun, Deno) and the Next.js route handlers
 * (`mcp-mount/next`), in-process on Node with both official clients sending through the handler itself.
 * Body limits with a lying Content-Length and with streamed bodies, broken streams, host extras, the
 * startup probe. Their real runtimes (workerd, `next start`) are tested in runtimes/.
 */
import { readFileSync } from 'node:fs';
import { type AnyTool, type McpMountOptions, McpMountSchemaError } from 'mcp-mount';
import { mcp } from 'mcp-mount/fetch';
import { mcp as nextMcp } from 'mcp-mount/next';
import { describe, expect, it, vi } from 'vitest';
import { options, tools } from '../../examples/shared/tools.js';
import { eras, type FetchLike } from './support/clients.js';
import { checkTranscript, parseBody, runSession } from './support/session.js';
import { boomTool, contextTool, datedTool, jsonRpcHeaders, rpc } from './support/tools.js';

type Serve = (request: Request) => Promise<Response>;
const URL_ = 'http://127.0.0.1/mcp';
const LIMIT = 2048;

/** Each adapter as one `(Request) => Response`, built from the same tools and options. */
const adapters: Array<[string, (t: readonly AnyTool[], o: McpMountOptions) => Serve]> = [
  [
    'fetch (Workers)',
    (t, o) => {
      const worker = mcp(t, o);
      return (request) => worker.fetch(request, { GREETING: 'hi' }, { waitUntil() {}, passThroughOnException() {} });
    },
  ],
  [
    'next (route handlers)',
    (t, o) => {
      const routes = nextMcp(t, o);
      return (request) => {
        const route = { GET: routes.GET, POST: routes.POST, DELETE: routes.DELETE }[request.method];
        return route
          ? route(request, { params: Promise.resolve({}) })
          : Promise.resolve(new Response(null, { status: 405 }));
      };
    },
  ],
];

const through =
  (serve: Serve): FetchLike =>
  (input, init) =>
    serve(new Request(input, init));

const post = (body: BodyInit, headers: Record<string, string> = {}) =>
  new Request(URL_, {
    method: 'POST',
    body,
    headers: { ...jsonRpcHeaders, ...headers },
    duplex: 'half',
  } as RequestInit);

/** A body delivered in `size`-byte chunks, with no Content-Length. */
function chunked(text: string, size = 500): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(offset, offset + size));
      offset += size;
    },
  });
}

describe.each(adapters)('%s', (_name, build) => {
  it.each(eras.map((era) => [era]))('runs the scripted session with client %s', async (era) => {
    checkTranscript(await runSession(URL_, era, through(build(tools, options))));
  });

  it('answers a body over the limit with 413 whatever Content-Length claims', async () => {
    const serve = build(tools, { ...options, limits: { maxRequestBodyBytes: LIMIT } });
    const big = rpc('tools/list', { pad: 'x'.repeat(LIMIT) });
    const lying = await serve(post(big, { 'content-length': '10' }));
    expect(lying.status).toBe(413);
    expect(await lying.json()).toMatchObject({
      jsonrpc: '2.0',
      error: { message: expect.stringContaining(String(LIMIT)) },
    });
    const streamed = await serve(post(chunked(big)));
    expect(streamed.status).toBe(413);
    // A body under the limit that claims a huge Content-Length is read, not refused.
    const honest = await serve(post(rpc('tools/list'), { 'content-length': String(LIMIT * 100) }));
    expect(honest.status).toBe(200);
  });

  it('answers 413 even when the body stream never settles cancel() (as in the Next.js Edge sandbox)', async () => {
    const serve = build(tools, { ...options, limits: { maxRequestBodyBytes: LIMIT } });
    const endless = new ReadableStream<Uint8Array>({
      pull: (controller) => controller.enqueue(new Uint8Array(500).fill(0x78)),
      cancel: () => new Promise<void>(() => {}),
    });
    // A core that awaited the cancel would never answer: the test's timeout, not a race with a timer, says so.
    const response = await serve(post(endless));
    expect(response.status).toBe(413);
    expect(response.headers.get('connection')).toBe('close');
  });

  it('answers bad JSON, a wrong content type and GET with JSON-RPC errors', async () => {
    const serve = build(tools, options);
    const bad = await serve(post('{"jsonrpc": nope'));
    expect([bad.status, (await bad.json()).error.code]).toEqual([400, -32700]);
    const type = await serve(post(rpc('tools/list'), { 'content-type': 'text/plain' }));
    expect(type.status).toBe(415);
    const get = await serve(new Request(URL_, { headers: { accept: 'text/event-stream' } }));
    expect(get.status).toBe(405);
    expect(await get.json()).toMatchObject({ jsonrpc: '2.0', error: {} });
  });

  it('answers a body stream that fails mid-read with a JSON-RPC error, and onError sees why', async () => {
    const onError = vi.fn();
    const serve = build(tools, { ...options, observe: { onError } });
    const broken = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"jsonrpc":'));
        controller.error(new Error('connection reset'));
      },
    });
    const response = await serve(post(broken));
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(await response.json()).toMatchObject({ jsonrpc: '2.0', error: { code: expect.any(Number) } });
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ message: 'connection reset' }), expect.anything());
  });

  it('answers a request whose body the app already read with a JSON-RPC 500 saying so, and tells the owner how to fix it', async () => {
    const read = async () => {
      const request = post(rpc('tools/list'));
      await request.json(); // a wrapper that logs the body before handing the request on
      return request;
    };
    const logger = { warn: vi.fn(), error: vi.fn() };
    const logged = await build(tools, { ...options, observe: { logger } })(await read());
    expect(logged.status).toBe(500);
    const { error } = await logged.json();
    expect(error.code).toBe(-32603);
    const id = /^Internal server error: the request body was already read \(error id ([0-9a-f-]{36})\)$/.exec(
      error.message,
    )?.[1];
    expect(id, error.message).toBeDefined();
    // Logged with the id the client saw, whether or not onError is set; the error says how to fix it.
    expect(logger.error).toHaveBeenCalledWith(
      `mcp-mount: request error (error id ${id})`,
      expect.objectContaining({ message: expect.stringContaining('request.clone()') }),
    );
    const onError = vi.fn();
    const observed = await build(tools, { ...options, observe: { logger, onError } })(await read());
    expect(observed.status).toBe(500);
    expect(onError).toHaveBeenCalledWith(
      expect.objectContaining({ message: expect.stringContaining('extras.parsedBody') }),
      { phase: 'request', errorId: expect.any(String) },
    );
    expect(logger.error).toHaveBeenCalledTimes(2);
  });

  it.each([
    ['with a Content-Length (read in one step)', true],
    ['without one (read as a stream)', false],
  ])('answers a request whose body a reader locked but never read with the same 500, %s', async (_label, sized) => {
    const body = rpc('tools/list');
    const request = post(body, sized ? { 'content-length': String(new TextEncoder().encode(body).byteLength) } : {});
    request.body!.getReader(); // a wrapper that took a reader and handed the request on
    const response = await build(tools, options)(request);
    expect(response.status).toBe(500);
    expect((await response.json()).error.message).toMatch(/^Internal server error: the request body was already read/);
  });

  it('reads a body decoded in front of the mount (Content-Encoding kept, Content-Length of the encoded bytes) as a stream, stopping at the limit', async () => {
    const serve = build(tools, { ...options, limits: { maxRequestBodyBytes: LIMIT } });
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 500;
        controller.enqueue(new Uint8Array(500).fill(0x78));
      },
    });
    const response = await serve(post(endless, { 'content-length': '100', 'content-encoding': 'gzip' }));
    expect(response.status).toBe(413);
    // Read up to the limit and a chunk or two the stream had queued, never to the end of an endless body.
    expect(pulled).toBeLessThan(LIMIT * 4);
  });

  it('reads a body whose Content-Length is within the limit, and answers 413 when it holds more than it claimed', async () => {
    const serve = build(tools, { ...options, limits: { maxRequestBodyBytes: LIMIT } });
    const small = rpc('tools/list');
    const exact = await serve(post(small, { 'content-length': String(new TextEncoder().encode(small).byteLength) }));
    expect(exact.status).toBe(200);
    const big = rpc('tools/list', { pad: 'é'.repeat(LIMIT / 2) });
    const understated = await serve(post(big, { 'content-length': String(LIMIT) }));
    expect(understated.status).toBe(413);
  });

  it('turns a throwing handler into a masked isError result; onError observes it and cannot change the response', async () => {
    const seen: unknown[] = [];
    const logger = { warn: vi.fn(), error: vi.fn() };
    const body = rpc('tools/call', { name: 'boom', arguments: {} });
    const quiet = await build([boomTool], { observe: { onError: (e) => seen.push(e) } })(post(body));
    const loud = await build([boomTool], {
      observe: {
        logger,
        onError: () => {
          throw new Error('hook failure');
        },
      },
    })(post(body));
    const [a, b] = [await quiet.text(), await loud.text()];
    // The same answer but for the error id, which is new for each failure.
    const withoutId = (text: string) => text.replace(/[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}/g, '<id>');
    expect(withoutId(a)).toBe(withoutId(b));
    expect(parseBody(a).result).toMatchObject({
      isError: true,
      content: [{ text: expect.stringMatching(/^Tool boom failed \(error id [0-9a-f-]{36}\)$/) }],
    });
    expect(seen).toHaveLength(1);
    expect(logger.error).toHaveBeenCalled();
  });

  it("throws McpMountSchemaError at construction under 'throw', and serves the good tools under 'warn'", async () => {
    expect(() => build([...tools, datedTool], options)).toThrow(McpMountSchemaError);
    const logger = { warn: vi.fn(), error: vi.fn() };
    const serve = build([...tools, datedTool], {
      ...options,
      observe: { logger },
      schemaValidation: { policy: 'warn' },
    });
    expect(logger.warn).toHaveBeenCalledWith(expect.stringContaining('dated'));
    const listed = parseBody(await (await serve(post(rpc('tools/list')))).text()).result.tools;
    expect(listed.map((t: { name: string }) => t.name)).toEqual(['send_message', 'publish_post', 'search_notes']);
  });
});

describe('fetch adapter specifics', () => {
  it("hands the Worker's env and ctx to tools as ctx.host.env and ctx.host.ctx", async () => {
    const worker = mcp([contextTool], options);
    const env = { GREETING: 'hello from env' };
    const response = await worker.fetch(post(rpc('tools/call', { name: 'context', arguments: {} })), env, {
      waitUntil() {},
      passThroughOnException() {},
    });
    const seen = JSON.parse(parseBody(await response.text()).result.content[0].text);
    expect(seen).toMatchObject({ env, waitUntil: true, hostKeys: ['ctx', 'env'], url: URL_ });
  });

  it('serves only `path` when given one, and every path otherwise', async () => {
    const scoped = mcp(tools, { ...options, path: '/mcp' });
    expect((await scoped.fetch(new Request('http://h/other', { method: 'POST' }))).status).toBe(404);
    expect((await scoped.fetch(post(rpc('tools/list')))).status).toBe(200);
    const open = mcp(tools, options);
    const elsewhere = new Request('http://h/anything', {
      method: 'POST',
      headers: jsonRpcHeaders,
      body: rpc('tools/list'),
    });
    expect((await open.fetch(elsewhere)).status).toBe(200);
  });

  it('exposes only `fetch` to the runtime (the core handler is not enumerable)', () => {
    const worker = mcp(tools, options);
    expect(Object.keys(worker)).toEqual(['fetch']);
    expect(worker.handler.report.ok).toBe(true);
  });
});

describe('next adapter specifics', () => {
  it('exports GET, POST and DELETE route handlers', () => {
    const routes = nextMcp(tools, options);
    for (const method of ['GET', 'POST', 'DELETE'] as const) expect(routes[method]).toBeTypeOf('function');
  });

  it("hands the route's context to tools as ctx.host.context", async () => {
    const { POST } = nextMcp([contextTool], options);
    const response = await POST(post(rpc('tools/call', { name: 'context', arguments: {} })), {
      params: Promise.resolve({}),
    });
    const seen = JSON.parse(parseBody(await response.text()).result.content[0].text);
    expect(seen).toMatchObject({ hostKeys: ['context'], url: URL_ });
  });

  it('imports nothing of next statically, and only next/server.js (for after) on demand', () => {
    const source = readFileSync(new URL('../../src/adapters/next/index.ts', import.meta.url), 'utf8');
    expect(source).not.toMatch(/from ['"]next[/'"]/);
    const dynamic = [...source.matchAll(/import\(['"](next[^'"]*)['"]\)/g)].map((m) => m[1]);
    expect(dynamic).toEqual(['next/server.js']);
  });
});
