import { setOwn } from '../json-schema/own-properties.js';
import type { JsonSchema } from '../json-schema/types.js';
import { composeDescription } from './annotations.js';
import { joinSchemas } from './join-variant-schemas.js';
import { summarize } from './shape-summary.js';
import type { RefResolver } from './type-atoms.js';

/**
 * Replaces a union of objects and other types below the root (`z.union([z.string(), obj])`) by the typed
 * join of its members: one node with a `type` list, each type keeping its own keywords. A superset of
 * the union, with no combinator; the original Zod union still parses the call. The members' descriptions
 * are kept, labelled by what each member is.
 */
export function joinMixed(
  node: JsonSchema,
  keyword: 'anyOf' | 'oneOf',
  members: readonly unknown[],
  resolve: RefResolver,
): JsonSchema {
  const inputs = members.map((schema) => ({ label: summarize(schema, resolve), schema }));
  const schema = joinSchemas(inputs, resolve, { note: false });
  const out: JsonSchema = { ...schema };
  const description = composeDescription([
    typeof node.description === 'string' ? node.description : undefined,
    schema.description,
  ]);
  delete out.description;
  for (const key of Object.keys(node)) if (key !== keyword && key !== 'description') setOwn(out, key, node[key]);
  if (description !== undefined) out.description = description;
  return out;
}
