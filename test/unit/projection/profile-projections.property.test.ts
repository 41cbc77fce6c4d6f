/**
 * Every profile projection, by property, over the flatten suite's random Zod schemas (unions nested up to
 * 4 deep with every collision kind, objects with optional / nullable / defaulted fields, records, tuples,
 * intersections, reused `$defs`; plus the typed-only deep collisions and untagged unions), each served as
 * the mount serves the flat document (refs inlined, safe-integer bounds dropped, flattened, nullable
 * collapsed, root merged):
 *
 * 1. Superset modulo the reported narrowings: every value the original Zod schema accepts, sent the way a
 *    client of that profile sends it (a key whose null the projection no longer takes left out; for
 *    `openai-strict`, every key the projection requires and the value lacks sent as null), is accepted by
 *    the projection (Ajv 2020). A value that cannot be sent that way (null at a required key whose null
 *    was taken out) must sit at a narrowing the projection reported.
 * 2. Narrowings admit only valid calls: each such client value that the projection accepts passes the
 *    original Zod schema after repair (the values come from Zod-valid ones, so refinements hold already),
 *    unless the flat document admits it too: the flat document is a superset, so leaving out a key it
 *    serves as optional can still fail the variant Zod picks, and that is the superset's doing, not the
 *    narrowing's (counted as `inherited`).
 * 3. The profile's own checks: every error-level finding of `checkDocument` with that profile (and every
 *    base error the flat document did not have) is one of the documented unsatisfiable cases
 *    (docs/design/projections.md), checked by its kind: `open-record` for `openai-strict` (a `z.record`),
 *    `untyped` for `gemini` at a field of several JSON types or with no type in the flat document (a
 *    `z.union` of different types, `z.unknown()`). Schemas without such a field get zero errors.
 *
 * Fixed seed. PROFILE_PROPERTY_RUNS=<n> sets the number of schemas (otherwise 120, scaled by
 * MCP_MOUNT_PROPERTY_RUNS: test/support/property-runs.ts); PROFILE_PROPERTY_SEED=<n> explores others.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { forEachSubschema } from '../../../src/core/json-schema/keywords.js';
import { positionPointer } from '../../../src/core/json-schema/pointer.js';
import { isPlainObject, type JsonSchema } from '../../../src/core/json-schema/types.js';
import { checkDocument, rootProblem } from '../../../src/core/probe/index.js';
import type { SchemaIssue } from '../../../src/core/probe/issue.js';
import { metaSchemaViolations } from '../../../src/core/probe/meta-schema/index.js';
import { flattenWithReport } from '../../../src/core/projection/flatten.js';
import { collapseNullable, dropSafeIntegerBounds, inlineRefs } from '../../../src/core/projection/index.js';
import { mergeRootObjects } from '../../../src/core/projection/merge-slices.js';
import { PROFILE_PROJECTION_NAMES, type ProfileProjection } from '../../../src/core/projection/names.js';
import { type Narrowing, projectForProfile } from '../../../src/core/projection/profiles/index.js';
import { repairArgs } from '../../../src/core/repair/index.js';
import { toJsonSchema } from '../../../src/core/zod/convert.js';
import { propertyRuns } from '../../support/property-runs.js';
import { type Gen, rootArb } from './arbitraries.js';
import { typedRootArb } from './deep-arbitraries.js';
import { at } from './helpers.js';

z.config({ jitless: true });
const ajv = new Ajv2020({ strict: false, validateFormats: false, code: { optimize: false } });

const VALUES_PER_SCHEMA = 8;
const RUNS = Number(process.env.PROFILE_PROPERTY_RUNS ?? propertyRuns(120));
const SEED = Number(process.env.PROFILE_PROPERTY_SEED ?? 20261201);

/** The served flat document, as prepareSide and mergeRootObjects compute it; undefined when it is not servable. */
function flatDocument(schema: z.ZodType): JsonSchema | undefined {
  // The mount's own conversion, with what it fixes in Zod's document (flagged patterns, finite-keyed records,
  // integers beyond 2^53).
  const conversion = toJsonSchema(schema, 'input');
  if (!conversion.ok) return undefined;
  const { $schema: _dialect, ...converted } = conversion.schema;
  const inlined = dropSafeIntegerBounds(inlineRefs(converted).schema) as JsonSchema;
  const served = collapseNullable(flattenWithReport(inlined).schema) as JsonSchema;
  // As prepare does: a root that is not one object is never served.
  if (rootProblem(served, { tool: 't', side: 'input', flattenRequested: true, options: {} })) return undefined;
  const merged = mergeRootObjects([{ slice: 'input', schema: served }]);
  return merged.ok ? merged.schema : undefined;
}

