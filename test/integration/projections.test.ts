/**
 * Per-client projections over real HTTP with both official clients: each client is listed the document the
 * mount's `projection` option picks for it, byte-equal to the probe's document for that projection, even when
 * clients of different kinds list at the same time; calls parse with the original Zod schema whatever the
 * client was shown.
 */
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  autoProjection,
  type ClientIdentity,
  defineTool,
  type McpMountOptions,
  type ProjectionName,
  validateMcpSchemas,
} from 'mcp-mount';
import { createMcpFetchHandler } from 'mcp-mount/adapter';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MODERN } from '../../examples/shared/clients.js';
import { mergedOptions } from '../support/options.js';
import { listen, type Running } from '../support/server.js';

const received: unknown[] = [];
const media = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('image'), url: z.string(), alt: z.string().nullable().optional() }),
  z.object({ kind: z.literal('gallery'), urls: z.array(z.string()).min(1) }),
]);
const input = z.object({ to: z.string(), media, note: z.string().nullable().optional() });
const sendMessage = defineTool({
  name: 'send_message',
  description: 'Sends a message with media',
  input,
  handler: ({ input: parsed }) => {
    received.push(parsed);
    return { content: [{ type: 'text', text: 'sent' }] };
  },
});

type Who = { era: 'modern'; name: string } | { era: 'legacy'; userAgent?: string };

/** Connects one official client as `who`, lists the tools and calls `send_message` once. */
async function listAndCall(url: string, who: Who): Promise<{ tools: any[]; call: any }> {
  if (who.era === 'modern') {
    const client = new ClientV2({ name: who.name, version: '1.0.0' }, MODERN);
    await client.connect(new TransportV2(new URL(url)));
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      const { tools } = await client.listTools();
      const call = await client.callTool({ name: 'send_message', arguments: CALL });
      return { tools, call };
    } finally {
      await client.close();
    }
  }
  const client = new ClientV1({ name: 'legacy-client', version: '1.0.0' });
  const headers: Record<string, string> = who.userAgent ? { 'User-Agent': who.userAgent } : {};
  await client.connect(new TransportV1(new URL(url), { requestInit: { headers } }));
  try {
    const { tools } = await client.listTools();
    const call = await client.callTool({ name: 'send_message', arguments: CALL });
    return { tools, call };
  } finally {
    await client.close();
  }
}

/** A 2026-07-28 `tools/list` as a client named `name` sends it, without an SDK client. */
function listRequest(url: string, name: string): Request {
  return new Request(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/list',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
      params: {
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name, version: '1' },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
  });
}

const CALL = { to: 'ada', media: { kind: 'gallery', urls: ['a.png'] } };

// The default policy ('throw'): every projection of this tool is one its client accepts.
const served = (options: McpMountOptions) =>
  createMcpFetchHandler([sendMessage], mergedOptions({ observe: { logger: SILENT } }, options));
const SILENT = { warn: () => {}, error: () => {} };

