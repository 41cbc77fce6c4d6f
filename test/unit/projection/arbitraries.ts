/**
 * fast-check arbitraries that build a random Zod schema TOGETHER WITH an arbitrary of values that schema
 * accepts, for property tests of anything that serves, repairs or parses Zod-defined input.
 *
 * Exports:
 * - `zodCaseArb(options)`: `{ gen, values }`, a schema and N candidate values. Candidates are built to
 *   match the schema, but always confirm with `gen.schema.safeParse(v)` and skip the ones Zod rejects
 *   (a few generators, e.g. loose extras or intersections, can produce values Zod refuses).
 * - `genArb(depth)`: any schema kind up to `depth` levels of nesting.
 * - `discriminatedUnionArb(depth, options)`: discriminated unions, with every collision kind between
 *   variants (object vs array, literal vs literal, enum vs string, string vs number, int vs number,
 *   different bounds, different object shapes, boolean literals, nullable, optional, defaults,
 *   strict/loose/strip variants, nested unions), tagged by strings, numbers, booleans, null or a mix
 *   (`tagPoolArb`), each variant by one value, a multi-value literal or a `z.enum`.
 * - `deepUnionArb(depth)`: a spine of unions nested `depth` deep, so deep nesting is always covered.
 *
 * Every generated value is plain JSON (no undefined, NaN or Infinity), as it would arrive over MCP.
 */
import fc from 'fast-check';
import { z } from 'zod';

/** A schema, an arbitrary of values it accepts, and facts tests assert against. */
export interface Gen {
  schema: z.ZodType;
  value: fc.Arbitrary<unknown>;
  /** Short description for failure messages. */
  label: string;
  /** True when every union in it is a flattenable discriminated union (string tags, required, distinct). */
  flattenableOnly: boolean;
  /** Deepest nesting of unions inside (a union counts 1). */
  unionDepth: number;
  /** The value may be absent when this sits in an object (defaults). */
  implicitOptional?: boolean;
  /** A value valid for this schema, for `.default()`. */
  sample?: unknown;
}

export type Mode = 'strip' | 'strict' | 'loose';
export type Mod = 'none' | 'optional' | 'nullable' | 'default' | 'absent';

const leaf = (label: string, schema: z.ZodType, value: fc.Arbitrary<unknown>, sample?: unknown): Gen => ({
  schema,
  value,
  label,
  flattenableOnly: true,
  unionDepth: 0,
  sample,
});

const smallString = fc.string({ maxLength: 5 });
const finite = (min = -1e6, max = 1e6) => fc.double({ min, max, noNaN: true, noDefaultInfinity: true });

type Tree = { name: string; kids?: Tree[] };
const TREE: z.ZodType<Tree> = z.object({ name: z.string(), kids: z.array(z.lazy(() => TREE)).optional() });

/** Trees up to `depth` levels, deeper than Gemini's expansion of the recursion (3) at the top. */
function treeValue(depth: number): fc.Arbitrary<Tree> {
  const name = fc.string({ maxLength: 3 });
  if (depth === 0) return fc.record({ name });
  return fc.record({ name, kids: fc.array(treeValue(depth - 1), { maxLength: 2 }) }, { requiredKeys: ['name'] });
}

