/**
 * The direct path for `tools/call` (ADR 0035) answers exactly as the SDK's path does: the same calls, named
 * and generated, through a mount on the direct path and the same mount forced onto the SDK's path
 * (`forceSdkPath`), compared on status, headers and body bytes (error ids read as `<id>`), and on what the
 * hooks were told. In process; test/adapters/direct-path.test.ts does a table of them over real HTTP.
 */
import { McpServer } from '@modelcontextprotocol/server';
import fc from 'fast-check';
import { defineTool } from 'mcp-mount';
import { createMcpFetchHandler } from 'mcp-mount/adapter';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { forceSdkPath } from '../../../src/core/serve/handler.js';
import {
  AUTH,
  type CallSpec,
  callArb,
  differentialOptions,
  differentialTools,
  namedCalls,
  observed,
  requestOf,
  type Seen,
} from '../../support/direct-differential.js';
import { propertyRuns } from '../../support/property-runs.js';

const fresh = (): Seen => ({ calls: [], refusals: [], errors: [] });
let directSeen = fresh();
let sdkSeen = fresh();
const direct = createMcpFetchHandler(
  differentialTools,
  differentialOptions(() => directSeen),
);
const sdk = createMcpFetchHandler(
  differentialTools,
  differentialOptions(() => sdkSeen),
);
forceSdkPath(sdk);

// Every SDK exchange connects one per-request server: a call the direct path answers alone connects none.
const connects = vi.spyOn(McpServer.prototype, 'connect');
// A call handed over registers its tool with an input carrier that passes the checked call through (a plain
// function), where the SDK's path registers the argument check (an async function): told apart without
// calling either.
const registered = vi.spyOn(McpServer.prototype, 'registerTool');
afterAll(() => {
  connects.mockRestore();
  registered.mockRestore();
});
const adoptions = () =>
  registered.mock.calls.filter(([, config]) => {
    const validate = (config as any)?.inputSchema?.['~standard']?.validate;
    return typeof validate === 'function' && validate.constructor.name !== 'AsyncFunction';
  }).length;

/** One call through both mounts, one after the other: what each answer and each mount's hooks showed. */
async function both(spec: CallSpec) {
  directSeen = fresh();
  sdkSeen = fresh();
  const extras = spec.authorized ? { authInfo: AUTH } : undefined;
  const before = connects.mock.calls.length;
  const adopted = adoptions();
  const viaDirect = await observed(await direct.fetch(requestOf(spec)(), extras));
  const directConnects = connects.mock.calls.length - before;
  const handedOver = adoptions() > adopted;
  const viaSdk = await observed(await sdk.fetch(requestOf(spec)(), extras));
  const sdkConnects = connects.mock.calls.length - before - directConnects;
  return {
    direct: { ...viaDirect, seen: directSeen },
    sdk: { ...viaSdk, seen: sdkSeen },
    /** Answered by the direct path alone: no server there, one on the SDK's path. */
    alone: directConnects === 0 && sdkConnects > 0,
    /** Begun on the direct path and finished by the SDK. */
    handedOver,
  };
}

const DIRECT = [
  'valid',
  'repaired',
  'arguments as JSON text',
  'invalid',
  'throwing',
  'ToolError',
  'output schema',
  'output refused',
  'structuredContent',
  'isError result',
  'progress without a token',
  'the context a handler sees',
  'id 0',
  'scoped, authorized',
];
const SDK_ONLY = ['unknown tool', 'hidden tool', 'scoped, another scope', 'progress with a token', 'id 1.5'];
const HANDED_OVER = ['own result with _meta', 'a notification before the result', 'input request'];