describe("projection: 'auto'", () => {
  const handler = served({ projection: 'auto' });
  let running: Running;
  beforeAll(async () => {
    running = await listen((request) => handler.fetch(request));
  });
  afterAll(() => running.close());

  const cases: Array<{ who: Who; expected: ProjectionName }> = [
    { who: { era: 'modern', name: 'cursor-vscode' }, expected: 'cursor' },
    { who: { era: 'modern', name: 'claude-code' }, expected: 'anthropic' },
    { who: { era: 'modern', name: 'gemini-cli-mcp-client' }, expected: 'gemini' },
    { who: { era: 'modern', name: 'some-new-agent' }, expected: 'flat' },
    { who: { era: 'legacy', userAgent: 'Cursor/1.7.2 (linux x64)' }, expected: 'cursor' },
    { who: { era: 'legacy' }, expected: 'flat' },
  ];

  it('lists Cursor a document without null type lists or combinators, where flat has them', () => {
    const text = (p: ProjectionName) => JSON.stringify(handler.report.projections[p]!.tools[0]!.inputSchema);
    expect(text('flat')).toMatch(/"null"/);
    expect(text('cursor')).not.toMatch(/"null"|"anyOf"|"oneOf"|"allOf"/);
    expect(handler.report.projections.cursor!.issues.filter((i) => i.severity === 'error')).toEqual([]);
  });

  it('computes flat and every table target once, and reports each', () => {
    expect(handler.report.projection).toBe('flat');
    expect(Object.keys(handler.report.projections).sort()).toEqual(
      ['anthropic', 'cursor', 'flat', 'gemini', 'local-grammar', 'openai-strict'].sort(),
    );
    expect(handler.report.tools).toEqual(handler.report.projections.flat!.tools);
  });

  it('sends each projection byte for byte: the tools/list body holds the probe document as it was serialised', async () => {
    for (const { name, expected } of [
      { name: 'cursor-vscode', expected: 'cursor' as const },
      { name: 'unknown', expected: 'flat' as const },
    ]) {
      const response = await fetch(listRequest(running.url, name));
      const text = await response.text();
      const doc = JSON.stringify(handler.report.projections[expected]!.tools[0]!.inputSchema);
      expect(response.status, text).toBe(200);
      expect(text).toContain(doc);
    }
  });

  for (const { who, expected } of cases) {
    const label = who.era === 'modern' ? `clientInfo ${who.name}` : `User-Agent ${who.userAgent ?? '(default)'}`;
    it(`${who.era} client, ${label}: listed the ${expected} document; its call parses with Zod`, async () => {
      received.length = 0;
      const { tools, call } = await listAndCall(running.url, who);
      const probe = handler.report.projections[expected]!.tools;
      expect(tools.map((t) => t.inputSchema)).toEqual(probe.map((t) => t.inputSchema));
      expect(call.isError).toBeFalsy();
      expect(received).toEqual([input.parse(CALL)]);
    });
  }
});

