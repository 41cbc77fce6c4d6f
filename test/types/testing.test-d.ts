/**
 * Type tests for `testMount`: it takes the tools and options an adapter takes, so a tool's declared host
 * and `extend` needs are held to what the test provides, and the `host` option is typed by the tools.
 * Checked by `npm run typecheck`.
 */
import { defineTool } from 'mcp-mount';
import type { FetchHost } from 'mcp-mount/fetch';
import { type TestCallResult, testMount } from 'mcp-mount/testing';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';

const region = defineTool.for<{ host: FetchHost<{ REGION: string }> }>()({
  name: 'region',
  handler: (_args, ctx) => ctx.host.env.REGION,
});
const tenant = defineTool.for<{ extend: { tenantId: string } }>()({
  name: 'tenant',
  handler: (_args, ctx) => ctx.extend.tenantId,
});

describe('testMount types', () => {
  it('types `host` by the tools, per call and in the defaults', () => {
    const t = testMount([region], {}, { host: { env: { REGION: 'eu' }, ctx: undefined } });
    expectTypeOf(
      t.callTool('region', {}, { host: { env: { REGION: 'us' }, ctx: undefined } }),
    ).resolves.toEqualTypeOf<TestCallResult>();
    // @ts-expect-error REGION is a string
    void t.callTool('region', {}, { host: { env: { REGION: 1 }, ctx: undefined } });
  });

  it('holds a tool needing `extend` to a mount that has one', () => {
    testMount([tenant], { arguments: { extend: { schema: z.object({ tenantId: z.string() }) } } });
    // @ts-expect-error no extend on this mount
    testMount([tenant], {});
  });
});
