/**
 * The `local-grammar` projection, by property, over the flatten suite's random Zod schemas (as
 * profile-projections.property.test.ts generates them):
 *
 * 1. The document is in the subset node-llama-cpp reads (docs/decisions/0030-local-grammar-subset.md), checked
 *    here on the document itself, apart from the probe: no `anyOf` or `allOf`; every `oneOf` alone beside
 *    annotations, its members of disjoint JSON types; no `type` list holding `object` or `array`; every object
 *    lists every key it declares in `required` and says `additionalProperties`; every node the engine reads has
 *    a form it reads (`$ref` to `#/$defs/<name>`, `oneOf`, `const`, `enum`, `type`) or admits nothing; no
 *    `prefixItems`; no format but `date`. The probe's profile finds no error either, and the
 *    document is valid 2020-12.
 * 2. Every value the Zod schema accepts, written as a model held to that grammar writes it (every listed key,
 *    null for one the value leaves out, no key a closed object does not declare), is accepted by the document
 *    (Ajv 2020-12), and after repair (`nullAsAbsent`) parses to what the original value parses to, or to that
 *    with null at keys the value left out whose schema takes null. A plain union's documented limit (a null
 *    for a key one member declares and another ignores stays null, so another member may parse the call, or
 *    none) is counted apart.
 *
 * Fixed seed. LOCAL_GRAMMAR_PROPERTY_RUNS=<n> sets the number of schemas (otherwise 120, scaled by
 * MCP_MOUNT_PROPERTY_RUNS); LOCAL_GRAMMAR_PROPERTY_SEED=<n> explores others.
 */
import { isDeepStrictEqual } from 'node:util';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { declaredTypes, forEachSubschema } from '../../../src/core/json-schema/keywords.js';
import { positionPointer } from '../../../src/core/json-schema/pointer.js';
import { isPlainObject, type JsonSchema } from '../../../src/core/json-schema/types.js';
import { checkDocument, rootProblem } from '../../../src/core/probe/index.js';
import { metaSchemaViolations } from '../../../src/core/probe/meta-schema/index.js';
import { collapseNullable } from '../../../src/core/projection/index.js';
import { mergeRootObjects } from '../../../src/core/projection/merge-slices.js';
import { projectForProfile } from '../../../src/core/projection/profiles/index.js';
import { repairArgs } from '../../../src/core/repair/index.js';
import { propertyRuns } from '../../support/property-runs.js';
import { type Gen, rootArb } from './arbitraries.js';
import { typedRootArb } from './deep-arbitraries.js';
import { project } from './helpers.js';

z.config({ jitless: true });
const ajv = new Ajv2020({ strict: false, validateFormats: false, code: { optimize: false } });

const VALUES_PER_SCHEMA = 8;
const RUNS = Number(process.env.LOCAL_GRAMMAR_PROPERTY_RUNS ?? propertyRuns(120));
const SEED = Number(process.env.LOCAL_GRAMMAR_PROPERTY_SEED ?? 20261205);

/** The merged flat document the projection starts from; undefined when the root is not servable. */
function flatDocument(schema: z.ZodType): JsonSchema | undefined {
  let flattened: JsonSchema;
  try {
    const { $schema: _dialect, ...doc } = project(schema).schema;
    flattened = collapseNullable(doc) as JsonSchema;
  } catch {
    return undefined; // a schema the mount's conversion refuses
  }
  if (rootProblem(flattened, { tool: 't', side: 'input', flattenRequested: true, options: {} })) return undefined;
  const merged = mergeRootObjects([{ slice: 'input', schema: flattened }]);
  return merged.ok ? merged.schema : undefined;
}

type Node = Record<string, any>;

const kindOf = (v: unknown) =>
  v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'number' ? 'number' : typeof v;

/** The JSON kinds a member admits (`integer` as `number`); undefined for any. */
function kinds(schema: unknown, root: Node, seen = new Set<string>()): Set<string> | undefined {
  if (schema === false) return new Set();
  if (!isPlainObject(schema)) return undefined;
  if (typeof schema.$ref === 'string') {
    if (seen.has(schema.$ref)) return undefined;
    return kinds(resolve(schema.$ref, root), root, new Set([...seen, schema.$ref]));
  }
  if ('const' in schema) return new Set([kindOf(schema.const)]);
  if (Array.isArray(schema.enum)) return new Set(schema.enum.map(kindOf));
  if (Array.isArray(schema.oneOf)) {
    const all = new Set<string>();
    for (const m of schema.oneOf) {
      const k = kinds(m, root, seen);
      if (!k) return undefined;
      for (const t of k) all.add(t);
    }
    return all;
  }
  const types = declaredTypes(schema);
  if (types) return new Set(types.map((t) => (t === 'integer' ? 'number' : t)));
  if (isPlainObject(schema.not) && Object.keys(schema.not).length === 0) return new Set();
  return undefined;
}

