import { pointer } from '../json-schema/pointer.js';
import { isPlainObject, type JsonSchema } from '../json-schema/types.js';

/** A position below this node where a value the model writes sits, and how to name it. */
export interface TypedPosition {
  path: string;
  schema: unknown;
  kind: 'property' | 'item' | 'record';
  /** `` `key` ``, `each array item`, `tuple item 0`, `each record value`. */
  name: string;
}

/**
 * The positions of `node` a model fills in: each property, the array items (and each tuple item), and the
 * values of a record (`additionalProperties` or `patternProperties` on an object with no declared
 * properties, or with `propertyNames`). A loose object's `additionalProperties: {}` beside declared
 * properties only lets extra keys through, and is not one.
 */
export function typedPositions(node: JsonSchema, at: string): TypedPosition[] {
  const out: TypedPosition[] = [];
  if (isPlainObject(node.properties)) {
    for (const [key, schema] of Object.entries(node.properties))
      out.push({ path: pointer(at, 'properties', key), schema, kind: 'property', name: `\`${key}\`` });
  }
  if ('items' in node && node.items !== false && !Array.isArray(node.items))
    out.push({ path: pointer(at, 'items'), schema: node.items, kind: 'item', name: 'each array item' });
  if (Array.isArray(node.prefixItems)) {
    for (const [i, schema] of (node.prefixItems as unknown[]).entries())
      out.push({ path: pointer(at, 'prefixItems', i), schema, kind: 'item', name: `tuple item ${i}` });
  }
  const record =
    !isPlainObject(node.properties) || Object.keys(node.properties).length === 0 || 'propertyNames' in node;
  if (record && 'additionalProperties' in node && node.additionalProperties !== false)
    out.push({
      path: pointer(at, 'additionalProperties'),
      schema: node.additionalProperties,
      kind: 'record',
      name: 'each record value',
    });
  if (record && isPlainObject(node.patternProperties)) {
    for (const [pattern, schema] of Object.entries(node.patternProperties))
      out.push({
        path: pointer(at, 'patternProperties', pattern),
        schema,
        kind: 'record',
        name: `each value of a key matching /${pattern}/`,
      });
  }
  return out;
}
