import { isAssertionOnly } from '../json-schema/assertions.js';
import { cloneJson, cloneJsonOrSelf } from '../json-schema/compare.js';
import {
  ANNOTATION_KEYWORDS,
  evaluationDependent,
  META_KEYWORDS,
  mapPositiveSubschemasShared,
} from '../json-schema/keywords.js';
import { setOwn } from '../json-schema/own-properties.js';
import { isPlainObject, type JsonSchema } from '../json-schema/types.js';
import { localResolver, type RefResolver } from './type-atoms.js';

// Zod and JSON Schema disagree on unknown keys in an intersection. Zod 4 parses each side on its own and
// then reconciles their unknown-key complaints about the intersected value itself: a key is refused only
// when NO side recognises it. A strict object recognises its declared keys, a record the keys its key
// schema accepts (and checks the value of only those), a strip, loose or catch-all object every key; a
// union passes its selected member's complaint on. JSON Schema `allOf` refuses a key as soon as one closed
// member (`additionalProperties: false`, `propertyNames`) does not know it. So every closed member of an
// intersection is served open: the superset invariant (docs/design/flatten.md) holds, flattened or not.
//
// Only the intersected value's own keys are reconciled. A strict object one property down (`{n: strict}`
// on one side) refuses unknown keys of `n` whatever the other side says, and stays closed.

/** A member's key constraints as an intersection sees them: opened, and whether it was closed. */
export interface KeySurface {
  schema: JsonSchema;
  /**
   * True when the member refuses every key outside the `properties` the opened schema still spells out:
   * an intersection of such members is closed over their union.
   */
  closed: boolean;
}

/**
 * The member without its refusal of keys it does not recognise, keeping what it says about the keys it
 * does recognise:
 * - `additionalProperties: false` is dropped (closed over its `properties`, unless it also has
 *   `patternProperties`);
 * - a record's `propertyNames` + `additionalProperties: S` becomes `properties: {k: S, ...}` for an
 *   enum/const key schema (closed over those), or `patternProperties: {p: S}` for a pattern one (open:
 *   a merged object never pairs `additionalProperties: false` with `patternProperties`, which the root
 *   merge and some clients drop); any other `propertyNames` is dropped together with
 *   `additionalProperties`, which Zod checks only on keys that pass it (open);
 * - `propertyNames: {type: "string"}` refuses nothing (every JSON key is a string) and stays.
 * Returns `member` itself when there is nothing to open. Only this node's own object keywords.
 */
export function keySurface(member: JsonSchema): KeySurface {
  const names = member.propertyNames;
  if (!Object.hasOwn(member, 'propertyNames') || refusesNoKey(names)) {
    if (member.additionalProperties !== false) return { schema: member, closed: false };
    const { additionalProperties: _closed, ...open } = member;
    return { schema: open, closed: member.patternProperties === undefined };
  }
  const { propertyNames: _names, additionalProperties: extra, ...open } = member;
  if (extra === false) return { schema: open, closed: member.patternProperties === undefined };
  const value = extra === undefined ? {} : extra;
  const declared = isPlainObject(member.properties) && Object.keys(member.properties).length > 0;
  const patterned = member.patternProperties !== undefined;
  const pattern = onlyPattern(names);
  if (pattern !== undefined && !declared && !patterned) {
    return { schema: { ...open, patternProperties: setOwn({}, pattern, value) }, closed: false };
  }
  const keys = onlyKeys(names);
  if (keys !== undefined && !patterned) {
    const properties: JsonSchema = isPlainObject(member.properties) ? { ...member.properties } : {};
    for (const key of keys) if (!Object.hasOwn(properties, key)) setOwn(properties, key, value);
    return { schema: { ...open, properties }, closed: true };
  }
  return { schema: open, closed: false };
}

/**
 * `node` with the closed members of its intersection opened (see `keySurface`): each `allOf` member,
 * and the node's own object keywords when they stand beside the `allOf`, through `anyOf`/`oneOf`/`allOf`
 * members (a union passes its member's unknown-key complaint on to the intersection), never into
 * properties or items. A `$ref` member is left to `openRefMembers`. Returns `node` itself when it is
 * not an intersection or nothing changes.
 */
export function openIntersection(node: JsonSchema): JsonSchema {
  if (!isIntersection(node)) return node;
  return openSurface(node, undefined) as JsonSchema;
}

/**
 * Second pass, over a document whose intersections `openIntersection` already opened: an intersection
 * member that is a `$ref` (a recursive definition `inlineRefs` kept) to a closed object is replaced by
 * the definition's body, opened. The definition itself stays closed for its other uses. Resolved in
 * `doc`, so the copied body is the already projected one.
 */
export function openRefMembers(doc: JsonSchema): JsonSchema {
  const resolve = localResolver(doc);
  const walk = (node: unknown): unknown => {
    if (!isPlainObject(node) || evaluationDependent(node) !== undefined) return node;
    // Keeps what it does not open (both callers copy the result before serving it).
    const walked = mapPositiveSubschemasShared(node, walk);
    return isIntersection(walked) ? openSurface(walked, { resolve, seen: new Set() }) : walked;
  };
  return walk(doc) as JsonSchema;
}

