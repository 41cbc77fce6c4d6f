/**
 * `isAssertionOnly` promises "no new key" and the base probe lets such root keywords through beside
 * `type: "object"`. Two ways past it, each served as the faithful (default) document with no error:
 * - `required` / `dependentRequired` naming a key the object does not declare: a new key a client reading
 *   one object never sees; beside `additionalProperties: false` the document admits nothing at all;
 * - a root `$ref` (not in the probe's list of root combinators) to a definition with keys of its own.
 */
import { defineTool, validateMcpSchemas } from 'mcp-mount';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isAssertionOnly } from '../../../src/core/json-schema/assertions.js';

const probe = (input: z.ZodType) =>
  validateMcpSchemas([defineTool({ name: 'contact', input, handler: () => 'ok' })], {
    schemaValidation: { policy: 'warn' },
  });
const errors = (input: z.ZodType) => probe(input).issues.filter((i) => i.severity === 'error');

describe('root keywords that sneak a key past the base probe', () => {
  it('isAssertionOnly refuses required / dependentRequired naming an undeclared key', () => {
    const declared = new Set(['a']);
    expect(isAssertionOnly({ required: ['secret'] }, declared)).toBe(false);
    expect(isAssertionOnly({ dependentRequired: { a: ['ghost'] } }, declared)).toBe(false);
  });

  it('a closed object whose root allOf requires an undeclared key (admits no value) is an error', () => {
    const input = z.strictObject({ a: z.string() }).meta({ allOf: [{ required: ['secret'] }] } as never);
    expect(input.safeParse({ a: 'x' }).success).toBe(true);
    expect(errors(input)).not.toEqual([]);
  });

  it('a root $ref beside type "object" is not served as a plain object root', () => {
    const input = z.object({ a: z.string() }).meta({
      $ref: '#/$defs/Other',
      $defs: { Other: { type: 'object', properties: { b: { type: 'string' } }, required: ['b'] } },
    } as never);
    expect(errors(input)).toContainEqual(expect.objectContaining({ code: 'root-not-object', path: '' }));
    expect(probe(input).tools).toEqual([]);
  });
});
