/**
 * Each KIND of flatten case, in every position a schema can sit in: root, field, optional field,
 * nullable field, array item, record value, tuple slot, reused `$defs` entry, recursive `z.lazy`
 * definition, a variant of another union, and the member of a mixed union. Flattenable kinds must be
 * one object there (with the kind's own shape; beside a string, the object side of a type list); the
 * others must be left and reported at that pointer.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { flattenUnionsDeep } from '../../../src/core/projection/flatten.js';
import { at, project, toJson, twoVariants, typeSet, unionsIn, zodAcceptedValuesPass } from './helpers.js';

interface Kind {
  name: string;
  make: () => z.ZodType;
  /** Values the kind's schema accepts. */
  values: unknown[];
  /** Checks the flat node; absent for kinds that must be left unflattened. */
  check?: (node: any) => void;
  /** Substring of the report reason, for kinds that must be left. */
  reason?: string;
}

const kinds: Kind[] = [
  {
    name: 'object vs array',
    make: () => twoVariants(z.object({ id: z.string() }), z.array(z.object({ id: z.string() }))),
    values: [
      { kind: 'a', f: { id: '1' } },
      { kind: 'b', f: [{ id: '1' }] },
    ],
    check: (n) => expect(typeSet(n.properties.f)).toEqual(['array', 'object']),
  },
  {
    name: 'nullable scalar vs nullable array',
    make: () => twoVariants(z.string().nullable(), z.array(z.string()).nullable()),
    values: [
      { kind: 'a', f: null },
      { kind: 'b', f: ['x'] },
      { kind: 'a', f: 'x' },
    ],
    check: (n) => expect(typeSet(n.properties.f)).toEqual(['array', 'null', 'string']),
  },
  {
    name: 'literal vs literal',
    make: () => twoVariants(z.literal('fast'), z.literal('slow')),
    values: [
      { kind: 'a', f: 'fast' },
      { kind: 'b', f: 'slow' },
    ],
    check: (n) => expect(n.properties.f.enum).toEqual(['fast', 'slow']),
  },
  {
    name: 'enum vs string',
    make: () => twoVariants(z.enum(['x', 'y']), z.string()),
    values: [{ kind: 'b', f: 'anything' }],
    check: (n) => expect(n.properties.f).not.toHaveProperty('enum'),
  },
  {
    name: 'boolean literals',
    make: () => twoVariants(z.literal(true), z.literal(false)),
    values: [{ kind: 'b', f: false }],
    check: (n) => expect(n.properties.f.type).toBe('boolean'),
  },
  {
    name: 'string vs number',
    make: () => twoVariants(z.string(), z.number()),
    values: [
      { kind: 'a', f: 'x' },
      { kind: 'b', f: 3 },
    ],
    check: (n) => expect(typeSet(n.properties.f)).toEqual(['number', 'string']),
  },
  {
    name: 'object shapes',
    make: () => twoVariants(z.object({ x: z.string() }), z.object({ y: z.number() }).strict()),
    values: [
      { kind: 'a', f: { x: '1' } },
      { kind: 'b', f: { y: 1 } },
    ],
    check: (n) => expect(n.properties.f).toMatchObject({ type: 'object' }),
  },
  {
    name: 'a different default per variant',
    make: () => twoVariants(z.number().default(10), z.number().default(50)),
    values: [{ kind: 'a' }, { kind: 'b', f: 3 }],
    check: (n) => expect(n.properties.f).not.toHaveProperty('default'),
  },
  {
    name: 'multi-value literal tag',
    make: () =>
      z.discriminatedUnion('k', [
        z.object({ k: z.literal(['a', 'b']), x: z.string() }),
        z.object({ k: z.literal('c'), y: z.string() }),
      ]),
    values: [
      { k: 'b', x: '1' },
      { k: 'c', y: '1' },
    ],
    check: (n) => expect(n.properties.k.enum).toEqual(['a', 'b', 'c']),
  },
  {
    name: 'z.enum tag',
    make: () =>
      z.discriminatedUnion('k', [
        z.object({ k: z.enum(['x', 'y']), p: z.string() }),
        z.object({ k: z.literal('z'), q: z.string() }),
      ]),
    values: [{ k: 'y', p: '1' }],
    check: (n) => expect(n.properties.k.enum).toEqual(['x', 'y', 'z']),
  },
  {
    name: 'plain union of tagged objects',
    make: () =>
      z.union([z.object({ kind: z.literal('a'), x: z.string() }), z.object({ kind: z.literal('b'), y: z.number() })]),
    values: [{ kind: 'b', y: 2 }],
    check: (n) => expect(n.required).toEqual(['kind']),
  },
  {
    name: 'int vs number',
    make: () => twoVariants(z.number().int(), z.number()),
    values: [{ kind: 'b', f: 1.5 }],
    check: (n) => expect(n.properties.f.type).toBe('number'),
  },
  {
    name: 'numeric tag',
    make: () =>
      z.discriminatedUnion('k', [
        z.object({ k: z.literal(1), x: z.string() }),
        z.object({ k: z.literal(2), y: z.string() }),
      ]),
    values: [
      { k: 1, x: 'a' },
      { k: 2, y: 'b' },
    ],
    check: (n) => {
      expect(n.properties.k).toMatchObject({ type: 'integer', enum: [1, 2] });
      expect(n.properties.x.description).toContain('Required if k = 1.');
    },
  },
  {
    name: 'boolean tag',
    make: () =>
      z.discriminatedUnion('k', [
        z.object({ k: z.literal(true), x: z.string() }),
        z.object({ k: z.literal(false), y: z.string() }),
      ]),
    values: [
      { k: false, y: 'a' },
      { k: true, x: 'a' },
    ],
    check: (n) => {
      expect(n.properties.k).toMatchObject({ type: 'boolean', enum: [true, false] });
      expect(n.properties.y.description).toContain('Required if k = false.');
    },
  },
  {
    name: 'null tag beside a string tag',
    make: () =>
      z.discriminatedUnion('k', [
        z.object({ k: z.literal('a'), x: z.string() }),
        z.object({ k: z.null(), y: z.number() }),
      ]),
    values: [
      { k: 'a', x: '1' },
      { k: null, y: 1 },
    ],
    check: (n) => {
      expect(n.properties.k).toMatchObject({ type: ['string', 'null'], enum: ['a', null] });
      expect(n.properties.y.description).toContain('Required if k = null.');
    },
  },
  {
    name: 'the string "1" beside the number 1',
    make: () =>
      z.discriminatedUnion('k', [
        z.object({ k: z.literal('1'), x: z.string() }),
        z.object({ k: z.literal(1), y: z.number() }),
      ]),
    values: [
      { k: '1', x: 's' },
      { k: 1, y: 2 },
    ],
    check: (n) => {
      expect(n.properties.k).toMatchObject({ type: ['string', 'integer'], enum: ['1', 1] });
      expect(n.properties.x.description).toContain('Required if k = "1".');
      expect(n.properties.y.description).toContain('Required if k = 1.');
    },
  },
  {
    name: 'multi-value tags mixing strings, numbers, booleans and null',
    make: () =>
      z.discriminatedUnion('k', [
        z.object({ k: z.literal([1, 'x']), x: z.string() }),
        z.object({ k: z.literal([true, null, 2.5]), y: z.number() }),
      ]),
    values: [
      { k: 'x', x: 's' },
      { k: 1, x: 's' },
      { k: null, y: 1 },
      { k: 2.5, y: 1 },
      { k: true, y: 1 },
    ],
    check: (n) => {
      expect(n.properties.k.enum).toEqual([1, 'x', true, null, 2.5]);
      expect(typeSet(n.properties.k)).toEqual(['boolean', 'null', 'number', 'string']);
      expect(n.properties.y.description).toContain('Required if k = true | null | 2.5.');
    },
  },
  {
    name: 'a z.enum of numbers (a TypeScript numeric enum) as the tag',
    make: () => {
      enum Level {
        Low = 0,
        High = 1,
      }
      return z.discriminatedUnion('level', [
        z.object({ level: z.enum(Level), x: z.string() }),
        z.object({ level: z.literal(2), y: z.string() }),
      ]);
    },
    values: [
      { level: 0, x: 'a' },
      { level: 2, y: 'b' },
    ],
    check: (n) => expect(n.properties.level).toMatchObject({ type: 'integer', enum: [0, 1, 2] }),
  },
  {
    name: 'optional tag',
    make: () =>
      z.discriminatedUnion('k', [
        z.object({ k: z.literal('a').optional(), x: z.string() }),
        z.object({ k: z.literal('b'), y: z.string() }),
      ]),
    values: [{ x: '1' }],
    reason: 'optional in variant 0',
  },
  {
    name: 'overlapping tags',
    make: () =>
      z.union([
        z.object({ k: z.literal('a'), x: z.string() }),
        z.object({ k: z.literal('a'), y: z.string() }),
        z.object({ k: z.literal('b'), z: z.string() }),
      ]),
    values: [{ k: 'a', y: '1' }],
    reason: 'tag values overlap: a',
  },
  {
    name: 'an untagged object union',
    make: () => z.union([z.object({ id: z.string() }), z.object({ slug: z.string() })]),
    values: [{ slug: 's' }, { id: 'i' }],
    check: (n) => {
      expect(n.properties).toMatchObject({ id: { type: 'string' }, slug: { type: 'string' } });
      expect(n.required).toBeUndefined();
      expect(n.description).toContain('Give one of: id | slug');
    },
  },
];

