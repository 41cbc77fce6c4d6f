import { subschemaShape } from './keywords.js';
import { escapePointerToken } from './pointer.js';
import { isPlainObject, type JsonSchema } from './types.js';

// Sub-schemas are found with the flattener's keyword table (subschemaShape, as forEachSubschema reads it), so data keywords
// (`default`, `examples`, `const`, `enum`) are never walked as schemas and both sides agree on positions.

/** One sub-schema `walkSchemas` reached. Boolean sub-schemas are not visited; they are seen on the parent. */
export interface SchemaVisit {
  node: JsonSchema;
  /** JSON Pointer of `node` in the served document (spelled when first read: see `Visit`). */
  readonly pointer: string;
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
  visit(new Visit(root, undefined, undefined, undefined, 0), new Set(), out);
  return out;
}

/**
 * A visit whose pointer is spelled from its parent's when first read: the probe visits every node of every
 * document at startup, and only the few nodes a rule reports on (or compares by pointer) need one.
 */
class Visit implements SchemaVisit {
  #pointer: string | undefined;
  constructor(
    readonly node: JsonSchema,
    readonly parent: Visit | undefined,
    readonly keyword: string | undefined,
    readonly key: string | undefined,
    readonly depth: number,
  ) {}
  get pointer(): string {
    if (this.#pointer === undefined) {
      // Keywords are plain names (no `~` or `/`); a key is escaped.
      const at = this.parent === undefined ? '' : `${this.parent.pointer}/${this.keyword}`;
      this.#pointer = this.key === undefined ? at : `${at}/${escapePointerToken(this.key)}`;
    }
    return this.#pointer;
  }
}

function visit(current: Visit, ancestors: Set<object>, out: SchemaVisit[]): void {
  if (ancestors.has(current.node)) return;
  out.push(current);
  ancestors.add(current.node);
  // forEachSubschema's order and positions, without a callback and a position object per child: the probe
  // walks every node of every document at startup.
  const { node } = current;
  const keywords = Object.keys(node);
  for (let k = 0; k < keywords.length; k++) {
    const keyword = keywords[k]!;
    const shape = subschemaShape(keyword);
    if (shape === undefined) continue;
    const value = node[keyword];
    if (shape === 'map') {
      if (!isPlainObject(value)) continue;
      const names = Object.keys(value);
      for (let i = 0; i < names.length; i++) child(current, value[names[i]!], keyword, names[i]!, ancestors, out);
    } else if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) child(current, value[i], keyword, i, ancestors, out);
    } else if (shape === 'single') child(current, value, keyword, undefined, ancestors, out);
  }
  ancestors.delete(current.node);
}

function child(
  parent: Visit,
  node: unknown,
  keyword: string,
  key: string | number | undefined,
  ancestors: Set<object>,
  out: SchemaVisit[],
): void {
  if (!isPlainObject(node)) return;
  const depth = DEFS.has(keyword) ? 0 : parent.depth + (DEEPER.has(keyword) ? 1 : 0);
  visit(new Visit(node, parent, keyword, key === undefined ? undefined : String(key), depth), ancestors, out);
}
