/**
 * The direct path for `tools/call` over real HTTP (ADR 0035): a table of calls, each kind in both eras, sent
 * to a Hono app and an Express app that mount the same tools twice, once on the direct path and once forced
 * onto the SDK's path (`forceSdkPath`). Status, headers (the HTTP server's own `date` and `keep-alive`
 * aside) and body bytes must be the same; so must plain `tools/list` answers (ADR 0042), learnt and then
 * served directly, uncompressed and gzip-encoded. test/unit/serve/direct-path.test.ts and direct-list.test.ts
 * drive generated requests in process.
 */
import { McpServer } from '@modelcontextprotocol/server';
import express from 'express';
import { Hono } from 'hono';
import { mcp as expressMcp } from 'mcp-mount/express';
import { mcp as honoMcp } from 'mcp-mount/hono';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { forceSdkPath } from '../../src/core/serve/handler.js';
import {
  AUTH,
  differentialOptions,
  differentialTools,
  type ListSpec,
  listRequestOf,
  namedCalls,
  observed,
  requestOf,
  type Seen,
} from '../support/direct-differential.js';
import { listen } from '../support/server.js';
import { type Listening, listenApp } from './support/listen.js';

const seen: Seen = { calls: [], refusals: [], errors: [] };
const options = differentialOptions(() => seen);

/** Two endpoints on one server: `/mcp` on the direct path, `/sdk` on the SDK's path alone. */
interface Served {
  origin: string;
  close(): Promise<void>;
}

async function honoApp(): Promise<Served> {
  const app = new Hono();
  app.use('*', async (c, next) => {
    if (c.req.header('x-test-auth')) c.set('authInfo' as never, AUTH as never);
    await next();
  });
  const direct = honoMcp(differentialTools, options);
  const sdk = honoMcp(differentialTools, options);
  forceSdkPath(sdk.handler);
  app.all('/mcp', direct);
  app.all('/sdk', sdk);
  const running = await listen(app.fetch);
  return { origin: running.url.replace(/\/mcp$/, ''), close: running.close };
}

async function expressApp(): Promise<Served> {
  const app = express();
  app.use((req, _res, next) => {
    if (req.headers['x-test-auth']) (req as unknown as { auth: unknown }).auth = AUTH;
    next();
  });
  const direct = expressMcp(differentialTools, options);
  const sdk = expressMcp(differentialTools, options);
  forceSdkPath(sdk.handler);
  app.use('/mcp', direct);
  app.use('/sdk', sdk);
  const running: Listening = await listenApp(app);
  return { origin: running.origin, close: running.close };
}

for (const [name, start] of [
  ['Hono', honoApp],
  ['Express', expressApp],
] as const) {
  describe(`the direct path over HTTP on ${name}`, () => {
    let served: Served;
    beforeAll(async () => {
      served = await start();
    });
    afterAll(() => served.close());

    it('sends a complete answer whole, with Content-Length, to anonymous and authenticated callers alike', async () => {
      for (const authorized of [false, true]) {
        for (const era of ['legacy', 'modern'] as const) {
          const spec = { era, tool: 'add', args: { a: 1, b: 2 }, id: 40, authorized };
          const response = await fetch(requestOf(spec, `${served.origin}/mcp`)());
          const text = await response.text();
          expect(text, `${era}, authorized ${authorized}`).toContain('"id":40');
          expect(
            [response.headers.get('transfer-encoding'), response.headers.get('content-length')],
            `${era}, authorized ${authorized}`,
          ).toEqual([null, String(new TextEncoder().encode(text).byteLength)]);
        }
      }
    });

    it('answers each kind of call, in both eras, with the SDK path’s status, headers and body', async () => {
      // A call the direct path answers alone connects no per-request server.
      const connects = vi.spyOn(McpServer.prototype, 'connect');
      try {
        for (const [label, spec] of namedCalls()) {
          const before = connects.mock.calls.length;
          const viaDirect = await observed(await fetch(requestOf(spec, `${served.origin}/mcp`)()));
          if (label.startsWith('valid,')) expect(connects.mock.calls.length, label).toBe(before);
          const viaSdk = await observed(await fetch(requestOf(spec, `${served.origin}/sdk`)()));
          expect(viaDirect, label).toEqual(viaSdk);
        }
      } finally {
        connects.mockRestore();
      }
    });

    it('answers plain lists, in both eras and encodings, with the SDK path’s status, headers and bytes', async () => {
      const connects = vi.spyOn(McpServer.prototype, 'connect');
      const lists: Array<[string, ListSpec]> = [
        ['2025-06-18, event stream', { era: 'legacy', id: 1 }],
        ['2025-06-18, JSON only', { era: 'legacy', id: 2, accept: 'application/json' }],
        ['2026-07-28', { era: 'modern', id: 3 }],
      ];
      try {
        for (const [label, spec] of lists) {
          for (const acceptEncoding of ['identity', 'gzip, deflate']) {
            // The first of its kind is the SDK's on both endpoints (the direct one learns its frame); the
            // second is answered by the direct path alone.
            for (const id of ['first', spec.id]) {
              const request = { ...spec, id, acceptEncoding, authorized: true };
              const before = connects.mock.calls.length;
              const viaDirect = await rawAnswer(await fetch(listRequestOf(request, `${served.origin}/mcp`)()));
              const direct = connects.mock.calls.length === before;
              const viaSdk = await rawAnswer(await fetch(listRequestOf(request, `${served.origin}/sdk`)()));
              expect(viaDirect, `${label}, ${acceptEncoding}, id ${id}`).toEqual(viaSdk);
              if (id !== 'first') expect(direct, `${label}, ${acceptEncoding}`).toBe(true);
            }
          }
        }
      } finally {
        connects.mockRestore();
      }
    });
  });
}

/**
 * Status, the mount's headers and the body as sent: fetch decodes a gzip body, so its length is compared with
 * the `Content-Length` the server sent for the encoded one only through equality with the SDK path's.
 */
async function rawAnswer(response: Response) {
  const framing = new Set(['date', 'keep-alive', 'transfer-encoding']);
  return {
    status: response.status,
    headers: [...response.headers].filter(([name]) => !framing.has(name)),
    body: await response.text(),
  };
}
