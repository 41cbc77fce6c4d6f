/**
 * Intersections (`.and()`, served as `allOf`) and closed objects. Zod 4 reconciles unknown keys across
 * the sides of an intersection: a key is refused only when NO side recognises it (a strict object
 * recognises its declared keys, a record the keys its key schema accepts, a strip/loose/catch-all object
 * every key). JSON Schema `allOf` refuses a key as soon as one closed member does not know it. The served
 * document must stay a superset of the Zod parse (ADR 0002), flattened or not, so closed members of an
 * intersection are opened (and a merged intersection is closed only when every member is).
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { JsonSchema } from '../../../src/core/json-schema/types.js';
import { flattenUnionsDeep } from '../../../src/core/projection/flatten.js';
import { collapseNullable, inlineRefs, relaxIntersections } from '../../../src/core/projection/index.js';
import { accepts, project, toJson, zodAcceptedValuesPass } from './helpers.js';

/** The served document both ways the mount computes it (flattenUnionInput on, and off). */
function bothWays(schema: z.ZodType): Array<[string, JsonSchema]> {
  const inlined = inlineRefs(toJson(schema)).schema;
  return [
    ['flat', collapseNullable(project(schema).schema) as JsonSchema],
    ['not flat', collapseNullable(relaxIntersections(inlined)) as JsonSchema],
  ];
}

/** Every value Zod accepts passes the served schema both ways; `accepted` of them must be accepted by Zod. */
function supersetBothWays(schema: z.ZodType, values: unknown[], accepted = values.length) {
  for (const [how, doc] of bothWays(schema)) {
    expect(zodAcceptedValuesPass(schema, doc, values), how).toHaveLength(accepted);
  }
}

/** Values both Zod and the served schema refuse (precision the fix must not give up). */
function refusedBothWays(schema: z.ZodType, values: unknown[]) {
  for (const [how, doc] of bothWays(schema)) {
    for (const v of values) {
      expect(schema.safeParse(v).success, `Zod should refuse ${JSON.stringify(v)}`).toBe(false);
      expect(accepts(doc, v), `${how}: served should refuse ${JSON.stringify(v)}`).toBe(false);
    }
  }
}

const DU0 = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('v0'), x: z.string().optional() }),
  z.object({ kind: z.literal('v1'), y: z.number() }),
]);

describe('a closed member of an intersection does not refuse keys another member recognises', () => {
  it('strict object & record: a record key passes (review case 1)', () => {
    const schema = z.object({
      root: z.strictObject({ a: z.string().optional() }).and(z.record(z.string(), z.number())),
    });
    supersetBothWays(schema, [{ root: { z: 1 } }, { root: {} }, { root: { z: 1, y: 2 } }]);
    // The record still types every key it alone declares, flattened (merged) or not.
    refusedBothWays(schema, [{ root: { z: 'one' } }]);
    const merged = project(schema).schema.properties.root;
    expect(merged).toMatchObject({ type: 'object', additionalProperties: { type: 'number' } });
  });

  it('strict {} & nullable discriminated union: the tag passes (review case 2)', () => {
    const schema = z.object({ root: z.strictObject({}).and(DU0.nullable()) });
    supersetBothWays(schema, [
      { root: { kind: 'v0' } },
      { root: { kind: 'v0', x: 's' } },
      { root: { kind: 'v1', y: 1 } },
    ]);
  });

  it('strict variants of a discriminated union & a strict object: keys of either side pass', () => {
    const strictDU = z.discriminatedUnion('kind', [
      z.strictObject({ kind: z.literal('a'), p: z.string() }),
      z.strictObject({ kind: z.literal('b'), q: z.number() }),
    ]);
    const schema = z.object({ root: z.strictObject({ c: z.string() }).and(strictDU.nullable()) });
    supersetBothWays(schema, [{ root: { c: '1', kind: 'a', p: 'x' } }, { root: { c: '1', kind: 'b', q: 1 } }]);
  });

  it('union & union (Zod serves allOf): strict members of both unions', () => {
    const left = z.union([z.strictObject({ a: z.string() }), z.strictObject({ b: z.string() })]);
    const right = z.union([z.strictObject({ c: z.string() }), z.strictObject({ d: z.string() })]);
    const schema = z.object({ root: left.and(right) });
    supersetBothWays(schema, [{ root: { a: '1', c: '1' } }, { root: { b: '1', d: '1' } }]);
  });

  it('strict object & regex-keyed record: the declared key passes the record, record keys stay typed', () => {
    const schema = z.object({
      root: z.strictObject({ a: z.string() }).and(z.record(z.string().regex(/^x/), z.number())),
    });
    supersetBothWays(schema, [{ root: { a: 's' } }, { root: { a: 's', x1: 1 } }]);
    refusedBothWays(schema, [{ root: { a: 's', x1: 'one' } }]);
  });

  it('strict object & enum-keyed record: both sides keep their keys', () => {
    const schema = z.object({
      root: z.strictObject({ a: z.string() }).and(z.record(z.enum(['x', 'y']), z.number())),
    });
    supersetBothWays(schema, [{ root: { a: 's', x: 1, y: 2 } }]);
    refusedBothWays(schema, [{ root: { a: 's', x: 1 } }, { root: { a: 's', x: 1, y: 'two' } }]);
  });

  it('three-way intersection: a key recognised by any one side passes', () => {
    const schema = z.object({
      root: z
        .strictObject({ a: z.string() })
        .and(z.record(z.string().regex(/^x/), z.number()))
        .and(z.strictObject({ b: z.string() })),
    });
    supersetBothWays(schema, [{ root: { a: '1', b: '1' } }, { root: { a: '1', b: '1', x1: 2 } }]);
  });

  it('a recursive (kept $ref) strict object & record: the $ref member is opened, the definition stays strict', () => {
    const Node: z.ZodType<unknown> = z.lazy(() =>
      z.strictObject({ name: z.string(), children: z.array(Node).optional() }),
    );
    const schema = z.object({ root: Node.and(z.record(z.string(), z.any())), plain: Node.optional() });
    supersetBothWays(schema, [{ root: { name: 'x', extra: 1 } }, { root: { name: 'x', children: [{ name: 'y' }] } }]);
    // Nested nodes and other uses of the definition are not part of the intersection: still strict.
    refusedBothWays(schema, [
      { root: { name: 'x', children: [{ name: 'y', extra: 1 }] } },
      { root: { name: 'x' }, plain: { name: 'y', extra: 1 } },
    ]);
    for (const [how, doc] of bothWays(schema)) {
      expect(Object.values(doc.$defs ?? {}), how).toContainEqual(
        expect.objectContaining({ additionalProperties: false }),
      );
    }
  });

  it('at the root too', () => {
    const schema = z.strictObject({ a: z.string().optional() }).and(z.record(z.string(), z.number()));
    supersetBothWays(schema, [{ z: 1 }, {}]);
  });
});

