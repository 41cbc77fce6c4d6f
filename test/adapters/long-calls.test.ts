/**
 * Long calls without tasks over real HTTP (ADR 0038), on Hono and Express, each on the direct path (`/mcp`)
 * and forced onto the SDK's path (`/sdk`): a call's answer carries `: keepalive` comments while its handler
 * runs (`protocol.keepAliveMs`, set small here; the handler waits on a latch the test opens once a comment has
 * arrived, so nothing depends on the clock); a `notifications/cancelled` from the call's own caller aborts
 * `ctx.signal` with the client-cancelled reason and the call gets no response, while anyone else's cancels
 * nothing; `onCall` says when the client went away. Both official clients cancel a call as they do.
 */
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import express from 'express';
import { Hono } from 'hono';
import { type CallEvent, defineTool, type McpMountOptions } from 'mcp-mount';
import { mcp as expressMcp } from 'mcp-mount/express';
import { mcp as honoMcp } from 'mcp-mount/hono';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MODERN } from '../../examples/shared/clients.js';
import { forceSdkPath } from '../../src/core/serve/handler.js';
import { listen } from '../support/server.js';
import { listenApp } from './support/listen.js';

/** A latch per call key: the handler waits on it; the test opens it. */
class Latches {
  private readonly open = new Map<string, () => void>();
  private readonly waiting = new Map<string, Promise<void>>();
  wait(key: string): Promise<void> {
    let promise = this.waiting.get(key);
    if (!promise) {
      promise = new Promise<void>((resolve) => this.open.set(key, resolve));
      this.waiting.set(key, promise);
    }
    return promise;
  }
  release(key: string): void {
    void this.wait(key);
    this.open.get(key)!();
  }
}

/** What a handler's signal came to, per call key, as soon as it aborts. */
const aborted = new Map<string, Promise<unknown>>();
const latches = new Latches();
const calls: CallEvent[] = [];

const slow = defineTool({
  name: 'slow',
  input: z.object({ key: z.string() }),
  handler: async ({ input }, ctx) => {
    aborted.set(
      input.key,
      new Promise((resolve) => ctx.signal.addEventListener('abort', () => resolve(ctx.signal.reason), { once: true })),
    );
    await Promise.race([latches.wait(input.key), aborted.get(input.key)]);
    return ctx.signal.aborted ? `stopped ${input.key}` : `done ${input.key}`;
  },
});

const options: McpMountOptions = {
  protocol: { keepAliveMs: 20 },
  observe: { onCall: (event) => void calls.push(event) },
};

/** The caller each request claims in `x-test-owner` (a test stand-in for a verified token); none: anonymous. */
function authOf(owner: string | undefined) {
  return owner ? { token: 't', clientId: 'app', scopes: [], extra: { sub: owner } } : undefined;
}

interface Served {
  origin: string;
  close(): Promise<void>;
}

async function honoApp(): Promise<Served> {
  const app = new Hono();
  app.use('*', async (c, next) => {
    const auth = authOf(c.req.header('x-test-owner'));
    if (auth) c.set('authInfo' as never, auth as never);
    await next();
  });
  const direct = honoMcp([slow], options);
  const sdk = honoMcp([slow], options);
  forceSdkPath(sdk.handler);
  app.all('/mcp', direct);
  app.all('/sdk', sdk);
  const running = await listen(app.fetch);
  return { origin: running.url.replace(/\/mcp$/, ''), close: running.close };
}

async function expressApp(): Promise<Served> {
  const app = express();
  app.use((req, _res, next) => {
    const auth = authOf(req.headers['x-test-owner'] as string | undefined);
    if (auth) (req as unknown as { auth: unknown }).auth = auth;
    next();
  });
  const direct = expressMcp([slow], options);
  const sdk = expressMcp([slow], options);
  forceSdkPath(sdk.handler);
  app.use('/mcp', direct);
  app.use('/sdk', sdk);
  const running = await listenApp(app);
  return { origin: running.origin, close: running.close };
}

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'long-calls', version: '1.0.0' },
};