function resolve(ref: string, root: Node): unknown {
  const m = /^#\/\$defs\/([^/]+)$/.exec(ref);
  return m ? root.$defs?.[m[1]!] : undefined;
}

const ANNOTATIONS = new Set(['title', 'description', 'default', 'examples', '$comment', 'deprecated', '$defs']);

/** Where the document leaves the subset, as `pointer: why`; walks the nodes the engine reads. */
function outsideSubset(node: unknown, root: Node, at = '', out: string[] = [], keyword = ''): string[] {
  // `additionalProperties: true` reads as any value; `true` elsewhere as null.
  if (node === true && keyword !== 'additionalProperties') out.push(`${at}: true`);
  if (!isPlainObject(node)) return out;
  if ('anyOf' in node || 'allOf' in node) out.push(`${at}: anyOf/allOf`);
  if (Array.isArray(node.type) && node.type.some((t: string) => t === 'object' || t === 'array'))
    out.push(`${at}: container in a type list`);
  if (typeof node.format === 'string' && node.format !== 'date') out.push(`${at}: format ${node.format}`);
  if ('prefixItems' in node) out.push(`${at}: prefixItems`);
  if (typeof node.$ref === 'string') {
    if (resolve(node.$ref, root) === undefined) out.push(`${at}: $ref ${node.$ref}`);
  } else if (Array.isArray(node.oneOf)) {
    if (Object.keys(node).some((k) => k !== 'oneOf' && !ANNOTATIONS.has(k))) out.push(`${at}: oneOf beside keywords`);
    const seen = new Set<string>();
    for (const m of node.oneOf) {
      const k = kinds(m, root);
      if (!k || [...k].some((t) => seen.has(t))) out.push(`${at}: oneOf members overlap`);
      for (const t of k ?? []) seen.add(t);
    }
  } else if (!('const' in node) && !Array.isArray(node.enum)) {
    if (node.type === 'object') {
      const keys = isPlainObject(node.properties) ? Object.keys(node.properties) : [];
      const required: unknown[] = Array.isArray(node.required) ? node.required : [];
      for (const key of keys) if (!required.includes(key)) out.push(`${at}/properties/${key}: optional`);
      if (node.additionalProperties === undefined) out.push(`${at}: additionalProperties unsaid`);
    } else if (!declaredTypes(node) && !(isPlainObject(node.not) && Object.keys(node.not).length === 0)) {
      out.push(`${at}: no form`);
    }
  }
  forEachSubschema(node, (child, pos) => {
    if (['properties', 'additionalProperties', 'items', 'prefixItems', 'oneOf', '$defs'].includes(pos.keyword))
      outsideSubset(child, root, positionPointer(at, pos), out, pos.keyword);
  });
  return out;
}

/** `value` as a model held to the document's grammar writes it: see the file comment. */
function written(value: unknown, schema: unknown, root: Node, depth = 0): unknown {
  let s = schema;
  for (let i = 0; i < 32 && isPlainObject(s) && typeof s.$ref === 'string'; i++) s = resolve(s.$ref, root);
  if (!isPlainObject(s) || depth > 64) return value;
  if (Array.isArray(s.oneOf)) {
    const member = s.oneOf.find((m: unknown) => kinds(m, root)?.has(kindOf(value)) ?? true);
    return member === undefined ? value : written(value, member, root, depth + 1);
  }
  if (Array.isArray(value)) {
    const prefix: unknown[] = Array.isArray(s.prefixItems) ? s.prefixItems : [];
    return value.map((v, i) => written(v, i < prefix.length ? prefix[i] : s.items, root, depth + 1));
  }
  if (!isPlainObject(value) || s.type !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(isPlainObject(s.properties) ? s.properties : {})) {
    out[key] = Object.hasOwn(value, key) ? written(value[key], child, root, depth + 1) : null;
  }
  if (s.additionalProperties !== false && s.additionalProperties !== undefined) {
    for (const [key, v] of Object.entries(value)) {
      if (!Object.hasOwn(out, key)) out[key] = written(v, s.additionalProperties, root, depth + 1);
    }
  }
  return out;
}

