/**
 * Clients that never name themselves, over real HTTP with both official clients: one URL per family (the
 * projection function sees the request), `'auto'` starting on a tool set some profiles cannot type (each
 * family served only what its own check accepts, ADR 0019), and recursive output schemas served without a
 * `$ref` cycle outside `faithful` (ADR 0018).
 */
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import {
  autoProjection,
  defineTool,
  McpMountSchemaError,
  PROJECTION_NAMES,
  type ProjectionName,
  type ProjectionRequest,
  validateMcpSchemas,
} from 'mcp-mount';
import { createMcpFetchHandler } from 'mcp-mount/adapter';
import { mcp } from 'mcp-mount/hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { connectors } from '../../examples/shared/clients.js';
import { checkDocument } from '../../src/core/probe/index.js';
import { isProfileProjection } from '../../src/core/projection/names.js';

interface TreeNode {
  name: string;
  children: TreeNode[];
}
const TreeNode: z.ZodType<TreeNode> = z.lazy(() => z.object({ name: z.string(), children: z.array(TreeNode) }));
const received: unknown[] = [];
const keep = ({ input }: { input: unknown }) => {
  received.push(input);
  return { stored: true };
};

/** What real tool sets hold: a record, `z.any()`, a union root, a recursive schema, a scalar union. */
const tools = [
  defineTool({
    name: 'labels',
    input: z.object({ labels: z.record(z.string(), z.string()), extra: z.any() }),
    handler: keep,
  }),
  defineTool({
    name: 'shape',
    input: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('circle'), radius: z.number() }),
      z.object({ kind: z.literal('square'), side: z.number() }),
    ]),
    handler: keep,
  }),
  defineTool({ name: 'tree', input: z.object({ root: TreeNode }), handler: keep }),
  defineTool({ name: 'tags', input: z.object({ tag: z.union([z.string(), z.array(z.string())]) }), handler: keep }),
  defineTool({
    name: 'outline',
    input: z.object({ title: z.string() }),
    output: z.object({ root: TreeNode }),
    handler: ({ input }) => ({ root: deepTree(6, input.title) }),
  }),
];

function deepTree(depth: number, name: string): TreeNode {
  let node: TreeNode = { name, children: [] };
  for (let level = depth; level > 0; level--) node = { name: `level-${level}`, children: [node] };
  return node;
}

/** `/mcp/<projection>` or `?family=<projection>` picks a projection; anything else is `'auto'`'s. */
function byRequest(client: Parameters<typeof autoProjection>[0], request: ProjectionRequest): ProjectionName {
  const asked = [request.url.pathname.split('/').pop(), request.url.searchParams.get('family')];
  const named = asked.find((a): a is ProjectionName => (PROJECTION_NAMES as readonly unknown[]).includes(a));
  return named ?? autoProjection(client);
}

const hosts: unknown[] = [];
let url = '';
let close = () => {};
const warnings: string[] = [];
const logger = { warn: (m: string) => warnings.push(m), error: () => {}, info: () => {}, debug: () => {} };
const options = {
  projection: (client: Parameters<typeof autoProjection>[0], request: ProjectionRequest) => {
    hosts.push(request.host);
    return byRequest(client, request);
  },
  observe: { logger },
};
const report = validateMcpSchemas(tools, options);

beforeAll(async () => {
  const app = new Hono();
  const handler = mcp(tools, options);
  app.all('/mcp', handler);
  app.all('/mcp/:family', handler);
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const address = server.address() as { port: number };
  url = `http://127.0.0.1:${address.port}/mcp`;
  close = () => server.close();
});
afterAll(() => close());

describe('one URL per family', () => {
  for (const connect of connectors) {
    for (const family of ['gemini', 'openai-strict', 'faithful', 'flat'] as const) {
      it(`${connect.name}: /mcp/${family} lists the ${family} documents the probe reports`, async () => {
        const client = await connect(`${url}/${family}`);
        try {
          const { tools: listed } = await client.listTools();
          const expected = report.projections[family]!.tools;
          expect(listed.map((t) => t.name)).toEqual(expected.map((t) => t.name));
          for (const [i, tool] of listed.entries()) expect(tool.inputSchema).toEqual(expected[i]!.inputSchema);
        } finally {
          await client.close();
        }
      });
    }
    it(`${connect.name}: a query parameter routes as well, and the function sees the adapter's host`, async () => {
      hosts.length = 0;
      const client = await connect(`${url}?family=cursor`);
      try {
        const { tools: listed } = await client.listTools();
        expect(listed.map((t) => t.inputSchema)).toEqual(report.projections.cursor!.tools.map((t) => t.inputSchema));
        expect(hosts.length).toBeGreaterThan(0);
        expect(hosts.every((h) => typeof (h as { context?: { req?: unknown } })?.context?.req === 'object')).toBe(true);
      } finally {
        await client.close();
      }
    });
  }
});

