import { validationKey } from '../json-schema/compare.js';
import { ANNOTATION_KEYWORDS, isObjectTyped, META_KEYWORDS, TYPE_FAMILIES } from '../json-schema/keywords.js';
import { setOwn } from '../json-schema/own-properties.js';
import { isPlainObject, type JsonSchema } from '../json-schema/types.js';
import { composeDescription } from './annotations.js';
import { keySurface } from './intersections.js';

// An intersection of objects (`allOf`, what Zod emits for `.and()` when it cannot merge the shapes
// itself, e.g. two discriminated unions, or an object and a record) becomes one object. Every value the
// `allOf` accepts passes each member, so it has every member's required keys and each key satisfies every
// member's schema for it: the union of `properties` and of `required` describes it, and keys two members
// both declare keep an exact `allOf` of their schemas (merged again when those are objects too).
//
// Unknown keys follow Zod, not `allOf` (see intersections.ts): Zod refuses a key only when no side
// recognises it, so the merged object is closed only when every member is, over all their keys.

/**
 * Object-family keywords the merge does not combine: their effect depends on other keys (`dependent*`) or on
 * what the members evaluated (`unevaluatedProperties`).
 */
const NOT_COMBINED: ReadonlySet<string> = new Set(['dependentRequired', 'dependentSchemas', 'unevaluatedProperties']);

/** Object keywords the merge knows how to combine; any other keyword on a member leaves the `allOf` alone. */
const OBJECT_KEYWORDS: ReadonlySet<string> = new Set([
  'type',
  ...TYPE_FAMILIES.object.filter((k) => !NOT_COMBINED.has(k)),
]);

/**
 * The merged object, or undefined when the `allOf` is not an intersection of plain objects.
 *
 * `semantics` says whose `allOf` this is. `'zod'` (a `.and()` in the document): a member's refusal of
 * keys it does not recognise gives way to the other members (`keySurface`). `'json'` (an `allOf` this
 * merge builds itself for a key several members declare: Zod parses that key's value with each side's
 * schema in turn, so every member's refusals hold, as in JSON Schema).
 */
export function mergeAllOf(node: JsonSchema, semantics: 'zod' | 'json' = 'zod'): JsonSchema | undefined {
  const split = partsOf(node);
  if (!split) return undefined;
  const { siblings } = split;
  const { parts, closed } = reconcile(split.parts, semantics);
  const out: JsonSchema = {};
  if ('$schema' in siblings) out.$schema = siblings.$schema;
  out.type = 'object';
  mergeDeclared(out, parts);
  mergeUndeclared(out, parts, closed);
  mergeKeyConstraints(out, parts);
  mergeAnnotations(out, parts, siblings);
  return out;
}

/**
 * The parts to merge: the object keywords beside the `allOf` as one part (first), then its members; and the
 * annotations beside it (`siblings`). Undefined when the `allOf` is empty, a keyword beside it or in a member is
 * not one the merge combines, or a part is not an object.
 */
function partsOf(node: JsonSchema): { siblings: JsonSchema; parts: JsonSchema[] } | undefined {
  if (!Array.isArray(node.allOf) || node.allOf.length === 0) return undefined;
  const siblings: JsonSchema = {};
  const siblingPart: JsonSchema = {};
  for (const key of Object.keys(node)) {
    if (key === 'allOf') continue;
    if (ANNOTATION_KEYWORDS.has(key) || META_KEYWORDS.has(key)) setOwn(siblings, key, node[key]);
    else if (OBJECT_KEYWORDS.has(key)) setOwn(siblingPart, key, node[key]);
    else return undefined;
  }
  if ('type' in siblingPart && !isObjectTyped(siblingPart)) return undefined;
  const parts: JsonSchema[] = Object.keys(siblingPart).length > 0 ? [{ ...siblingPart, type: 'object' }] : [];
  for (const member of node.allOf) {
    if (!isObjectTyped(member)) return undefined;
    if (Object.keys(member).some((k) => !OBJECT_KEYWORDS.has(k) && !ANNOTATION_KEYWORDS.has(k) && k !== '$schema')) {
      return undefined;
    }
    parts.push(member);
  }
  return { siblings, parts };
}

/**
 * Whether the merged object refuses keys no member declares, and the parts to merge. With Zod's
 * reconciliation, only when every member does (each member's own refusal is opened first); in JSON Schema,
 * when any one does.
 */
