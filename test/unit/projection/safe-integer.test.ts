/**
 * Zod's safe-integer bounds are noise in the served document: they are dropped from integer schemas at
 * every positive position, real bounds stay, and nothing under `not` or `if` changes.
 */
import { defineTool, validateMcpSchemas } from 'mcp-mount';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { dropUnsafeNumbers } from '../../../src/core/json-schema/unsafe-numbers.js';
import { dropSafeIntegerBounds } from '../../../src/core/projection/index.js';
import { accepts, toJson } from './helpers.js';

const served = (input: z.ZodType, projection: 'flat' | 'faithful' = 'flat') =>
  validateMcpSchemas([defineTool({ name: 't', input, handler: () => 1 })], { projection }).tools[0]!.inputSchema as any;

describe('safe-integer bounds', () => {
  it('serves z.number().int() as a bare integer, keeping real bounds beside the dropped ones', () => {
    const doc = served(
      z.object({
        n: z.number().int(),
        atLeast: z.int().min(0),
        atMost: z.int().max(5),
        int32: z.int32(),
        list: z.array(z.number().int()),
        maybe: z.number().int().nullable(),
      }),
    );
    expect(doc.properties.n).toEqual({ type: 'integer' });
    expect(doc.properties.atLeast).toEqual({ type: 'integer', minimum: 0 });
    expect(doc.properties.atMost).toEqual({ type: 'integer', maximum: 5 });
    expect(doc.properties.int32).toEqual({ type: 'integer', minimum: -2147483648, maximum: 2147483647 });
    expect(doc.properties.list.items).toEqual({ type: 'integer' });
    expect(doc.properties.maybe).toEqual({ type: ['integer', 'null'] });
  });

  it("keeps Zod's safe-integer bounds in the faithful document, which is Zod's own", () => {
    const doc = served(z.object({ n: z.number().int() }), 'faithful');
    expect(doc.properties.n).toEqual({
      type: 'integer',
      minimum: Number.MIN_SAFE_INTEGER,
      maximum: Number.MAX_SAFE_INTEGER,
    });
  });

  it('leaves numbers, and integer bounds under not and if, as they are', () => {
    const bounds = { minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER };
    const doc = {
      type: 'object',
      properties: {
        f: { type: 'number', ...bounds },
        g: { not: { type: 'integer', ...bounds } },
        // biome-ignore lint/suspicious/noThenProperty: `then` is the JSON Schema keyword under test.
        h: { if: { type: 'integer', ...bounds }, then: { type: 'integer', ...bounds } },
      },
    };
    expect(dropSafeIntegerBounds(doc)).toEqual({
      type: 'object',
      properties: {
        f: { type: 'number', ...bounds },
        g: { not: { type: 'integer', ...bounds } },
        // biome-ignore lint/suspicious/noThenProperty: `then` is the JSON Schema keyword under test.
        h: { if: { type: 'integer', ...bounds }, then: { type: 'integer' } },
      },
    });
  });

  it('only widens: every integer Zod accepts still passes, and the input is not mutated', () => {
    const original = toJson(z.object({ n: z.number().int() }));
    const before = JSON.stringify(original);
    const doc = dropSafeIntegerBounds(original) as any;
    expect(JSON.stringify(original)).toBe(before);
    for (const n of [0, -Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER]) expect(accepts(doc, { n })).toBe(true);
  });
});

describe('whether a converted document holds a safe-integer bound at all', () => {
  // Found by the unsafe-number walk every conversion makes, so that the flat family skips a walk that would
  // return its input.
  const bounds = (doc: object) => dropUnsafeNumbers(doc).safeIntegerBounds;

  it('is said where any number is ±(2^53 - 1), data included, and where an unsafe integer is dropped', () => {
    expect(bounds({ type: 'object', properties: { n: { type: 'integer', maximum: Number.MAX_SAFE_INTEGER } } })).toBe(
      true,
    );
    expect(bounds({ type: 'number', examples: [[-Number.MAX_SAFE_INTEGER]] })).toBe(true);
    expect(bounds({ type: 'integer', maximum: 2 ** 63 })).toBe(true);
  });

  it('is denied where none is, and then the flat document is what the bound walk would have served', () => {
    expect(bounds({ type: 'object', properties: { n: { type: 'integer', minimum: 0, maximum: 1000 } } })).toBe(false);
    const input = z.object({ n: z.number().int().min(0).max(1000), m: z.number().optional() });
    expect(served(input).properties).toEqual({
      n: { type: 'integer', minimum: 0, maximum: 1000 },
      m: { type: 'number' },
    });
  });
});