describe('the direct path for tools/call', () => {
  it('answers each kind of call, in both eras, with the SDK path’s status, headers, body and hook events', async () => {
    const where: Record<string, string> = {};
    for (const [label, spec] of namedCalls()) {
      const { direct: d, sdk: s, alone, handedOver } = await both(spec);
      expect(d, label).toEqual(s);
      where[label] = alone ? 'direct' : handedOver ? 'handed over' : 'sdk';
    }
    for (const era of ['2025-06-18', '2026-07-28']) {
      for (const label of DIRECT) expect(where[`${label}, ${era}`], `${label}, ${era}`).toBe('direct');
      for (const label of SDK_ONLY) expect(where[`${label}, ${era}`], `${label}, ${era}`).toBe('sdk');
      for (const label of HANDED_OVER) expect(where[`${label}, ${era}`], `${label}, ${era}`).toBe('handed over');
    }
    // A 2025-era `_meta` reaches the handler as sent; a 2026-07-28 one beyond the envelope is left to the SDK.
    expect(where['_meta with a key of its own, 2025-06-18']).toBe('direct');
    expect(where['_meta with a key of its own, 2026-07-28']).toBe('sdk');
    expect(where['JSON only, 2025-06-18']).toBe('direct');
    expect(where['no Accept, 2025-06-18']).toBe('direct');
  });

  it('answers generated calls (tools, arguments, ids, _meta, Accept, headers, credentials) as the SDK path does', async () => {
    let alone = 0;
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(callArb, async (spec) => {
        const { direct: d, sdk: s, alone: served } = await both(spec);
        expect(d).toEqual(s);
        runs++;
        if (served) alone++;
      }),
      { numRuns: propertyRuns(400, 80), seed: Number(process.env.DIRECT_PATH_SEED ?? 20261206) },
    );
    // The property would hold trivially were no generated call taken by the direct path.
    expect(alone).toBeGreaterThan(runs / 10);
  });

  it('answers a 2025 call still running after one keep-alive interval on a stream with a comment at once, then its result, without handing it to the SDK', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    try {
      let release!: () => void;
      const slow = defineTool({
        name: 'slow',
        input: z.object({}),
        handler: () =>
          new Promise<string>((resolve) => {
            release = () => resolve('late');
          }),
      });
      const handler = createMcpFetchHandler([slow]);
      const before = adoptions();
      let answered = false;
      const pending = handler.fetch(requestOf({ era: 'legacy', tool: 'slow', args: {}, id: 1 })()).then((r) => {
        answered = true;
        return r;
      });
      await vi.advanceTimersByTimeAsync(14_999);
      expect(answered).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      for (let i = 0; i < 20 && !answered; i++) await vi.advanceTimersByTimeAsync(1);
      // The stream is open before the handler has settled (keep-alive.ts); the direct path still has the call.
      expect(answered).toBe(true);
      release();
      const response = await pending;
      expect(response.headers.get('content-type')).toBe('text/event-stream');
      expect(await response.text()).toBe(
        ': keepalive\n\nevent: message\ndata: {"result":{"content":[{"type":"text","text":"late"}]},"jsonrpc":"2.0","id":1}\n\n',
      );
      expect(adoptions()).toBe(before);
    } finally {
      vi.useRealTimers();
    }
  });

  it('serves a call whose client has already gone as the SDK path does (the handler runs, the answer is the same), with a signal that reads aborted', async () => {
    const outcome = async (sdkOnly: boolean) => {
      const seen: { ran: number; aborted?: boolean } = { ran: 0 };
      const tool = defineTool({
        name: 'gone',
        input: z.object({}),
        handler: (_args, ctx) => {
          seen.ran++;
          seen.aborted = ctx.signal.aborted;
          return 'ok';
        },
      });
      const handler = createMcpFetchHandler([tool]);
      if (sdkOnly) forceSdkPath(handler);
      const before = adoptions();
      const request = requestOf({ era: 'legacy', tool: 'gone', args: {}, id: 3 })();
      const left = new AbortController();
      left.abort(new Error('the client went away'));
      const response = await handler.fetch(new Request(request, { signal: left.signal }));
      return { status: response.status, body: await response.text(), ...seen, adopted: adoptions() - before };
    };
    const direct = await outcome(false);
    const viaSdk = await outcome(true);
    // The one difference (ADR 0039): the SDK's exchange follows only a later abort of the request's signal, so
    // its handler reads a signal that is not aborted; the direct path's follows the request's as it is.
    expect(direct).toEqual({ ...viaSdk, aborted: true, adopted: 0 });
    expect(viaSdk).toMatchObject({ status: 200, ran: 1, aborted: false });
  });

  it('answers calls in flight when the mount closes as the SDK path does: 2026-07-28 with 499, 2025 running on; a handler’s signal aborted once its call is over', async () => {
    const outcome = async (sdkOnly: boolean, era: 'legacy' | 'modern') => {
      let release!: () => void;
      let started!: () => void;
      const running = new Promise<void>((resolve) => {
        started = resolve;
      });
      let aborted = false;
      const slow = defineTool({
        name: 'slow',
        input: z.object({}),
        handler: (_call, ctx) =>
          new Promise<string>((resolve) => {
            ctx.signal.addEventListener('abort', () => {
              aborted = true;
            });
            release = () => resolve('late');
            started();
          }),
      });
      const handler = createMcpFetchHandler([slow]);
      if (sdkOnly) forceSdkPath(handler);
      const pending = handler.fetch(requestOf({ era, tool: 'slow', args: {}, id: 1 })());
      await running;
      await handler.close();
      release();
      const answer = await observed(await pending);
      // Read once the answer has been read: on the SDK's path the exchange's end aborts the handler's signal.
      return { ...answer, aborted };
    };
    for (const era of ['legacy', 'modern'] as const) {
      const viaSdk = await outcome(true, era);
      expect(await outcome(false, era), era).toEqual(viaSdk);
      expect(viaSdk.status, era).toBe(era === 'modern' ? 499 : 200);
    }
  });
});
