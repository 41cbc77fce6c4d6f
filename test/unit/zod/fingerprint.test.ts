/** The structural fingerprint build-time documents are checked by (docs/decisions/0024-build-time-documents.md). */

import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { fingerprint, fingerprinter } from '../../../src/core/zod/fingerprint.js';

/** A tool-like input schema, built fresh on each call; `change` swaps one part. */
function build(change: Partial<Record<string, () => z.ZodType>> = {}, tagsKey = 'tags'): z.ZodType {
  const part = (key: string, base: () => z.ZodType) => (change[key] ?? base)();
  return z.object({
    id: part('id', () => z.string().min(1).describe('Record id')),
    kind: part('kind', () => z.literal('note')),
    mode: part('mode', () => z.enum(['fast', 'slow'])),
    limit: part('limit', () => z.number().int().max(50).default(10)),
    slug: part('slug', () => z.string().regex(/^[a-z]+$/)),
    [tagsKey]: part('tags', () => z.array(z.string()).optional()),
    body: part('body', () =>
      z.discriminatedUnion('t', [z.object({ t: z.literal('a'), a: z.string() }), z.object({ t: z.literal('b') })]),
    ),
    extra: part('extra', () => z.record(z.string(), z.number())),
    when: part('when', () => z.string().transform((s) => s.length)),
  });
}