const errorsOf = (doc: JsonSchema, profile?: ProfileProjection): SchemaIssue[] =>
  checkDocument(doc, {
    tool: 't',
    side: 'input',
    flattenRequested: true,
    options: { profiles: profile ? [profile] : [] },
  }).filter((i) => i.severity === 'error');

interface Sent {
  value: unknown;
  /** Schema pointer of a null at a required key the projection no longer takes null for. */
  unsendable?: string;
  /** Schema pointers of closed objects where the value's undeclared keys were left out. */
  closed: string[];
  /** A null was left out at an optional key (the value's meaning changed, as the narrowing says). */
  omitted: string[];
  /** A key the value lacked was sent as null (strict mode). */
  filled: boolean;
}

/**
 * `value` as a client of the projection sends it, following `schema` (the projection: no combinator but
 * nullable wrappers, `$ref`s resolved against `root`). `fill`: every required key the value lacks is sent
 * as null (strict mode). Otherwise a null the schema no longer takes is left out where the key is optional,
 * and marked unsendable (with the schema pointer) where it is required.
 */
function asSent(value: unknown, schema: unknown, root: JsonSchema, fill: boolean, ptr = ''): Sent {
  const sent: Sent = { value, closed: [], omitted: [], filled: false };
  const merge = (r: Sent) => {
    sent.unsendable ??= r.unsendable;
    sent.closed.push(...r.closed);
    sent.omitted.push(...r.omitted);
    sent.filled ||= r.filled;
    return r.value;
  };
  if (!isPlainObject(schema)) return sent;
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.replace('#/$defs/', '');
    sent.value = merge(asSent(value, root.$defs?.[name], root, fill, `/$defs/${name}`));
    return sent;
  }
  const keyword = Array.isArray(schema.anyOf) ? 'anyOf' : Array.isArray(schema.oneOf) ? 'oneOf' : undefined;
  if (keyword) {
    // A nullable wrapper is followed into its one branch, a union of disjoint types (local-grammar's
    // `oneOf`) into the one member that takes the value's type; a union the projection kept otherwise is
    // sent as it is.
    const union = schema[keyword] as unknown[];
    const real = union.filter((m: any) => !(isPlainObject(m) && m.type === 'null'));
    const fits = real.filter((m) => takesTypeOf(m, value, root));
    const member = real.length === 1 ? real[0] : fits.length === 1 ? fits[0] : undefined;
    if (value !== null && member !== undefined)
      sent.value = merge(asSent(value, member, root, fill, `${ptr}/${keyword}/${union.indexOf(member)}`));
    return sent;
  }
  if (Array.isArray(value)) {
    sent.value = value.map((item, i) => {
      const prefix = Array.isArray(schema.prefixItems) && i < schema.prefixItems.length;
      const child = prefix ? (schema.prefixItems as unknown[])[i] : schema.items;
      const childPtr = prefix ? `${ptr}/prefixItems/${i}` : `${ptr}/items`;
      if (item === null && !admitsNull(child, root)) sent.unsendable ??= childPtr;
      return merge(asSent(item, child, root, fill, childPtr));
    });
    return sent;
  }
  if (!isPlainObject(value)) return sent;
  const props: Record<string, unknown> = isPlainObject(schema.properties) ? schema.properties : {};
  const required: string[] = Array.isArray(schema.required) ? schema.required : [];
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const declared = Object.hasOwn(props, key);
    if (!declared && schema.additionalProperties === false && !schema.patternProperties) {
      if (!sent.closed.includes(ptr)) sent.closed.push(ptr);
      continue;
    }
    const child = declared ? props[key] : schema.additionalProperties;
    const childPtr = declared ? `${ptr}/properties/${key}` : `${ptr}/additionalProperties`;
    // A record's value whose null was taken out: the key could be left out, but that says something else.
    if (v === null && !declared && !admitsNull(child, root)) sent.unsendable ??= childPtr;
    if (v === null && declared && !admitsNull(child, root)) {
      if (required.includes(key)) sent.unsendable ??= childPtr;
      else {
        sent.omitted.push(childPtr);
        continue;
      }
    }
    out[key] = merge(asSent(v, child, root, fill, childPtr));
  }
  if (fill) {
    for (const key of required) {
      if (Object.hasOwn(out, key) || !Object.hasOwn(props, key)) continue;
      out[key] = null;
      sent.filled = true;
    }
  }
  sent.value = out;
  return sent;
}