/** `got` equals `want` except at object keys `sent` left out, which `got` holds as null. */
function sameButNulls(got: unknown, want: unknown, sent: unknown): boolean {
  if (Array.isArray(got) && Array.isArray(want)) {
    return (
      got.length === want.length &&
      got.every((g, i) => sameButNulls(g, want[i], Array.isArray(sent) ? sent[i] : undefined))
    );
  }
  if (isPlainObject(got) && isPlainObject(want)) {
    const meant: Node = isPlainObject(sent) ? sent : {};
    for (const key of new Set([...Object.keys(got), ...Object.keys(want)])) {
      if (!Object.hasOwn(meant, key) && got[key] === null) continue;
      if (!Object.hasOwn(got, key) || !Object.hasOwn(want, key)) return false;
      if (!sameButNulls(got[key], want[key], meant[key])) return false;
    }
    return true;
  }
  return isDeepStrictEqual(got, want);
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

const stats = { schemas: 0, values: 0, same: 0, nullKept: 0, plainUnion: 0, repaired: 0 };

const caseArb = fc
  .oneof({ weight: 1, arbitrary: rootArb(4) }, { weight: 1, arbitrary: typedRootArb(3) })
  .chain((gen: Gen) =>
    fc
      .array(gen.value, { minLength: VALUES_PER_SCHEMA, maxLength: VALUES_PER_SCHEMA })
      .map((values) => ({ gen, values: values.map((v) => JSON.parse(JSON.stringify(v ?? null))) })),
  );

describe('local-grammar: property', () => {
  afterAll(() => console.log(`[local-grammar] ${JSON.stringify(stats)}`));

  it(`serves the subset node-llama-cpp reads, and every Zod-valid value, written as the grammar writes it, passes the document and reaches the parse after repair (seed ${SEED}, ${RUNS} schemas x ${VALUES_PER_SCHEMA} values)`, () => {
    fc.assert(
      fc.property(caseArb, ({ gen, values }) => {
        const flat = flatDocument(gen.schema);
        if (!flat) return;
        stats.schemas++;
        const { schema: doc } = projectForProfile('local-grammar', flat);
        const context = `${gen.label}\nprojected: ${JSON.stringify(doc)}`;
        expect(outsideSubset(doc, doc), `outside the subset: ${context}`).toEqual([]);
        const errors = checkDocument(doc, {
          tool: 't',
          side: 'input',
          flattenRequested: true,
          projection: 'local-grammar',
          options: { profiles: ['local-grammar'] },
        }).filter((i) => i.severity === 'error');
        expect(errors, `errors: ${context}`).toEqual([]);
        expect(metaSchemaViolations(doc), `not 2020-12: ${context}`).toEqual([]);
        const validate = ajv.compile(doc);
        ajv.removeSchema(doc);
        for (const value of values) {
          const parsed = gen.schema.safeParse(value);
          if (!parsed.success) continue;
          stats.values++;
          const sent = written(value, doc, doc);
          if (!validate(sent)) {
            throw new Error(
              `the document refuses ${JSON.stringify(sent)} (from ${JSON.stringify(value)}): ${JSON.stringify(validate.errors)}\n${context}`,
            );
          }
          const repaired = repairArgs(sent, gen.schema);
          if (repaired.repairs.length > 0) stats.repaired++;
          const reached = gen.schema.safeParse(repaired.value);
          if (reached.success && isDeepStrictEqual(reached.data, parsed.data)) stats.same++;
          else if (reached.success && sameButNulls(reached.data, parsed.data, value)) stats.nullKept++;
          else if (hasPlainUnion(gen.schema)) stats.plainUnion++;
          else {
            throw new Error(
              `${JSON.stringify(sent)} reaches the parse as ${reached.success ? JSON.stringify(reached.data) : reached.error.message}, the value ${JSON.stringify(value)} as ${JSON.stringify(parsed.data)}\n${context}`,
            );
          }
        }
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: false },
    );
    expect(stats.schemas).toBeGreaterThanOrEqual(RUNS / 2);
    expect(stats.values).toBeGreaterThanOrEqual(stats.schemas * 2);
    expect(stats.repaired).toBeGreaterThan(0);
  }, 60_000);
});