/** Scalars and formats, one Zod instance each (Zod schemas are immutable, so sharing is safe). */
export const LEAVES: readonly Gen[] = [
  leaf('string', z.string(), smallString, 's'),
  leaf('string[1..4]', z.string().min(1).max(4), fc.string({ minLength: 1, maxLength: 4 }), 'abc'),
  leaf('string/regex', z.string().regex(/^[a-z]{1,3}$/), fc.stringMatching(/^[a-z]{1,3}$/), 'ab'),
  leaf('email', z.email(), fc.constantFrom('a@b.co', 'first.last@example.com'), 'a@b.co'),
  leaf('url', z.url(), fc.constantFrom('https://example.com/a', 'http://x.io'), 'https://example.com'),
  leaf('number', z.number(), finite(), 1.5),
  leaf('int', z.number().int(), fc.integer({ min: -1000, max: 1000 }), 3),
  leaf('int[0..10]', z.int().min(0).max(10), fc.integer({ min: 0, max: 10 }), 5),
  leaf('number>=0', z.number().min(0), finite(0, 100), 0),
  leaf('number<=5', z.number().max(5), finite(-100, 5), 5),
  leaf('boolean', z.boolean(), fc.boolean(), true),
  leaf('literal p', z.literal('p'), fc.constant('p'), 'p'),
  leaf('literal 7', z.literal(7), fc.constant(7), 7),
  leaf('literal true', z.literal(true), fc.constant(true), true),
  leaf('enum pq', z.enum(['p', 'q']), fc.constantFrom('p', 'q'), 'q'),
  leaf('enum qrs', z.enum(['q', 'r', 's']), fc.constantFrom('q', 'r', 's'), 'r'),
  leaf('null', z.null(), fc.constant(null), null),
  leaf('unknown', z.unknown(), fc.jsonValue({ maxDepth: 1 }), { any: 1 }),
  // The kinds issue 21 found served wrong: flagged regexes, integers beyond 2^53, finite-keyed records,
  // "" and null in an enum, recursion.
  leaf('regex/i', z.string().regex(/^[a-z]{2}-\d$/i), fc.stringMatching(/^[a-zA-Z]{2}-\d$/), 'DE-1'),
  leaf('regex/s', z.string().regex(/^a.b$/s), fc.constantFrom('a\nb', 'a.b', 'a\u2028b'), 'a\nb'),
  leaf('regex/m', z.string().regex(/^x$/m), fc.constantFrom('x', 'a\nx', 'x\nb'), 'x'),
  leaf('number<=int64', z.number().max(Number(9223372036854775807n)), finite(), 1),
  leaf('literal 2^60', z.literal(2 ** 60), fc.constant(2 ** 60), 2 ** 60),
  leaf('record enum ab', z.record(z.enum(['a', 'b']), z.number()), fc.record({ a: fc.integer(), b: fc.integer() }), {
    a: 1,
    b: 2,
  }),
  leaf(
    'partial record ab',
    z.partialRecord(z.enum(['a', 'b']), z.boolean()),
    fc.record({ a: fc.boolean(), b: fc.boolean() }, { requiredKeys: [] }),
    {},
  ),
  leaf('enum "" p', z.enum(['', 'p']), fc.constantFrom('', 'p'), ''),
  leaf('literal null p', z.literal([null, 'p']), fc.constantFrom(null, 'p'), 'p'),
  // Its `$ref` stays a union member the flattener cannot merge (docs/design/flatten.md, recursion).
  { ...leaf('recursive tree', TREE, treeValue(3), { name: 'r', kids: [{ name: 'k' }] }), flattenableOnly: false },
];

export const leafArb: fc.Arbitrary<Gen> = fc.constantFrom(...LEAVES);

// Arbitraries are stateless, so each (kind, depth) is built once; without this the recursive
// construction would build the same arbitrary tree exponentially many times.
const cache = new Map<string, fc.Arbitrary<unknown>>();
function memo<T>(key: string, build: () => fc.Arbitrary<T>): fc.Arbitrary<T> {
  let arb = cache.get(key) as fc.Arbitrary<T> | undefined;
  if (!arb) {
    arb = build();
    cache.set(key, arb);
  }
  return arb;
}

/** Any kind of schema, nested up to `depth` levels. */
export function genArb(depth: number): fc.Arbitrary<Gen> {
  if (depth <= 0) return leafArb;
  return memo(`gen${depth}`, () =>
    fc.oneof(
      { weight: 6, arbitrary: leafArb },
      { weight: 1, arbitrary: arrayArb(depth) },
      { weight: 1, arbitrary: recordArb(depth) },
      { weight: 1, arbitrary: tupleArb(depth) },
      { weight: 2, arbitrary: objectArb(depth) },
      { weight: 1, arbitrary: nullableArb(depth) },
      { weight: 3, arbitrary: discriminatedUnionArb(depth) },
      { weight: 1, arbitrary: flawedUnionArb(depth) },
      { weight: 1, arbitrary: intersectionArb(depth) },
      { weight: 1, arbitrary: reusedArb(depth) },
    ),
  );
}

const child = (g: Gen, schema: z.ZodType, value: fc.Arbitrary<unknown>, label: string): Gen => ({
  schema,
  value,
  label,
  flattenableOnly: g.flattenableOnly,
  unionDepth: g.unionDepth,
});