/** Whether `schema` (its `$ref` followed) admits values of `value`'s JSON type, by `type`, literals or members. */
function takesTypeOf(schema: unknown, value: unknown, root: JsonSchema): boolean {
  let s = schema;
  for (let i = 0; i < 16 && isPlainObject(s) && typeof s.$ref === 'string'; i++) {
    s = root.$defs?.[s.$ref.replace('#/$defs/', '')];
  }
  if (!isPlainObject(s)) return s !== false;
  if ('const' in s) return typeOf(s.const) === typeOf(value);
  if (Array.isArray(s.enum)) return s.enum.some((v: unknown) => typeOf(v) === typeOf(value));
  const members: unknown[] | undefined = Array.isArray(s.anyOf)
    ? s.anyOf
    : Array.isArray(s.oneOf)
      ? s.oneOf
      : undefined;
  if (members) return members.some((m: unknown) => takesTypeOf(m, value, root));
  if (s.type === undefined) return true;
  const types: string[] = Array.isArray(s.type) ? s.type : [s.type];
  return types.includes(typeOf(value)) || (typeOf(value) === 'integer' && types.includes('number'));
}

const typeOf = (v: unknown) =>
  v === null
    ? 'null'
    : Array.isArray(v)
      ? 'array'
      : typeof v === 'number'
        ? Number.isInteger(v)
          ? 'integer'
          : 'number'
        : typeof v;

/** Pointers of sub-schemas carrying any of `keywords`. */
function keywordsIn(doc: unknown, keywords: readonly string[], ptr = '', out: string[] = []): string[] {
  if (!isPlainObject(doc)) return out;
  if (keywords.some((k) => k in doc)) out.push(ptr);
  forEachSubschema(doc, (child, pos) => keywordsIn(child, keywords, positionPointer(ptr, pos), out));
  return out;
}

function typeListsIn(doc: unknown, ptr = '', out: string[] = []): string[] {
  if (!isPlainObject(doc)) return out;
  if (Array.isArray(doc.type)) out.push(ptr);
  forEachSubschema(doc, (child, pos) => typeListsIn(child, positionPointer(ptr, pos), out));
  return out;
}

/** True when the schema holds a `z.union` (not a discriminated one) anywhere. */
function hasPlainUnion(schema: unknown, seen = new Set<unknown>()): boolean {
  if (typeof schema !== 'object' || schema === null || seen.has(schema)) return false;
  seen.add(schema);
  const def = (schema as { def?: Record<string, unknown> }).def;
  if (!def) return false;
  if (def.type === 'union' && def.discriminator === undefined) return true;
  const children: unknown[] = [];
  for (const value of Object.values(def)) {
    if (Array.isArray(value)) children.push(...value);
    else if (value && typeof value === 'object' && 'def' in value) children.push(value);
    else if (value && typeof value === 'object') children.push(...Object.values(value));
  }
  if (def.type === 'lazy' && typeof def.getter === 'function') children.push((def.getter as () => unknown)());
  return children.some((c) => hasPlainUnion(c, seen));
}

function admitsNull(schema: unknown, root: JsonSchema): boolean {
  if (!isPlainObject(schema)) return schema !== false;
  const validate = ajv.compile({ ...schema, $defs: root.$defs });
  return validate(null) === true;
}

/** Pointers the narrowings name, and their ancestors' (a narrowing of an object covers its keys). */
const covered = (narrowed: readonly Narrowing[], ptr: string) =>
  narrowed.some((n) => ptr === n.pointer || ptr.startsWith(`${n.pointer}/`));

/** Gemini's `untyped` left where no one type can say the field (several types, or none in the flat document). */
function geminiUnsatisfiable(issue: SchemaIssue, projected: JsonSchema): boolean {
  if (issue.code !== 'untyped') return false;
  const node = at(projected, issue.path);
  return isPlainObject(node) && !('type' in node);
}