describe('fingerprint', () => {
  it('agrees for two independently built equal schemas', () => {
    expect(fingerprint(build())).toBe(fingerprint(build()));
    expect(fingerprint(build())).toMatch(/^[0-9a-f]{16}$/);
  });

  const changes: Record<string, Partial<Record<string, () => z.ZodType>>> = {
    'a literal': { kind: () => z.literal('link') },
    'an enum value': { mode: () => z.enum(['fast', 'slower']) },
    'a bound': { limit: () => z.number().int().max(51).default(10) },
    'a default': { limit: () => z.number().int().max(50).default(11) },
    'a check added': { id: () => z.string().min(1).max(9).describe('Record id') },
    'a regex flag': { slug: () => z.string().regex(/^[a-z]+$/i) },
    'a regex source': { slug: () => z.string().regex(/^[a-z]*$/) },
    'a description': { id: () => z.string().min(1).describe('Record key') },
    'a .meta() value': {
      id: () =>
        z
          .string()
          .min(1)
          .describe('Record id')
          .meta({ examples: ['n-1'] }),
    },
    'optional removed': { tags: () => z.array(z.string()) },
    'nullable added': { tags: () => z.array(z.string()).nullable().optional() },
    'a variant added': {
      body: () =>
        z.discriminatedUnion('t', [
          z.object({ t: z.literal('a'), a: z.string() }),
          z.object({ t: z.literal('b') }),
          z.object({ t: z.literal('c') }),
        ]),
    },
    "a record's value type": { extra: () => z.record(z.string(), z.string()) },
    "a pipe's input side": { when: () => z.number().transform((n) => n + 1) },
    'a string format': { id: () => z.email().describe('Record id') },
  };
  for (const [name, change] of Object.entries(changes)) {
    it(`changes with ${name}`, () => {
      expect(fingerprint(build(change))).not.toBe(fingerprint(build()));
    });
  }

  it('changes with a key renamed', () => {
    expect(fingerprint(build({}, 'labels'))).not.toBe(fingerprint(build()));
  });

  it('tells readonly, catch, tuples, intersections and strictness apart', () => {
    const base = z.object({ a: z.string() });
    const prints = [
      base,
      base.readonly(),
      base.strict(),
      z.looseObject({ a: z.string() }),
      z.object({ a: z.string().catch('x') }),
      z.object({ a: z.string().catch('y') }),
      z.tuple([z.string(), z.number()]),
      z.tuple([z.number(), z.string()]),
      z.intersection(base, z.object({ b: z.number() })),
      z.intersection(base, z.object({ b: z.string() })),
    ].map(fingerprint);
    expect(new Set(prints).size).toBe(prints.length);
  });

  it('does not depend on whether a sub-schema is shared or built twice', () => {
    const shared = z.string().min(2);
    const twice = z.object({ a: z.string().min(2), b: z.string().min(2) });
    expect(fingerprint(z.object({ a: shared, b: shared }))).toBe(fingerprint(twice));
  });

  it('ends on a cycle, agrees for two equal cycles, and sees a change deep inside one', () => {
    const tree = (leaf: () => z.ZodType) => {
      const node: z.ZodType = z.lazy(() => z.object({ value: leaf(), children: z.array(node) }));
      return node;
    };
    expect(fingerprint(tree(() => z.string()))).toBe(fingerprint(tree(() => z.string())));
    expect(fingerprint(tree(() => z.string()))).not.toBe(fingerprint(tree(() => z.string().max(3))));

    const category = (name: () => z.ZodType) => {
      const c = z.object({
        name: name(),
        get subcategories(): z.ZodArray<typeof c> {
          return z.array(c);
        },
      });
      return c;
    };
    expect(fingerprint(category(() => z.string()))).toBe(fingerprint(category(() => z.string())));
    expect(fingerprint(category(() => z.string()))).not.toBe(fingerprint(category(() => z.number())));
  });

  it('tells apart two cycles that return to different levels', () => {
    const inner = (): z.ZodType => {
      const a: z.ZodType = z.lazy(() => z.object({ next: z.object({ back: a }) }));
      return a;
    };
    const outer = (): z.ZodType => {
      const b: z.ZodType = z.object({ next: z.lazy(() => z.object({ back: b })) });
      return b;
    };
    expect(fingerprint(inner())).not.toBe(fingerprint(outer()));
  });

  it('hashes a generated default as varying, so the fingerprint stays stable', () => {
    let n = 0;
    const generated = () => z.object({ id: z.string().default(() => `id-${n++}`) });
    expect(fingerprint(generated())).toBe(fingerprint(generated()));
    expect(fingerprint(generated())).not.toBe(fingerprint(z.object({ id: z.string().default('id-0') })));
  });

  it('tells a Set default from an array default of the same items (JSON serves a Set as {})', () => {
    const withDefault = (value: unknown) => fingerprint(z.object({ tags: z.any().default(value) }));
    expect(withDefault(new Set(['a', 'b']))).not.toBe(withDefault(['a', 'b']));
    expect(withDefault(new Set(['a', 'b']))).toBe(withDefault(new Set(['a', 'b'])));
    expect(withDefault(new Map([['a', 1]]))).not.toBe(withDefault([['a', 1]]));
    // A value with a `toJSON`, its own or inherited, serves as what that returns.
    expect(withDefault({ toJSON: () => 1 })).not.toBe(withDefault({ toJSON: () => 2 }));
    expect(withDefault(new Date(0))).not.toBe(withDefault(new Date(1)));
  });

  it('hashes an override assigned to _zod.toJSONSchema by what it returns', () => {
    const overridden = (type: string) => {
      const schema = z.string();
      schema._zod.toJSONSchema = () => ({ type });
      return fingerprint(z.object({ a: schema }));
    };
    expect(overridden('integer')).not.toBe(fingerprint(z.object({ a: z.string() })));
    expect(overridden('integer')).toBe(overridden('integer'));
    expect(overridden('integer')).not.toBe(overridden('boolean'));
  });

  it('hashes a field only the generic walk knows, on a known kind of definition and on an unknown one', () => {
    const withField = (schema: z.ZodType, key: string, value: unknown) => {
      (schema._zod.def as unknown as Record<string, unknown>)[key] = value;
      return fingerprint(z.object({ a: schema }));
    };
    const plain = fingerprint(z.object({ a: z.string() }));
    expect(withField(z.string(), 'futureField', 1)).not.toBe(plain);
    expect(withField(z.string(), 'futureField', 1)).toBe(withField(z.string(), 'futureField', 1));
    expect(withField(z.string(), 'futureField', 1)).not.toBe(withField(z.string(), 'futureField', 2));
    expect(withField(z.string(), 'futureField', 1)).not.toBe(withField(z.string(), 'otherField', 1));
    // A known field holding what its handler does not expect is walked generically, and still seen.
    expect(withField(z.string().optional(), 'innerType', 'text')).not.toBe(
      withField(z.string().optional(), 'innerType', 'other'),
    );
    const kind = (type: string, extra: unknown) => {
      const schema = z.string();
      Object.assign(schema._zod.def, { type, extra });
      return fingerprint(schema);
    };
    expect(kind('future', { x: [1] })).toBe(kind('future', { x: [1] }));
    expect(kind('future', { x: [1] })).not.toBe(kind('future', { x: [2] }));
    expect(kind('future', { x: [1] })).not.toBe(kind('other', { x: [1] }));
  });

  it('hashes numbers by value (-0 apart from 0, NaN as one) and a check inside the definition', () => {
    const literal = (value: number) => fingerprint(z.literal(value));
    expect(literal(0)).not.toBe(literal(-0));
    expect(literal(1.5)).not.toBe(literal(1.25));
    expect(literal(2 ** 40)).not.toBe(literal(2 ** 40 + 1));
    expect(fingerprint(z.number().default(Number.NaN))).toBe(fingerprint(z.number().default(Number.NaN)));
    expect(fingerprint(z.array(z.string()).min(1))).not.toBe(fingerprint(z.array(z.string()).min(2)));
  });

  it("reads an object's shape alike before and after Zod copies it on first use", () => {
    const build = () => z.object({ a: z.string(), b: z.object({ c: z.number() }) });
    const parsed = build();
    parsed.parse({ a: 'x', b: { c: 1 } });
    expect(fingerprint(parsed)).toBe(fingerprint(build()));
  });

  it('walks a shared sub-schema once and still tells its uses apart', () => {
    const shared = z.object({ x: z.string() });
    expect(fingerprint(z.object({ a: shared, b: z.number() }))).not.toBe(
      fingerprint(z.object({ a: z.number(), b: shared })),
    );
    // Two levels sharing at each: hashed in linear time, not by the expanded tree.
    let node: z.ZodType = z.string();
    for (let i = 0; i < 64; i++) node = z.object({ left: node, right: node });
    expect(fingerprint(node)).toMatch(/^[0-9a-f]{16}$/);
  });

  it('tells apart every kind its handlers read, and each field they read', () => {
    const tag = (t: string) => z.object({ t: z.literal(t), n: z.number() });
    const pin = (t: string, n: number) => z.object({ t: z.literal(t), n: z.literal(n) });
    const prints = [
      z.string().optional(),
      z.string().nullable(),
      z.string().readonly(),
      z.string().optional().nonoptional(),
      z.any(),
      z.unknown(),
      z.null(),
      z.undefined(),
      z.never(),
      z.bigint(),
      z.boolean(),
      z.object({ a: z.string() }).catchall(z.string()),
      z.object({ a: z.string() }).catchall(z.number()),
      z.array(z.string()),
      z.array(z.number()),
      z.array(z.string()).min(1),
      z.union([tag('a'), tag('b')]),
      z.union([tag('b'), tag('a')]),
      z.discriminatedUnion('t', [tag('a'), tag('b')]),
      z.xor([tag('a'), tag('b')]),
      z.discriminatedUnion('t', [pin('a', 1), pin('b', 2)]),
      z.discriminatedUnion('n', [pin('a', 1), pin('b', 2)]),
      z.literal(['a', 'b']),
      z.literal(['a', 'c']),
      z.enum({ A: 'a', B: 'b' }),
      z.enum({ A: 'a', B: 'c' }),
      z.enum({ A: 'a', C: 'b' }),
    ].map(fingerprint);
    expect(new Set(prints).size).toBe(prints.length);
  });

  it('tells apart the same parts nested the other way round', () => {
    const leaf = () => z.object({ x: z.string() });
    const pairs: Array<[z.ZodType, z.ZodType]> = [
      [z.array(leaf().optional()), z.array(leaf()).optional()],
      [z.object({ a: z.object({ b: leaf() }) }), z.object({ b: z.object({ a: leaf() }) })],
      [z.array(z.array(leaf()).nullable()), z.array(z.array(leaf())).nullable()],
      [z.lazy(() => z.array(leaf())), z.array(z.lazy(() => leaf()))],
    ];
    for (const [a, b] of pairs) expect(fingerprint(a)).not.toBe(fingerprint(b));
  });

  it('tells apart where a nested object, a check or a field ends', () => {
    const pairs: Array<[z.ZodType, z.ZodType]> = [
      [z.string().meta({ a: { b: 1 }, c: 2 }), z.string().meta({ a: { b: 1, c: 2 } })],
      [z.object({ a: z.array(z.string()).min(1) }), z.object({ a: z.array(z.string().min(1)) })],
      [
        z.object({ a: z.object({ b: z.string() }), c: z.string() }),
        z.object({ a: z.object({ b: z.string(), c: z.string() }) }),
      ],
      [z.object({ a: z.string().optional(), b: z.number() }), z.object({ a: z.string(), b: z.number().optional() })],
    ];
    for (const [a, b] of pairs) expect(fingerprint(a)).not.toBe(fingerprint(b));
  });

  it('gives a z.lazy the same fingerprint before and after Zod first resolves it', () => {
    const tree = () => {
      const node: z.ZodType = z.lazy(() => z.object({ v: z.number(), kids: z.array(node) }));
      return node;
    };
    const fresh = fingerprint(tree());
    const used = tree();
    expect(fingerprint(used)).toBe(fresh);
    expect(fingerprint(used)).toBe(fresh);
    used.parse({ v: 1, kids: [{ v: 2, kids: [] }] });
    expect(fingerprint(used)).toBe(fresh);
  });

  it("tells apart a parent's id and definition, which conversion puts in $defs and refers to", () => {
    const user = (id: string) => z.object({ a: z.string() }).meta({ id });
    const pairs: Array<[z.ZodType, z.ZodType]> = [
      [z.string().meta({ id: 'A' }).describe('x'), z.string().meta({ id: 'B' }).describe('x')],
      [z.string().meta({ id: 'A' }).min(1), z.string().min(1)],
      [z.object({ u: user('User').describe('x') }), z.object({ u: user('Person').describe('x') })],
      [z.string().max(5).meta({ id: 'A' }).min(1), z.string().meta({ id: 'A' }).max(5).min(1)],
    ];
    for (const [a, b] of pairs) expect(fingerprint(a)).not.toBe(fingerprint(b));
  });

  it('tells apart values a naive walk folds together: negative numbers, undefined metadata, boxed primitives', () => {
    const pairs: Array<[z.ZodType, z.ZodType]> = [
      [z.number().default(-10000), z.number().default(16767216)],
      [z.number().catch(-5000), z.number().catch(16772216)],
      [z.string().min(1).meta({ minLength: undefined }), z.string().min(1).meta({ type: undefined })],
      [z.string().meta({ type: undefined }), z.string().meta({})],
      [z.any().default(new Number(5)), z.any().default(new Number(6))],
      [z.any().default(new Boolean(true)), z.any().default(new Boolean(false))],
      [z.any().default(new String('ab')), z.any().default({ 0: 'a', 1: 'b' })],
      [
        z.string().meta({ x: { _zod: { def: { a: 1 } }, y: 1 } }),
        z.string().meta({ x: { _zod: { def: { a: 1 } }, y: 2 } }),
      ],
    ];
    for (const [a, b] of pairs) expect(fingerprint(a)).not.toBe(fingerprint(b));
  });

  it('ends at once on metadata that returns to itself many ways, and on a check whose definition holds itself', () => {
    const meta: Record<string, unknown> = {};
    for (const key of ['a', 'b', 'c', 'd', 'e', 'f']) meta[key] = meta;
    meta.list = [meta, meta, meta];
    expect(fingerprint(z.string().meta(meta))).toMatch(/^[0-9a-f]{16}$/);
    const s = z.string().min(1);
    const check = (s._zod.def.checks![0] as unknown as { _zod: { def: Record<string, unknown> } })._zod;
    check.def.self = s._zod.def.checks![0];
    expect(fingerprint(s)).toMatch(/^[0-9a-f]{16}$/);
  });

  it('gives each schema of a cycle the same fingerprint whichever a reused fingerprinter walked first', () => {
    const pair = () => {
      const a = z.object({
        x: z.string(),
        y: z.number(),
        get b(): z.ZodType {
          return b;
        },
      });
      const b: z.ZodType = z.object({ p: z.boolean(), q: z.string(), r: z.number(), a });
      return { a, b };
    };
    const { a, b } = pair();
    const fp = fingerprinter();
    fp.schema(a);
    expect(fp.schema(b)).toBe(fingerprint(pair().b));
  });

  it('gives a thousand schemas that differ in one small part a thousand fingerprints', () => {
    const prints = new Set<string>();
    for (let i = 0; i < 250; i++) {
      prints.add(fingerprint(z.object({ [`k${i}`]: z.string() })));
      prints.add(fingerprint(z.object({ k: z.number().max(i) })));
      prints.add(fingerprint(z.object({ k: z.literal(i), j: z.string().optional() })));
      prints.add(fingerprint(z.array(z.string()).length(i)));
    }
    expect(prints.size).toBe(1000);
  });

  it('ends on a wrapper that wraps itself, and on a chain of wrappers longer than it hashes in line', () => {
    const self = z.string().optional();
    (self._zod.def as unknown as { innerType: unknown }).innerType = self;
    expect(fingerprint(self)).toMatch(/^[0-9a-f]{16}$/);
    const chain = (leaf: () => z.ZodType) => {
      let s: z.ZodType = leaf();
      for (let i = 0; i < 200; i++) s = i % 2 ? s.optional() : s.nullable();
      return s;
    };
    expect(fingerprint(chain(() => z.string()))).toBe(fingerprint(chain(() => z.string())));
    expect(fingerprint(chain(() => z.string()))).not.toBe(fingerprint(chain(() => z.number())));
  });

  it('fingerprints inside a fingerprint (a default computed by fingerprinting) without disturbing the outer walk', () => {
    const inner = z.object({ b: z.number() });
    const withNested = () => z.object({ a: z.string().default(() => fingerprint(inner)), c: z.boolean() });
    const plain = z.object({ a: z.string().default(fingerprint(inner)), c: z.boolean() });
    expect(fingerprint(withNested())).toBe(fingerprint(plain));
    const fp = fingerprinter();
    expect(fp.schema(withNested())).toBe(fingerprint(plain));
    expect(fp.schema(z.object({ c: z.boolean() }))).toBe(fingerprint(z.object({ c: z.boolean() })));
  });

  it('hashes values with the schemas in them, and one fingerprinter reuses what it has walked', () => {
    const fp = fingerprinter();
    expect(fp.value({ scopes: ['a'] })).toBe(fp.value({ scopes: ['a'] }));
    expect(fp.value({ scopes: ['a'] })).not.toBe(fp.value({ scopes: ['b'] }));
    expect(fp.value([z.string()])).not.toBe(fp.value([z.number()]));
    const schema = build();
    expect(fp.schema(schema)).toBe(fingerprint(schema));
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(fp.value(cyclic)).toMatch(/^[0-9a-f]{16}$/);
  });
});