function arrayArb(depth: number): fc.Arbitrary<Gen> {
  return memo(`array${depth}`, () =>
    genArb(depth - 1).map((g) =>
      child(g, z.array(g.schema).max(3), fc.array(g.value, { maxLength: 3 }), `array<${g.label}>`),
    ),
  );
}

function recordArb(depth: number): fc.Arbitrary<Gen> {
  return memo(`record${depth}`, () =>
    genArb(depth - 1).map((g) =>
      child(
        g,
        z.record(z.string(), g.schema),
        fc.dictionary(fc.constantFrom('r1', 'r2', 'r3'), g.value, { maxKeys: 2 }),
        `record<${g.label}>`,
      ),
    ),
  );
}

function tupleArb(depth: number): fc.Arbitrary<Gen> {
  return memo(`tuple${depth}`, () =>
    fc.tuple(genArb(depth - 1), genArb(depth - 1), fc.boolean()).map(([a, b, rest]): Gen => {
      const schema = rest ? z.tuple([a.schema], b.schema) : z.tuple([a.schema, b.schema]);
      const value = rest
        ? fc.tuple(a.value, fc.array(b.value, { maxLength: 2 })).map(([x, more]) => [x, ...more])
        : fc.tuple(a.value, b.value);
      return {
        schema,
        value,
        label: `tuple[${a.label}, ${rest ? '...' : ''}${b.label}]`,
        flattenableOnly: a.flattenableOnly && b.flattenableOnly,
        unionDepth: Math.max(a.unionDepth, b.unionDepth),
      };
    }),
  );
}

function nullableArb(depth: number): fc.Arbitrary<Gen> {
  return memo(`nullable${depth}`, () =>
    genArb(depth - 1).map((g) => child(g, g.schema.nullable(), fc.option(g.value, { nil: null }), `${g.label}|null`)),
  );
}

/** One field of an object under construction. */
export interface Field {
  name: string;
  gen: Gen;
  mod: Mod;
}

const modArb: fc.Arbitrary<Mod> = fc.oneof(
  { weight: 6, arbitrary: fc.constant<Mod>('none') },
  { weight: 1, arbitrary: fc.constant<Mod>('optional') },
  { weight: 1, arbitrary: fc.constant<Mod>('nullable') },
  { weight: 1, arbitrary: fc.constant<Mod>('default') },
);
const modeArb: fc.Arbitrary<Mode> = fc.constantFrom<Mode>('strip', 'strip', 'strict', 'loose');

/** The field's schema, its value arbitrary and whether the key must be present. */
function fieldParts(field: Field): { schema: z.ZodType; value: fc.Arbitrary<unknown>; required: boolean } {
  const { gen, mod } = field;
  let required = !gen.implicitOptional;
  let schema = gen.schema;
  let value = gen.value;
  if (mod === 'optional' || (mod === 'default' && gen.sample === undefined)) {
    schema = schema.optional();
    required = false;
  } else if (mod === 'default') {
    schema = schema.default(gen.sample as never);
    required = false;
  } else if (mod === 'nullable') {
    schema = schema.nullable();
    value = fc.option(value, { nil: null });
  }
  return { schema, value, required };
}

/** Names never declared anywhere, for the extra keys a strip-mode object silently drops. */
const STRIP_EXTRAS = ['zz_extra1', 'zz_extra2'];

/**
 * An object schema from fields, and its values. Loose objects get extra keys from `extraPool` (which may
 * collide with keys other variants declare: the interesting case); strip objects get never-declared
 * extras that Zod accepts and drops; strict objects get none.
 */
export function objectGen(fields: readonly Field[], mode: Mode, extraPool: readonly string[], label: string): Gen {
  const parts = fields.map((f) => ({ name: f.name, ...fieldParts(f) }));
  const shape = Object.fromEntries(parts.map((p) => [p.name, p.schema]));
  const schema = mode === 'strict' ? z.strictObject(shape) : mode === 'loose' ? z.looseObject(shape) : z.object(shape);
  const declared = new Set(fields.map((f) => f.name));
  const base = fc.record(Object.fromEntries(parts.map((p) => [p.name, p.value])), {
    requiredKeys: parts.filter((p) => p.required).map((p) => p.name),
  });
  const pool = mode === 'loose' ? extraPool.filter((k) => !declared.has(k)) : mode === 'strip' ? STRIP_EXTRAS : [];
  const extras =
    pool.length === 0
      ? fc.constant({})
      : fc.dictionary(fc.constantFrom(...pool), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2, noNullPrototype: true });
  const value = fc.tuple(extras, base).map(([e, b]) => ({ ...e, ...b }));
  return {
    schema,
    value,
    label,
    flattenableOnly: fields.every((f) => f.gen.flattenableOnly),
    unionDepth: Math.max(0, ...fields.map((f) => f.gen.unionDepth)),
  };
}

