import { declaredTypes, TYPE_FAMILIES } from '../../json-schema/keywords.js';
import { setOwn } from '../../json-schema/own-properties.js';
import { pointer } from '../../json-schema/pointer.js';
import type { JsonSchema } from '../../json-schema/types.js';
import { composeDescription } from '../annotations.js';
import { summarize } from '../shape-summary.js';
import { joinUnion, mergeIntersection } from './combinators.js';
import type { NodeContext, Rewrite } from './walk.js';

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

/**
 * NARROWING modulo repair: every key `properties` lists goes into `required`, each of the `missing` ones (the
 * optional keys) served as `nullable` makes it and reported at the key, with `because` (why the client needs
 * every key listed, a clause). Writes `properties` and `required` on `out`; with no key missing, leaves it.
 */
export function requireEveryKey(
  out: JsonSchema,
  object: { properties: JsonSchema; required: readonly unknown[]; missing: readonly string[] },
  nullable: (schema: unknown) => unknown,
  because: string,
  ctx: Pick<NodeContext, 'pointer' | 'narrow'>,
): void {
  const { properties, required, missing } = object;
  if (missing.length === 0) return;
  const props: JsonSchema = {};
  for (const key of Object.keys(properties)) {
    const optional = missing.includes(key);
    const served = optional ? nullable(properties[key]) : properties[key];
    setOwn(props, key, served);
    if (optional) {
      // A field that took null already keeps its meaning: null reaches the tool as null.
      const tookNull = JSON.stringify(served) === JSON.stringify(properties[key]);
      ctx.narrow(
        tookNull
          ? `\`${key}\` is listed in required, ${because}; it is nullable, so a model sends null for none, and the tool receives null`
          : `\`${key}\` is listed in required and served nullable, ${because}; null sent for it is read as leaving it out`,
        pointer(ctx.pointer, 'properties', key),
      );
    }
  }
  out.properties = props;
  out.required = [...required, ...missing];
}
