/**
 * Arbitraries for the typed join's hard cases, all built from typed parts only (no `z.unknown()`, no loose
 * objects), so that any untyped node in the served document is one the projection introduced:
 * - `deepCollisionArb(depth)`: a discriminated union whose variants give the same keys shapes that differ
 *   at depths 2 and 3 (objects of different keys, arrays of different items, tuples, records, mixed
 *   object/scalar unions, nullable);
 * - `untaggedArb(depth)`: a plain union of objects that share no would-be tag;
 * - `typedRootArb(depth)`: either, or an object holding them as fields, array items or record values.
 * Values are built to match the schema; confirm each with `safeParse`.
 */
import fc from 'fast-check';
import { z } from 'zod';
import { type Field, type Gen, LEAVES, type Mod, type Mode, objectGen, tagGen, tagPoolArb } from './arbitraries.js';

// The recursive leaf's `$ref` is a union member no join can merge: the typed join's cases leave it out.
const TYPED_LEAVES = LEAVES.filter((l) => l.label !== 'unknown' && l.label !== 'recursive tree');
const typedLeafArb = fc.constantFrom(...TYPED_LEAVES);
/** Typed leaves that pin no value, so a key holding one is never a would-be tag. */
const FREE_LEAVES = TYPED_LEAVES.filter((l) => !l.label.startsWith('literal') && !l.label.startsWith('enum'));

/** Keys shapes are built from: few, so that two independent shapes collide on some of them. */
const SHAPE_KEYS = ['p', 'q', 'r'];
const strictOrStrip = fc.constantFrom<Mode>('strip', 'strip', 'strict');
const fieldMod = fc.constantFrom<Mod>('none', 'none', 'none', 'optional', 'nullable');

const cache = new Map<string, fc.Arbitrary<Gen>>();
function memo(key: string, build: () => fc.Arbitrary<Gen>): fc.Arbitrary<Gen> {
  let arb = cache.get(key);
  if (!arb) {
    arb = build();
    cache.set(key, arb);
  }
  return arb;
}

const typed = (g: Gen, schema: z.ZodType, value: fc.Arbitrary<unknown>, label: string): Gen => ({
  schema,
  value,
  label,
  flattenableOnly: g.flattenableOnly,
  unionDepth: g.unionDepth,
});

/** A typed shape nested up to `depth` levels: objects, arrays, tuples, records, mixed and untagged unions. */
export function shapeArb(depth: number): fc.Arbitrary<Gen> {
  if (depth <= 0) return typedLeafArb;
  return memo(`shape${depth}`, () =>
    fc.oneof(
      { weight: 2, arbitrary: typedLeafArb },
      { weight: 4, arbitrary: shapeObjectArb(depth) },
      {
        weight: 2,
        arbitrary: shapeArb(depth - 1).map((g) =>
          typed(g, z.array(g.schema).max(3), fc.array(g.value, { maxLength: 3 }), `array<${g.label}>`),
        ),
      },
      {
        weight: 1,
        arbitrary: fc.tuple(shapeArb(depth - 1), shapeArb(depth - 1)).map(([a, b]) => ({
          ...typed(a, z.tuple([a.schema, b.schema]), fc.tuple(a.value, b.value), `tuple[${a.label}, ${b.label}]`),
          flattenableOnly: a.flattenableOnly && b.flattenableOnly,
        })),
      },
      {
        weight: 1,
        arbitrary: shapeArb(depth - 1).map((g) =>
          typed(
            g,
            z.record(z.string(), g.schema),
            fc.dictionary(fc.constantFrom('k1', 'k2'), g.value, { maxKeys: 2, noNullPrototype: true }),
            `record<${g.label}>`,
          ),
        ),
      },
      {
        weight: 1,
        arbitrary: fc.tuple(typedLeafArb, shapeObjectArb(depth)).map(
          ([scalar, object]): Gen => ({
            schema: z.union([scalar.schema, object.schema]),
            value: fc.oneof(scalar.value, object.value),
            label: `${scalar.label} | ${object.label}`,
            flattenableOnly: object.flattenableOnly,
            unionDepth: object.unionDepth + 1,
          }),
        ),
      },
      { weight: 1, arbitrary: untaggedArb(depth) },
    ),
  );
}

function shapeObjectArb(depth: number): fc.Arbitrary<Gen> {
  return memo(`shapeObject${depth}`, () =>
    fc
      .tuple(
        fc.uniqueArray(fc.tuple(fc.constantFrom(...SHAPE_KEYS), shapeArb(depth - 1), fieldMod), {
          minLength: 1,
          maxLength: 3,
          selector: ([name]) => name,
        }),
        strictOrStrip,
      )
      .map(([fields, mode]) =>
        objectGen(
          fields.map(([name, gen, mod]): Field => ({ name, gen, mod })),
          mode,
          [],
          `${mode} {${fields.map(([n, g]) => `${n}: ${g.label}`).join(', ')}}`,
        ),
      ),
  );
}