const FIELD_NAMES = ['a', 'b', 'c', 'd', 'e', 'f'];

function objectArb(depth: number): fc.Arbitrary<Gen> {
  return memo(`object${depth}`, () =>
    fc
      .tuple(
        fc.uniqueArray(fc.tuple(fc.constantFrom(...FIELD_NAMES), genArb(depth - 1), modArb), {
          minLength: 1,
          maxLength: 3,
          selector: ([name]) => name,
        }),
        modeArb,
      )
      .map(([fields, mode]) =>
        objectGen(
          fields.map(([name, gen, mod]) => ({ name, gen, mod })),
          mode,
          FIELD_NAMES,
          `${mode} object{${fields.map(([n]) => n).join(',')}}`,
        ),
      ),
  );
}

/**
 * Pairs of field schemas that collide when two variants declare the same key differently. Each variant
 * picks one side, so a key may also be identical in every variant.
 */
function collisionArb(depth: number): fc.Arbitrary<{ kind: string; sides: [Gen, Gen] }> {
  const pair = (kind: string, a: Gen, b: Gen): fc.Arbitrary<{ kind: string; sides: [Gen, Gen] }> =>
    fc.constant({ kind, sides: [a, b] });
  const idObject = z.object({ id: z.string() });
  const idValue = fc.record({ id: smallString });
  const untagged = (names: [string, string]) =>
    leafLike(
      `union{${names.join('|')}}`,
      z.union([z.object({ [names[0]]: z.string() }), z.object({ [names[1]]: z.string() })]),
      fc.oneof(fc.record({ [names[0]]: smallString }), fc.record({ [names[1]]: smallString })),
      false,
    );
  return memo(`collision${depth}`, () =>
    fc.oneof(
      pair(
        'object vs array',
        leafLike('object{id}', idObject, idValue),
        leafLike('array<{id}>', z.array(idObject).max(2), fc.array(idValue, { maxLength: 2 })),
      ),
      pair(
        'literal vs literal',
        LEAVES.find((l) => l.label === 'literal p')!,
        leafLike('literal q', z.literal('q'), fc.constant('q'), true, 'q'),
      ),
      pair('enum vs string', LEAVES.find((l) => l.label === 'enum pq')!, LEAVES.find((l) => l.label === 'string')!),
      pair('string vs number', LEAVES.find((l) => l.label === 'string')!, LEAVES.find((l) => l.label === 'number')!),
      pair('int vs number', LEAVES.find((l) => l.label === 'int')!, LEAVES.find((l) => l.label === 'number')!),
      pair(
        'different bounds',
        LEAVES.find((l) => l.label === 'number>=0')!,
        LEAVES.find((l) => l.label === 'number<=5')!,
      ),
      pair(
        'different object shapes',
        leafLike('object{x}', z.object({ x: z.string() }), fc.record({ x: smallString })),
        leafLike('strict object{y}', z.strictObject({ y: z.number() }), fc.record({ y: finite() })),
      ),
      pair(
        'boolean literals',
        LEAVES.find((l) => l.label === 'literal true')!,
        leafLike('literal false', z.literal(false), fc.constant(false), true, false),
      ),
      pair(
        'different defaults',
        { ...leafLike('number=10', z.number().default(10), finite()), implicitOptional: true },
        { ...leafLike('number=50', z.number().default(50), finite()), implicitOptional: true },
      ),
      pair('object unions', untagged(['g', 'h']), untagged(['i', 'j'])),
      pair(
        'nullable vs not',
        leafLike('string|null', z.string().nullable(), fc.option(smallString, { nil: null })),
        LEAVES[0]!,
      ),
      fc.tuple(genArb(depth - 1), genArb(depth - 1)).map(([a, b]) => ({ kind: 'random', sides: [a, b] as [Gen, Gen] })),
      fc
        .tuple(discriminatedUnionArb(depth - 1), genArb(depth - 1))
        .map(([a, b]) => ({ kind: 'union vs any', sides: [a, b] as [Gen, Gen] })),
    ),
  );
}

