/**
 * Refusal and call events say who: over real HTTP on the Node adapters (Hono, Express, the fetch adapter on
 * @hono/node-server), `onRefusal` and `onCall` carry where the request came from (the socket's address, its
 * `User-Agent` and `Origin`), and `observe.remoteAddressHeader` takes the address from a trusted proxy's
 * header instead (the last entry of a list: the one the nearest proxy wrote), for the events and for
 * `limits.rate.key` alike. Each value is as sent, cut to a bounded length.
 */
import { type CallEvent, defineTool, type McpMountOptions, type RefusalEvent } from 'mcp-mount';
import { connectionAddress, createMcpFetchHandler } from 'mcp-mount/adapter';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { mergedOptions } from '../support/options.js';
import { nodeAdapters } from './support/served.js';
import { jsonRpcHeaders, rpc } from './support/tools.js';

const ping = defineTool({ name: 'ping', input: z.object({}), handler: () => 'pong' });

/** `Bearer ada` is a valid token of client `ada`; any other is not. */
const verify = (token: string) =>
  token === 'ada' ? { token, clientId: 'ada', scopes: [], expiresAt: 'never' as const } : undefined;

type Serve = (options: McpMountOptions) => Promise<{ url: string; close(): Promise<void> }>;
const adapters: Record<string, Serve> = Object.fromEntries(
  Object.entries(nodeAdapters).map(([name, on]) => [name, (options: McpMountOptions) => on([ping], options)]),
);

const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()));
});

async function serve(adapter: Serve, options: McpMountOptions = {}) {
  const refusals: RefusalEvent[] = [];
  const calls: CallEvent[] = [];
  const base: McpMountOptions = {
    access: { auth: { verify, required: false } },
    observe: {
      onRefusal: (e) => refusals.push(e),
      onCall: (e) => calls.push(e),
      logger: { warn() {}, error() {} },
    },
  };
  const running = await adapter(mergedOptions(base, options));
  stops.push(running.close);
  return { url: running.url, origin: new URL(running.url).origin, refusals, calls };
}

async function post(url: string, body: string, headers: Record<string, string> = {}): Promise<number> {
  const response = await fetch(url, { method: 'POST', headers: { ...jsonRpcHeaders, ...headers }, body });
  await response.arrayBuffer();
  return response.status;
}

const call = (id = 1) => rpc('tools/call', { name: 'ping', arguments: {} }, id);

describe.each(Object.entries(adapters))('who a request came from, on %s', (_name, adapter) => {
  it('names the socket address, User-Agent and Origin on a refusal and on a call', async () => {
    const { url, origin, refusals, calls } = await serve(adapter);
    const headers = { 'user-agent': 'audit-client/2.1', origin };
    expect(await post(url, call(1), { ...headers, authorization: 'Bearer forged' })).toBe(401);
    expect(await post(url, call(2), { ...headers, authorization: 'Bearer ada' })).toBe(200);
    const client = { remoteAddress: '127.0.0.1', userAgent: 'audit-client/2.1', origin };
    expect(refusals).toEqual([{ reason: 'invalid-token', status: 401, message: 'Invalid token', client }]);
    expect(calls).toEqual([expect.objectContaining({ tool: 'ping', ok: true, caller: { clientId: 'ada' }, client })]);
  });

  it('takes no address from a header a client sent unless remoteAddressHeader names it', async () => {
    const { url, refusals } = await serve(adapter);
    await post(url, call(), { authorization: 'Bearer forged', 'x-forwarded-for': '198.51.100.9' });
    expect(refusals[0]!.client?.remoteAddress).toBe('127.0.0.1');
  });

  it("takes the address the nearest proxy wrote from the header remoteAddressHeader names, else the socket's", async () => {
    const xff = await serve(adapter, { observe: { remoteAddressHeader: 'X-Forwarded-For' } });
    await post(xff.url, call(), { authorization: 'Bearer forged', 'x-forwarded-for': 'spoofed, 203.0.113.7' });
    await post(xff.url, call(), { authorization: 'Bearer forged' });
    const forwarded = await serve(adapter, { observe: { remoteAddressHeader: 'forwarded' } });
    const sent = 'for=spoofed;proto=http, for="[2001:db8::1]:4711";proto=https';
    await post(forwarded.url, call(), { authorization: 'Bearer forged', forwarded: sent });
    expect([...xff.refusals, ...forwarded.refusals].map((e) => e.client?.remoteAddress)).toEqual([
      '203.0.113.7',
      '127.0.0.1',
      '[2001:db8::1]:4711',
    ]);
  });

  it('keys anonymous rate windows by the same address', async () => {
    const { url, refusals } = await serve(adapter, {
      observe: { remoteAddressHeader: 'x-real-ip' },
      limits: { rate: { perCaller: { points: 1, durationSeconds: 60 }, key: ({ remoteAddress }) => remoteAddress } },
    });
    const from = (address: string) => ({ 'x-real-ip': address });
    const statuses = [
      await post(url, rpc('tools/list'), from('192.0.2.1')),
      await post(url, rpc('tools/list'), from('192.0.2.2')),
      await post(url, rpc('tools/list'), from('192.0.2.1')),
    ];
    expect(statuses).toEqual([200, 200, 429]);
    expect(refusals.map((e) => [e.reason, e.client?.remoteAddress])).toEqual([['rate-limited', '192.0.2.1']]);
  });
});

