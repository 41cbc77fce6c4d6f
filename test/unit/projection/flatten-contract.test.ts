/**
 * The contract of the projection beyond the flatten cases: purity, determinism, never throwing, the report
 * (pointers into the result, actionable reasons), one-member unions, `allOf` merging, descriptions, and
 * positions where widening would be unsound (`not`, `if`).
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { flattenUnionsDeep, flattenWithReport } from '../../../src/core/projection/flatten.js';
import { accepts, DU, project, toJson, twoVariants, unionsIn, zodAcceptedValuesPass } from './helpers.js';

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

const tagged = (tag: string, value: unknown, extra: Record<string, unknown> = {}) => ({
  type: 'object',
  properties: { [tag]: { type: 'string', const: value }, ...extra },
  required: [tag],
});

describe('purity', () => {
  const input = toJson(
    z.object({ a: DU, b: z.array(twoVariants(z.string(), z.number())), c: DU.and(z.object({ q: z.string() })) }),
  );

  it('never mutates its input (deep-frozen input, strict-mode module)', () => {
    const before = JSON.stringify(input);
    deepFreeze(input);
    flattenWithReport(input);
    expect(JSON.stringify(input)).toBe(before);
  });

  it('gives the same bytes for the same input, and a result that shares nothing with it', () => {
    const one = flattenUnionsDeep(input);
    const two = flattenUnionsDeep(structuredClone(input));
    expect(JSON.stringify(one)).toBe(JSON.stringify(two));
    one.properties.a.properties.kind.enum.push('mutated');
    expect(JSON.stringify(flattenUnionsDeep(input))).toBe(JSON.stringify(two));
  });

  it('is idempotent', () => {
    const once = flattenUnionsDeep(input);
    expect(flattenUnionsDeep(once)).toEqual(once);
  });

  it('never throws, whatever it is given', () => {
    const cyclic: any = { oneOf: [] };
    cyclic.oneOf.push(cyclic, cyclic);
    const garbage: unknown[] = [
      null,
      undefined,
      0,
      'x',
      [],
      true,
      { oneOf: 'x' },
      { anyOf: [null, 1, 'a'] },
      { oneOf: [{ type: 'object', properties: 5 }, { type: 'object' }] },
      { oneOf: [tagged('k', 'a'), { type: 'object', properties: { k: { const: 'b' } }, required: 'k' }] },
      {
        allOf: [
          { type: 'object', properties: null },
          { type: 'object', required: 3 },
        ],
      },
      { properties: { a: { oneOf: [] } }, items: [{ anyOf: [{}] }] },
      { oneOf: [tagged('k', 'a', { x: { enum: [] } }), tagged('k', 'b', { x: { type: ['weird'] } })] },
      cyclic,
    ];
    for (const bad of garbage) {
      expect(() => flattenWithReport(bad as any)).not.toThrow();
      expect(() => flattenUnionsDeep(bad as any)).not.toThrow();
    }
    expect(flattenWithReport(cyclic).unflattened[0]!.reason).toContain('skipped');
  });
});

describe('report', () => {
  it('names a non-object member and points into the result document', () => {
    // An untyped member: joining it would serve `{}` and lose the object's shape, so the union stays.
    const { schema, unflattened } = flattenWithReport({
      type: 'object',
      properties: { list: { type: 'array', items: { anyOf: [tagged('k', 'a'), { description: 'anything' }] } } },
    });
    expect(unflattened).toEqual([{ pointer: '/properties/list/items', reason: 'member 1 is not an object' }]);
    expect(schema.properties.list.items.anyOf).toHaveLength(2);
  });

  it('joins a typed scalar member beside objects below the root into one type list', () => {
    const { schema, unflattened } = flattenWithReport({
      type: 'object',
      properties: { list: { type: 'array', items: { anyOf: [tagged('k', 'a'), { type: 'string' }] } } },
    });
    expect(unflattened).toEqual([]);
    expect(schema.properties.list.items).toMatchObject({ type: ['object', 'string'], properties: { k: {} } });
  });

  it('points at unions that moved: a union left in a key kept by an outer flatten', () => {
    const optionalTag = z.discriminatedUnion('n', [
      z.object({ n: z.literal(1).optional(), x: z.string() }),
      z.object({ n: z.literal(2), y: z.string() }),
    ]);
    const { unflattened } = project(twoVariants(optionalTag, optionalTag, 'op'));
    expect(unflattened).toEqual([
      { pointer: '/properties/op', reason: expect.stringContaining('`n` is optional in variant 0') },
    ]);
  });

  it('reports nothing for a union that disappeared into a widened key', () => {
    const optionalTag = z.discriminatedUnion('n', [
      z.object({ n: z.literal(1).optional(), x: z.string() }),
      z.object({ n: z.literal(2), y: z.string() }),
    ]);
    const { schema, unflattened } = project(twoVariants(optionalTag, z.string(), 'op'));
    expect(unionsIn(schema)).toEqual([]);
    expect(unflattened).toEqual([]);
  });

  it('does not report nullable wrappers or unions of scalars', () => {
    const { unflattened } = project(
      z.object({ a: z.object({ p: z.string() }).nullable(), b: z.union([z.string().email(), z.number().int()]) }),
    );
    expect(unflattened).toEqual([]);
  });

  it('names a $ref member and a union node with other constraints beside it', () => {
    const refMember = flattenWithReport({
      anyOf: [{ $ref: '#/$defs/T' }, tagged('k', 'b')],
      $defs: { T: tagged('k', 'a', { next: { $ref: '#/$defs/T' } }) },
    });
    expect(refMember.unflattened[0]!.reason).toContain('member 0 is a $ref');
    const sibling = flattenWithReport({ oneOf: [tagged('k', 'a'), tagged('k', 'b')], required: ['k'] });
    expect(sibling.unflattened).toEqual([{ pointer: '', reason: expect.stringContaining('`required`') }]);
  });

  it('leaves unions under `not` and `if` alone, saying why', () => {
    const union = { oneOf: [tagged('k', 'a'), tagged('k', 'b')] };
    // biome-ignore lint/suspicious/noThenProperty: `then` is the JSON Schema keyword under test.
    const doc = { type: 'object', properties: { a: { not: union }, b: { if: union, then: union } } };
    const { schema, unflattened } = flattenWithReport(doc);
    expect(schema.properties.a.not).toEqual(union);
    expect(schema.properties.b.if).toEqual(union);
    expect(schema.properties.b.then.type).toBe('object');
    expect(unflattened).toEqual([
      { pointer: '/properties/a/not', reason: expect.stringContaining('inside `not`') },
      { pointer: '/properties/b/if', reason: expect.stringContaining('inside `if`') },
    ]);
  });
});

describe('one-member unions', () => {
  it('collapse to the member, keeping the node annotations', () => {
    const doc = flattenUnionsDeep({
      type: 'object',
      properties: {
        width: { anyOf: [{ type: 'number' }] },
        height: { oneOf: [{ type: 'number', description: 'inner' }], description: 'outer', default: 3 },
        depth: { allOf: [{ $ref: '#/$defs/X' }] },
      },
    });
    expect(doc.properties.width).toEqual({ type: 'number' });
    expect(doc.properties.height).toEqual({ type: 'number', description: 'outer', default: 3 });
    expect(doc.properties.depth).toEqual({ $ref: '#/$defs/X' });
  });

  it('collapse a one-member union of a discriminated union all the way', () => {
    const doc = flattenUnionsDeep({ anyOf: [{ oneOf: [tagged('k', 'a'), tagged('k', 'b')] }] });
    expect(doc.type).toBe('object');
    expect(doc.properties.k.enum).toEqual(['a', 'b']);
  });
});

describe('allOf', () => {
  it('merges an object with a record (Zod leaves that allOf)', () => {
    const schema = z.object({ a: z.object({ x: z.string() }).and(z.record(z.string(), z.string())) });
    const { schema: doc } = project(schema);
    expect(doc.properties.a).toMatchObject({
      type: 'object',
      properties: { x: { type: 'string' } },
      required: ['x'],
      additionalProperties: { type: 'string' },
    });
    zodAcceptedValuesPass(schema, doc, [{ a: { x: '1', y: '2' } }]);
  });

  // Was "keeps a strict member strict" (additionalProperties: false from one strict member). Zod refuses
  // a key only when no side of an intersection recognises it, and the strip member recognises every key,
  // so the merged object is open (intersections.test.ts has the cases, all-strict stays closed).
  it('keeps every key of every member; one strict member beside a strip one does not close the merge', () => {
    const doc = flattenUnionsDeep({
      allOf: [
        { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false },
        { type: 'object', properties: { b: { type: 'number' } }, required: ['b'], minProperties: 1 },
      ],
      description: 'both',
    });
    expect(doc).toEqual({
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'number' } },
      required: ['b'],
      minProperties: 1,
      description: 'both',
    });
  });

  it('keeps an exact allOf for a key both members declare, merged when both are objects', () => {
    const doc = flattenUnionsDeep({
      allOf: [
        { type: 'object', properties: { n: { type: 'number' }, o: { type: 'object', properties: { p: {} } } } },
        { type: 'object', properties: { n: { type: 'integer' }, o: { type: 'object', required: ['p'] } } },
      ],
    });
    expect(doc.properties.n).toEqual({ allOf: [{ type: 'number' }, { type: 'integer' }] });
    expect(doc.properties.o).toEqual({ type: 'object', properties: { p: {} }, required: ['p'] });
  });

  it('leaves an allOf with a member that is not an object', () => {
    const node = { allOf: [{ type: 'object' }, { type: 'string' }] };
    expect(flattenUnionsDeep(node)).toEqual(node);
  });
});

describe('descriptions', () => {
  it('keeps author text on the union, the variants, the tag and the fields', () => {
    const schema = z
      .discriminatedUnion('kind', [
        z
          .object({
            kind: z.literal('a').describe('first'),
            x: z.string().describe('the x'),
            s: z.string().describe('shared'),
          })
          .describe('variant a'),
        z.object({ kind: z.literal('b').describe('second'), s: z.string().describe('also shared') }),
      ])
      .describe('pick one');
    const doc = project(schema).schema;
    expect(doc.description).toBe('pick one. kind = a: variant a');
    expect(doc.properties.kind.description).toBe('kind = a: first; kind = b: second. Selects the variant: a | b.');
    expect(doc.properties.x.description).toBe('the x. Required if kind = a.');
    expect(doc.properties.s.description).toBe('kind = a: shared; kind = b: also shared');
  });

  it('explains a widened key per variant, before the requirement hint', () => {
    const schema = z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('a'), f: z.string().describe('name') }),
      z.object({ kind: z.literal('b'), f: z.number().describe('name') }),
      z.object({ kind: z.literal('c') }),
    ]);
    const doc = project(schema).schema;
    expect(doc.properties.f.description).toBe('name. kind = a: string; kind = b: number. Required if kind = a | b.');
  });

  it('hints both required-in and present-in when a key is optional in some variants and absent in others', () => {
    const schema = z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('a'), f: z.string() }),
      z.object({ kind: z.literal('b'), f: z.string().optional() }),
      z.object({ kind: z.literal('c') }),
    ]);
    expect(project(schema).schema.properties.f.description).toBe('Required if kind = a. Only for kind = a | b.');
  });
});

describe('superset details', () => {
  it('a catch-all variant keeps its undeclared keys acceptable', () => {
    const schema = z.discriminatedUnion('k', [
      z.object({ k: z.literal('a') }).catchall(z.string()),
      z.object({ k: z.literal('b'), y: z.number() }),
    ]);
    const { schema: doc } = project(schema);
    expect([...doc.properties.y.type].sort()).toEqual(['number', 'string']);
    zodAcceptedValuesPass(schema, doc, [
      { k: 'a', y: 'str' },
      { k: 'b', y: 1 },
    ]);
  });

  it('string literals beside null stay an enum that admits null', () => {
    const { schema: doc } = project(twoVariants(z.literal('x'), z.literal('y').nullable()));
    expect(doc.properties.f).toMatchObject({ type: ['string', 'null'], enum: ['x', 'y', null] });
    expect(accepts(doc, { kind: 'a', f: null })).toBe(true);
  });

  it('an untyped variant makes the key untyped, never a guessed type', () => {
    const { schema: doc } = project(twoVariants(z.unknown(), z.string()));
    expect(doc.properties.f.type).toBeUndefined();
    expect(doc.properties.f.description).toContain('kind = a: any; kind = b: string');
  });

  it('identical keys keep nested defaults that all variants share, and drop the ones they do not', () => {
    const same = z.object({ limit: z.number().default(5) });
    const shared = project(twoVariants(same, same)).schema;
    expect(shared.properties.f.properties.limit.default).toBe(5);
    const differing = project(
      twoVariants(z.object({ limit: z.number().default(5) }), z.object({ limit: z.number().default(6) })),
    ).schema;
    expect(differing.properties.f.properties.limit).not.toHaveProperty('default');
  });

  it("a nullable object beside the same object keeps its shape, but not one variant's nested default", () => {
    const doc = project(
      twoVariants(z.object({ limit: z.number().default(5) }).nullable(), z.object({ limit: z.number().default(6) })),
    ).schema;
    expect(doc.properties.f.type).toEqual(['object', 'null']);
    expect(doc.properties.f.properties.limit).toEqual({ type: 'number' });
  });
});