export function leafLike(
  label: string,
  schema: z.ZodType,
  value: fc.Arbitrary<unknown>,
  flattenableOnly = true,
  sample?: unknown,
): Gen {
  return { schema, value, label, flattenableOnly, unionDepth: 0, sample };
}

export interface UnionOptions {
  /** Tag key; random from `kind`, `type`, `t`, `op` when absent. */
  tag?: string;
  /** Variant key policies allowed (intersections use strip only, so the two sides' keys do not clash). */
  modes?: readonly Mode[];
  /** Key names for shared (colliding) and variant-only fields. */
  shared?: readonly string[];
  unique?: readonly string[];
  /** Emit `z.union` instead of `z.discriminatedUnion` (Zod then serves `anyOf`; still flattenable). */
  plain?: boolean;
  /** What makes the union impossible to flatten, for the "left as it is" paths. */
  flaw?: 'optional tag' | 'overlapping tags' | 'no tag';
}

type TagStyle = 'single' | 'multi' | 'enum';

/** A value a tag may pin. */
export type TagValue = string | number | boolean | null;

/**
 * Where a union's tag values come from: variant `i` is tagged `firsts[i]`, or with a multi-value literal or
 * an enum `firsts[i]` and `seconds[i]` (single when there is no second). Every value is distinct.
 */
export interface TagPool {
  kind: 'string' | 'number' | 'boolean' | 'mixed';
  firsts: readonly TagValue[];
  seconds: readonly TagValue[];
}

const STRING_POOL: TagPool = { kind: 'string', firsts: ['v0', 'v1', 'v2', 'v3'], seconds: ['w0', 'w1', 'w2', 'w3'] };

/** Eight distinct values, shuffled, split into firsts and seconds. */
const splitPool = (kind: TagPool['kind'], values: readonly TagValue[]): fc.Arbitrary<TagPool> =>
  fc
    .shuffledSubarray([...values], { minLength: values.length, maxLength: values.length })
    .map((all) => ({ kind, firsts: all.slice(0, 4), seconds: all.slice(4) }));

/**
 * Tag values: strings (`v<i>`, `w<i>`) half the time, else numbers (integers, a fraction, a negative),
 * booleans with null (at most three variants, one value each), or a mix of every kind with strings that
 * spell another value (`"1"` beside 1, `"true"` beside true, `"null"` beside null).
 */
export const tagPoolArb: fc.Arbitrary<TagPool> = fc.oneof(
  { weight: 4, arbitrary: fc.constant(STRING_POOL) },
  { weight: 1, arbitrary: splitPool('number', [0, 1, 2, 3, 10, -1, 2.5, 7]) },
  {
    weight: 1,
    arbitrary: fc
      .shuffledSubarray<TagValue>([true, false, null], { minLength: 3, maxLength: 3 })
      .map((firsts): TagPool => ({ kind: 'boolean', firsts, seconds: [] })),
  },
  { weight: 2, arbitrary: splitPool('mixed', ['v0', 1, true, null, '1', 2.5, false, 'null']) },
);

/** The schema of one tag value: `z.null()` for null (Zod writes `{type: "null"}`, no `const`), else a literal. */
function literalGen(value: TagValue): Gen {
  return leafLike(JSON.stringify(value), value === null ? z.null() : z.literal(value), fc.constant(value));
}

/** Variant `i`'s tag in `pool` with `style`: one value, a multi-value literal, or a `z.enum` (string or numeric). */
export function tagGen(pool: TagPool, i: number, style: TagStyle): Gen {
  const first = pool.firsts[i]!;
  const second = pool.seconds[i];
  if (style === 'single' || second === undefined) return literalGen(first);
  const pair: [TagValue, TagValue] = [first, second];
  const values = fc.constantFrom(...pair);
  const label = pair.map((v) => JSON.stringify(v)).join('|');
  if (style === 'enum' && pair.every((v) => typeof v === 'string')) {
    return leafLike(`enum(${label})`, z.enum(pair as [string, string]), values);
  }
  if (style === 'enum' && pair.every((v) => typeof v === 'number')) {
    // A TypeScript numeric enum, as `z.enum` takes it.
    return leafLike(`enum(${label})`, z.enum({ A: pair[0] as number, B: pair[1] as number }), values);
  }
  return leafLike(label, z.literal(pair as [Exclude<TagValue, null>, Exclude<TagValue, null>]), values);
}

