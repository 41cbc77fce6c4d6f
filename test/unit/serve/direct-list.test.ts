/**
 * The direct path for `tools/list` (ADR 0042) answers exactly as the SDK's path does: the same list requests,
 * named and generated, through mounts on the direct path and the same mounts forced onto the SDK's path
 * (`forceSdkPath`), compared on status, headers and body bytes (gzip-encoded ones byte for byte), and on what
 * the hooks were told. A mount learns each kind of list's frame from the SDK's first answer to it, so the
 * generated requests meet both the learning and the learnt answers.
 */
import { McpServer } from '@modelcontextprotocol/server';
import fc from 'fast-check';
import { defineTool, type McpMountOptions } from 'mcp-mount';
import { createMcpFetchHandler } from 'mcp-mount/adapter';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { forceSdkPath } from '../../../src/core/serve/handler.js';
import {
  AUTH,
  differentialOptions,
  differentialTools,
  type Era,
  type ListSpec,
  listRequestOf as requestOf,
  type Seen,
} from '../../support/direct-differential.js';
import { propertyRuns } from '../../support/property-runs.js';

/** What a client can observe of one list answer: status, headers, and the body's bytes. */
async function observed(response: Response) {
  const bytes = new Uint8Array(await response.arrayBuffer());
  const gzip = response.headers.get('content-encoding') === 'gzip';
  const body = gzip ? Buffer.from(bytes).toString('base64') : new TextDecoder().decode(bytes);
  const length = response.headers.get('content-length');
  if (length !== null && Number(length) !== bytes.byteLength) throw new Error('Content-Length is not the length');
  return {
    status: response.status,
    headers: [...response.headers],
    // A 500's error id is random per request.
    body: body.replace(/error id [0-9a-f-]{8,}/gi, 'error id <id>'),
  };
}

const union = defineTool({
  name: 'shape',
  input: z.object({ s: z.union([z.object({ r: z.number() }), z.object({ w: z.number(), h: z.number() })]) }),
  handler: () => 'ok',
});

/** The mounts compared: per-caller lists, a projection chosen per client, a throwing predicate, a plain one. */
const MOUNTS: Record<string, (seen: () => Seen) => McpMountOptions> = {
  'visibleTools, scopes, rate windows': differentialOptions,
  'a projection chosen per client': (seen) => ({
    ...differentialOptions(seen),
    projection: (client) => {
      // A 2025-era client names itself only where its adapter says who it is.
      const name = String(client.name ?? '');
      if (name === 'throws') throw new Error('no projection for this client');
      return name.startsWith('flat') ? 'flat' : 'faithful';
    },
  }),
  'a visibleTools that throws': (seen) => ({
    ...differentialOptions(seen),
    access: {
      visibleTools:
        ({ request }) =>
        (tool) => {
          if (request.headers.get('x-boom')) throw new Error('predicate failed');
          return tool.name !== 'hidden';
        },
    },
  }),
  'no rule, compression off': (seen) => ({
    observe: differentialOptions(seen).observe,
    protocol: { compressList: false },
  }),
  'responseMode sse': (seen) => ({ observe: differentialOptions(seen).observe, protocol: { responseMode: 'sse' } }),
};

const fresh = (): Seen => ({ calls: [], refusals: [], errors: [] });
const connects = vi.spyOn(McpServer.prototype, 'connect');
afterAll(() => connects.mockRestore());

const pairs = Object.entries(MOUNTS).map(([label, options]) => {
  const seen = { direct: fresh(), sdk: fresh() };
  const tools = [...differentialTools, union];
  const direct = createMcpFetchHandler(
    tools,
    options(() => seen.direct),
  );
  const sdk = createMcpFetchHandler(
    tools,
    options(() => seen.sdk),
  );
  forceSdkPath(sdk);
  return { label, seen, direct, sdk };
});

/** One list request through a pair of mounts: what each answer and each mount's hooks showed. */
async function both(pair: (typeof pairs)[number], spec: ListSpec) {
  pair.seen.direct = fresh();
  pair.seen.sdk = fresh();
  const extras = spec.authorized ? { authInfo: AUTH } : undefined;
  const before = connects.mock.calls.length;
  const viaDirect = await observed(await pair.direct.fetch(requestOf(spec)(), extras));
  const directConnects = connects.mock.calls.length - before;
  const viaSdk = await observed(await pair.sdk.fetch(requestOf(spec)(), extras));
  const sdkConnects = connects.mock.calls.length - before - directConnects;
  return {
    direct: { ...viaDirect, seen: pair.seen.direct },
    sdk: { ...viaSdk, seen: pair.seen.sdk },
    /** Answered by the direct path alone: no server there, one on the SDK's path. */
    alone: directConnects === 0 && sdkConnects > 0,
  };
}

const ENCODINGS = ['gzip, deflate', 'gzip', 'br', 'identity', 'gzip;q=0', '*'];

