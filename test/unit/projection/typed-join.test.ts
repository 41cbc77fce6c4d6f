/**
 * The typed join: where variants give one key different schemas, the served key keeps every variant's
 * type and nested shape (objects, arrays, tuples, records, bounds), stays a superset, needs no combinator,
 * and says once, where the shapes differ, what each variant expects.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { accepts, project, twoVariants, unionsIn, zodAcceptedValuesPass } from './helpers.js';

const key = (a: z.ZodType, b: z.ZodType, values: unknown[] = []) => {
  const schema = twoVariants(a, b);
  const doc = project(schema).schema as any;
  expect(unionsIn(doc)).toEqual([]);
  expect(zodAcceptedValuesPass(schema, doc, values)).toHaveLength(values.length);
  return { doc, f: doc.properties.f };
};

describe('typed join: objects and arrays at depth', () => {
  it('keeps the shape of objects that differ at depths 2 and 3, each key merged the same way', () => {
    const { f } = key(
      z.object({
        id: z.string(),
        meta: z.object({ tags: z.array(z.string()), owner: z.object({ name: z.string() }) }),
      }),
      z.object({
        id: z.number(),
        meta: z.object({ tags: z.array(z.number()), owner: z.object({ email: z.email() }) }),
      }),
      [
        { kind: 'a', f: { id: 'x', meta: { tags: ['t'], owner: { name: 'n' } } } },
        { kind: 'b', f: { id: 1, meta: { tags: [1], owner: { email: 'a@b.co' } } } },
      ],
    );
    expect(f.required).toEqual(['id', 'meta']);
    expect(f.properties.id.type).toEqual(['string', 'number']);
    expect(f.properties.meta.properties.tags).toMatchObject({ type: 'array', items: { type: ['string', 'number'] } });
    expect(f.properties.meta.properties.owner.properties).toMatchObject({
      name: { type: 'string' },
      email: { type: 'string', format: 'email' },
    });
    expect(f.properties.meta.properties.owner.required).toBeUndefined();
  });

  it('merges arrays of different item types into typed items, with the loosest length bounds', () => {
    const { f } = key(
      z
        .array(z.object({ sku: z.string(), qty: z.int() }))
        .min(1)
        .max(5),
      z.array(z.string()).max(9),
      [
        { kind: 'a', f: [{ sku: 's', qty: 1 }] },
        { kind: 'b', f: [] },
      ],
    );
    expect(f.items.type).toEqual(['object', 'string']);
    expect(Object.keys(f.items.properties)).toEqual(['sku', 'qty']);
    expect(f.items.required).toEqual(['sku', 'qty']);
    expect(f.minItems).toBeUndefined();
    expect(f.maxItems).toBe(9);
  });

  it('merges tuples slot by slot, a missing slot taking the other variant rest', () => {
    const { f } = key(z.tuple([z.string(), z.number()]), z.tuple([z.boolean()], z.string()), [
      { kind: 'a', f: ['x', 1] },
      { kind: 'b', f: [true, 'y', 'z'] },
    ]);
    expect(f.prefixItems).toEqual([{ type: ['string', 'boolean'] }, { type: ['number', 'string'] }]);
    expect(f.items).toEqual({ type: 'string' });
    expect(f.minItems).toBe(1);
    expect(f.maxItems).toBeUndefined();
  });

  it('merges record values and keeps the open or closed key policy of every variant', () => {
    const records = key(z.record(z.string(), z.number()), z.record(z.string(), z.boolean()), [
      { kind: 'a', f: { r: 1 } },
      { kind: 'b', f: { r: true } },
    ]).f;
    expect(records.additionalProperties).toMatchObject({ type: ['number', 'boolean'] });
    const closed = key(z.strictObject({ x: z.string() }), z.strictObject({ y: z.string() })).f;
    expect(closed.additionalProperties).toBe(false);
    const mixed = key(z.strictObject({ x: z.string() }), z.object({ y: z.string() })).f;
    expect(mixed).not.toHaveProperty('additionalProperties');
  });
});

describe('typed join: scalars', () => {
  it('keeps the loosest numeric bounds and a string constraint only when every variant has it', () => {
    expect(key(z.number().min(0), z.number().min(2)).f).toMatchObject({ type: 'number', minimum: 0 });
    expect(key(z.number().gt(0), z.number().min(0)).f).toMatchObject({ minimum: 0 });
    expect(key(z.number().min(0), z.number().max(5)).f).not.toHaveProperty('minimum');
    expect(key(z.int().min(0), z.number().min(-1)).f).toMatchObject({ type: 'number', minimum: -1 });
    const s = key(z.string().min(1).max(5), z.string().min(1)).f;
    expect(s).toMatchObject({ type: 'string', minLength: 1 });
    expect(s).not.toHaveProperty('maxLength');
  });
});

describe('typed join: descriptions', () => {
  it('notes what each variant expects once, where the shapes first differ', () => {
    const { f } = key(z.array(z.object({ sku: z.string() })), z.array(z.string()));
    expect(f.description).toBe('kind = a: array of { sku }; kind = b: array of strings.');
    expect(f.items).not.toHaveProperty('description');
    const deeper = key(z.object({ x: z.string() }), z.object({ x: z.number() })).f;
    expect(deeper).not.toHaveProperty('description');
    expect(deeper.properties.x.description).toBe('kind = a: string; kind = b: number.');
  });

  it('labels a description only one variant gives', () => {
    const { f } = key(z.string().describe('the name'), z.number());
    expect(f.description).toBe('kind = a: the name. kind = a: string; kind = b: number.');
  });
});

describe('typed join: recursion', () => {
  it('ends on two different recursive definitions, and still accepts every value of either', () => {
    type A = { a: string; next?: A };
    type B = { b: number; next?: B };
    const nodeA: z.ZodType<A> = z.lazy(() => z.object({ a: z.string(), next: nodeA.optional() }));
    const nodeB: z.ZodType<B> = z.lazy(() => z.object({ b: z.number(), next: nodeB.optional() }));
    const { f } = key(nodeA, nodeB, [
      { kind: 'a', f: { a: 'x', next: { a: 'y', next: { a: 'z' } } } },
      { kind: 'b', f: { b: 1, next: { b: 2 } } },
    ]);
    expect(f.type).toBe('object');
    expect(Object.keys(f.properties)).toEqual(['a', 'next', 'b']);
    expect(accepts({ type: 'object', properties: { f } }, { f: { a: 'x', next: { b: 2, next: { a: 'w' } } } })).toBe(
      true,
    );
  });
});