/** A discriminated union (or a tagged plain union) of 2-4 object variants, with colliding keys. */
export function discriminatedUnionArb(depth: number, options: UnionOptions = {}): fc.Arbitrary<Gen> {
  if (depth <= 0) return leafArb;
  const key = `du${depth}:${JSON.stringify(options)}`;
  return memo(key, () => {
    const shared = options.shared ?? ['a', 'b', 'c'];
    const unique = options.unique ?? ['d', 'e', 'f'];
    const modes = options.modes ?? ['strip', 'strip', 'strict', 'loose'];
    const variants = 4;
    return fc
      .record({
        tag: options.tag ? fc.constant(options.tag) : fc.constantFrom('kind', 'type', 't', 'op'),
        pool: tagPoolArb,
        count: fc.integer({ min: 2, max: 4 }),
        plain: options.plain === undefined ? fc.boolean() : fc.constant(options.plain),
        styles: fc.array(fc.constantFrom<TagStyle>('single', 'single', 'multi', 'enum'), {
          minLength: variants,
          maxLength: variants,
        }),
        modes: fc.array(fc.constantFrom(...modes), { minLength: variants, maxLength: variants }),
        collisions: fc.uniqueArray(
          fc.tuple(
            fc.constantFrom(...shared),
            collisionArb(depth),
            fc.array(
              fc.tuple(
                fc.boolean(),
                fc.oneof({ weight: 4, arbitrary: modArb }, { weight: 1, arbitrary: fc.constant<Mod>('absent') }),
              ),
              {
                minLength: variants,
                maxLength: variants,
              },
            ),
          ),
          { maxLength: 2, selector: ([name]) => name },
        ),
        own: fc.array(
          fc.uniqueArray(fc.tuple(fc.constantFrom(...unique), genArb(depth - 1), modArb), {
            maxLength: 2,
            selector: ([n]) => n,
          }),
          { minLength: variants, maxLength: variants },
        ),
        nestedAt: options.flaw
          ? fc.constant(-1)
          : fc.oneof(
              { weight: 5, arbitrary: fc.constant(-1) },
              { weight: 1, arbitrary: fc.integer({ min: 0, max: 3 }) },
            ),
      })
      .map((r) => buildUnion(r, options, shared));
  });
}

interface UnionRecord {
  tag: string;
  pool: TagPool;
  count: number;
  plain: boolean;
  styles: TagStyle[];
  modes: Mode[];
  collisions: Array<[string, { kind: string; sides: [Gen, Gen] }, Array<[boolean, Mod]>]>;
  own: Array<Array<[string, Gen, Mod]>>;
  nestedAt: number;
}

