/**
 * The Next.js example under `next build` (globalSetup) + `next start` on a free loopback port, driven by
 * both official clients, on the Node.js route (`/mcp`) and the Edge route (`/edge/mcp`); HTTP edge cases
 * against the real server. Run alone with `npm run test:next`.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eras } from '../support/clients.js';
import { type RunningProcess, repoRoot, startNext } from '../support/processes.js';
import { rebindingProbe } from '../support/raw.js';
import { checkTranscript, runSession, type Transcript } from '../support/session.js';
import { jsonRpcHeaders, overLimitStream, rpc } from '../support/tools.js';

let next: RunningProcess;
beforeAll(async () => {
  next = await startNext();
});
afterAll(() => next?.stop());

const routes = [
  ['Node.js runtime', '/mcp'],
  ['Edge runtime', '/edge/mcp'],
] as const;

describe.each(routes)('the Next.js example on the %s (%s)', (_runtime, path) => {
  const url = () => next.origin + path;

  it.each(eras.map((era) => [era]))('runs the scripted session with client %s', async (era) => {
    checkTranscript(await runSession(url(), era));
  });

  it('answers bad JSON, a wrong content type and GET with JSON-RPC errors', async () => {
    const bad = await fetch(url(), { method: 'POST', headers: jsonRpcHeaders, body: '{"jsonrpc": nope' });
    expect([bad.status, (await bad.json()).error.code]).toEqual([400, -32700]);
    const type = await fetch(url(), {
      method: 'POST',
      headers: { ...jsonRpcHeaders, 'content-type': 'text/plain' },
      body: rpc('tools/list'),
    });
    expect(type.status).toBe(415);
    const get = await fetch(url(), { headers: { accept: 'text/event-stream' } });
    expect(get.status).toBe(405);
  });

  it('refuses a foreign Origin with 403 before MCP sees it; serves a localhost origin and none', async () => {
    const call = (headers: Record<string, string>) =>
      fetch(url(), {
        method: 'POST',
        headers: { ...jsonRpcHeaders, ...headers },
        body: rpc('tools/call', { name: 'search_notes', arguments: { query: 'x' } }),
      });
    const evil = await call({ origin: 'http://evil.example' });
    expect([evil.status, await evil.json()]).toEqual([
      403,
      { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Invalid Origin: evil.example' } },
    ]);
    expect((await call({ origin: 'http://localhost:5173' })).status).toBe(200);
    expect((await call({})).status).toBe(200);
  });

  it('answers a CORS preflight through the OPTIONS export, for an allowed origin only', async () => {
    const preflight = (origin: string) =>
      fetch(url(), {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type, mcp-protocol-version',
        },
      });
    const local = await preflight('http://localhost:5173');
    expect(local.status).toBe(204);
    expect(local.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(local.headers.get('access-control-allow-headers')).toBe('content-type, mcp-protocol-version');
    const evil = await preflight('https://evil.example');
    expect([evil.status, evil.headers.get('access-control-allow-origin')]).toEqual([403, null]);
  });

  it.each([['2025-11-25'], ['2026-07-28']] as const)(
    'refuses the DNS rebinding probe (%s) and accepts its localhost twin',
    async (era) => {
      expect((await rebindingProbe(url(), 'evil.example.com', era)).status).toBe(403);
      const valid = await rebindingProbe(url(), new URL(next.origin).host, era);
      expect(valid.status, valid.text).toBe(200);
    },
  );

  it('answers a streamed body (no Content-Length) over the default 4 MiB with 413', async () => {
    const body = overLimitStream(4 * 1024 * 1024);
    const response = await fetch(url(), {
      method: 'POST',
      headers: jsonRpcHeaders,
      body,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ jsonrpc: '2.0', error: { code: expect.any(Number) } });
  });
});

it('serves byte-identical tools/list bodies on the Node.js and Edge routes', async () => {
  for (const era of eras) {
    const [node, edge] = (await Promise.all(routes.map(([, path]) => runSession(next.origin + path, era)))) as [
      Transcript,
      Transcript,
    ];
    expect(edge.listBody).toBe(node.listBody);
    expect(edge.outcomes).toEqual(node.outcomes);
  }
});

it("fails `next build` when a tool's schema is bad under policy 'throw'", async () => {
  const build = promisify(execFile)(
    process.execPath,
    ['node_modules/next/dist/bin/next', 'build', 'test/adapters/runtimes/fixtures/next-bad-schema'],
    { cwd: repoRoot, env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' }, timeout: 170_000 },
  );
  const failure = await build.then(
    () => undefined,
    (error: { code?: number; stdout?: string; stderr?: string }) => error,
  );
  expect(failure, 'next build succeeded').toBeDefined();
  const output = `${failure?.stdout}\n${failure?.stderr}`;
  expect(output).toMatch(/McpMountSchemaError/);
  expect(output).toMatch(/dated \/properties\/when/);
}, 180_000);