/**
 * A plain union of 2 or 3 objects with no would-be tag: each member has keys of its own (`u0a`, `u1b`, ...)
 * and may share `shared`, which never pins a value.
 */
export function untaggedArb(depth: number): fc.Arbitrary<Gen> {
  return memo(`untagged${depth}`, () =>
    fc
      .array(
        fc.record({
          own: fc.uniqueArray(fc.tuple(fc.constantFrom('a', 'b'), shapeArb(depth - 1), fieldMod), {
            minLength: 1,
            maxLength: 2,
            selector: ([n]) => n,
          }),
          shared: fc.option(fc.constantFrom(...FREE_LEAVES), { nil: undefined }),
          mode: strictOrStrip,
        }),
        { minLength: 2, maxLength: 3 },
      )
      .map((members): Gen => {
        const objects = members.map((m, i) => {
          const fields: Field[] = m.own.map(([n, gen, mod]) => ({ name: `u${i}${n}`, gen, mod }));
          if (m.shared) fields.push({ name: 'shared', gen: m.shared, mod: 'none' });
          return objectGen(fields, m.mode, [], `${m.mode} {${fields.map((f) => f.name).join(', ')}}`);
        });
        return {
          schema: z.union(objects.map((o) => o.schema) as [z.ZodType, z.ZodType, ...z.ZodType[]]),
          value: fc.oneof(...objects.map((o) => o.value)),
          label: `untagged(${objects.map((o) => o.label).join(' | ')})`,
          flattenableOnly: objects.every((o) => o.flattenableOnly),
          unionDepth: 1 + Math.max(...objects.map((o) => o.unionDepth)),
        };
      }),
  );
}

/**
 * A discriminated union on `kind` of 2 or 3 variants that each give the keys `s1` and `s2` an independent
 * shape (so they collide at depth 2 and 3), plus a key of their own; tagged by strings, numbers, booleans,
 * null or a mix (`tagPoolArb`).
 */
export function deepCollisionArb(depth: number): fc.Arbitrary<Gen> {
  return memo(`deepCollision${depth}`, () =>
    fc
      .tuple(
        fc.array(
          fc.record({
            s1: shapeArb(depth),
            s2: fc.option(shapeArb(depth - 1), { nil: undefined }),
            own: shapeArb(depth - 1),
            mod: fieldMod,
            mode: strictOrStrip,
          }),
          { minLength: 2, maxLength: 3 },
        ),
        tagPoolArb,
      )
      .map(([variants, pool]): Gen => {
        const objects = variants.map((v, i) => {
          const fields: Field[] = [
            { name: 'kind', gen: tagGen(pool, i, 'single'), mod: 'none' },
            { name: 's1', gen: v.s1, mod: v.mod },
            { name: `own${i}`, gen: v.own, mod: 'none' },
          ];
          if (v.s2) fields.push({ name: 's2', gen: v.s2, mod: 'none' });
          return objectGen(
            fields,
            v.mode,
            [],
            `${v.mode} {${fields.map((f) => `${f.name}: ${f.gen.label}`).join(', ')}}`,
          );
        });
        return {
          schema: z.discriminatedUnion(
            'kind',
            objects.map((o) => o.schema) as [z.ZodObject, z.ZodObject, ...z.ZodObject[]],
          ),
          value: fc.oneof(...objects.map((o) => o.value)),
          label: `deepCollision(kind: ${pool.kind})[${objects.map((o) => o.label).join(' | ')}]`,
          flattenableOnly: objects.every((o) => o.flattenableOnly),
          unionDepth: 1 + Math.max(...objects.map((o) => o.unionDepth)),
        };
      }),
  );
}

/** A root of typed parts only: a deep collision or an untagged union, alone or inside an object. */
export function typedRootArb(depth = 3): fc.Arbitrary<Gen> {
  return memo(`typedRoot${depth}`, () => {
    const union = fc.oneof(
      { weight: 3, arbitrary: deepCollisionArb(depth) },
      { weight: 2, arbitrary: untaggedArb(depth) },
    );
    return fc.oneof(
      { weight: 3, arbitrary: union },
      {
        weight: 2,
        arbitrary: fc.tuple(union, fc.constantFrom('field', 'items', 'record')).map(([g, where]): Gen => {
          const inner =
            where === 'field'
              ? { schema: g.schema, value: g.value }
              : where === 'items'
                ? { schema: z.array(g.schema).max(2), value: fc.array(g.value, { maxLength: 2 }) }
                : {
                    schema: z.record(z.string(), g.schema),
                    value: fc.dictionary(fc.constantFrom('k1', 'k2'), g.value, { maxKeys: 2, noNullPrototype: true }),
                  };
          return {
            ...g,
            schema: z.object({ f: inner.schema }),
            value: fc.record({ f: inner.value }),
            label: `{ f: ${where} of ${g.label} }`,
          };
        }),
      },
    );
  });
}