function buildUnion(r: UnionRecord, options: UnionOptions, shared: readonly string[]): Gen {
  const { tag, flaw, pool } = { ...r, flaw: options.flaw };
  const count = Math.min(r.count, pool.firsts.length);
  const variants: Gen[] = [];
  const extraPool = [...shared, ...(options.unique ?? ['d', 'e', 'f'])];
  for (let i = 0; i < count; i++) {
    const fields: Field[] = [];
    const tagField = tagFor(pool, i, r.styles[i]!, flaw);
    if (tagField)
      fields.push({ name: tag, gen: tagField, mod: flaw === 'optional tag' && i === 0 ? 'optional' : 'none' });
    for (const [name, collision, picks] of r.collisions) {
      const [side, mod] = picks[i]!;
      if (mod === 'absent') continue;
      fields.push({ name, gen: collision.sides[side ? 1 : 0], mod });
    }
    for (const [name, gen, mod] of r.own[i]!) if (!fields.some((f) => f.name === name)) fields.push({ name, gen, mod });
    const mode = r.modes[i]!;
    const label = `${mode} {${fields.map((f) => `${f.name}${f.mod === 'none' ? '' : `(${f.mod})`}: ${f.gen.label}`).join(', ')}}`;
    if (i === r.nestedAt && !r.plain) {
      // A variant that is itself a union on the same tag (Zod allows it): split it in two.
      const sub = [0, 1].map((j) =>
        objectGen(
          [
            {
              name: tag,
              gen: leafLike(`"v${i}_${j}"`, z.literal(`v${i}_${j}`), fc.constant(`v${i}_${j}`)),
              mod: 'none',
            },
            ...fields.slice(1),
          ],
          mode,
          extraPool,
          label,
        ),
      );
      const nested = z.discriminatedUnion(tag, sub.map((s) => s.schema) as [z.ZodObject, z.ZodObject]);
      variants.push({
        ...sub[0]!,
        schema: nested,
        value: fc.oneof(sub[0]!.value, sub[1]!.value),
        unionDepth: sub[0]!.unionDepth + 1,
      });
    } else variants.push(objectGen(fields, mode, extraPool, label));
  }
  const options_ = variants.map((v) => v.schema) as [z.ZodObject, z.ZodObject, ...z.ZodObject[]];
  const discriminated = !r.plain && flaw !== 'overlapping tags' && flaw !== 'no tag';
  const schema = discriminated ? z.discriminatedUnion(tag, options_) : z.union(options_);
  const flawed = flaw !== undefined || r.collisions.some(([, c]) => c.kind === 'object unions');
  return {
    schema,
    value: fc.oneof(...variants.map((v) => v.value)),
    label: `${flaw ? `${flaw} ` : ''}${discriminated ? 'discriminatedUnion' : 'union'}(${tag}: ${pool.kind})[${variants.map((v) => v.label).join(' | ')}]`,
    flattenableOnly: !flawed && variants.every((v) => v.flattenableOnly),
    unionDepth: 1 + Math.max(...variants.map((v) => v.unionDepth)),
  };
}

function tagFor(pool: TagPool, i: number, style: TagStyle, flaw: UnionOptions['flaw']): Gen | undefined {
  if (flaw === 'no tag') return undefined;
  // Variant 1 pins variant 0's value: the tag does not select one variant.
  if (flaw === 'overlapping tags') return literalGen(pool.firsts[i === 1 ? 0 : i]!);
  return tagGen(pool, i, style);
}

/** Unions the projection must leave as they are (and report), plus a string-or-union mixed union. */
function flawedUnionArb(depth: number): fc.Arbitrary<Gen> {
  return memo(`flawed${depth}`, () =>
    fc.oneof(
      discriminatedUnionArb(depth, { flaw: 'optional tag' }),
      discriminatedUnionArb(depth, { flaw: 'overlapping tags' }),
      discriminatedUnionArb(depth, { flaw: 'no tag' }),
      discriminatedUnionArb(depth).map(
        (du): Gen => ({
          schema: z.union([z.string(), du.schema]),
          value: fc.oneof(smallString, du.value),
          label: `string | ${du.label}`,
          flattenableOnly: false,
          unionDepth: du.unionDepth + 1,
        }),
      ),
    ),
  );
}

/**
 * Intersections: object & union (Zod distributes it), union & union and object & record (Zod serves
 * `allOf`). Strict sides included: Zod refuses a key only when no side recognises it, so a strict side
 * must not make the served `allOf` refuse the other side's keys.
 */
function intersectionArb(depth: number): fc.Arbitrary<Gen> {
  return memo(`intersection${depth}`, () => {
    const left = discriminatedUnionArb(depth - 1 || 1, { modes: ['strip', 'strict'], tag: 'kind' });
    const right = discriminatedUnionArb(depth - 1 || 1, {
      modes: ['strip', 'strict'],
      tag: 'mode',
      shared: ['m1', 'm2'],
      unique: ['m3', 'm4'],
    });
    const value = fc.record({ p1: smallString, p2: finite() }, { requiredKeys: ['p1'] });
    const shape = { p1: z.string(), p2: z.number().optional() };
    const objects = fc.constantFrom(
      leafLike('object{p1, p2?}', z.object(shape), value),
      leafLike('strict object{p1, p2?}', z.strictObject(shape), value),
    );
    const record = leafLike(
      'record<r*, number>',
      z.record(z.string().regex(/^r/), z.number()),
      fc.dictionary(fc.constantFrom('r1', 'r2'), finite(), { maxKeys: 2, noNullPrototype: true }),
    );
    return fc.oneof(fc.tuple(objects, left), fc.tuple(left, right), fc.tuple(objects, fc.constant(record))).map(
      ([a, b]): Gen => ({
        schema: z.intersection(a.schema, b.schema),
        value: fc.tuple(a.value, b.value).map(([x, y]) => ({ ...(x as object), ...(y as object) })),
        label: `${a.label} & ${b.label}`,
        flattenableOnly: a.flattenableOnly && b.flattenableOnly,
        unionDepth: Math.max(a.unionDepth, b.unionDepth),
      }),
    );
  });
}