const UNSATISFIABLE: Partial<Record<ProfileProjection, (issue: SchemaIssue, projected: JsonSchema) => boolean>> = {
  'openai-strict': (issue) => issue.code === 'open-record',
  gemini: geminiUnsatisfiable,
};

const table = Object.fromEntries(
  PROFILE_PROJECTION_NAMES.map((p) => [
    p,
    {
      before: 0,
      after: 0,
      unsatisfiable: 0,
      expressible: 0,
      narrowings: 0,
      pairs: 0,
      unsendable: 0,
      repaired: 0,
      stripped: 0,
      inherited: 0,
      nullKept: 0,
      plainUnionFill: 0,
      lostToNarrowing: 0,
      combinatorsOrTypeListsBefore: 0,
    },
  ]),
);
const stats = { schemas: 0, skippedRoots: 0, zodAccepted: 0 };

const caseArb = fc
  .oneof({ weight: 1, arbitrary: rootArb(4) }, { weight: 1, arbitrary: typedRootArb(3) })
  .chain((gen: Gen) =>
    fc
      .array(gen.value, { minLength: VALUES_PER_SCHEMA, maxLength: VALUES_PER_SCHEMA })
      .map((values) => ({ gen, values: values.map((v) => JSON.parse(JSON.stringify(v ?? null))) })),
  );