describe("'auto' on a tool set some profiles cannot type", () => {
  it('starts under the default policy, logging each fallback once at construction under projection.prepare: at-startup', () => {
    warnings.length = 0;
    expect(() =>
      mcp(tools, { projection: { choose: 'auto', prepare: 'at-startup' }, observe: { logger } }),
    ).not.toThrow();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/projection-fallback/);
    expect(warnings[0]).toMatch(/labels \(openai-strict\)/);
  });

  it("prepares a family's documents on its first tools/list, logging its fallback once then, not at construction", async () => {
    warnings.length = 0;
    const handler = createMcpFetchHandler(tools, { projection: 'auto', observe: { logger } });
    // At construction: the default projection's own warnings, once; no family's fallback yet.
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^mcp-mount: the mount starts with these warnings\n.*\(flat\)/);
    expect(warnings[0]).not.toMatch(/projection-fallback|openai-strict/);
    warnings.length = 0;
    const list = (userAgent: string) =>
      handler.fetch(
        new Request('http://localhost/mcp', {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json', 'user-agent': userAgent },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
        }),
      );
    const flat = await list('some-agent/1.0');
    expect(((await flat.json()) as { result: { tools: unknown[] } }).result.tools).toHaveLength(5);
    expect(warnings).toEqual([]);
    for (let i = 0; i < 2; i++) {
      const strict = await list('openai-mcp/1.0');
      const listed = ((await strict.json()) as { result: { tools: Array<{ name: string; inputSchema: unknown }> } })
        .result.tools;
      expect(listed.map((t) => t.inputSchema)).toEqual(
        validateMcpSchemas(tools, { projection: 'auto' }).projections['openai-strict']!.tools.map((t) => t.inputSchema),
      );
    }
    expect(warnings, warnings.join('\n----\n')).toHaveLength(1);
    expect(warnings[0]).toMatch(/prepared on first use/);
    expect(warnings[0]).toMatch(/labels \(openai-strict\) \(root\) projection-fallback/);
    expect(warnings[0]).not.toMatch(/narrowed/);
  });

  it("under projection.errors: 'fail', a family prepared on first use leaves the tool out and logs the error", async () => {
    const errors: string[] = [];
    const handler = createMcpFetchHandler(tools, {
      projection: { choose: 'auto', errors: 'fail' },
      observe: { logger: { warn: () => {}, error: (m: string) => errors.push(m) } },
    });
    const response = await handler.fetch(
      new Request('http://localhost/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', 'user-agent': 'openai-mcp/1.0' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      }),
    );
    const listed = ((await response.json()) as { result: { tools: Array<{ name: string }> } }).result.tools;
    expect(listed.map((t) => t.name)).not.toContain('labels');
    expect(listed.map((t) => t.name)).toContain('shape');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/\[error\] labels \(openai-strict\) \/properties\/labels open-record/);
  });

  it("serves each family only documents its own profile's check accepts", () => {
    const auto = validateMcpSchemas(tools, { projection: 'auto' });
    expect(auto.ok).toBe(true);
    for (const [name, projection] of Object.entries(auto.projections)) {
      if (!isProfileProjection(name as ProjectionName)) continue;
      for (const tool of projection!.tools) {
        const issues = checkDocument(tool.inputSchema, {
          tool: tool.name,
          side: 'input',
          flattenRequested: true,
          projection: name,
          options: { profiles: [name] },
        });
        expect(
          issues.filter((i) => i.severity === 'error'),
          `${tool.name} (${name})`,
        ).toEqual([]);
      }
    }
    // What each family goes without, and why.
    const fallbacks = auto.issues
      .filter((i) => i.code === 'projection-fallback')
      .map((i) => `${i.tool}:${i.projection}`);
    expect(fallbacks.sort()).toEqual(['labels:gemini', 'labels:openai-strict', 'tags:gemini']);
    expect(auto.projections.gemini!.tools.map((t) => t.name)).toEqual(['shape', 'tree', 'outline']);
    expect(auto.projections.flat!.tools.map((t) => t.name)).toEqual(['labels', 'shape', 'tree', 'tags', 'outline']);
  });

  it("projection.errors: 'fail' fails the mount instead; under policy 'warn' a family is never served a document its check refuses", () => {
    expect(() =>
      mcp(tools, {
        projection: { choose: 'auto', prepare: 'at-startup', errors: 'fail' },
        observe: { logger },
      }),
    ).toThrow(McpMountSchemaError);
    const warned = validateMcpSchemas(tools, {
      projection: { choose: 'auto', errors: 'fail' },
      schemaValidation: { policy: 'warn' },
    });
    expect(warned.projections.gemini!.tools.map((t) => t.name)).toEqual(['shape', 'tree', 'outline']);
    expect(warned.projections['openai-strict']!.tools.map((t) => t.name)).not.toContain('labels');
    expect(() =>
      validateMcpSchemas(tools, { projection: { choose: 'auto', errors: 'never' as 'fail' } }),
    ).not.toThrow();
    expect(
      validateMcpSchemas(tools, { projection: { choose: 'auto', errors: 'never' as 'fail' } }).issues[0],
    ).toMatchObject({ code: 'invalid-option', message: expect.stringMatching(/projection.errors must be one of/) });
  });
});

describe('recursive output schemas', () => {
  const refs = (doc: unknown) => JSON.stringify(doc).includes('"$ref"');

  it('keep their $ref cycle in faithful only; every other projection is served them unrolled', () => {
    for (const [name, projection] of Object.entries(report.projections)) {
      const outline = projection!.tools.find((t) => t.name === 'outline')!;
      expect(refs(outline.outputSchema), name).toBe(name === 'faithful');
    }
  });

  for (const connect of connectors) {
    for (const family of ['anthropic', 'faithful'] as const) {
      it(`${connect.name} (/mcp/${family}): listed that output schema; a result deeper than the unrolling validates`, async () => {
        const client = await connect(`${url}/${family}`);
        try {
          const { tools: listed } = await client.listTools();
          const outline = listed.find((t) => t.name === 'outline')!;
          expect(refs(outline.outputSchema)).toBe(family === 'faithful');
          const result = await client.callTool('outline', { title: 'leaf' });
          expect(result.isError).toBeFalsy();
          expect(result.structuredContent).toEqual({ root: deepTree(6, 'leaf') });
        } finally {
          await client.close();
        }
      });
    }
  }
});
