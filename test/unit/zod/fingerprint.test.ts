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