interface Position {
  name: string;
  wrap: (k: z.ZodType) => z.ZodType;
  /** Pointer(s) where the kind lands in the served document. */
  pointers: (doc: any) => string[];
  value: (v: unknown) => unknown;
}

let ids = 0;
const positions: Position[] = [
  { name: 'root', wrap: (k) => k, pointers: () => [''], value: (v) => v },
  { name: 'field', wrap: (k) => z.object({ f: k }), pointers: () => ['/properties/f'], value: (v) => ({ f: v }) },
  {
    name: 'optional field',
    wrap: (k) => z.object({ f: k.optional(), g: z.string() }),
    pointers: () => ['/properties/f'],
    value: (v) => ({ f: v, g: 'g' }),
  },
  {
    name: 'nullable field',
    wrap: (k) => z.object({ f: k.nullable() }),
    pointers: () => ['/properties/f/anyOf/0'],
    value: (v) => ({ f: v }),
  },
  {
    name: 'array item',
    wrap: (k) => z.object({ f: z.array(k) }),
    pointers: () => ['/properties/f/items'],
    value: (v) => ({ f: [v, v] }),
  },
  {
    name: 'record value',
    wrap: (k) => z.object({ f: z.record(z.string(), k) }),
    pointers: () => ['/properties/f/additionalProperties'],
    value: (v) => ({ f: { one: v } }),
  },
  {
    name: 'tuple slot',
    wrap: (k) => z.object({ f: z.tuple([z.string(), k]) }),
    pointers: () => ['/properties/f/prefixItems/1'],
    value: (v) => ({ f: ['s', v] }),
  },
  {
    name: 'reused $defs entry',
    wrap: (k) => {
      const shared = k.meta({ id: `Shared${ids++}` });
      return z.object({ f: shared, g: z.array(shared) });
    },
    pointers: () => ['/properties/f', '/properties/g/items'],
    value: (v) => ({ f: v, g: [v] }),
  },
  {
    name: 'recursive z.lazy definition',
    wrap: (k) => {
      const tree: z.ZodType = z.lazy(() => z.object({ node: k, next: tree.optional() }));
      return z.object({ f: tree });
    },
    pointers: (doc) => [`${defPointer(doc, '/properties/f')}/properties/node`],
    value: (v) => ({ f: { node: v, next: { node: v } } }),
  },
  {
    name: 'field of a variant of another union',
    wrap: (k) =>
      z.discriminatedUnion('outer', [
        z.object({ outer: z.literal('p'), f: k }),
        z.object({ outer: z.literal('q'), other: z.number() }),
      ]),
    pointers: () => ['/properties/f'],
    value: (v) => ({ outer: 'p', f: v }),
  },
  {
    // Below the root a union of an object and a string is one node with a type list; a member that is a
    // union left as it is keeps the outer union too.
    name: 'member of a mixed union',
    wrap: (k) => z.object({ f: z.union([z.string(), k]) }),
    pointers: (doc) => [at(doc, '/properties/f/anyOf') ? '/properties/f/anyOf/1' : '/properties/f'],
    value: (v) => ({ f: v }),
  },
];