let reusedIds = 0;

/** A union given an id (`.meta({ id })`), used twice, so Zod serves it from `$defs`. */
function reusedArb(depth: number): fc.Arbitrary<Gen> {
  return memo(`reused${depth}`, () =>
    discriminatedUnionArb(depth - 1 || 1).map((g): Gen => {
      const shared = g.schema.meta({ id: `PropertyReused${reusedIds++}` });
      return {
        ...g,
        schema: z.object({ r1: shared, r2: z.array(shared).max(2) }),
        value: fc.record({ r1: g.value, r2: fc.array(g.value, { maxLength: 2 }) }),
        label: `reused ${g.label}`,
      };
    }),
  );
}

/** A union whose first variant holds a union, `depth` levels deep: deep nesting on every run. */
export function deepUnionArb(depth: number): fc.Arbitrary<Gen> {
  if (depth <= 1) return discriminatedUnionArb(1);
  return memo(`deep${depth}`, () =>
    fc
      .tuple(
        deepUnionArb(depth - 1),
        discriminatedUnionArb(1),
        fc.boolean(),
        fc.constantFrom('kind', 'type', 't', 'op'),
      )
      .map(([inner, other, asArray, tag]): Gen => {
        const field = asArray
          ? child(inner, z.array(inner.schema).max(2), fc.array(inner.value, { maxLength: 2 }), `array<${inner.label}>`)
          : inner;
        const a = objectGen(
          [
            { name: tag, gen: leafLike('"deep"', z.literal('deep'), fc.constant('deep')), mod: 'none' },
            { name: 'inner', gen: field, mod: 'none' },
          ],
          'strip',
          [],
          'deep variant',
        );
        const b = objectGen(
          [
            { name: tag, gen: leafLike('"flat"', z.literal('flat'), fc.constant('flat')), mod: 'none' },
            { name: 'inner', gen: other, mod: 'none' },
          ],
          'strict',
          [],
          'flat variant',
        );
        return {
          schema: z.discriminatedUnion(tag, [a.schema as z.ZodObject, b.schema as z.ZodObject]),
          value: fc.oneof(a.value, b.value),
          label: `deep(${depth})[${inner.label}]`,
          flattenableOnly: inner.flattenableOnly && other.flattenableOnly,
          unionDepth: 1 + Math.max(inner.unionDepth, other.unionDepth),
        };
      }),
  );
}

/** A root worth serving: mostly objects and unions, sometimes a deep spine. */
export function rootArb(depth = 4): fc.Arbitrary<Gen> {
  return memo(`root${depth}`, () =>
    fc.oneof(
      { weight: 4, arbitrary: discriminatedUnionArb(depth) },
      { weight: 2, arbitrary: objectArb(depth) },
      { weight: 1, arbitrary: deepUnionArb(depth) },
      { weight: 1, arbitrary: flawedUnionArb(depth) },
      { weight: 1, arbitrary: intersectionArb(depth) },
      { weight: 1, arbitrary: genArb(depth) },
    ),
  );
}

/** A schema and `count` candidate values (JSON round-tripped; confirm each with `safeParse`). */
export function zodCaseArb(
  options: { depth?: number; values?: number } = {},
): fc.Arbitrary<{ gen: Gen; values: unknown[] }> {
  const count = options.values ?? 8;
  return rootArb(options.depth ?? 4).chain((gen) =>
    fc
      .array(gen.value, { minLength: count, maxLength: count })
      .map((values) => ({ gen, values: values.map((v) => JSON.parse(JSON.stringify(v ?? null))) })),
  );
}
