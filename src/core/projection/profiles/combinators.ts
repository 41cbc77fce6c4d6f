import {
  ANNOTATION_KEYWORDS,
  declaredTypes,
  isNullableWrapper,
  type JsonType,
  META_KEYWORDS,
  TYPE_FAMILIES,
  unionKeyword,
} from '../../json-schema/keywords.js';
import { setOwn } from '../../json-schema/own-properties.js';
import { isPlainObject, type JsonSchema } from '../../json-schema/types.js';
import { composeDescription } from '../annotations.js';
import { joinSchemas } from '../join-variant-schemas.js';
import { mergeAllOf } from '../merge-all-of.js';
import { summarize } from '../shape-summary.js';
import { type RefResolver, typeAtoms } from '../type-atoms.js';

// Combinators a client refuses, rewritten as one node that accepts at least what they accept (superset).
// A union becomes the typed join of its members (the flattener's own join: every type keeps its keywords
// and nested shape); an intersection becomes one object that every member's values satisfy.

/**
 * A `oneOf`/`anyOf` that is not a nullable wrapper (or is one, with `wrappers`), as the typed join of its
 * members, with the node's own keywords laid over it (`overlay`). Superset: each member's values pass the
 * join, and the node's own keywords held for them already.
 */
export function joinUnion(
  node: JsonSchema,
  resolve: RefResolver,
  options: { wrappers?: boolean } = {},
): JsonSchema | undefined {
  const keyword = unionKeyword(node);
  if (!keyword || (!options.wrappers && isNullableWrapper(node))) return undefined;
  const members: unknown[] = node[keyword];
  if (members.length === 0) return undefined;
  const inputs = members.map((schema) => ({ label: summarize(schema, resolve), schema }));
  const { [keyword]: _members, ...own } = node;
  return overlay(joinSchemas(inputs, resolve, { note: false }), own);
}

/**
 * An `allOf` as one node. Merged exactly when the flattener's intersection merge can; otherwise, when
 * every member describes objects, as one open object with every member's properties (a key several
 * declare keeps the first one's schema: its value satisfies each) and every member's required keys;
 * otherwise as the first member whose type can be proven. Each is a superset: a value the `allOf`
 * accepts passes every member.
 */
export function mergeIntersection(node: JsonSchema, resolve: RefResolver): JsonSchema | undefined {
  if (!Array.isArray(node.allOf)) return undefined;
  const exact = mergeAllOf(node);
  if (exact && !('allOf' in exact)) return exact;
  const { allOf: members, ...own } = node as { allOf: unknown[] } & JsonSchema;
  if (members.length === 0) return own;
  const objects = members.every(
    (m) => isPlainObject(m) && (declaredTypes(m)?.every((t) => t === 'object') || isPlainObject(m.properties)),
  );
  if (objects) return overlay(openMerge(members as JsonSchema[]), own);
  const typed = members.find((m) => typeAtoms(m, resolve) !== 'any');
  return overlay(isPlainObject(typed) ? typed : {}, own);
}

function openMerge(members: readonly JsonSchema[]): JsonSchema {
  const properties: JsonSchema = {};
  const required = new Set<string>();
  for (const member of members) {
    if (isPlainObject(member.properties)) {
      for (const [key, schema] of Object.entries(member.properties)) {
        if (!Object.hasOwn(properties, key)) setOwn(properties, key, schema);
      }
    }
    if (Array.isArray(member.required)) for (const key of member.required) required.add(key);
  }
  const out: JsonSchema = { type: 'object', properties };
  if (required.size > 0) out.required = [...required];
  const description = composeDescription(members.map((m) => m.description));
  if (description !== undefined) out.description = description;
  return out;
}

/** The family a validation keyword belongs to, for dropping a family as a whole. */
function familyOf(keyword: string): JsonType | undefined {
  for (const type of ['object', 'array', 'string', 'number'] as const) {
    if (TYPE_FAMILIES[type].includes(keyword)) return type;
  }
  return undefined;
}

/**
 * `base` with `own` (the keywords that stood beside a combinator) laid over it, staying a superset of
 * "`own` and the combinator". Annotations: `own`'s, descriptions composed. `type`: the types both
 * allow. A keyword both give differently is dropped with its whole family (an object's `properties`
 * without its `additionalProperties` would otherwise refuse more), and so are differing `enum`/`const`.
 */
export function overlay(base: JsonSchema, own: JsonSchema): JsonSchema {
  const out: JsonSchema = { ...base };
  const dropped = new Set<JsonType>();
  for (const [key, value] of Object.entries(own)) {
    if (key === 'description') continue;
    if (ANNOTATION_KEYWORDS.has(key) || META_KEYWORDS.has(key)) setOwn(out, key, value);
    else if (key === 'type') {
      const mine = declaredTypes(own) ?? [];
      const theirs = declaredTypes(base);
      const both = theirs
        ? theirs.filter((t) => mine.includes(t) || (t === 'integer' && mine.includes('number')))
        : mine;
      const kept = both.length > 0 ? both : mine;
      out.type = kept.length === 1 ? kept[0] : kept;
    } else if (!Object.hasOwn(base, key)) setOwn(out, key, value);
    else if (JSON.stringify(base[key]) !== JSON.stringify(value)) {
      const family = familyOf(key);
      if (family) dropped.add(family);
      else delete out[key];
    }
  }
  for (const family of dropped) for (const key of TYPE_FAMILIES[family]) delete out[key];
  const description = composeDescription([own.description, base.description]);
  if (description !== undefined) out.description = description;
  else delete out.description;
  return out;
}
