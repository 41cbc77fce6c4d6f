/**
 * The superset invariant, by property: for random Zod schemas (unions nested up to 4 deep, with every
 * collision kind, tagged by strings, numbers, booleans, null or a mix, plus typed-only schemas whose
 * variants collide at depths 2 and 3 and untagged unions)
 * and values the ORIGINAL schema accepts, the served document (inline refs, then flatten) accepts every
 * such value. Also: no flattenable union leaves a `oneOf`/`anyOf`, every union left is reported at its
 * pointer, the structural rules clients rely on hold (every node with properties is typed object, every
 * array has items), and a schema whose every position is typed is served with every position typed (no
 * untyped node introduced).
 *
 * Fixed seed. FLATTEN_PROPERTY_PAIRS=<n> tries about n schema x value pairs (100000 for the long run);
 * FLATTEN_PROPERTY_RUNS=<n> sets the number of schemas directly (each with 12 values);
 * FLATTEN_PROPERTY_SEED=<n> explores other schemas. Otherwise 200 schemas, scaled by MCP_MOUNT_PROPERTY_RUNS
 * (test/support/property-runs.ts).
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { forEachSubschema } from '../../../src/core/json-schema/keywords.js';
import { isPlainObject } from '../../../src/core/json-schema/types.js';
import { flattenWithReport } from '../../../src/core/projection/flatten.js';
import { inlineRefs, relaxIntersections } from '../../../src/core/projection/index.js';
import { propertyRuns } from '../../support/property-runs.js';
import { type Gen, rootArb } from './arbitraries.js';
import { typedRootArb } from './deep-arbitraries.js';
import { at, converted, pointersWith, unionsIn } from './helpers.js';

// Speed only, same semantics: every schema here is parsed a few times, so Zod's JIT and Ajv's code
// optimizer cost more than they save. (Vitest isolates test files, so this config stays in this file.)
z.config({ jitless: true });
const ajv = new Ajv2020({ strict: false, validateFormats: false, code: { optimize: false } });

const VALUES_PER_SCHEMA = 12;
const PAIRS = process.env.FLATTEN_PROPERTY_PAIRS ? Number(process.env.FLATTEN_PROPERTY_PAIRS) : undefined;
const RUNS = Number(
  process.env.FLATTEN_PROPERTY_RUNS ?? (PAIRS ? Math.ceil(PAIRS / VALUES_PER_SCHEMA) : propertyRuns(200)),
);
const SEED = Number(process.env.FLATTEN_PROPERTY_SEED ?? 20261130);
const MIN_PAIRS = 2000;

const stats = {
  schemas: 0,
  pairs: 0,
  rejectedByZod: 0,
  maxUnionDepth: 0,
  maxNodes: 0,
  maxBytes: 0,
  maxServedNodes: 0,
  flattenable: 0,
  typedInputs: 0,
  typedPairs: 0,
  introducedUntyped: 0,
  /** Schemas with a union tagged by numbers, booleans, null or a mix (`tagPoolArb`), and their values tried. */
  nonStringTags: 0,
  nonStringTagPairs: 0,
};

