import { forEachSubschema } from './keywords.js';
import { positionPointer } from './pointer.js';
import { isPlainObject, type JsonSchema } from './types.js';

// Sub-schemas are found with the flattener's keyword table (forEachSubschema), so data keywords
// (`default`, `examples`, `const`, `enum`) are never walked as schemas and both sides agree on positions.

/** One sub-schema `walkSchemas` reached. Boolean sub-schemas are not visited; they are seen on the parent. */
export interface SchemaVisit {
  node: JsonSchema;
  /** JSON Pointer of `node` in the served document. */
  pointer: string;
  parent?: SchemaVisit;
  /** Keyword of the parent that holds this node: `properties`, `items`, `anyOf`, ... */
  keyword?: string;
  /** Property name, `$defs` name or array index under `keyword`. */
  key?: string;
  /** How many values deep a matching value sits (object properties and array items add one; combinators do not). */
  depth: number;
}

/** Keywords under which a matching value sits one level deeper than the parent's value. */
const DEEPER: ReadonlySet<string> = new Set([
  'properties',
  'patternProperties',
  'additionalProperties',
  'unevaluatedProperties',
  'items',
  'prefixItems',
  'additionalItems',
  'unevaluatedItems',
  'contains',
]);
/** `$defs` entries are templates used elsewhere, so their depth starts again at 0. */
const DEFS: ReadonlySet<string> = new Set(['$defs', 'definitions']);

/**
 * Every object sub-schema of `root`, root first, in document order. Boolean sub-schemas are not visited.
 * A cycle in the object graph (not JSON, reported by the value scan) stops the descent instead of looping.
 * A list, not a generator: each nested `yield*` would pass every visit up through every level above it.
 */
export function walkSchemas(root: JsonSchema): SchemaVisit[] {
  const out: SchemaVisit[] = [];
  visit({ node: root, pointer: '', depth: 0 }, new Set(), out);
  return out;
}

function visit(current: SchemaVisit, ancestors: Set<object>, out: SchemaVisit[]): void {
  if (ancestors.has(current.node)) return;
  out.push(current);
  ancestors.add(current.node);
  const children: SchemaVisit[] = [];
  forEachSubschema(current.node, (child, at) => {
    if (!isPlainObject(child)) return;
    const { keyword, key } = at;
    children.push({
      node: child,
      pointer: positionPointer(current.pointer, at),
      parent: current,
      keyword,
      key: key === undefined ? undefined : String(key),
      depth: DEFS.has(keyword) ? 0 : current.depth + (DEEPER.has(keyword) ? 1 : 0),
    });
  });
  for (const child of children) visit(child, ancestors, out);
  ancestors.delete(current.node);
}
