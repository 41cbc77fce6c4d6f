/**
 * Repair never changes the outcome of a call that is already valid, in particular inside plain
 * unions, where a member that ignores a key (strip mode) or keeps it as it is (loose mode, a
 * string field) must not lose to a member that a repair would make win.
 *
 * Unlike properties.test.ts (values built valid for one chosen member), values here are built
 * loosely: keys from a small shared pool, members mixed together, strings that look like numbers,
 * booleans, null or JSON dropped anywhere. Only the values Zod already accepts are kept; for those,
 * the one Zod parse after repair must give exactly what the parse of the value as sent gives.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { repairArgs } from '../../../src/core/repair/index.js';
import { propertyRuns } from '../../support/property-runs.js';
import { type Spec, type SpecField, TAG_POOL, tagOf, toZod } from '../../support/zod-specs.js';

/** A small key pool, so members of a union share and miss each other's keys. */
const KEYS = ['a', 'b', 'c'];

const uArb: fc.Arbitrary<Spec> = fc.letrec<{ u: Spec; obj: Spec; union: Spec }>((tie) => {
  const u = tie('u') as fc.Arbitrary<Spec>;
  const obj = tie('obj') as fc.Arbitrary<Spec>;
  const union = tie('union') as fc.Arbitrary<Spec>;
  const fields = fc
    .uniqueArray(fc.constantFrom(...KEYS), { maxLength: 3 })
    .chain((names) =>
      fc
        .tuple(...names.map((name) => fc.record({ name: fc.constant(name), spec: u, optional: fc.boolean() })))
        .map((f) => [...f]),
    );
  return {
    obj: fc.record({ t: fc.constant('object' as const), fields, mode: fc.constantFrom('strip', 'strict', 'loose') }),
    union: fc.record({
      t: fc.constant('union' as const),
      members: fc.array(fc.oneof({ weight: 3, arbitrary: obj }, { weight: 1, arbitrary: u }), {
        minLength: 2,
        maxLength: 3,
      }),
    }),
    u: fc.oneof<fc.Arbitrary<Spec>[]>(
      { maxDepth: 3, depthIdentifier: 'u' },
      fc.constant({ t: 'string' as const }),
      fc.constant({ t: 'number' as const }),
      fc.constant({ t: 'int' as const }),
      fc.constant({ t: 'boolean' as const }),
      fc.constant({ t: 'null' as const }),
      fc.constant({ t: 'unknown' as const }),
      fc.record({
        t: fc.constant('literal' as const),
        value: fc.constantFrom<string | number | boolean>('x', 5, true),
      }),
      fc.record({ t: fc.constant('nullable' as const), inner: u }),
      fc.record({ t: fc.constant('array' as const), item: u }),
      fc.record({ t: fc.constant('tuple' as const), items: fc.array(u, { minLength: 1, maxLength: 2 }) }),
      fc.record({
        t: fc.constant('record' as const),
        value: u,
        keys: fc.constantFrom('string' as const, 'enum' as const, 'looseEnum' as const, 'min' as const),
      }),
      obj,
      union,
      union,
      // A discriminated union tagged by strings, numbers, booleans and null, some strings spelling another
      // tag ("1" beside 1): a valid tag must never be converted to another.
      fc
        .array(fields, { minLength: 2, maxLength: 3 })
        .chain((variants) =>
          fc
            .shuffledSubarray([...TAG_POOL], { minLength: variants.length, maxLength: variants.length })
            .map((tags): Spec => ({ t: 'du', variants, tags })),
        ),
      fc.record({ t: fc.constant('intersection' as const), left: fc.oneof(obj, union), right: obj }),
    ),
  };
}).union;

/** Values a sender might put anywhere: text that repair could turn into a number, boolean, null, list or object. */
const tricky: fc.Arbitrary<unknown> = fc.constantFrom<unknown>(
  '5',
  '-1.5',
  'true',
  'false',
  'null',
  '[1]',
  '["x"]',
  '{"a":"5"}',
  '{}',
  '[]',
  'x',
  5,
  1.5,
  true,
  null,
  [],
  {},
  ['5'],
  { a: '5' },
);

