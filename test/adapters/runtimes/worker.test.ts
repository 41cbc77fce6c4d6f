/**
 * The Cloudflare Worker example in workerd (`wrangler dev`, local only, on loopback), driven by both
 * official clients; HTTP edge cases against the real runtime; and a test Worker showing that the Worker's
 * env and ctx reach tools and that `policy: 'warn'` serves the good tools in workerd.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eras } from '../support/clients.js';
import { type RunningProcess, startWrangler } from '../support/processes.js';
import { rebindingProbe } from '../support/raw.js';
import { checkTranscript, parseBody, runSession } from '../support/session.js';
import { jsonRpcHeaders, overLimitStream, rpc } from '../support/tools.js';

describe('the Worker example in workerd', () => {
  let worker: RunningProcess;
  let url: string;
  beforeAll(async () => {
    worker = await startWrangler('examples/cloudflare-worker/wrangler.jsonc');
    url = `${worker.origin}/mcp`;
  });
  afterAll(() => worker?.stop());

  it.each(eras.map((era) => [era]))('runs the scripted session with client %s', async (era) => {
    checkTranscript(await runSession(url, era));
  });

  it('answers bad JSON, a wrong content type and GET with JSON-RPC errors', async () => {
    const bad = await fetch(url, { method: 'POST', headers: jsonRpcHeaders, body: '{"jsonrpc": nope' });
    expect([bad.status, (await bad.json()).error.code]).toEqual([400, -32700]);
    const type = await fetch(url, {
      method: 'POST',
      headers: { ...jsonRpcHeaders, 'content-type': 'text/plain' },
      body: rpc('tools/list'),
    });
    expect(type.status).toBe(415);
    const get = await fetch(url, { headers: { accept: 'text/event-stream' } });
    expect(get.status).toBe(405);
  });

  it.each([['2025-11-25'], ['2026-07-28']] as const)(
    'refuses the DNS rebinding probe (%s) and accepts its localhost twin',
    async (era) => {
      expect((await rebindingProbe(url, 'evil.example.com', era)).status).toBe(403);
      const valid = await rebindingProbe(url, new URL(worker.origin).host, era);
      expect(valid.status, valid.text).toBe(200);
    },
  );

  it('answers a streamed body (no Content-Length) over the default 4 MiB with 413', async () => {
    const body = overLimitStream(4 * 1024 * 1024);
    const response = await fetch(url, { method: 'POST', headers: jsonRpcHeaders, body, duplex: 'half' } as RequestInit);
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ jsonrpc: '2.0', error: { code: expect.any(Number) } });
  });
});

describe('a test Worker: env/ctx, path and policy warn in workerd', () => {
  let worker: RunningProcess;
  beforeAll(async () => {
    worker = await startWrangler('test/adapters/runtimes/fixtures/worker/wrangler.jsonc');
  });
  afterAll(() => worker?.stop());

  const call = async (body: string) => {
    const response = await fetch(`${worker.origin}/mcp`, { method: 'POST', headers: jsonRpcHeaders, body });
    return parseBody(await response.text());
  };

  it("hands the Worker's env and ctx to tools as ctx.host.env and ctx.host.ctx", async () => {
    const seen = JSON.parse((await call(rpc('tools/call', { name: 'context', arguments: {} }))).result.content[0].text);
    expect(seen).toMatchObject({ env: { GREETING: 'hello from env' }, waitUntil: true, hostKeys: ['ctx', 'env'] });
  });

  it('prepares once per isolate, not per request', async () => {
    for (let i = 0; i < 3; i++) await call(rpc('tools/list'));
    const seen = JSON.parse((await call(rpc('tools/call', { name: 'isolate', arguments: {} }))).result.content[0].text);
    expect(seen).toEqual({ constructions: 1 });
  });

  it('refuses a foreign Origin with 403 and the tool does not run; serves a localhost origin and none', async () => {
    const count = async (headers: Record<string, string> = {}) => {
      const response = await fetch(`${worker.origin}/mcp`, {
        method: 'POST',
        headers: { ...jsonRpcHeaders, ...headers },
        body: rpc('tools/call', { name: 'counted', arguments: {} }),
      });
      const text = await response.text();
      return { status: response.status, count: response.ok ? Number(parseBody(text).result.content[0].text) : text };
    };
    const first = await count();
    expect(first.status).toBe(200);
    const evil = await count({ origin: 'http://evil.example' });
    expect(evil.status).toBe(403);
    expect(JSON.parse(evil.count as string)).toMatchObject({ error: { code: -32000 } });
    expect(await count({ origin: 'http://localhost:5173' })).toEqual({
      status: 200,
      count: (first.count as number) + 1,
    });
  });

  it('answers paths other than `path` with 404', async () => {
    const response = await fetch(`${worker.origin}/other`, {
      method: 'POST',
      headers: jsonRpcHeaders,
      body: rpc('tools/list'),
    });
    expect(response.status).toBe(404);
  });

  it("serves the good tools and leaves out the bad one under policy 'warn'", async () => {
    const listed = (await call(rpc('tools/list'))).result.tools.map((t: { name: string }) => t.name);
    expect(listed).toEqual(['send_message', 'publish_post', 'search_notes', 'context', 'isolate', 'counted', 'boom']);
  });

  it('logs a throwing handler through the default logger, with its error id, tool and phase', async () => {
    const result = (await call(rpc('tools/call', { name: 'boom', arguments: {} }, 41))).result;
    const id = /^Tool boom failed \(error id ([0-9a-f-]{36})\)$/.exec(result.content[0].text)?.[1];
    expect(id, result.content[0].text).toBeDefined();
    const line = `mcp-mount: handler error (error id ${id}, tool boom, request 41)`;
    await expect.poll(() => worker.output(), { timeout: 10_000 }).toContain(line);
    // The error follows the line: its message (and stack) are in the operator's log, not the client's answer.
    expect(worker.output().slice(worker.output().indexOf(line))).toContain('db down: password=hunter2');
  });
});