const named: Array<[string, ListSpec, 'direct' | 'sdk']> = [
  ['2025-06-18, event stream', { era: 'legacy', id: 1 }, 'direct'],
  ['2025-06-18, JSON only', { era: 'legacy', id: 'a"b', accept: 'application/json' }, 'direct'],
  ['2025-06-18, no Accept', { era: 'legacy', id: 2, accept: null }, 'direct'],
  ['2025-06-18, gzip accepted', { era: 'legacy', id: 3, acceptEncoding: 'gzip, deflate' }, 'direct'],
  ['2025-11-25', { era: 'legacy', id: 4, version: '2025-11-25' }, 'direct'],
  ['no MCP-Protocol-Version', { era: 'legacy', id: 5, version: null }, 'direct'],
  ['params {}', { era: 'legacy', id: 6, params: {} }, 'direct'],
  ['no params', { era: 'legacy', id: 7, params: 'absent' }, 'direct'],
  ['2025 _meta of its own', { era: 'legacy', id: 8, params: { _meta: { 'example.com/k': 1 } } }, 'direct'],
  ['2025 progress token', { era: 'legacy', id: 9, params: { _meta: { progressToken: 'p' } } }, 'sdk'],
  ['a cursor', { era: 'legacy', id: 10, params: { cursor: 'x' } }, 'sdk'],
  ['an unknown param', { era: 'legacy', id: 11, params: { extra: 1 } }, 'sdk'],
  ['an unknown version', { era: 'legacy', id: 12, version: '2031-01-01' }, 'sdk'],
  ['id null', { era: 'legacy', id: null }, 'sdk'],
  ['no id', { era: 'legacy', id: 'absent' }, 'sdk'],
  ['id 1.5', { era: 'legacy', id: 1.5 }, 'sdk'],
  ['2026-07-28', { era: 'modern', id: 20 }, 'direct'],
  ['2026-07-28, another client', { era: 'modern', id: 21, client: 'flat-agent' }, 'direct'],
  ['2026-07-28, gzip accepted', { era: 'modern', id: 22, acceptEncoding: 'gzip' }, 'direct'],
  [
    '2026-07-28, a log level',
    { era: 'modern', id: 23, params: { _meta: { 'io.modelcontextprotocol/logLevel': 'info' } } },
    'direct',
  ],
  ['2026-07-28, Mcp-Name', { era: 'modern', id: 24, nameHeader: true }, 'sdk'],
  ['2026-07-28, a _meta key of its own', { era: 'modern', id: 25, params: { _meta: { 'example.com/k': 1 } } }, 'sdk'],
  ['authorized', { era: 'legacy', id: 26, authorized: true }, 'direct'],
];

describe('tools/list on the direct path answers as the SDK does', () => {
  for (const pair of pairs) {
    describe(pair.label, () => {
      it.each(named)('%s', async (_label, spec, path) => {
        // The first of its kind teaches the mount the frame: the second is the one compared for its path.
        await both(pair, { ...spec, id: 'first' });
        const { direct, sdk, alone } = await both(pair, spec);
        expect(direct).toEqual(sdk);
        const plain = pair.label !== 'responseMode sse' || spec.era === 'legacy';
        expect(alone).toBe(path === 'direct' && plain);
      });

      it('a client whose projection choice or visibleTools throws gets the same 500, and onError hears of it', async () => {
        for (const spec of [
          { era: 'modern', id: 30, client: 'throws' },
          { era: 'legacy', id: 31, boom: true },
          { era: 'modern', id: 32, boom: true, acceptEncoding: 'gzip' },
        ] satisfies ListSpec[]) {
          await both(pair, { ...spec, id: 'first', boom: false, client: 'learns' });
          const { direct, sdk } = await both(pair, spec);
          expect(direct).toEqual(sdk);
        }
      });
    });
  }

  it('generated list requests: the same answer on both paths', async () => {
    const specArb: fc.Arbitrary<ListSpec> = fc.record({
      era: fc.constantFrom<Era>('legacy', 'modern'),
      id: fc.oneof(
        { arbitrary: fc.integer({ min: -5, max: 1_000_000 }), weight: 4 },
        { arbitrary: fc.string({ maxLength: 8 }), weight: 3 },
        { arbitrary: fc.constantFrom(0, '', 1.5, null, true, 2 ** 60, 'absent', { x: 1 }), weight: 1 },
      ),
      version: fc.constantFrom(undefined, null, '2025-03-26', '2025-06-18', '2025-11-25', '2024-11-05', 'x'),
      params: fc.constantFrom<ListSpec['params']>(
        undefined,
        'absent',
        {},
        { _meta: {} },
        { _meta: { progressToken: 7 } },
        { _meta: { 'example.com/k': [1] } },
        { _meta: { 'io.modelcontextprotocol/logLevel': 'debug' } },
        { cursor: 'c' },
        { other: true },
      ),
      client: fc.constantFrom('differential', 'flat-one', 'throws', 'other'),
      accept: fc.constantFrom(undefined, null, 'application/json', 'text/event-stream', '*/*', 'text/html'),
      acceptEncoding: fc.constantFrom(undefined, ...ENCODINGS),
      nameHeader: fc.boolean(),
      authorized: fc.boolean(),
      boom: fc.boolean(),
    });
    let alone = 0;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...pairs), specArb, async (pair, spec) => {
        const answers = await both(pair, spec);
        expect(answers.direct).toEqual(answers.sdk);
        if (answers.alone) alone++;
      }),
      { numRuns: propertyRuns(400, 80), seed: Number(process.env.DIRECT_PATH_SEED ?? 20261206) },
    );
    // The generated requests reach the direct path, not only the SDK's.
    expect(alone).toBeGreaterThan(0);
  });
});
