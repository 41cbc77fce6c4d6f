/**
 * The cached `tools/list` (tool-list.ts, docs/decisions/0025-cached-tools-list.md) answers byte for byte what
 * the SDK itself answers for the same tools: the reference is a plain `McpServer` registering the same carriers
 * (the documents `validateMcpSchemas` reports), served by the SDK's own handler, in both eras, for every
 * projection, in JSON and SSE, with `visibleTools`, scoped tools and `listUnauthorizedTools`, `execution`,
 * `_meta`, `icons`, annotations and output schemas.
 */
import type { AuthInfo } from '@modelcontextprotocol/server';
import {
  type AnyTool,
  defineTool,
  type McpMountOptions,
  PROJECTION_NAMES,
  type ServedTool,
  validateMcpSchemas,
} from 'mcp-mount';
import { createMcpFetchHandler } from 'mcp-mount/adapter';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { reference } from '../support/list-reference.js';
import { withClients } from '../support/server.js';

const union = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('a'), n: z.number().int() }),
  z.object({ kind: z.literal('b'), s: z.string().max(8), deep: z.union([z.string(), z.object({ x: z.boolean() })]) }),
]);

const tools: AnyTool[] = [
  defineTool({
    name: 'everything',
    title: 'Every field',
    description: 'Has $& and $1 in its text, "quotes" and \u2028 too',
    input: z.object({ q: union, limit: z.number().optional() }),
    output: z.object({ items: z.array(z.object({ id: z.string() })) }),
    annotations: { readOnlyHint: true },
    icons: [{ src: 'https://example.com/i.png', mimeType: 'image/png' }],
    execution: { taskSupport: 'forbidden' },
    _meta: { 'example.com/x': { y: [1, 2] } },
    handler: () => ({ items: [] }),
  }),
  defineTool({ name: 'plain', input: z.object({ a: z.string() }), handler: () => 'ok' }),
  defineTool({ name: 'union_root', input: union, handler: () => 'ok' }),
  defineTool({
    name: 'scoped',
    description: 'needs admin',
    input: z.object({ id: z.string() }),
    scopes: ['admin'],
    handler: () => 'ok',
  }),
  defineTool({ name: 'unicode_text', description: 'Ω', input: z.object({ ключ: z.string() }), handler: () => 'ok' }),
];

const silent = { warn: () => {}, error: () => {} };
const AUTH: AuthInfo = { token: 't', clientId: 'c', scopes: ['read'] };
const ADMIN: AuthInfo = { token: 't', clientId: 'c', scopes: ['admin'] };
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'cache-test', version: '1.0.0' },
};
type Era = 'modern' | 'legacy';
type Mode = 'json' | 'sse';

function listRequest(era: Era, id: unknown = 1, params: Record<string, unknown> = {}): Request {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  };
  if (era === 'modern') {
    headers['mcp-protocol-version'] = '2026-07-28';
    headers['mcp-method'] = 'tools/list';
  }
  const body = {
    jsonrpc: '2.0',
    id,
    method: 'tools/list',
    params: era === 'modern' ? { ...params, _meta: META } : params,
  };
  return new Request('http://localhost/mcp', { method: 'POST', headers, body: JSON.stringify(body) });
}

function mountOptions(projection: (typeof PROJECTION_NAMES)[number], mode: Mode, extra: McpMountOptions = {}) {
  return {
    server: { name: 'cache', version: '1.2.3' },
    projection,
    protocol: { responseMode: mode },
    schemaValidation: { policy: 'warn' },
    observe: { logger: silent },
    ...extra,
  } as McpMountOptions;
}

async function bodies(
  options: McpMountOptions,
  shown: (t: ServedTool) => boolean,
  era: Era,
  authInfo?: AuthInfo,
): Promise<{ ours: string; sdk: string; listed: string[] }> {
  const report = validateMcpSchemas(tools, options);
  const listed = report.tools.filter(shown);
  const mount = createMcpFetchHandler(tools, options);
  const mode = (options.protocol?.responseMode ?? 'auto') as Mode;
  const ours = await (await mount.fetch(listRequest(era), authInfo ? { authInfo } : undefined)).text();
  const sdk = await (await reference(listed, mode).fetch(listRequest(era), authInfo ? { authInfo } : {})).text();
  return { ours, sdk, listed: listed.map((t) => t.name) };
}

const unscoped = (t: ServedTool) => t.name !== 'scoped';
/** The JSON-RPC message of a body, JSON or one SSE event (the 2025-era stateless answer streams). */
const message = (body: string) => JSON.parse(body.startsWith('event:') ? body.slice(body.indexOf('data: ') + 6) : body);