describe('what stays closed', () => {
  it('a nested strict object keeps refusing unknown keys (Zod reconciles only the top level)', () => {
    const schema = z.object({
      root: z.object({ n: z.strictObject({ a: z.string() }) }).and(z.record(z.string(), z.any())),
    });
    supersetBothWays(schema, [{ root: { n: { a: '1' } } }]);
    refusedBothWays(schema, [{ root: { n: { a: '1', b: '1' } } }]);
  });

  it('a strict object outside any intersection stays strict', () => {
    const schema = z.object({ s: z.strictObject({ a: z.string() }), u: DU0 });
    for (const [, doc] of bothWays(schema)) expect(doc.properties.s.additionalProperties).toBe(false);
  });

  it('an allOf whose members are all closed merges into a closed object', () => {
    const doc = flattenUnionsDeep({
      allOf: [
        { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false },
        { type: 'object', properties: { b: { type: 'number' } }, additionalProperties: false },
      ],
    });
    expect(doc).toEqual({
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'number' } },
      additionalProperties: false,
    });
  });

  it('a strict object & a regex-keyed record merge into properties + patternProperties, left open', () => {
    const doc = flattenUnionsDeep({
      allOf: [
        { type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: false },
        { type: 'object', propertyNames: { type: 'string', pattern: '^x' }, additionalProperties: { type: 'number' } },
      ],
    });
    expect(doc).toEqual({
      type: 'object',
      properties: { a: { type: 'string' } },
      required: ['a'],
      patternProperties: { '^x': { type: 'number' } },
    });
  });

  it('a merged strict & strip intersection is open without the loose marker (undeclared keys are stripped)', () => {
    const doc = flattenUnionsDeep({
      allOf: [
        { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false },
        { type: 'object', properties: { b: { type: 'number' } } },
      ],
    });
    expect(doc).toEqual({ type: 'object', properties: { a: { type: 'string' }, b: { type: 'number' } } });
  });

  it('a merged strict & loose intersection keeps the loose marker', () => {
    const doc = flattenUnionsDeep({
      allOf: [
        { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false },
        { type: 'object', properties: { b: { type: 'number' } }, additionalProperties: {} },
      ],
    });
    expect(doc.additionalProperties).toEqual({});
  });

  it('a key both members declare keeps an exact allOf, its own strictness included', () => {
    const doc = flattenUnionsDeep({
      allOf: [
        { type: 'object', properties: { o: { type: 'object', properties: { p: {} }, additionalProperties: false } } },
        { type: 'object', properties: { o: { type: 'object', properties: { q: {} } } } },
      ],
    });
    expect(doc.properties.o).toEqual({ type: 'object', properties: { p: {}, q: {} }, additionalProperties: false });
  });
});

describe('relaxIntersections', () => {
  const input = (): JsonSchema => ({
    type: 'object',
    properties: {
      i: {
        allOf: [
          { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false },
          {
            anyOf: [
              { type: 'object', properties: { k: { const: 'x' } }, additionalProperties: false },
              { type: 'null' },
            ],
          },
        ],
      },
      s: { type: 'object', properties: { a: {} }, additionalProperties: false },
      n: { not: { allOf: [{ type: 'object', additionalProperties: false }, { type: 'object' }] } },
    },
  });

  it('opens the closed members of every allOf (through unions), and nothing else', () => {
    const out = relaxIntersections(input());
    expect(out.properties.i).toEqual({
      allOf: [
        { type: 'object', properties: { a: { type: 'string' } } },
        { anyOf: [{ type: 'object', properties: { k: { const: 'x' } } }, { type: 'null' }] },
      ],
    });
    expect(out.properties.s).toEqual(input().properties.s);
    // Under `not`, a looser member would make the document stricter: left alone.
    expect(out.properties.n).toEqual(input().properties.n);
  });

  it('is pure and idempotent, and a no-op for a document without allOf', () => {
    const doc = input();
    const before = JSON.stringify(doc);
    const once = relaxIntersections(doc);
    expect(JSON.stringify(doc)).toBe(before);
    expect(relaxIntersections(once)).toEqual(once);
    const plain = toJson(z.object({ a: z.strictObject({ b: z.string() }) }));
    expect(relaxIntersections(plain)).toEqual(plain);
  });

  it('a one-member allOf is not an intersection', () => {
    const doc = { allOf: [{ type: 'object', additionalProperties: false }] };
    expect(relaxIntersections(doc)).toEqual(doc);
  });
});
