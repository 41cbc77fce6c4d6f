/**
 * What a handler is given on a call: `ctx.signal`, `ctx.mcp.mcpReq` and `ctx.mcp.mcpReq.signal` are own
 * enumerable properties (a spread copies them, as a spread of the SDK's context does), read through accessors
 * shared by every call: an accessor made per call gives each context a hidden class of its own, which holds
 * the whole call alive through young collections (test/unit/layout/literal-accessors.test.ts holds the
 * sources to it). On both paths: the direct one and the SDK's.
 */
import { defineTool } from 'mcp-mount';
import { testMount } from 'mcp-mount/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { forceSdkPath } from '../../../src/core/serve/handler.js';
import type { ToolContext } from '../../../src/index.js';

function contexts() {
  const seen: ToolContext[] = [];
  const tool = defineTool({
    name: 'seen',
    input: z.object({ n: z.number() }),
    handler: (_call, ctx) => {
      seen.push(ctx as ToolContext);
      return 'ok';
    },
  });
  return { seen, tool };
}

const accessor = (o: object, key: string) => Object.getOwnPropertyDescriptor(o, key)?.get;

describe('a handler context', () => {
  it('on the direct path, shares its accessors between calls and spreads like a plain object', async () => {
    const { seen, tool } = contexts();
    const t = testMount([tool]);
    await t.callTool('seen', { n: 1 });
    await t.callTool('seen', { n: 2 });
    const [a, b] = seen as [ToolContext, ToolContext];
    expect(accessor(a, 'signal')).toBeTypeOf('function');
    expect(accessor(a, 'signal')).toBe(accessor(b, 'signal'));
    expect(accessor(a.mcp, 'mcpReq')).toBeTypeOf('function');
    expect(accessor(a.mcp, 'mcpReq')).toBe(accessor(b.mcp, 'mcpReq'));
    const request = a.mcp.mcpReq;
    expect(accessor(request, 'signal')).toBe(accessor(b.mcp.mcpReq, 'signal'));

    const spread = { ...a };
    expect(spread.signal).toBeInstanceOf(AbortSignal);
    expect(spread.signal).toBe(a.signal);
    const mcp = { ...a.mcp };
    expect(mcp.mcpReq).toBe(request);
    expect({ ...request }.signal).toBeInstanceOf(AbortSignal);
    expect(Object.keys(a)).toEqual(expect.arrayContaining(['signal', 'mcp', 'repairs', 'ignoredKeys', 'extend']));
    await t.close();
  });

  it("on the SDK's path, spreads the same way", async () => {
    const { seen, tool } = contexts();
    const t = testMount([tool]);
    forceSdkPath(t.handler);
    await t.callTool('seen', { n: 1 });
    const [a] = seen as [ToolContext];
    expect({ ...a }.signal).toBeInstanceOf(AbortSignal);
    expect({ ...a.mcp }.mcpReq).toBe(a.mcp.mcpReq);
    await t.close();
  });
});