function reconcile(parts: JsonSchema[], semantics: 'zod' | 'json'): { parts: JsonSchema[]; closed: boolean } {
  if (semantics === 'zod' && parts.length >= 2) {
    const surfaces = parts.map(keySurface);
    return { parts: surfaces.map((s) => s.schema), closed: surfaces.every((s) => s.closed) };
  }
  return { parts, closed: parts.some((p) => p.additionalProperties === false) };
}

/** The declared keys: `properties`, `required` and `patternProperties` of every part. */
function mergeDeclared(out: JsonSchema, parts: readonly JsonSchema[]): void {
  const properties = mergeMaps(parts, 'properties');
  if (properties !== undefined) out.properties = properties;

  const required = [...new Set(parts.flatMap((p) => (Array.isArray(p.required) ? p.required : [])))];
  if (required.length > 0) out.required = required;

  const patterns = mergeMaps(parts, 'patternProperties');
  if (patterns !== undefined) out.patternProperties = patterns;
}

/**
 * `additionalProperties`. Closed: the value only has keys some member declares, all of which are in the
 * merged `properties` and `patternProperties`. Otherwise the open members' schemas for undeclared keys all
 * apply.
 */
function mergeUndeclared(out: JsonSchema, parts: readonly JsonSchema[], closed: boolean): void {
  if (closed) out.additionalProperties = false;
  else {
    const extra = combined(parts.map((p) => p.additionalProperties).filter((s) => s !== false));
    if (extra !== undefined) out.additionalProperties = extra;
    // Keep the explicit "undeclared keys pass through" marker of a loose member (see flatten-union).
    else if (parts.some((p) => p.additionalProperties !== undefined && p.additionalProperties !== false)) {
      out.additionalProperties = {};
    }
  }
}

/** What every key name and the count of keys must meet: `propertyNames`, `minProperties`, `maxProperties`. */
function mergeKeyConstraints(out: JsonSchema, parts: readonly JsonSchema[]): void {
  const names = combined(parts.map((p) => p.propertyNames));
  if (names !== undefined) out.propertyNames = names;
  const mins = parts.map((p) => p.minProperties).filter((v): v is number => typeof v === 'number');
  if (mins.length > 0) out.minProperties = Math.max(...mins);
  const maxs = parts.map((p) => p.maxProperties).filter((v): v is number => typeof v === 'number');
  if (maxs.length > 0) out.maxProperties = Math.min(...maxs);
}

/** The description of every part, the first title, and the other annotations beside the `allOf`. */
function mergeAnnotations(out: JsonSchema, parts: readonly JsonSchema[], siblings: JsonSchema): void {
  const description = composeDescription(
    [siblings.description, ...parts.map((p) => p.description)].filter((d, i, all) => all.indexOf(d) === i),
  );
  if (description !== undefined) out.description = description;
  const title = siblings.title ?? parts.find((p) => typeof p.title === 'string')?.title;
  if (title !== undefined) out.title = title;
  for (const key of Object.keys(siblings)) if (!Object.hasOwn(out, key)) setOwn(out, key, siblings[key]);
}

/** A name → schema map merged across parts: each name's schemas intersected; undefined when none. */
function mergeMaps(parts: readonly JsonSchema[], keyword: 'properties' | 'patternProperties'): JsonSchema | undefined {
  const declared = new Map<string, unknown[]>();
  for (const part of parts) {
    const map = part[keyword];
    if (!isPlainObject(map)) continue;
    for (const [key, schema] of Object.entries(map)) declared.set(key, [...(declared.get(key) ?? []), schema]);
  }
  if (declared.size === 0) return undefined;
  const out: JsonSchema = {};
  for (const [key, schemas] of declared) setOwn(out, key, intersect(schemas));
  return out;
}

/** The schema for a key declared by several members: all must hold, so keep them all (merged when possible). */
function intersect(schemas: readonly unknown[]): unknown {
  const distinct = dedupe(schemas);
  if (distinct.length === 1) return distinct[0];
  const node: JsonSchema = { allOf: distinct };
  return mergeAllOf(node, 'json') ?? node;
}

/** Several sub-schemas that all apply to the same values: none, one, or an `allOf` of the distinct ones. */
function combined(schemas: readonly unknown[]): unknown {
  const meaningful = schemas.filter(
    (s) => s !== undefined && s !== true && !(isPlainObject(s) && Object.keys(s).length === 0),
  );
  const distinct = dedupe(meaningful);
  if (distinct.length === 0) return undefined;
  return distinct.length === 1 ? distinct[0] : intersect(distinct);
}

function dedupe(schemas: readonly unknown[]): unknown[] {
  const seen = new Set<string>();
  return schemas.filter((s) => {
    const key = validationKey(s);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