/** A union in the schema is tagged by values other than strings (its label names the pool's kind). */
const NON_STRING_TAG = /\((?:kind|type|t|op|mode): (?:number|boolean|mixed)\)\[/;

/** A schema tried with values: the general roots, or the typed-only deep collisions and untagged unions. */
const caseArb = fc
  .oneof({ weight: 1, arbitrary: rootArb(4) }, { weight: 1, arbitrary: typedRootArb(3) })
  .chain((gen: Gen) =>
    fc
      .array(gen.value, { minLength: VALUES_PER_SCHEMA, maxLength: VALUES_PER_SCHEMA })
      .map((values) => ({ gen, values: values.map((v) => JSON.parse(JSON.stringify(v ?? null))) })),
  );

/** Unions a reader would expect flattened: not nullable wrappers, not unions of scalars. */
function objectUnions(doc: unknown): string[] {
  return unionsIn(doc).filter((ptr) => {
    const node = at(doc, ptr);
    const members: any[] = [...(node.oneOf ?? []), ...(node.anyOf ?? [])];
    const real = members.filter((m) => !(isPlainObject(m) && (m.type === 'null' || m.const === null)));
    if (real.length <= 1 && real.length < members.length) return false;
    return real.some(
      (m) =>
        !isPlainObject(m) ||
        m.type === undefined ||
        (Array.isArray(m.type) ? m.type.includes('object') : m.type === 'object'),
    );
  });
}

function countNodes(doc: unknown): number {
  if (Array.isArray(doc)) return doc.reduce((n: number, v) => n + countNodes(v), 0);
  if (!isPlainObject(doc)) return 0;
  return 1 + Object.values(doc).reduce((n: number, v) => n + countNodes(v), 0);
}

/** Positions that hold a value's schema (not `allOf` conjuncts, `not`, `if` or `propertyNames`). */
const VALUE_POSITIONS = new Set([
  'properties',
  'patternProperties',
  'additionalProperties',
  'items',
  'prefixItems',
  'anyOf',
  'oneOf',
  '$defs',
]);
const TYPING = ['type', 'const', 'enum', '$ref', 'anyOf', 'oneOf', 'allOf', 'not'];

/**
 * Pointers of schemas at value positions that say nothing of the value's type (`{}`, `true`, a bare
 * description). With `markers: false`, an `additionalProperties` beside declared properties is read as
 * an open object's marker rather than a value position (as the probe's `requireTypedProperties` reads it):
 * the served object is open there because a strip variant takes any extra key and drops it. In an
 * original, a loose object's `{}` beside its properties does count: its extra keys reach the handler.
 */
function untypedNodes(node: unknown, markers: boolean, at = '', out: string[] = []): string[] {
  if (!isPlainObject(node)) return out;
  const declared = isPlainObject(node.properties) && Object.keys(node.properties).length > 0;
  const record = !declared || 'propertyNames' in node;
  forEachSubschema(node, (child, pos) => {
    const here = `${at}/${pos.keyword}${pos.key === undefined ? '' : `/${pos.key}`}`;
    const counted = pos.keyword !== 'additionalProperties' || markers || record;
    if (
      VALUE_POSITIONS.has(pos.keyword) &&
      counted &&
      (child === true || (isPlainObject(child) && !TYPING.some((k) => k in child)))
    )
      out.push(here);
    untypedNodes(child, markers, here, out);
  });
  return out;
}

describe('flatten: superset property', () => {
  afterAll(() => {
    // Figures for the report: how much was tried and how big the shapes got.
    console.log(`[flatten property] ${JSON.stringify(stats)}`);
  });

  it(
    `accepts every value the original accepts and types every position a typed original types (seed ${SEED}, ${RUNS} schemas x ${VALUES_PER_SCHEMA} values)`,
    () => {
      fc.assert(
        fc.property(caseArb, ({ gen, values }) => {
          const original = converted(gen.schema);
          const { schema: served, unflattened } = flattenWithReport(inlineRefs(original).schema);
          stats.schemas++;
          stats.maxUnionDepth = Math.max(stats.maxUnionDepth, gen.unionDepth);
          stats.maxNodes = Math.max(stats.maxNodes, countNodes(original));
          stats.maxServedNodes = Math.max(stats.maxServedNodes, countNodes(served));
          stats.maxBytes = Math.max(stats.maxBytes, JSON.stringify(original).length);
          if (gen.flattenableOnly) stats.flattenable++;
          const nonStringTags = NON_STRING_TAG.test(gen.label);
          if (nonStringTags) stats.nonStringTags++;
          // Every position typed in the original: flattening must not serve one untyped.
          const typedInput = untypedNodes(original, true).length === 0;
          if (typedInput) {
            stats.typedInputs++;
            const introduced = untypedNodes(served, false);
            stats.introducedUntyped += introduced.length;
            expect(
              introduced,
              `untyped nodes introduced in ${JSON.stringify(served)}\noriginal: ${JSON.stringify(original)}`,
            ).toEqual([]);
          }

          const validate = ajv.compile(served);
          ajv.removeSchema(served); // compiled once, used here only: do not let the cache grow
          // The faithful projection (the default): Zod's document with its `$ref`s, intersections relaxed.
          const plain = relaxIntersections(original);
          const validatePlain = ajv.compile(plain);
          ajv.removeSchema(plain);
          for (const value of values) {
            if (!gen.schema.safeParse(value).success) {
              stats.rejectedByZod++;
              continue;
            }
            stats.pairs++;
            if (typedInput) stats.typedPairs++;
            if (nonStringTags) stats.nonStringTagPairs++;
            if (!validate(value)) {
              throw new Error(
                `superset broken for ${gen.label}\nvalue: ${JSON.stringify(value)}\nerrors: ${JSON.stringify(validate.errors)}\nserved: ${JSON.stringify(served)}\noriginal: ${JSON.stringify(original)}`,
              );
            }
            if (!validatePlain(value)) {
              throw new Error(
                `superset broken (faithful) for ${gen.label}\nvalue: ${JSON.stringify(value)}\nerrors: ${JSON.stringify(validatePlain.errors)}\nserved: ${JSON.stringify(plain)}`,
              );
            }
          }

          const left = objectUnions(served);
          if (gen.flattenableOnly) expect(left, `unions left in ${JSON.stringify(served)}`).toEqual([]);
          expect(new Set(unflattened.map((u) => u.pointer))).toEqual(new Set(left));
          for (const ptr of [...pointersWith(served, 'properties'), ...pointersWith(served, 'required')]) {
            const node = at(served, ptr);
            if (!isPlainObject(node.properties) && !Array.isArray(node.required)) continue; // a property named so
            const t = node.type;
            expect(Array.isArray(t) ? t.includes('object') : t === 'object', `untyped object node at ${ptr}`).toBe(
              true,
            );
          }
          for (const ptr of pointersWith(served, 'type')) {
            const node = at(served, ptr);
            const isArray = Array.isArray(node.type) ? node.type.includes('array') : node.type === 'array';
            if (isArray) expect('items' in node || 'prefixItems' in node, `array without items at ${ptr}`).toBe(true);
          }
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: false },
      );
      expect(stats.pairs).toBeGreaterThanOrEqual(Math.min(PAIRS ?? MIN_PAIRS, (RUNS * VALUES_PER_SCHEMA * 2) / 3));
      expect(stats.maxUnionDepth).toBeGreaterThanOrEqual(4);
      expect(stats.typedInputs).toBeGreaterThanOrEqual(RUNS / 4);
      expect(stats.introducedUntyped).toBe(0);
      expect(stats.nonStringTags).toBeGreaterThanOrEqual(RUNS / 4);
    },
    // The properties project runs its files side by side on a shared machine: 13 s alone at 200 runs,
    // 40 s beside the others (the recursive leaf's values are the largest).
    Math.max(30_000, RUNS * 450),
  );
});