type Era = 'legacy' | 'modern';

/** A raw POST of one JSON-RPC message in `era`, as `owner` (none: anonymous). */
function post(
  url: string,
  era: Era,
  message: { id?: number | string; method: string; params: Record<string, unknown> },
  owner: string | undefined,
  accept = 'application/json, text/event-stream',
): Promise<Response> {
  const params = era === 'modern' ? { ...message.params, _meta: ENVELOPE } : message.params;
  const headers: Record<string, string> = { 'content-type': 'application/json', accept };
  if (owner) headers['x-test-owner'] = owner;
  if (era === 'modern') {
    headers['mcp-protocol-version'] = '2026-07-28';
    headers['mcp-method'] = message.method;
    if (message.method === 'tools/call') headers['mcp-name'] = 'slow';
  } else headers['mcp-protocol-version'] = '2025-06-18';
  return fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', ...message, params }) });
}

const callOf = (id: number | string, key: string) => ({
  id,
  method: 'tools/call',
  params: { name: 'slow', arguments: { key } },
});
const cancelOf = (requestId: number | string) => ({
  method: 'notifications/cancelled',
  params: { requestId, reason: 'user pressed stop' },
});

/** Reads `response`'s body until `until` is in the text read so far; returns that text and the reader. */
async function readUntil(response: Response, until: string) {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!text.includes(until)) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  return { text, rest: () => readRest(reader, decoder, text) };
}

async function readRest(reader: ReadableStreamDefaultReader<Uint8Array>, decoder: TextDecoder, text: string) {
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text;
    text += decoder.decode(value, { stream: true });
  }
}