describe('the cached tools/list is what the SDK lists for the same carriers', () => {
  for (const projection of PROJECTION_NAMES) {
    for (const era of ['modern', 'legacy'] as const) {
      for (const mode of ['json', 'sse'] as const) {
        it(`${projection}, ${era}, ${mode}: byte for byte`, async () => {
          const { ours, sdk, listed } = await bodies(mountOptions(projection, mode), unscoped, era);
          expect(listed.length).toBeGreaterThanOrEqual(2);
          expect(ours).toBe(sdk);
          if (mode === 'sse') expect(ours).toMatch(/^event: message\r?\ndata: /);
        });
      }
    }
  }

  it('lists what the SDK lists where `union_root` is no object (faithful) and where it is (flat)', async () => {
    const faithful = await bodies(mountOptions('faithful', 'json'), unscoped, 'modern');
    const flat = await bodies(mountOptions('flat', 'json'), unscoped, 'modern');
    expect(faithful.listed).not.toContain('union_root');
    expect(flat.listed).toContain('union_root');
    expect(flat.ours).toBe(flat.sdk);
  });

  it('keeps `execution` in 2025-era answers and drops it in 2026-07-28 ones, as the codecs do', async () => {
    const modern = await bodies(mountOptions('flat', 'json'), unscoped, 'modern');
    const legacy = await bodies(mountOptions('flat', 'json'), unscoped, 'legacy');
    expect(legacy.ours).toContain('"execution":{"taskSupport":"forbidden"}');
    expect(modern.ours).not.toContain('"execution"');
    expect(message(modern.ours).result.tools[0]._meta).toEqual({ 'example.com/x': { y: [1, 2] } });
  });

  it('visibleTools: only the visible tools, in the mount order, the prebuilt list when all are', async () => {
    for (const era of ['modern', 'legacy'] as const) {
      const some = mountOptions('flat', 'json', {
        access: { visibleTools: () => ['unicode_text', 'plain'] },
      });
      const partial = await bodies(some, (t) => ['plain', 'unicode_text'].includes(t.name), era);
      expect(partial.listed).toEqual(['plain', 'unicode_text']);
      expect(partial.ours).toBe(partial.sdk);
      const all = mountOptions('flat', 'json', { access: { visibleTools: () => (_tool: AnyTool) => true } });
      const every = await bodies(all, unscoped, era);
      expect(every.ours).toBe(every.sdk);
      const none = mountOptions('flat', 'json', { access: { visibleTools: () => [] } });
      const empty = await bodies(none, () => false, era);
      expect(empty.ours).toBe(empty.sdk);
      expect(message(empty.ours).result.tools).toEqual([]);
    }
  });

  it('scoped tools: hidden without their scope, shown with it, and with listUnauthorizedTools', async () => {
    for (const era of ['modern', 'legacy'] as const) {
      const options = mountOptions('faithful', 'sse');
      const without = await bodies(options, unscoped, era, AUTH);
      expect(without.listed).not.toContain('scoped');
      expect(without.ours).toBe(without.sdk);
      const withScope = await bodies(options, () => true, era, ADMIN);
      expect(withScope.listed).toContain('scoped');
      expect(withScope.ours).toBe(withScope.sdk);
      const listedAnyway = mountOptions('faithful', 'json', { access: { listUnauthorizedTools: true } });
      const all = await bodies(listedAnyway, () => true, era);
      expect(all.ours).toBe(all.sdk);
    }
  });

  it('a projection chosen per client: each client gets its projection from one mount', async () => {
    const options = mountOptions('flat', 'json', {
      projection: (client) => (client.name === 'cache-test' ? 'faithful' : 'flat'),
    });
    const mount = createMcpFetchHandler(tools, options);
    const { projections } = validateMcpSchemas(tools, options);
    const faithful = reference(projections.faithful!.tools.filter(unscoped), 'json');
    const modern = await (await mount.fetch(listRequest('modern'))).text();
    expect(modern).toBe(await (await faithful.fetch(listRequest('modern'))).text());
    // A 2025-era stateless list names no client: the function sees none and picks flat.
    const flat = reference(projections.flat!.tools.filter(unscoped), 'json');
    const legacy = await (await mount.fetch(listRequest('legacy'))).text();
    expect(legacy).toBe(await (await flat.fetch(listRequest('legacy'))).text());
    expect(modern).not.toBe(await (await flat.fetch(listRequest('modern'))).text());
  });

  it('a client accepting JSON alone gets the SDK JSON answer from an SSE-serving mount, in both eras', async () => {
    const options = mountOptions('faithful', 'sse');
    const mount = createMcpFetchHandler(tools, options);
    const sdk = reference(validateMcpSchemas(tools, options).tools.filter(unscoped), 'json');
    for (const era of ['modern', 'legacy'] as const) {
      const onlyJson = listRequest(era);
      onlyJson.headers.set('accept', 'application/json');
      const ours = await mount.fetch(onlyJson);
      expect(ours.headers.get('content-type')).toBe('application/json');
      // The SDK's own answer (an SSE event in 2025-era serving): its one JSON-RPC message, as sent.
      const theirs = await (await sdk.fetch(listRequest(era))).text();
      expect(await ours.text()).toBe(theirs.startsWith('event:') ? theirs.split('\n')[1]!.slice(6) : theirs);
    }
  });

  it('sends the same bytes on every list of a mount (the cached buffer is shared, never consumed)', async () => {
    for (const mode of ['json', 'sse'] as const) {
      const options = mountOptions('faithful', mode);
      const mount = createMcpFetchHandler(tools, options);
      const sdk = await (
        await reference(validateMcpSchemas(tools, options).tools.filter(unscoped), mode).fetch(listRequest('legacy'))
      ).text();
      const lists = await Promise.all([1, 2, 3].map(() => mount.fetch(listRequest('legacy'))));
      for (const list of lists) expect(await list.text()).toBe(sdk);
      expect(await (await mount.fetch(listRequest('legacy'))).text()).toBe(sdk);
    }
  });

  it('refuses a cursor, which no list ever issued, and one that is no string, with -32602 (the SDK lists all)', async () => {
    const mount = createMcpFetchHandler(tools, mountOptions('flat', 'json'));
    for (const era of ['modern', 'legacy'] as const) {
      for (const params of [{ cursor: 'next' }, { cursor: 7 }]) {
        const answer = await mount.fetch(listRequest(era, 1, params));
        expect(answer.status).toBe(200);
        const { error, result } = message(await answer.text());
        expect(result).toBeUndefined();
        expect(error.code).toBe(-32602);
        expect(error.message).toMatch(/^Invalid cursor/);
      }
    }
  });
});

