import { declaredTypes, TYPE_FAMILIES } from '../../json-schema/keywords.js';
import type { JsonSchema } from '../../json-schema/types.js';
import { composeDescription } from '../annotations.js';
import { summarize } from '../shape-summary.js';
import { joinUnion, mergeIntersection } from './combinators.js';
import type { Rewrite } from './walk.js';

// Rewrites more than one profile uses. Each says its kind: SUPERSET (accepts every value the node
// accepted) or NARROWING (reported through `ctx.narrow`).

/** SUPERSET: a `oneOf`/`anyOf` other than a nullable wrapper becomes the typed join of its members. */
export const unionToJoin: Rewrite = (node, ctx) => joinUnion(node, ctx.resolve);

/** SUPERSET: an `allOf` becomes one node (the exact merge where the flattener's merge applies). */
export const intersectionToNode: Rewrite = (node, ctx) => mergeIntersection(node, ctx.resolve);

/** The rewrite at the document root only. */
export const atRoot =
  (rewrite: Rewrite): Rewrite =>
  (node, ctx) =>
    ctx.atRoot ? rewrite(node, ctx) : undefined;

/**
 * SUPERSET: a `type` list of several types besides null is dropped (the result admits null too). The
 * other types' keywords constrain only values of their type and stay; the object keywords go with it (a
 * client reads `properties` without `type: "object"` as a malformed object), and the description says
 * what the node expects instead (`Expects: string | { x }.`).
 */
export const typeListToUntyped: Rewrite = (node, ctx) => {
  const types = declaredTypes(node);
  if (!Array.isArray(node.type) || !types) return undefined;
  if (types.length === 1) return { ...node, type: types[0] };
  if (types.filter((t) => t !== 'null').length < 2) return undefined; // one type and null: the profile's null rule
  const expects = `Expects: ${summarize(node, ctx.resolve)}.`;
  const out: JsonSchema = { ...node };
  delete out.type;
  for (const key of TYPE_FAMILIES.object) delete out[key];
  out.description = composeDescription([typeof node.description === 'string' ? node.description : undefined, expects]);
  return out;
};

/** SUPERSET: a `format` the client does not take is dropped (the Zod check still applies to calls). */
export const dropFormatsOutside =
  (allowed: readonly string[]): Rewrite =>
  (node) => {
    if (typeof node.format !== 'string' || allowed.includes(node.format)) return undefined;
    const { format: _format, ...rest } = node;
    return rest;
  };

/** SUPERSET: removes `keys` from the node when present. */
export function without(node: JsonSchema, keys: readonly string[]): JsonSchema | undefined {
  if (!keys.some((k) => k in node)) return undefined;
  const out: JsonSchema = { ...node };
  for (const k of keys) delete out[k];
  return out;
}