/** The `$defs` pointer a `$ref` at `ptr` points to. */
function defPointer(doc: any, ptr: string): string {
  const ref = at(doc, ptr)?.$ref as string | undefined;
  if (!ref?.startsWith('#')) throw new Error(`no local $ref at ${ptr}: ${JSON.stringify(at(doc, ptr))}`);
  return ref.slice(1);
}

describe.each(positions.map((p) => [p.name, p] as const))('in position: %s', (_label, position) => {
  it.each(kinds.map((k) => [k.name, k] as const))('%s', (_kindLabel, kind) => {
    const schema = position.wrap(kind.make());
    const { schema: doc, unflattened } = project(schema);
    const values = kind.values.map(position.value);
    expect(zodAcceptedValuesPass(schema, doc, values)).toHaveLength(values.length);
    for (const ptr of position.pointers(doc)) {
      const node = at(doc, ptr);
      expect(node, `node at ${ptr} in ${JSON.stringify(doc)}`).toBeDefined();
      if (kind.check) {
        if (position.name === 'member of a mixed union') expect(typeSet(node)).toEqual(['object', 'string']);
        else expect(node.type).toBe('object');
        expect(unionsIn(node)).toEqual([]);
        kind.check(node);
      } else {
        expect(node.oneOf ?? node.anyOf).toBeDefined();
        expect(unflattened).toContainEqual({ pointer: ptr, reason: expect.stringContaining(kind.reason!) });
      }
    }
    if (kind.check) {
      // Nothing but nullable wrappers may remain when the only union is flattenable.
      for (const ptr of unionsIn(doc)) expect(at(doc, ptr).anyOf?.some((m: any) => m.type === 'null')).toBe(true);
      expect(unflattened).toEqual([]);
    }
  });
});

