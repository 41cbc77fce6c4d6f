/**
 * The Origin and Host checks at the core, on by default: which browser origins reach the tools, which get
 * 403 with a JSON-RPC error before anything is read, and the options that change that.
 */
import { defineTool, type McpMountOptions } from 'mcp-mount';
import { createMcpFetchHandler } from 'mcp-mount/adapter';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseBody } from '../../adapters/support/session.js';

let runs = 0;
const ping = defineTool({
  name: 'ping',
  input: z.object({}),
  handler: () => {
    runs++;
    return 'pong';
  },
});

const JSON_RPC = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const CALL = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ping', arguments: {} } });

/** POSTs a tools/call to `url` with these headers (a `host` header as a Node server would see it). */
async function call(options: McpMountOptions, url: string, headers: Record<string, string>) {
  const handler = createMcpFetchHandler([ping], options);
  const before = runs;
  const response = await handler.fetch(
    new Request(url, {
      method: 'POST',
      headers: { ...JSON_RPC, ...headers },
      body: CALL,
    }),
  );
  return { status: response.status, body: parseBody(await response.text()), ran: runs > before };
}

const local = 'http://127.0.0.1:3000/mcp';

describe('the Origin check, by default', () => {
  it('lets a request without Origin through (non-browser clients send none)', async () => {
    expect(await call({}, local, { host: '127.0.0.1:3000' })).toMatchObject({ status: 200, ran: true });
  });

  it('refuses a foreign Origin with 403 and a JSON-RPC error, and the tool does not run', async () => {
    const refused = await call({}, local, { host: '127.0.0.1:3000', origin: 'http://evil.example' });
    expect(refused).toEqual({
      status: 403,
      ran: false,
      body: { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Invalid Origin: evil.example' } },
    });
  });

  it('allows localhost origins on any port when the server is addressed as localhost', async () => {
    for (const host of ['127.0.0.1:3000', 'localhost:3000', '[::1]:3000']) {
      for (const origin of ['http://localhost:5173', 'http://127.0.0.1:3000', 'http://[::1]:8080']) {
        expect(await call({}, local, { host, origin }), `${host} ${origin}`).toMatchObject({ status: 200, ran: true });
      }
    }
  });

  it('refuses a DNS rebinding: Host and Origin both name the attacker, over plain HTTP', async () => {
    const headers = { host: 'evil.example.com', origin: 'http://evil.example.com' };
    expect(await call({}, 'http://evil.example.com/mcp', headers)).toMatchObject({ status: 403, ran: false });
  });

  it('refuses localhost origins when the server is addressed by another name', async () => {
    const headers = { host: 'api.example.com', origin: 'http://localhost:5173' };
    expect(await call({}, 'https://api.example.com/mcp', headers)).toMatchObject({ status: 403, ran: false });
  });

  it('allows the same origin over HTTPS and at an IP address, where no rebinding can fake it', async () => {
    const https = { host: 'api.example.com', origin: 'https://api.example.com' };
    expect(await call({}, 'https://api.example.com/mcp', https)).toMatchObject({ status: 200, ran: true });
    const lan = { host: '192.168.1.10:3000', origin: 'http://192.168.1.10:3000' };
    expect(await call({}, 'http://192.168.1.10:3000/mcp', lan)).toMatchObject({ status: 200, ran: true });
    const otherPort = { host: '192.168.1.10:3000', origin: 'http://192.168.1.10:4000' };
    expect(await call({}, 'http://192.168.1.10:3000/mcp', otherPort)).toMatchObject({ status: 403, ran: false });
  });

  it('refuses an Origin that is not an origin (the opaque `null`, garbage)', async () => {
    for (const origin of ['null', 'not a url']) {
      expect(await call({}, local, { host: '127.0.0.1:3000', origin })).toMatchObject({ status: 403, ran: false });
    }
  });

  it('refuses before the body is read, whatever the method', async () => {
    let pulled = false;
    // High-water mark 0: the stream is pulled only when someone reads it.
    const stream = () =>
      new ReadableStream(
        {
          pull(controller) {
            pulled = true;
            controller.enqueue(new TextEncoder().encode(CALL));
            controller.close();
          },
        },
        { highWaterMark: 0 },
      );
    const handler = createMcpFetchHandler([ping]);
    const post = (origin: string) => {
      const headers = { ...JSON_RPC, host: '127.0.0.1:3000', origin };
      return handler.fetch(
        new Request(local, { method: 'POST', headers, body: stream(), duplex: 'half' } as RequestInit),
      );
    };
    expect([(await post('http://evil.example')).status, pulled]).toEqual([403, false]);
    expect([(await post('http://localhost:5173')).status, pulled]).toEqual([200, true]);
    const headers = { host: '127.0.0.1:3000', origin: 'http://evil.example' };
    for (const method of ['GET', 'DELETE', 'OPTIONS']) {
      expect((await handler.fetch(new Request(local, { method, headers }))).status, method).toBe(403);
    }
  });
});

describe('access.origins', () => {
  const options = { access: { origins: ['https://app.example.com', 'chrome-extension://*'] } };
  const api = 'https://api.example.com/mcp';
  const host = 'api.example.com';

  it('allows exactly the listed origins: scheme, host and port', async () => {
    expect(await call(options, api, { host, origin: 'https://app.example.com' })).toMatchObject({ status: 200 });
    expect(await call(options, api, { host, origin: 'https://app.example.com:443' })).toMatchObject({ status: 200 });
    for (const origin of ['http://app.example.com', 'https://app.example.com:8443', 'https://evil.app.example.com']) {
      expect(await call(options, api, { host, origin }), origin).toMatchObject({ status: 403, ran: false });
    }
  });

  it('allows every origin of a listed non-web scheme, and no other scheme', async () => {
    const extension = 'chrome-extension://abcdefghijklmnopabcdefghijklmnop';
    expect(await call(options, api, { host, origin: extension })).toMatchObject({ status: 200, ran: true });
    const firefox = 'moz-extension://0f8f5a4e-3b6b-4f7e-9d2a-1c2b3c4d5e6f';
    expect(await call(options, api, { host, origin: firefox })).toMatchObject({ status: 403, ran: false });
  });

  it('refuses at construction what is not an origin, and `*` for websites', () => {
    for (const entry of ['https://*', 'http://*', '*', 'https://app.example.com/mcp', 'app.example.com', '']) {
      expect(() => createMcpFetchHandler([ping], { access: { origins: [entry] } }), entry).toThrow(TypeError);
    }
  });
});

describe('access.hosts', () => {
  const options = { access: { hosts: ['localhost', '127.0.0.1', '[::1]'] } };

  it('refuses a request naming another host, with or without Origin', async () => {
    expect(await call(options, 'http://evil.example.com/mcp', { host: 'evil.example.com' })).toMatchObject({
      status: 403,
      ran: false,
      body: { error: { code: -32000, message: 'Invalid Host: evil.example.com' } },
    });
    expect(await call(options, local, { host: '127.0.0.1:3000' })).toMatchObject({ status: 200, ran: true });
  });

  it("reads the URL's authority when the runtime gives no Host header", async () => {
    expect(await call(options, 'http://evil.example.com/mcp', {})).toMatchObject({ status: 403, ran: false });
    expect(await call(options, 'http://localhost:3000/mcp', {})).toMatchObject({ status: 200, ran: true });
  });

  it('lets same-origin browser requests through over plain HTTP for a listed name', async () => {
    const headers = { host: 'mcp.internal:8080', origin: 'http://mcp.internal:8080' };
    expect(await call({}, 'http://mcp.internal:8080/mcp', headers)).toMatchObject({ status: 403 });
    expect(await call({ access: { hosts: ['mcp.internal'] } }, 'http://mcp.internal:8080/mcp', headers)).toMatchObject({
      status: 200,
      ran: true,
    });
  });

  it('refuses at construction a scheme, a port, a path or an empty list', () => {
    for (const entry of ['http://localhost', 'localhost:3000', 'example.com/mcp', '::1']) {
      expect(() => createMcpFetchHandler([ping], { access: { hosts: [entry] } }), entry).toThrow(TypeError);
    }
    expect(() => createMcpFetchHandler([ping], { access: { hosts: [] } })).toThrow(TypeError);
  });
});

describe('access.checkOrigin: false', () => {
  it('turns every check off (for a proxy that already checks)', async () => {
    const headers = { host: 'evil.example.com', origin: 'http://evil.example.com' };
    expect(await call({ access: { checkOrigin: false } }, 'http://evil.example.com/mcp', headers)).toMatchObject({
      status: 200,
      ran: true,
    });
  });
});
