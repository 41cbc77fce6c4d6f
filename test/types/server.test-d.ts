/**
 * Type tests for the surface of ADR 0009: `ctx.log` and `ctx.progress` typed by the SDK's levels,
 * an `InputRequiredResult` as a handler's return with or without `output`, and the `server` hook given the
 * SDK's own `McpServer`. Checked by `npm run typecheck`.
 */
import { inputRequired, type LoggingLevel, type McpServer } from '@modelcontextprotocol/server';
import { defineTool, type ServerHook, type ServerHookContext } from 'mcp-mount';
import { createMcpFetchHandler } from 'mcp-mount/adapter';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';

describe('ctx.log and ctx.progress', () => {
  it('take the SDK logging levels and a progress number, and return promises', () => {
    defineTool({
      name: 'work',
      handler: async (_args, ctx) => {
        expectTypeOf(ctx.log).parameter(0).toEqualTypeOf<LoggingLevel>();
        expectTypeOf(ctx.log('info', { any: 'data' })).toEqualTypeOf<Promise<void>>();
        // @ts-expect-error not a logging level
        void ctx.log('verbose', 'x');
        await ctx.progress(1, { total: 2, message: 'half' });
        // @ts-expect-error progress is a number
        void ctx.progress('1');
        return 'done';
      },
    });
  });
});

describe('a handler that returns an InputRequiredResult', () => {
  it('type-checks without output and with output', () => {
    const ask = () => inputRequired({ inputRequests: { who: inputRequired.listRoots() } });
    defineTool({ name: 'plain', handler: () => ask() });
    defineTool({ name: 'typed', output: z.object({ n: z.number() }), handler: () => ask() });
  });
});

describe('the server option', () => {
  it("hands the hook the SDK's McpServer and a typed context", () => {
    const hook: ServerHook = (server, ctx) => {
      expectTypeOf(server).toEqualTypeOf<McpServer>();
      expectTypeOf(ctx).toEqualTypeOf<ServerHookContext>();
      expectTypeOf(ctx.era).toEqualTypeOf<'legacy' | 'modern'>();
    };
    createMcpFetchHandler([], { server: { features: hook }, protocol: { logging: true, responseMode: 'json' } });
    // @ts-expect-error not a response mode
    createMcpFetchHandler([], { protocol: { responseMode: 'stream' } });
  });
});