/** A value shaped roughly like `spec`: often right, sometimes a tricky value in its place. */
function loose(spec: Spec): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 3, arbitrary: shaped(spec) }, { weight: 1, arbitrary: tricky });
}

function objectOf(fields: SpecField[]): fc.Arbitrary<Record<string, unknown>> {
  const parts = fields.map((f) =>
    fc.option(loose(f.spec), { nil: undefined, freq: 4 }).map((v) => [f.name, v] as const),
  );
  const extra = fc.dictionary(fc.constantFrom(...KEYS), tricky, { maxKeys: 2 });
  return fc.tuple(fc.tuple(...parts), fc.oneof(fc.constant({}), extra)).map(([entries, rest]) => {
    const out: Record<string, unknown> = { ...rest };
    for (const [k, v] of entries) if (v !== undefined) out[k] = v;
    return out;
  });
}

function shaped(spec: Spec): fc.Arbitrary<unknown> {
  switch (spec.t) {
    case 'string':
      return fc.constantFrom('x', '5', 'true', 'null', '[1]', '{"a":1}');
    case 'number':
      return fc.constantFrom(0, 5, -1.5);
    case 'int':
      return fc.constantFrom(0, 5, -7);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'literal':
      return fc.constant(spec.value);
    case 'unknown':
      return tricky;
    case 'nullable':
      return fc.oneof(fc.constant(null), loose(spec.inner));
    case 'array':
      return fc.array(loose(spec.item), { maxLength: 2 });
    case 'tuple':
      return fc.tuple(...spec.items.map(loose)).map((t) => [...t]);
    case 'record':
      return fc.dictionary(fc.constantFrom(...KEYS, 'bb'), loose(spec.value), { maxKeys: 2 });
    case 'object':
      return objectOf(spec.fields);
    case 'union': {
      const one = fc.oneof(...spec.members.map(loose));
      // Two members' keys in one object: the case where one member ignores what another would repair.
      const mixed = fc
        .tuple(one, one)
        .map(([x, y]) =>
          typeof x === 'object' &&
          x !== null &&
          !Array.isArray(x) &&
          typeof y === 'object' &&
          y !== null &&
          !Array.isArray(y)
            ? { ...y, ...x }
            : x,
        );
      return fc.oneof(one, mixed);
    }
    case 'du': {
      // The variant's own tag, or another's, or the text of one ("1" for 1), or something tricky.
      const tags = spec.variants.map((_, i) => tagOf(spec, i));
      const tag = fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom(...tags) },
        { weight: 1, arbitrary: fc.constantFrom(...tags.map((t) => (t === null ? 'null' : String(t)))) },
        { weight: 1, arbitrary: tricky },
      );
      return fc
        .tuple(fc.integer({ min: 0, max: spec.variants.length - 1 }), tag)
        .chain(([i, kind]) => objectOf(spec.variants[i]!).map((o) => ({ ...o, kind })));
    }
    case 'intersection':
      return fc
        .tuple(shaped(spec.left), shaped(spec.right))
        .map(([x, y]) => (typeof x === 'object' && typeof y === 'object' ? { ...(y as object), ...(x as object) } : x));
    default:
      throw new Error(`uArb generates no ${spec.t}`);
  }
}

const caseArb = uArb.chain((spec) => shaped(spec).map((value) => ({ spec, value })));