/** The onCall event of the call with `key`, once it has come. */
async function eventOf(key: string): Promise<CallEvent> {
  for (;;) {
    const event = calls.find((e) => (e.args as { key?: string } | undefined)?.key === key);
    if (event) return event;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

let n = 0;
const keyFor = (label: string) => `${label}-${++n}`;

for (const [name, start] of [
  ['Hono', honoApp],
  ['Express', expressApp],
] as const) {
  describe(`long calls on ${name}`, () => {
    let served: Served;
    beforeAll(async () => {
      served = await start();
    });
    afterAll(() => served.close());
    beforeEach(() => {
      calls.length = 0;
    });

    for (const path of ['mcp', 'sdk'] as const) {
      const url = () => `${served.origin}/${path}`;
      const on = path === 'mcp' ? 'direct path' : "SDK's path";

      for (const era of ['legacy', 'modern'] as const) {
        it(`${on}, ${era}: a call still running carries a keep-alive comment on its stream before its result`, async () => {
          const key = keyFor('kept');
          const response = await post(url(), era, callOf(1, key), 'ada');
          expect(response.status).toBe(200);
          expect(response.headers.get('content-type')).toBe('text/event-stream');
          const head = await readUntil(response, ': keepalive\n\n');
          expect(head.text).not.toContain('event: message');
          latches.release(key);
          const text = await head.rest();
          const message = text.slice(text.indexOf('event: message'));
          expect(message).toMatch(/^event: message\ndata: \{.*\}\n\n$/);
          expect(JSON.parse(message.slice('event: message\ndata: '.length))).toMatchObject({
            jsonrpc: '2.0',
            id: 1,
            result: { content: [{ type: 'text', text: `done ${key}` }] },
          });
          expect((await eventOf(key)).clientGone).toBeUndefined();
        });

        it(`${on}, ${era}: a notifications/cancelled from the call's own caller aborts ctx.signal, and the call gets no response`, async () => {
          const key = keyFor('cancelled');
          const answer = post(url(), era, callOf(`call-${key}`, key), 'ada', 'application/json, text/event-stream');
          while (!aborted.has(key)) await new Promise((resolve) => setImmediate(resolve));
          const cancel = await post(url(), era, cancelOf(`call-${key}`), 'ada');
          expect(cancel.status).toBe(202);
          const reason = (await aborted.get(key)) as DOMException;
          expect(reason).toBeInstanceOf(DOMException);
          expect(reason.name).toBe('AbortError');
          expect(reason.message).toBe('The client cancelled this call (notifications/cancelled)');
          const response = await answer;
          const body = await response.text();
          expect(body).not.toContain('"result"');
          expect(body).not.toContain('"error"');
          expect(response.status).toBe(era === 'modern' ? 499 : 200);
          const event = await eventOf(key);
          expect(event.clientGone).toBe('cancelled');
        });

        it(`${on}, ${era}: a cancel from another caller or an anonymous one, or naming "7" for 7, cancels nothing`, async () => {
          const key = keyFor('kept-on');
          const answer = post(url(), era, callOf(7, key), 'ada');
          while (!aborted.has(key)) await new Promise((resolve) => setImmediate(resolve));
          for (const [owner, id] of [
            ['grace', 7],
            [undefined, 7],
            ['ada', '7'],
          ] as const) {
            expect((await post(url(), era, cancelOf(id), owner)).status).toBe(202);
          }
          latches.release(key);
          const text = await (await answer).text();
          expect(text).toContain(`done ${key}`);
          const event = await eventOf(key);
          expect(event.ok).toBe(true);
          expect(event.clientGone).toBeUndefined();
        });
      }

      it(`${on}: a 2026-07-28 client that takes JSON only gets JSON, without comments`, async () => {
        const key = keyFor('json');
        const answer = post(url(), 'modern', callOf(3, key), 'ada', 'application/json');
        while (!aborted.has(key)) await new Promise((resolve) => setImmediate(resolve));
        // Several intervals pass while the handler waits: nothing is written meanwhile, whatever the clock.
        await new Promise((resolve) => setTimeout(resolve, 100));
        latches.release(key);
        const response = await answer;
        expect(response.headers.get('content-type')).toBe('application/json');
        expect(JSON.parse(await response.text())).toMatchObject({ id: 3, result: { resultType: 'complete' } });
      });

      it(`${on}: client v1 (2025-era) cancelling a call sends notifications/cancelled; its handler stops for that reason`, async () => {
        const key = keyFor('v1');
        const client = new ClientV1({ name: 'v1', version: '1.0.0' });
        await client.connect(new TransportV1(new URL(url()), { requestInit: { headers: { 'x-test-owner': 'ada' } } }));
        try {
          const stop = new AbortController();
          const calling = client.callTool({ name: 'slow', arguments: { key } }, undefined, { signal: stop.signal });
          while (!aborted.has(key)) await new Promise((resolve) => setImmediate(resolve));
          stop.abort('user pressed stop');
          await expect(calling).rejects.toThrow();
          expect(((await aborted.get(key)) as Error).message).toBe(
            'The client cancelled this call (notifications/cancelled)',
          );
          expect((await eventOf(key)).clientGone).toBe('cancelled');
        } finally {
          await client.close();
        }
      });

      it(`${on}: client v2 (2026-07-28) cancelling a call closes its stream; onCall says the client disconnected`, async () => {
        const key = keyFor('v2');
        const client = new ClientV2({ name: 'v2', version: '1.0.0' }, MODERN);
        await client.connect(new TransportV2(new URL(url()), { requestInit: { headers: { 'x-test-owner': 'ada' } } }));
        try {
          const stop = new AbortController();
          const calling = client.callTool({ name: 'slow', arguments: { key } }, { signal: stop.signal });
          while (!aborted.has(key)) await new Promise((resolve) => setImmediate(resolve));
          stop.abort('user pressed stop');
          await expect(calling).rejects.toThrow();
          expect(await aborted.get(key)).toBeDefined();
          expect((await eventOf(key)).clientGone).toBe('disconnected');
        } finally {
          await client.close();
        }
      });
    }
  });
}
