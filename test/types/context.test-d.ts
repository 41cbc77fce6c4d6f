/**
 * Type tests for what a handler sees: `ctx.authInfo`, the value it may return, `ctx.extend`. Checked by
 * `npm run typecheck` (test/ is in tsconfig's include), so they cannot be skipped; `npm test` does not run
 * them (`*.test-d.ts`), as there is nothing to run.
 */
import type { AuthInfo, CallToolResult } from '@modelcontextprotocol/server';
import { defineTool, type ToolContext } from 'mcp-mount';
import { createMcpFetchHandler, type FetchExtras } from 'mcp-mount/adapter';
import { mcp as expressMcp } from 'mcp-mount/express';
import { mcp as fetchMcp } from 'mcp-mount/fetch';
import { mcp as honoMcp } from 'mcp-mount/hono';
import { mcp as nextMcp } from 'mcp-mount/next';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';

describe('ctx.authInfo', () => {
  it("is the SDK's AuthInfo", () => {
    expectTypeOf<ToolContext['authInfo']>().toEqualTypeOf<AuthInfo | undefined>();
    expectTypeOf<FetchExtras['authInfo']>().toEqualTypeOf<AuthInfo | undefined>();
    defineTool({
      name: 'whoami',
      handler: (_args, ctx) => {
        expectTypeOf(ctx.authInfo?.scopes).toEqualTypeOf<string[] | undefined>();
        // @ts-expect-error authInfo may be absent
        return ctx.authInfo.clientId;
      },
    });
  });

  it('refuses what is not an AuthInfo at the core', () => {
    const handler = createMcpFetchHandler([]);
    // @ts-expect-error `clientId` and `scopes` are missing
    void handler.fetch(new Request('http://h/mcp'), { authInfo: { token: 't' } });
  });
});

describe('a handler that returns a CallToolResult', () => {
  const output = z.object({ count: z.number() });

  it('may return the object literal as it is, with `output` declared, with no `as const`', () => {
    const tool = defineTool({
      name: 'count',
      input: z.object({ text: z.string() }),
      output,
      handler: ({ input }) => ({ content: [{ type: 'text', text: input.text }], structuredContent: { count: 1 } }),
    });
    expectTypeOf(tool.output).toEqualTypeOf<typeof output | undefined>();
    defineTool({ name: 'a', output, handler: async () => ({ content: [{ type: 'text', text: 'x' }] }) });
    defineTool({ name: 'b', output, handler: () => ({ count: 2 }) });
    defineTool({ name: 'c', handler: () => ({ content: [{ type: 'text', text: 'x' }], isError: true }) });
    defineTool({ name: 'd', handler: () => {} });
    const returned: CallToolResult = { content: [{ type: 'text', text: 'x' }] };
    defineTool({ name: 'e', output, handler: () => returned });
  });

  it("refuses a value the output schema's type does not allow, and a misspelt content type", () => {
    // @ts-expect-error `count` must be a number
    defineTool({ name: 'f', output, handler: () => ({ count: 'two' }) });
    // @ts-expect-error there is no content type 'txt'
    defineTool({ name: 'g', output, handler: () => ({ content: [{ type: 'txt', text: 'x' }] }) });
  });
});

describe('ctx.extend', () => {
  const extend = {
    schema: z.object({ tenantId: z.string() }),
    resolve: async (values: { tenantId: string }) => ({ tenant: { id: values.tenantId, plan: 'free' as const } }),
  };
  type Resolved = { tenant: { id: string; plan: 'free' } };
  const tenantTool = defineTool.for<{ extend: Resolved }>()({
    name: 'tenant',
    handler: (_args, ctx) => {
      expectTypeOf(ctx.extend).toEqualTypeOf<Resolved>();
      return ctx.extend.tenant.id;
    },
  });

  it("is unknown for a tool that declares no need, and `resolve`'s values are typed from the schema", () => {
    defineTool({
      name: 'plain',
      handler: (_args, ctx) => {
        expectTypeOf(ctx.extend).toBeUnknown();
      },
    });
    honoMcp([], {
      arguments: {
        extend: {
          schema: z.object({ tenantId: z.string() }),
          resolve: (values) => {
            expectTypeOf(values).toEqualTypeOf<{ tenantId: string }>();
            return values.tenantId.length;
          },
        },
      },
    });
  });

  it('mounts a tool that needs what resolve returns on every adapter', () => {
    createMcpFetchHandler([tenantTool], { arguments: { extend } });
    honoMcp([tenantTool], { arguments: { extend } });
    expressMcp([tenantTool], { arguments: { extend } });
    fetchMcp([tenantTool], { arguments: { extend }, path: '/mcp' });
    nextMcp([tenantTool], { arguments: { extend } });
  });

  it('is the parsed schema values without resolve', () => {
    const idTool = defineTool.for<{ extend: { tenantId: string } }>()({ name: 'id', handler: (_a, c) => c.extend });
    honoMcp([idTool], { arguments: { extend: { schema: z.object({ tenantId: z.string() }) } } });
    // @ts-expect-error the schema gives `tenantId` a number
    honoMcp([idTool], { arguments: { extend: { schema: z.object({ tenantId: z.number() }) } } });
  });

  it('refuses a tool that needs extend on a mount without one, or with another result', () => {
    // @ts-expect-error no `extend`: ctx.extend would be undefined
    createMcpFetchHandler([tenantTool]);
    // @ts-expect-error no `extend`
    honoMcp([tenantTool], { flattenUnionInput: true });
    // @ts-expect-error no `extend`
    expressMcp([tenantTool]);
    // @ts-expect-error no `extend`
    fetchMcp([tenantTool], { path: '/mcp' });
    // @ts-expect-error no `extend`
    nextMcp([tenantTool], {});
    // @ts-expect-error resolve returns a number, not `{ tenant }`
    honoMcp([tenantTool], { arguments: { extend: { schema: z.object({ tenantId: z.string() }), resolve: () => 1 } } });
  });
});

describe('scopes and visibleTools', () => {
  it('takes a list, allOf or anyOf as scopes, and nothing else', () => {
    const scopes: string[] = ['notes:write'];
    defineTool({ name: 'a', scopes, handler: () => 'ok' });
    defineTool({ name: 'b', scopes: { allOf: ['x', 'y'] }, handler: () => 'ok' });
    defineTool({ name: 'c', scopes: { anyOf: ['admin', 'reports:read'] }, handler: () => 'ok' });
    // @ts-expect-error a single string is not a list of scopes
    defineTool({ name: 'd', scopes: 'notes:write', handler: () => 'ok' });
  });

  it('answers visibleTools with names, a Set, or a predicate over tools, given a typed context', () => {
    createMcpFetchHandler([], {
      access: {
        visibleTools: (context) => {
          expectTypeOf(context.authInfo).toEqualTypeOf<AuthInfo | undefined>();
          expectTypeOf(context.request).toEqualTypeOf<Request>();
          return context.authInfo ? new Set(['a']) : ['b'];
        },
      },
    });
    createMcpFetchHandler([], { access: { visibleTools: async () => (tool) => tool.scopes === undefined } });
    // @ts-expect-error a name alone is not an answer
    createMcpFetchHandler([], { access: { visibleTools: () => 'a' } });
  });
});
