/**
 * The faithful merge copies the input slice's other root keywords onto the merged root (`keepRootKeywords`),
 * where they then apply to the params and extend keys as well. A record input root carries `propertyNames`
 * from Zod itself, so the faithful document refuses the params keys it requires: no call can pass, and the
 * probe says nothing. The superset invariant (ADR 0002) is broken in the DEFAULT projection.
 */
import { defineTool, validateMcpSchemas } from 'mcp-mount';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ajv } from '../../support/documents.js';

describe('faithful: input root keywords beside other slices', () => {
  it("a record input's propertyNames does not refuse the params keys (Zod-generated)", () => {
    const params = z.object({ userId: z.string() });
    const input = z.record(z.string().regex(/^[a-z]+$/), z.number());
    const tool = defineTool({ name: 'scores', params, input, handler: () => 'ok' });
    // As the call is split by key: params gets userId, the input record the rest.
    expect(params.safeParse({ userId: 'u' }).success).toBe(true);
    expect(input.safeParse({ abc: 1 }).success).toBe(true);

    const report = validateMcpSchemas([tool], { schemaValidation: { policy: 'warn' } });
    expect(report.projection).toBe('faithful');
    const doc = report.tools[0]!.inputSchema;
    const valid = ajv.validate(doc, { userId: 'u', abc: 1 });
    // Either the document takes the call, or the probe must at least say it takes none.
    expect(valid || report.issues.some((i) => i.severity === 'error'), JSON.stringify(doc)).toBe(true);
    expect(valid, JSON.stringify(ajv.errors)).toBe(true);
  });

  it("an input's .meta({ maxProperties }) counts only the input's own keys", () => {
    const params = z.object({ id: z.string() });
    const input = z.object({ a: z.string().optional() }).meta({ maxProperties: 1 } as never);
    const tool = defineTool({ name: 'one', params, input, handler: () => 'ok' });
    expect(input.safeParse({ a: 'x' }).success).toBe(true);
    const report = validateMcpSchemas([tool], { schemaValidation: { policy: 'warn' } });
    expect(ajv.validate(report.tools[0]!.inputSchema, { id: 'i', a: 'x' }), JSON.stringify(ajv.errors)).toBe(true);
  });
});
