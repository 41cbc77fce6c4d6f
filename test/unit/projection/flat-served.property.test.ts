/**
 * What `flat` serves beyond the flatten (ADR 0018), by property: for random recursive Zod schemas (a node
 * whose fields are scalar unions, nullable and optional fields, discriminated unions tagged by booleans,
 * numbers, null and strings, and children by array, optional key or record) and random values the ORIGINAL
 * accepts, the served `flat` document accepts every such value (the superset invariant, at every depth, past
 * the unrolling too); it carries no `$ref` and no `anyOf`, `oneOf` or `allOf` at all, and it types every
 * level down to the unrolling depth.
 *
 * Fixed seed; FLAT_SERVED_PROPERTY_SEED=<n> explores others. 150 schemas, scaled by MCP_MOUNT_PROPERTY_RUNS.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FLAT_RECURSION_DEPTH, servedFlat } from '../../../src/core/projection/flat-served.js';
import { flattenWithReport } from '../../../src/core/projection/flatten.js';
import { collapseNullable, inlineRefs } from '../../../src/core/projection/index.js';
import { propertyRuns } from '../../support/property-runs.js';
import { toJson } from './helpers.js';

z.config({ jitless: true });
const ajv = new Ajv2020({ strict: false, validateFormats: false, code: { optimize: false } });
const SEED = Number(process.env.FLAT_SERVED_PROPERTY_SEED ?? 20261202);

/** A field kind: its Zod schema and values of it (and some that are not). */
interface Field {
  schema: z.ZodType;
  value: fc.Arbitrary<unknown>;
}
const FIELDS: Field[] = [
  { schema: z.union([z.string(), z.array(z.string())]), value: fc.oneof(fc.string(), fc.array(fc.string())) },
  { schema: z.union([z.number(), z.string().min(2)]), value: fc.oneof(fc.double({ noNaN: true }), fc.string()) },
  { schema: z.union([z.literal('on'), z.boolean()]), value: fc.constantFrom<unknown>('on', 'off', true, false, 1) },
  { schema: z.union([z.int(), z.array(z.int()).max(3)]), value: fc.oneof(fc.integer(), fc.array(fc.integer())) },
  { schema: z.enum(['a', 'b']).or(z.null()), value: fc.constantFrom<unknown>('a', 'b', null, 'c') },
  { schema: z.string().nullable().optional(), value: fc.option(fc.string()) },
  // Discriminated unions tagged by booleans, and by a number or a string, null and a fraction.
  {
    schema: z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), data: z.string() }),
      z.object({ ok: z.literal(false), error: z.number() }),
    ]),
    value: fc.oneof(
      fc.record({ ok: fc.constant(true), data: fc.string() }),
      fc.record({ ok: fc.constant(false), error: fc.double({ noNaN: true, noDefaultInfinity: true }) }),
      fc.record({ ok: fc.constantFrom<unknown>('true', 1, null), data: fc.string() }),
    ),
  },
  {
    schema: z.discriminatedUnion('t', [
      z.object({ t: z.literal([1, 'one']), n: z.number() }),
      z.object({ t: z.null(), s: z.array(z.string()) }),
      z.object({ t: z.literal(2.5) }),
    ]),
    value: fc.oneof(
      fc.record({ t: fc.constantFrom<unknown>(1, 'one'), n: fc.integer() }),
      fc.record({ t: fc.constant(null), s: fc.array(fc.string(), { maxLength: 2 }) }),
      fc.record({ t: fc.constantFrom<unknown>(2.5, '1', 'null') }),
    ),
  },
];

type Children = 'array' | 'optional' | 'record';

/** A recursive node schema: `fields` by name, children as `children`. */
function nodeSchema(fields: Field[], children: Children): z.ZodType {
  const shape: Record<string, z.ZodType> = {};
  for (const [i, f] of fields.entries()) shape[`f${i}`] = f.schema;
  const node: z.ZodType = z.lazy(() =>
    z.object({
      ...shape,
      children:
        children === 'array' ? z.array(node) : children === 'optional' ? node.optional() : z.record(z.string(), node),
    }),
  );
  return node;
}

/** Values shaped like the node (some the schema refuses: the property keeps only what Zod accepts). */
function nodeValue(fields: Field[], children: Children, depth: number): fc.Arbitrary<unknown> {
  const own = fc.tuple(...fields.map((f) => f.value));
  if (depth === 0) {
    const leaf = children === 'array' ? [] : children === 'record' ? {} : undefined;
    return own.map((vs) => withFields(vs, leaf));
  }
  const child = nodeValue(fields, children, depth - 1);
  const kids =
    children === 'array'
      ? fc.array(child, { maxLength: 2 })
      : children === 'record'
        ? fc.dictionary(fc.constantFrom('x', 'y'), child, { maxKeys: 2 })
        : fc.option(child, { nil: undefined });
  return fc.tuple(own, kids).map(([vs, k]) => withFields(vs, k));
}

function withFields(values: unknown[], children: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [i, v] of values.entries()) if (v !== undefined) out[`f${i}`] = v;
  if (children !== undefined) out.children = children;
  return out;
}

const caseArb = fc
  .record({
    fields: fc.subarray(FIELDS, { minLength: 1 }),
    children: fc.constantFrom<Children>('array', 'optional', 'record'),
    depth: fc.integer({ min: 0, max: FLAT_RECURSION_DEPTH + 3 }),
  })
  .chain(({ fields, children, depth }) =>
    fc
      .array(nodeValue(fields, children, depth), { minLength: 8, maxLength: 8 })
      .map((values) => ({ fields, children, values })),
  );

/** The served `flat` document of `z.object({ root: node })`, as the mount computes it for one slice. */
function servedOf(schema: z.ZodType): Record<string, unknown> {
  const inlined = inlineRefs(toJson(schema)).schema;
  return servedFlat(collapseNullable(flattenWithReport(inlined).schema) as Record<string, unknown>);
}

describe('the served flat document of recursive schemas with scalar unions', () => {
  it(`accepts every value the original accepts, with no $ref and no combinator left (seed ${SEED})`, () => {
    let pairs = 0;
    fc.assert(
      fc.property(caseArb, ({ fields, children, values }) => {
        const original = z.object({ root: nodeSchema(fields, children) });
        const served = servedOf(original);
        const text = JSON.stringify(served);
        expect(text).not.toContain('"$ref"');
        expect(text).not.toMatch(/"(anyOf|oneOf|allOf)"/);
        const validate = ajv.compile(served);
        ajv.removeSchema(served);
        for (const root of values) {
          if (!original.safeParse({ root }).success) continue;
          pairs++;
          if (!validate({ root })) {
            throw new Error(
              `superset broken\nvalue: ${JSON.stringify(root)}\nerrors: ${JSON.stringify(validate.errors)}\nserved: ${text}`,
            );
          }
        }
      }),
      { seed: SEED, numRuns: propertyRuns(150, 30) },
    );
    console.log(`[flat served property] ${JSON.stringify({ schemas: propertyRuns(150, 30), pairs })}`);
    expect(pairs).toBeGreaterThan(50);
  });

  it('types every level down to the unrolling depth, and leaves the level below it open', () => {
    const served = servedOf(z.object({ root: nodeSchema([FIELDS[0]!], 'array') }));
    let node = (served.properties as Record<string, any>).root;
    for (let level = 0; level < FLAT_RECURSION_DEPTH; level++) {
      expect(node.properties.f0, `level ${level}`).toEqual({ type: ['string', 'array'], items: { type: 'string' } });
      node = node.properties.children.items;
    }
    expect(node).toEqual({ type: 'object' });
  });
});
