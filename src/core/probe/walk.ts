import { isPlainObject, type JsonSchema, pointer } from '../json-schema.js';
import type { SchemaVisit } from './types.js';

// Only these keywords hold sub-schemas. Data keywords (`default`, `examples`, `const`, `enum`) are never
// walked as schemas, so a default value shaped like `{ properties: ... }` is not mistaken for one.
/** Keywords holding one sub-schema, with whether a matching value sits one level deeper. (A Map: `then` as a plain key would make the table thenable.) */
const SINGLE = new Map<string, boolean>([
  ['items', true],
  ['additionalItems', true],
  ['additionalProperties', true],
  ['unevaluatedItems', true],
  ['unevaluatedProperties', true],
  ['contains', true],
  ['propertyNames', false],
  ['not', false],
  ['if', false],
  ['then', false],
  ['else', false],
  ['contentSchema', false],
]);
/** Keywords holding an array of sub-schemas (`items` as an array is draft-07 tuple form). */
const LIST: Record<string, boolean> = { prefixItems: true, items: true, allOf: false, anyOf: false, oneOf: false };
/** Keywords holding a map of sub-schemas; `$defs` entries are templates, so they start again at depth 0. */
const MAP: Record<string, boolean> = { properties: true, patternProperties: true, dependentSchemas: false };
const DEFS = ['$defs', 'definitions'];

/**
 * Every object sub-schema of `root`, root first, in document order.
 * A cycle in the object graph (not JSON, reported by the value scan) stops the descent instead of looping.
 */
export function* walkSchemas(root: JsonSchema): Generator<SchemaVisit> {
  yield* visit({ node: root, pointer: '', depth: 0 }, new Set());
}

function* visit(current: SchemaVisit, ancestors: Set<object>): Generator<SchemaVisit> {
  const { node } = current;
  if (ancestors.has(node)) return;
  yield current;
  ancestors.add(node);
  const child = (value: unknown, keyword: string, key: string | undefined, deeper: boolean, depth?: number) =>
    isPlainObject(value)
      ? visit(
          {
            node: value,
            pointer: key === undefined ? pointer(current.pointer, keyword) : pointer(current.pointer, keyword, key),
            parent: current,
            keyword,
            key,
            depth: depth ?? current.depth + (deeper ? 1 : 0),
          },
          ancestors,
        )
      : undefined;
  for (const [keyword, value] of Object.entries(node)) {
    let children: Array<Generator<SchemaVisit> | undefined> = [];
    if (Object.hasOwn(LIST, keyword) && Array.isArray(value)) {
      children = value.map((v, i) => child(v, keyword, String(i), LIST[keyword]!));
    } else if (SINGLE.has(keyword)) {
      children = [child(value, keyword, undefined, SINGLE.get(keyword)!)];
    } else if (Object.hasOwn(MAP, keyword) && isPlainObject(value)) {
      children = Object.entries(value).map(([k, v]) => child(v, keyword, k, MAP[keyword]!));
    } else if (DEFS.includes(keyword) && isPlainObject(value)) {
      children = Object.entries(value).map(([k, v]) => child(v, keyword, k, false, 0));
    }
    for (const c of children) if (c) yield* c;
  }
  ancestors.delete(node);
}