describe('a projection function', () => {
  const seen: ClientIdentity[] = [];
  const choose = (client: ClientIdentity): ProjectionName => {
    seen.push(client);
    if (client.name === 'capable-agent' || client.userAgent?.includes('CapableAgent')) return 'faithful';
    return autoProjection(client);
  };
  const handler = served({ projection: choose });
  let running: Running;
  beforeAll(async () => {
    running = await listen((request) => handler.fetch(request));
  });
  afterAll(() => running.close());

  it('is told the name and version (2026-07-28) or the User-Agent (2025 era), and the era', async () => {
    seen.length = 0;
    await listAndCall(running.url, { era: 'modern', name: 'capable-agent' });
    await listAndCall(running.url, { era: 'legacy', userAgent: 'CapableAgent/2.0' });
    expect(seen).toContainEqual(
      expect.objectContaining({ name: 'capable-agent', version: '1.0.0', era: '2026-07-28' }),
    );
    expect(seen).toContainEqual(expect.objectContaining({ userAgent: 'CapableAgent/2.0', era: '2025' }));
    // Asked per tools/list only: a call never needs a document.
    expect(seen).toHaveLength(2);
  });

  it('serves faithful and flat documents to clients listing at the same time, each its own', async () => {
    const faithful = JSON.stringify(handler.report.projections.faithful!.tools.map((t) => t.inputSchema));
    const flat = JSON.stringify(handler.report.projections.flat!.tools.map((t) => t.inputSchema));
    expect(faithful).not.toBe(flat);
    expect(JSON.parse(faithful)[0].$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    const clients: Array<{ who: Who; expected: string }> = Array.from({ length: 12 }, (_, i) => {
      const capable = i % 2 === 0;
      const who: Who =
        i % 3 === 0
          ? { era: 'legacy', userAgent: capable ? 'CapableAgent/2.0' : 'Other/1.0' }
          : { era: 'modern', name: capable ? 'capable-agent' : 'other-agent' };
      return { who, expected: capable ? faithful : flat };
    });
    const results = await Promise.all(clients.map(({ who }) => listAndCall(running.url, who)));
    results.forEach((r, i) => {
      // Deep equality: the v1 client's parse puts the keys it knows first.
      expect(
        r.tools.map((t) => t.inputSchema),
        `client ${i}`,
      ).toEqual(JSON.parse(clients[i]!.expected));
      expect(r.call.isError, `client ${i}`).toBeFalsy();
    });
  });

  it('returning a projection the mount does not serve is a JSON-RPC 500 that onError sees, and the mount keeps serving', async () => {
    const errors: unknown[] = [];
    const broken = served({
      projection: () => 'nonsense' as ProjectionName,
      observe: { onError: (error) => errors.push(error) },
    });
    const list = () =>
      broken.fetch(
        new Request('http://localhost/mcp', {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
        }),
      );
    const response = await list();
    expect(response.status).toBe(500);
    expect((await response.json()).error.code).toBe(-32603);
    expect(String(errors[0])).toMatch(/nonsense/);
    expect((await list()).status).toBe(500);
  });
});

describe('the default', () => {
  it('is the faithful document for every client, with $schema and $defs kept', () => {
    const report = createMcpFetchHandler([
      defineTool({
        name: 'with_defs',
        input: z.object({ home: z.object({ city: z.string() }).meta({ id: 'address' }) }),
        handler: () => 'ok',
      }),
    ]).report;
    expect(report.projection).toBe('faithful');
    expect(Object.keys(report.projections)).toEqual(['faithful']);
    const doc = report.tools[0]!.inputSchema as any;
    expect(doc.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(doc.properties.home).toEqual({ $ref: '#/$defs/address' });
    expect(doc.$defs.address.properties.city).toEqual({ type: 'string' });
  });

  it('flattenUnionInput: true is projection flat; giving it beside another projection is a TypeError', () => {
    expect(createMcpFetchHandler([sendMessage], { flattenUnionInput: true }).report.projection).toBe('flat');
    expect(() => createMcpFetchHandler([sendMessage], { flattenUnionInput: true, projection: 'cursor' })).toThrow(
      /shorthand for projection: 'flat'/,
    );
    expect(() => createMcpFetchHandler([sendMessage], { projection: 'cursr' as ProjectionName })).toThrow(
      /projection must be/,
    );
  });
});

describe('a tool one projection cannot serve', () => {
  const rootUnion = defineTool({
    name: 'create_or_delete',
    input: z.discriminatedUnion('action', [
      z.object({ action: z.literal('create'), name: z.string() }),
      z.object({ action: z.literal('delete'), id: z.string() }),
    ]),
    handler: () => 'ok',
  });
  const choose = (client: ClientIdentity): ProjectionName => (client.name === 'capable-agent' ? 'faithful' : 'flat');

  type Setting = { errors?: 'fail'; policy?: 'warn' } | undefined;
  const options = (setting: Setting) =>
    ({
      projection: { choose, serve: ['flat', 'faithful'], ...(setting?.errors && { errors: setting.errors }) },
      ...(setting?.policy && { schemaValidation: { policy: setting.policy } }),
      observe: { logger: SILENT },
    }) as const;

  /** Serves the two tools under `setting`; each client name lists them, and calls `create_or_delete` where listed. */
  async function listAndCall(setting: Setting, clients: Record<string, string[]>): Promise<void> {
    const handler = createMcpFetchHandler([rootUnion, sendMessage], options(setting));
    const running = await listen((request) => handler.fetch(request));
    try {
      for (const [name, listed] of Object.entries(clients)) {
        const client = new ClientV2({ name, version: '1' }, MODERN);
        await client.connect(new TransportV2(new URL(running.url)));
        expect(
          (await client.listTools()).tools.map((t) => t.name),
          name,
        ).toEqual(listed);
        if (listed.includes('create_or_delete')) {
          const call = await client.callTool({ name: 'create_or_delete', arguments: { action: 'delete', id: 'x' } });
          expect(call.isError, name).toBeFalsy();
        }
        await client.close();
      }
    } finally {
      await running.close();
    }
  }

  it('falls back for that family alone: faithful clients are listed the flat document, with a warning (ADR 0019)', async () => {
    const report = validateMcpSchemas([rootUnion, sendMessage], options(undefined));
    expect(report.ok).toBe(true);
    expect(report.projections.faithful!.issues).toContainEqual(
      expect.objectContaining({ tool: 'create_or_delete', code: 'projection-fallback', projection: 'faithful' }),
    );
    const faithfulDoc = report.projections.faithful!.tools.find((t) => t.name === 'create_or_delete')!.inputSchema;
    expect(faithfulDoc).toEqual(report.projections.flat!.tools.find((t) => t.name === 'create_or_delete')!.inputSchema);
    await listAndCall(undefined, { 'capable-agent': ['create_or_delete', 'send_message'] });
  });

  it("under projection.errors: 'fail', an error for that projection (a union root is no object in faithful), listed in the others", async () => {
    const report = validateMcpSchemas([rootUnion, sendMessage], options({ errors: 'fail' }));
    expect(report.projections.faithful!.issues).toContainEqual(
      expect.objectContaining({ tool: 'create_or_delete', code: 'root-not-object', projection: 'faithful' }),
    );
    expect(report.projections.flat!.ok).toBe(true);
    expect(report.projections.flat!.tools.map((t) => t.name)).toEqual(['create_or_delete', 'send_message']);
    expect(report.projections.faithful!.tools.map((t) => t.name)).toEqual(['send_message']);
    // Under 'warn' it is served where it can be: its flat clients list and call it.
    await listAndCall(
      { policy: 'warn', errors: 'fail' },
      { 'capable-agent': ['send_message'], other: ['create_or_delete', 'send_message'] },
    );
  });
});

describe('projection: { choose, serve }', () => {
  it("limits what 'auto' computes; a table row left out gets flat", async () => {
    const handler = served({ projection: { choose: 'auto', serve: ['cursor'] } });
    expect(Object.keys(handler.report.projections)).toEqual(['flat', 'cursor']);
    expect(handler.report.projection).toBe('flat');
    const listAs = async (name: string) => {
      const response = await handler.fetch(listRequest('http://localhost/mcp', name));
      return (await response.json()).result.tools[0].inputSchema;
    };
    expect(await listAs('cursor-vscode')).toEqual(handler.report.projections.cursor!.tools[0]!.inputSchema);
    expect(await listAs('claude-code')).toEqual(handler.report.projections.flat!.tools[0]!.inputSchema);
  });

  it("chooses with 'auto' or a function, and serves only projections", () => {
    expect(() => served({ projection: { choose: 'flat' as never, serve: ['cursor'] } })).toThrow(
      /projection.choose must be 'auto' or a function/,
    );
    expect(() => served({ projection: { choose: 'auto', serve: ['cursr' as ProjectionName] } })).toThrow(
      /projection.serve must be/,
    );
    expect(() => served({ projection: { choose: 'auto', serve: [] } })).toThrow(/projection.serve must be/);
  });

  it('a misspelt projection key is refused naming the one meant', () => {
    expect(() => served({ projection: 'auto', projections: ['cursor'] } as never)).toThrow(
      /^mcp-mount: projections is not an option \(did you mean projection\?\)/,
    );
  });
});

describe('openai-strict and null for a key left out', () => {
  const tool = defineTool({
    name: 'search',
    input: z.object({ query: z.string(), limit: z.number().optional() }),
    handler: ({ input: parsed }) => {
      received.push(parsed);
      return 'ok';
    },
  });

  it('lists every key required, the optional one nullable; a null for it reaches the handler as left out', async () => {
    const handler = createMcpFetchHandler([tool], { projection: 'openai-strict' });
    const doc = handler.report.tools[0]!.inputSchema as any;
    expect(doc.required).toEqual(['query', 'limit']);
    expect(doc.additionalProperties).toBe(false);
    const running = await listen((request) => handler.fetch(request));
    try {
      received.length = 0;
      const client = new ClientV2({ name: 'openai-mcp', version: '1' }, MODERN);
      await client.connect(new TransportV2(new URL(running.url)));
      const call = await client.callTool({ name: 'search', arguments: { query: 'q', limit: null } });
      await client.close();
      expect(call.isError).toBeFalsy();
      expect(received).toEqual([{ query: 'q' }]);
    } finally {
      await running.close();
    }
  });

  it('with nullAsAbsent: false, the null is refused with its path', async () => {
    const handler = createMcpFetchHandler([tool], { projection: 'openai-strict', arguments: { nullAsAbsent: false } });
    const running = await listen((request) => handler.fetch(request));
    try {
      const client = new ClientV2({ name: 'openai-mcp', version: '1' }, MODERN);
      await client.connect(new TransportV2(new URL(running.url)));
      const call = await client.callTool({ name: 'search', arguments: { query: 'q', limit: null } });
      await client.close();
      expect(call.isError).toBe(true);
      expect(JSON.stringify(call.content)).toMatch(/limit/);
    } finally {
      await running.close();
    }
  });
});