describe('repair never changes the outcome of an already-valid value', () => {
  it('a union member that ignores the key (strip mode) keeps a string another member would convert', () => {
    const s = z.object({ who: z.union([z.object({ id: z.number() }), z.object({ name: z.string() })]) });
    const v = { who: { id: '5', name: 'bob' } };
    const r = repairArgs(v, s);
    expect(r.value).toBe(v);
    expect(r.repairs).toEqual([]);
    expect(s.parse(r.value)).toEqual({ who: { name: 'bob' } });
    // The same for JSON text, and for a loose member that keeps the key as sent.
    const j = z.union([z.object({ items: z.array(z.number()) }), z.looseObject({ name: z.string() })]);
    const jv = { items: '[1]', name: 'x' };
    expect(repairArgs(jv, j).value).toBe(jv);
    expect(j.parse(repairArgs(jv, j).value)).toEqual({ items: '[1]', name: 'x' });
  });

  it('still repairs where every member that could take the value needs the repair', () => {
    const s = z.object({ who: z.union([z.object({ id: z.number() }), z.object({ name: z.string() })]) });
    const r = repairArgs({ who: { id: '5' } }, s); // no name: the second member cannot parse it
    expect(r.repairs).toEqual([{ path: 'who.id', from: 'number-string' }]);
    expect(s.parse(r.value)).toEqual({ who: { id: 5 } });
    const both = z.union([z.object({ id: z.number(), a: z.string() }), z.object({ id: z.number(), b: z.string() })]);
    expect(repairArgs({ id: '5', a: 'x' }, both).value).toEqual({ id: 5, a: 'x' });
  });

  it('a strict side of an intersection is not judged alone: Zod forgives a key another side does not refuse', () => {
    const u = z.union([
      z.looseObject({ a: z.tuple([z.boolean()]) }),
      z.intersection(z.strictObject({}), z.object({ a: z.unknown().optional() })),
    ]);
    const v = { a: '[1]' };
    expect(u.parse(v)).toEqual({ a: '[1]' });
    expect(repairArgs(v, u).value).toBe(v);
    // And the key the other side owns is repaired for that side.
    const i = z.intersection(z.strictObject({}), z.object({ a: z.number() }));
    const r = repairArgs({ a: '5' }, i);
    expect(r.repairs).toEqual([{ path: 'a', from: 'number-string' }]);
    expect(i.parse(r.value)).toEqual({ a: 5 });
  });

  it("a loose record passes a key its key schema refuses through as sent, so that key's value is not repaired", () => {
    const s = z.object({ r: z.looseRecord(z.enum(['a']), z.number()) });
    const v = { r: { a: 1, b: '5' } };
    expect(repairArgs(v, s).value).toBe(v);
    expect(s.parse(repairArgs(v, s).value)).toEqual({ r: { a: 1, b: '5' } });
    expect(repairArgs({ r: { a: '1', b: '5' } }, s).value).toEqual({ r: { a: 1, b: '5' } });
  });

  it('an intersection side that ignores the key leaves the decision to the other side (unchanged)', () => {
    const s = z.intersection(z.object({ id: z.number() }), z.object({ name: z.string() }));
    const r = repairArgs({ id: '5', name: 'bob' }, s);
    expect(r.repairs).toEqual([{ path: 'id', from: 'number-string' }]);
    expect(s.parse(r.value)).toEqual({ id: 5, name: 'bob' });
  });

  it('random unions: the parse after repair equals the parse of the value as sent, and nothing is repaired', () => {
    const runs = propertyRuns(2000); // MCP_MOUNT_PROPERTY_RUNS: test/support/property-runs.ts
    let valid = 0;
    let withStrings = 0;
    fc.assert(
      fc.property(caseArb, ({ spec, value }) => {
        const schema = toZod(spec);
        const before = schema.safeParse(value);
        fc.pre(before.success);
        valid++;
        if (/"(?:5|-1\.5|true|false|null|\[|\{)/.test(JSON.stringify(value))) withStrings++;
        const r = repairArgs(value, schema);
        expect(schema.parse(r.value)).toEqual(before.data);
        expect(r.repairs).toEqual([]);
        expect(r.value).toBe(value);
      }),
      { seed: 20_260_801, numRuns: runs, maxSkipsPerRun: 1000 },
    );
    expect(valid).toBe(runs);
    // Most valid values hold a string that repair could have turned into something else.
    expect(withStrings).toBeGreaterThan(runs / 4);
  });
});