/**
 * The `relaxIntersections` projection: `openIntersection` at every positive position of the document
 * (not under `not`/`if`, where a looser sub-schema would make the document stricter, and not below
 * `unevaluated*`, whose result depends on what the sub-schemas evaluated). `flattenWithReport` already
 * applies it; serve a document that is not flattened through this. Pure, never throws.
 */
export function relaxIntersections(schema: JsonSchema): JsonSchema {
  try {
    if (!isPlainObject(schema)) return cloneJson(schema);
    return cloneJson(openRefMembers(relaxDeep(schema) as JsonSchema));
  } catch {
    // Defensive only (e.g. a cyclic JS object): serve the document as it was.
    return cloneJsonOrSelf(schema);
  }
}

function relaxDeep(node: unknown): unknown {
  if (!isPlainObject(node)) return node;
  if (evaluationDependent(node) !== undefined) return node;
  // Keeps what it does not open: `relaxIntersections` copies the finished document once.
  const walked = mapPositiveSubschemasShared(node, relaxDeep);
  return openIntersection(walked);
}

/** Where `openSurface` expands `$ref` members (second pass only), and the references already expanded. */
type RefExpansion = { resolve: RefResolver; seen: ReadonlySet<string> } | undefined;

/**
 * An `allOf` with at least two parts, counting the node's own constraints beside it as one. Members that only
 * assert which declared keys are present (an author's `.meta({ allOf: [{ anyOf: [{ required: [...] }] }] })`)
 * are not parts: Zod never writes them for an intersection, and they decide nothing about unknown keys.
 */
function isIntersection(node: JsonSchema): boolean {
  if (!Array.isArray(node.allOf)) return false;
  const own = Object.keys(node).some((k) => k !== 'allOf' && !ANNOTATION_KEYWORDS.has(k) && !META_KEYWORDS.has(k));
  // Only keys the node itself declares: a member naming others describes an object of its own (a part).
  const declared = new Set(isPlainObject(node.properties) ? Object.keys(node.properties) : []);
  const parts = node.allOf.filter((member: unknown) => !isAssertionOnly(member, declared)).length;
  return parts + (own ? 1 : 0) >= 2;
}

/**
 * `node` opened at the intersected value's own keys. With `refs` (second pass) only `$ref`s are
 * expanded: every other object on the surface was opened by the first pass.
 */
function openSurface(node: unknown, refs: RefExpansion): unknown {
  if (!isPlainObject(node) || evaluationDependent(node) !== undefined) return node;
  if (refs && typeof node.$ref === 'string') return expandRef(node, refs);
  let out = refs ? node : keySurface(node).schema;
  for (const keyword of ['allOf', 'anyOf', 'oneOf'] as const) {
    const members = out[keyword];
    if (!Array.isArray(members)) continue;
    const opened = members.map((m) => openSurface(m, refs));
    if (opened.some((m, i) => m !== members[i])) out = { ...out, [keyword]: opened };
  }
  return out;
}

/** A `$ref` member as its definition's body opened (and its own keywords beside it), when that changes it. */
function expandRef(node: JsonSchema, refs: NonNullable<RefExpansion>): JsonSchema {
  const ref: string = node.$ref;
  const body = refs.seen.has(ref) ? undefined : refs.resolve(ref);
  if (!isPlainObject(body)) return node;
  const inner: RefExpansion = { resolve: refs.resolve, seen: new Set([...refs.seen, ref]) };
  // The body as the first pass would have opened it, then any `$ref` on its own surface.
  const opened = openSurface(openSurface(body, undefined), inner);
  if (opened === body) return node;
  const { $ref: _ref, ...rest } = node;
  const copy = cloneJson(opened) as JsonSchema;
  return Object.keys(rest).length === 0 ? copy : { ...rest, allOf: [copy] };
}

/** `propertyNames` that every JSON key passes: absent, `true`, `{}` or `{type: "string"}`. */
function refusesNoKey(names: unknown): boolean {
  if (names === undefined || names === true) return true;
  if (!isPlainObject(names)) return false;
  return Object.keys(names).every((k) => ANNOTATION_KEYWORDS.has(k) || (k === 'type' && names.type === 'string'));
}

/** The pattern of `{type: "string", pattern}` (type optional), else undefined. */
function onlyPattern(names: unknown): string | undefined {
  if (!isPlainObject(names) || typeof names.pattern !== 'string') return undefined;
  const ok = Object.keys(names).every(
    (k) => k === 'pattern' || ANNOTATION_KEYWORDS.has(k) || (k === 'type' && names.type === 'string'),
  );
  return ok ? names.pattern : undefined;
}

/** The keys of `{type: "string", enum}` or `{const}` (type optional) when all are strings, else undefined. */
function onlyKeys(names: unknown): string[] | undefined {
  if (!isPlainObject(names)) return undefined;
  const ok = Object.keys(names).every(
    (k) => k === 'enum' || k === 'const' || ANNOTATION_KEYWORDS.has(k) || (k === 'type' && names.type === 'string'),
  );
  if (!ok) return undefined;
  const values = Object.hasOwn(names, 'const') ? [names.const] : names.enum;
  if (!Array.isArray(values) || !values.every((v) => typeof v === 'string')) return undefined;
  if (Object.hasOwn(names, 'const') && Array.isArray(names.enum) && !names.enum.includes(names.const)) return [];
  return [...new Set(values as string[])];
}