describe('profile projections: property', () => {
  afterAll(() => {
    console.log(`[profile projections] ${JSON.stringify(stats)}`);
    console.log(`[profile projections] errors on flat -> projection: ${JSON.stringify(table)}`);
  });

  it(`every projection keeps the superset modulo its narrowings, narrows only to valid calls, and passes its profile's checks (seed ${SEED}, ${RUNS} schemas x ${VALUES_PER_SCHEMA} values)`, () => {
    fc.assert(
      fc.property(caseArb, ({ gen, values }) => {
        const flat = flatDocument(gen.schema);
        if (!flat) {
          stats.skippedRoots++;
          return;
        }
        stats.schemas++;
        const accepted = values.filter((v) => gen.schema.safeParse(v).success);
        stats.zodAccepted += accepted.length;
        const flatBase = errorsOf(flat).map((i) => `${i.code} ${i.path}`);
        expect(metaSchemaViolations(flat), `flat not 2020-12 for ${gen.label}`).toEqual([]);
        const faithful = toJsonSchema(gen.schema, 'input');
        if (faithful.ok)
          expect(metaSchemaViolations(faithful.schema), `faithful not 2020-12 for ${gen.label}`).toEqual([]);
        for (const name of PROFILE_PROJECTION_NAMES) {
          const row = table[name]!;
          const frozen = JSON.stringify(flat);
          const { schema: projected, narrowed } = projectForProfile(name, flat);
          expect(JSON.stringify(flat), 'the input is never mutated').toBe(frozen);
          row.narrowings += narrowed.length;
          const context = `${name} for ${gen.label}\nprojected: ${JSON.stringify(projected)}\nflat: ${frozen}`;

          // Every served document is valid 2020-12 (the generators give no `.meta()` of a wrong type).
          expect(metaSchemaViolations(projected), `not 2020-12: ${context}`).toEqual([]);

          // 3. The profile's checks.
          row.before += errorsOf(flat, name).filter((i) => i.profile === name).length;
          const after = errorsOf(projected, name);
          const introduced = after.filter((i) => !i.profile && !flatBase.includes(`${i.code} ${i.path}`));
          expect(introduced, `base errors introduced: ${context}`).toEqual([]);
          const left = after.filter((i) => i.profile === name);
          row.after += left.length;
          const allowed = UNSATISFIABLE[name];
          const unexpected = left.filter((i) => !allowed?.(i, projected));
          expect(unexpected, `profile errors left: ${context}`).toEqual([]);
          row.unsatisfiable += left.length;
          // What the issue says of Cursor beyond its profile's rules: no combinator and no type list anywhere.
          if (name === 'cursor') {
            // Counted beside the profile's errors: its rules do not check these, the issue's reports do.
            row.combinatorsOrTypeListsBefore +=
              keywordsIn(flat, ['anyOf', 'oneOf', 'allOf']).length + typeListsIn(flat).length;
            expect(keywordsIn(projected, ['anyOf', 'oneOf', 'allOf']), `combinator left: ${context}`).toEqual([]);
            expect(typeListsIn(projected), `type list left: ${context}`).toEqual([]);
          }
          if (name === 'gemini') expect(keywordsIn(projected, ['$ref', '$defs']), `ref left: ${context}`).toEqual([]);
          if (left.length === 0) row.expressible++;

          // 1 and 2. Values, sent as this client sends them.
          const validate = ajv.compile(projected);
          ajv.removeSchema(projected);
          const validateFlat = ajv.compile(flat);
          ajv.removeSchema(flat);
          for (const value of accepted) {
            const sent = asSent(value, projected, projected, name === 'openai-strict' || name === 'local-grammar');
            if (sent.unsendable !== undefined) {
              row.unsendable++;
              expect(covered(narrowed, sent.unsendable), `unsendable value outside a narrowing: ${context}`).toBe(true);
              continue;
            }
            row.pairs++;
            if (!validate(sent.value)) {
              throw new Error(
                `superset broken: ${JSON.stringify(sent.value)} (from ${JSON.stringify(value)})\nerrors: ${JSON.stringify(validate.errors)}\n${context}`,
              );
            }
            const repaired = repairArgs(sent.value, gen.schema);
            if (repaired.repairs.length > 0) row.repaired++;
            const parsed = gen.schema.safeParse(repaired.value);
            // A value the flat document admits already (it is a superset: a key optional there may be
            // required by the variant Zod picks) is the superset's, not the narrowing's.
            if (!parsed.success && validateFlat(repaired.value)) {
              row.inherited++;
              continue;
            }
            // Strict mode's null for a key a plain union's member does not declare: repair must keep it
            // (leaving it out could change which member parses a valid call), so the call may fail. The one
            // documented limit of openai-strict (docs/design/projections.md); counted, not hidden.
            if (!parsed.success && sent.filled && hasPlainUnion(gen.schema)) {
              row.plainUnionFill++;
              continue;
            }
            // A null taken out of a key a joined union serves as optional, where the member Zod picks
            // requires it: the value is lost to the narrowing (null was its only spelling), which must
            // be reported there.
            if (!parsed.success && sent.omitted.length > 0) {
              const outside = sent.omitted.filter((p) => !covered(narrowed, p));
              expect(outside, `omitted outside a narrowing: ${context}`).toEqual([]);
              row.lostToNarrowing++;
              continue;
            }
            if (!parsed.success) {
              throw new Error(
                `narrowing admits a refused call: ${JSON.stringify(sent.value)}\nrepaired: ${JSON.stringify(repaired.value)}\nzod: ${parsed.error.message}\n${context}`,
              );
            }
            // A null sent for a key the value lacked that the original takes null at (a nullable optional
            // key, a loose object's catch-all, a plain union member that takes null) reaches the handler
            // as null rather than absent: still a valid call, counted to say how often it happens.
            if (sent.filled && sent.omitted.length === 0 && sent.closed.length === 0) {
              const same = JSON.stringify(parsed.data) === JSON.stringify(gen.schema.parse(value));
              if (!same) row.nullKept++;
            }
            // Keys left out at a closed object that no narrowing names must be keys Zod drops anyway: where
            // nothing else changed the value, the parse is the same as the original value's.
            const unreported = sent.closed.filter((p) => !covered(narrowed, p));
            if (
              unreported.length > 0 &&
              unreported.length === sent.closed.length &&
              sent.omitted.length === 0 &&
              !sent.filled
            ) {
              row.stripped++;
              expect(parsed.data, `closing ${unreported.join(', ')} took away a key Zod keeps: ${context}`).toEqual(
                gen.schema.parse(value),
              );
            }
          }
        }
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: false },
    );
    expect(stats.schemas).toBeGreaterThanOrEqual(RUNS / 2);
    for (const name of PROFILE_PROJECTION_NAMES) {
      expect(table[name]!.pairs, name).toBeGreaterThanOrEqual(stats.schemas);
      // Gemini takes neither a field of several types nor an untyped one, and the generators make many.
      expect(table[name]!.expressible, name).toBeGreaterThanOrEqual(stats.schemas / (name === 'gemini' ? 8 : 3));
    }
    expect(table['openai-strict']!.repaired).toBeGreaterThan(0);
  }, 60_000);
});
