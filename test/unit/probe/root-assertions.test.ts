/**
 * Assertion-only keywords an author adds with `.meta()` beside a root `type: "object"` (a root `allOf` of
 * `required` lists, `if`/`then`/`else`): the base probe accepts them, the faithful document keeps them as
 * written, the profiles that refuse root combinators still report them, and anything that declares a key or a
 * type of its own is still an error.
 */
import { defineTool, validateMcpSchemas } from 'mcp-mount';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isAssertionOnly } from '../../../src/core/json-schema/assertions.js';

const contact = z
  .strictObject({ name: z.string(), email: z.string().optional(), phone: z.string().optional() })
  .refine((v) => v.email !== undefined || v.phone !== undefined)
  .meta({
    allOf: [{ anyOf: [{ required: ['email'] }, { required: ['phone'] }] }],
    if: { properties: { name: { const: 'admin' } }, required: ['name'] },
    // biome-ignore lint/suspicious/noThenProperty: `then` is the JSON Schema keyword under test.
    then: { required: ['email'] },
  });
const probe = (input: z.ZodType, options: Parameters<typeof validateMcpSchemas>[1] = {}) =>
  validateMcpSchemas([defineTool({ name: 'contact', input, handler: () => 'ok' })], options);

describe('assertion-only root keywords', () => {
  it('are served as written in the faithful document, closed object included, with no issue', () => {
    const report = probe(contact);
    expect(report.issues.filter((i) => i.severity !== 'info')).toEqual([]);
    const doc = report.tools[0]!.inputSchema as any;
    expect(doc.additionalProperties).toBe(false);
    expect(doc.allOf).toEqual([{ anyOf: [{ required: ['email'] }, { required: ['phone'] }] }]);
    expect(doc.if).toEqual({ properties: { name: { const: 'admin' } }, required: ['name'] });
    expect(doc.then).toEqual({ required: ['email'] });
  });

  it('are still reported by the anthropic and openai-strict profiles, which refuse any root combinator', () => {
    for (const profile of ['anthropic', 'openai-strict']) {
      const issues = probe(contact, { schemaValidation: { profiles: [profile] } }).issues;
      expect(issues, profile).toContainEqual(expect.objectContaining({ code: 'root-combinator', profile }));
    }
  });

  it('are an error when a member declares a key the root lacks, or a type of its own', () => {
    const addsKey = z.object({ a: z.string() }).meta({ allOf: [{ properties: { b: { type: 'string' } } }] });
    const addsType = z.object({ a: z.string() }).meta({ anyOf: [{ type: 'string' }] });
    for (const input of [addsKey, addsType]) {
      expect(probe(input).issues).toContainEqual(expect.objectContaining({ code: 'root-not-object', path: '' }));
    }
  });

  it('do not count as intersection members: a strict root stays closed', () => {
    const doc = probe(contact, { projection: 'flat' }).tools[0]!.inputSchema as any;
    expect(doc.additionalProperties).toBe(false);
  });
});

describe('isAssertionOnly', () => {
  const declared = new Set(['a', 'b']);
  it.each([
    [{ required: ['a'] }, true],
    [{ anyOf: [{ required: ['a'] }, { required: ['b'] }] }, true],
    [{ not: { required: ['a', 'b'] } }, true],
    [{ properties: { a: { const: 1 } } }, true],
    [{ type: 'object', minProperties: 1, description: 'x' }, true],
    [true, true],
    [{ properties: { c: {} } }, false],
    [{ type: 'string' }, false],
    [{ additionalProperties: false }, false],
    [{ $ref: '#/$defs/x' }, false],
    [{ anyOf: [{ required: ['a'] }, { type: 'array' }] }, false],
    [false, false],
  ])('%j: %s', (schema, expected) => {
    expect(isAssertionOnly(schema, declared)).toBe(expected);
  });
});
