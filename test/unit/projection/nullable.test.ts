/** collapseNullable: Zod's `anyOf: [S, {type:"null"}]` served as S with "null" in its type. */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { collapseNullable } from '../../../src/core/projection/index.js';
import { toJson as json } from '../../support/documents.js';

const ajv = new Ajv2020({ strict: false, validateFormats: false });

describe('collapseNullable', () => {
  it('serves a nullable array with its items in place', () => {
    const out = collapseNullable(
      json(z.object({ f: z.array(z.array(z.string()).nullable()).nullable().optional() })),
    ) as any;
    expect(out.properties.f.type).toEqual(['array', 'null']);
    expect(out.properties.f.items.type).toEqual(['array', 'null']);
    expect(out.properties.f.items.items).toEqual({ type: 'string' });
  });

  it('adds null to an enum and turns a const into an enum with null', () => {
    const out = collapseNullable(
      json(z.object({ e: z.enum(['a', 'b']).nullable(), c: z.literal('x').nullable() })),
    ) as any;
    expect(out.properties.e).toMatchObject({ type: ['string', 'null'], enum: ['a', 'b', null] });
    expect(out.properties.c).toMatchObject({ type: ['string', 'null'], enum: ['x', null] });
    expect(out.properties.c.const).toBeUndefined();
  });

  it('accepts exactly what the wrapper accepted', () => {
    const schemas = [
      z.array(z.number()).min(1).nullable(),
      z.object({ a: z.string() }).strict().nullable(),
      z.enum(['a']).nullable(),
      z.literal(3).nullable(),
      z.string().min(2).nullable().describe('d'),
    ];
    const values = [null, [], [1], { a: 'x' }, { a: 1 }, { a: 'x', b: 1 }, 'a', 'ab', 3, 4, true, 'x'];
    for (const s of schemas) {
      const before = ajv.compile(json(s));
      const after = ajv.compile(collapseNullable(json(s)) as object);
      for (const v of values) expect(after(v), `${JSON.stringify(json(s))} on ${JSON.stringify(v)}`).toBe(before(v));
    }
  });

  it('leaves wrappers it cannot collapse soundly', () => {
    const union = json(z.union([z.string(), z.number()]).nullable());
    expect(collapseNullable(union)).toEqual(union);
    const notNull = { anyOf: [{ type: 'string' }, { type: 'null', description: 'x' }], minLength: 2 };
    expect(collapseNullable(notNull)).toEqual(notNull);
  });
});