describe('what a client sends as its User-Agent, Origin or forwarded address', () => {
  it('reaches the events as sent, cut after 256 characters with its length', async () => {
    const { url, refusals } = await serve(adapters.hono!, { observe: { remoteAddressHeader: 'x-real-ip' } });
    const long = (c: string) => `${c}\t"\\) forged`.padEnd(8000, c);
    await post(url, call(), {
      authorization: 'Bearer forged',
      'user-agent': long('u'),
      'x-real-ip': long('a'),
    });
    const client = refusals[0]!.client!;
    for (const value of [client.userAgent, client.remoteAddress]) {
      expect(value).toMatch(/^.{256}…\(8000 characters\)$/s);
    }
    expect(client.userAgent!.startsWith('u\t"\\) forged')).toBe(true);
  });

  it('is not read at all when no hook listens', async () => {
    const seen: string[] = [];
    const handler = createMcpFetchHandler([ping], { access: { auth: { verify, required: true } } });
    const request = new Request('http://127.0.0.1/mcp', { method: 'POST', headers: jsonRpcHeaders, body: call() });
    const headers = new Proxy(request.headers, {
      get(target, key) {
        const value = Reflect.get(target, key, target);
        if (key !== 'get' || typeof value !== 'function') return value;
        return (name: string) => {
          seen.push(name.toLowerCase());
          return target.get(name);
        };
      },
    });
    Object.defineProperty(request, 'headers', { value: headers });
    expect((await handler.fetch(request)).status).toBe(401);
    expect(seen).not.toContain('user-agent');
  });

  it('remoteAddressHeader must be a header name', () => {
    for (const header of ['x forwarded', 'x-real-ip\n', '', 5]) {
      expect(() => createMcpFetchHandler([ping], { observe: { remoteAddressHeader: header as string } })).toThrow(
        /observe\.remoteAddressHeader must be a header name/,
      );
    }
  });
});

describe('connectionAddress, for an adapter of your own', () => {
  const request = new Request('http://localhost/mcp');
  it("reads the runtime's connection beside the request: Node, Bun and Deno; none on Workers", () => {
    expect(connectionAddress({ socket: { remoteAddress: '10.0.0.1' } })).toBe('10.0.0.1');
    expect(connectionAddress({ incoming: { socket: { remoteAddress: '::1' } }, outgoing: {} })).toBe('::1');
    const bun = {
      requestIP: (r: Request) => (r === request ? { address: '10.0.0.2', port: 1, family: 'IPv4' } : null),
    };
    expect(connectionAddress(bun, request)).toBe('10.0.0.2');
    expect(connectionAddress({ remoteAddr: { transport: 'tcp', hostname: '10.0.0.3', port: 2 } })).toBe('10.0.0.3');
    expect(connectionAddress({ MY_KV: {}, SECRET: 'x' }, request)).toBeUndefined();
    expect(connectionAddress(undefined)).toBeUndefined();
  });

  it('never throws, whatever the runtime passes', () => {
    const throwing = {
      get socket() {
        throw new Error('getter');
      },
    };
    expect(connectionAddress(throwing)).toBeUndefined();
    expect(connectionAddress({ requestIP: () => ({ address: 7 }) }, request)).toBeUndefined();
  });
});