describe('the sentinel', () => {
  const options = mountOptions('flat', 'json');
  const mount = createMcpFetchHandler(tools, options);
  const sdk = reference(validateMcpSchemas(tools, options).tools.filter(unscoped), 'json');

  it('cannot be forged: an id or a param carrying a nonce-like text changes nothing', async () => {
    const first = await (await mount.fetch(listRequest('modern'))).text();
    const names = message(first).result.tools.map((t: { name: string }) => t.name);
    expect(names.some((n: string) => n.startsWith('mcp-mount-list-'))).toBe(false);
    const forged = [
      'mcp-mount-list-00000000-0000-0000-0000-000000000000',
      '{"name":"mcp-mount-list-x","inputSchema":{"type":"object"}}',
    ];
    for (const text of forged) {
      for (const era of ['modern', 'legacy'] as const) {
        const ours = await (await mount.fetch(listRequest(era, text, { filter: text }))).text();
        const theirs = await (await sdk.fetch(listRequest(era, text, { filter: text }))).text();
        expect(ours).toBe(theirs);
        expect(message(ours).id).toBe(text);
      }
    }
  });

  it('never reaches a client, even in a batch of lists (served by the SDK itself)', async () => {
    const batch = [1, 2].map((id) => ({ jsonrpc: '2.0', id, method: 'tools/list' }));
    const response = await mount.fetch(
      new Request('http://localhost/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify(batch),
      }),
    );
    expect(await response.text()).not.toContain('mcp-mount-list-');
  });
});

describe('the official clients list the cached tools over real HTTP', () => {
  it('v2 (2026-07-28) and the 2025-era SDK: names, documents and `_meta` as the report says', async () => {
    const options = mountOptions('flat', 'sse', { access: { visibleTools: () => (t: AnyTool) => t.name !== 'plain' } });
    const expected = validateMcpSchemas(tools, options).tools.filter((t) => unscoped(t) && t.name !== 'plain');
    let clients = 0;
    await withClients(tools, options, async (client) => {
      const listed = (await client.listTools()).tools as Array<Record<string, unknown>>;
      expect(listed.map((t) => t.name)).toEqual(expected.map((t) => t.name));
      for (const [i, t] of expected.entries()) {
        expect(listed[i]!.inputSchema).toEqual(t.inputSchema);
        expect(listed[i]!.outputSchema).toEqual(t.outputSchema);
        expect(listed[i]!._meta).toEqual(t._meta);
        expect(listed[i]!.icons).toEqual(t.icons);
      }
      // The mount still calls what it lists.
      const call = await client.callTool('unicode_text', { ключ: 'v' });
      expect(call.isError).toBeFalsy();
      clients++;
      expect(client.protocolVersion).toBe(clients === 1 ? '2026-07-28' : '2025-11-25');
    });
    expect(clients).toBe(2);
  });
});

describe('output roots', () => {
  it('a served output root is always an object, so the 2025 codec never wraps a cached entry', async () => {
    const unionOutput = defineTool({
      name: 'union_out',
      input: z.object({}),
      output: z.union([z.object({ a: z.string() }), z.object({ b: z.number() })]),
      handler: () => ({ a: 'x' }),
    });
    const objectOutput = defineTool({
      name: 'object_out',
      input: z.object({}),
      output: z.object({ r: z.union([z.string(), z.number()]) }),
      handler: () => ({ r: 1 }),
    });
    for (const projection of PROJECTION_NAMES) {
      const options = mountOptions(projection, 'json');
      const report = validateMcpSchemas([unionOutput, objectOutput], options);
      expect(report.tools.map((t) => t.name)).toEqual(['object_out']);
      const mount = createMcpFetchHandler([unionOutput, objectOutput], options);
      for (const era of ['modern', 'legacy'] as const) {
        const { result } = message(await (await mount.fetch(listRequest(era))).text());
        expect(result.tools.map((t: ServedTool) => t.outputSchema?.type)).toEqual(['object']);
        expect(result.tools[0].outputSchema).toEqual(report.tools[0]!.outputSchema);
      }
    }
  });
});