describe('nested unions', () => {
  it('a union inside a variant is flattened first, then the outer union', () => {
    const inner = z.discriminatedUnion('sub', [
      z.object({ sub: z.literal('x'), p: z.string() }),
      z.object({ sub: z.literal('y'), q: z.number() }),
    ]);
    const schema = z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('a'), inner }),
      z.object({ kind: z.literal('b'), inner: z.array(inner) }),
    ]);
    const { schema: doc } = project(schema);
    zodAcceptedValuesPass(schema, doc, [
      { kind: 'a', inner: { sub: 'x', p: '1' } },
      { kind: 'b', inner: [{ sub: 'y', q: 1 }] },
    ]);
    expect(unionsIn(doc)).toEqual([]);
    expect(typeSet(at(doc, '/properties/inner'))).toEqual(['array', 'object']);
  });

  it('a discriminated union nested as a member of another (same tag) becomes one object', () => {
    const schema = z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('a') }),
      z.discriminatedUnion('kind', [
        z.object({ kind: z.literal('b'), sub: z.literal('x') }),
        z.object({ kind: z.literal('c'), sub: z.literal('y') }),
      ]),
    ]);
    const { schema: doc } = project(schema);
    zodAcceptedValuesPass(schema, doc, [{ kind: 'a' }, { kind: 'c', sub: 'y' }]);
    expect(doc.properties.kind.enum).toEqual(['a', 'b', 'c']);
    expect(doc.properties.sub.description).toContain('Required if kind = b | c');
    expect(unionsIn(doc)).toEqual([]);
  });

  it('depth 4: unions in variants in unions in variants', () => {
    let schema: z.ZodType = z.object({ leaf: z.string() });
    for (let depth = 0; depth < 4; depth++) {
      schema = z.discriminatedUnion(`t${depth}`, [
        z.object({ [`t${depth}`]: z.literal('a'), child: schema }),
        z.object({ [`t${depth}`]: z.literal('b'), child: z.array(schema), n: z.number() }),
      ]);
    }
    const { schema: doc, unflattened } = project(schema);
    expect(unionsIn(doc)).toEqual([]);
    expect(unflattened).toEqual([]);
    zodAcceptedValuesPass(schema, doc, [
      { t3: 'a', child: { t2: 'b', n: 1, child: [{ t1: 'a', child: { t0: 'a', child: { leaf: 'x' } } }] } },
    ]);
  });
});

describe('flattenUnionsDeep without inlining', () => {
  it('flattens inside $defs and keeps the $ref to it', () => {
    const Shared = twoVariants(z.string(), z.number()).meta({ id: 'Pair' });
    const doc = flattenUnionsDeep(toJson(z.object({ p: Shared, q: Shared })));
    expect(doc.properties.p).toEqual({ $ref: '#/$defs/Pair' });
    expect(doc.$defs.Pair.type).toBe('object');
    expect(unionsIn(doc)).toEqual([]);
  });

  it('uses a $ref target to type a widened key when the targets differ', () => {
    const A = z.object({ id: z.string() }).meta({ id: 'RefA' });
    const doc = flattenUnionsDeep(toJson(twoVariants(A, z.array(z.string()))));
    expect(typeSet(doc.properties.f)).toEqual(['array', 'object']);
  });
});
