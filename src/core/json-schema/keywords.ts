import { setOwn } from './own-properties.js';
import { isPlainObject, type JsonSchema } from './types.js';

// Keyword tables for draft 2020-12, so every walk in this folder knows which values are sub-schemas
// (to recurse into) and which are data (`const`, `enum`, `default`, `examples`: never walked, never rewritten).

/** Keywords that say something about a schema without constraining what it accepts. */
export const ANNOTATION_KEYWORDS: ReadonlySet<string> = new Set([
  'title',
  'description',
  'default',
  'examples',
  '$comment',
  'deprecated',
  'readOnly',
  'writeOnly',
]);

/** Identity and container keywords that sit beside validation but validate nothing themselves. */
export const META_KEYWORDS: ReadonlySet<string> = new Set([
  '$schema',
  '$id',
  '$anchor',
  '$dynamicAnchor',
  '$vocabulary',
  '$defs',
  'definitions',
]);

/** Keywords whose value is one sub-schema. (`items` may also be an array in pre-2020 documents.) */
const SINGLE: ReadonlySet<string> = new Set([
  'items',
  'additionalItems',
  'additionalProperties',
  'propertyNames',
  'contains',
  'not',
  'if',
  'then',
  'else',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contentSchema',
]);

/** Keywords whose value is an array of sub-schemas. */
const LIST: ReadonlySet<string> = new Set(['prefixItems', 'allOf', 'anyOf', 'oneOf']);

/** Keywords whose value maps names to sub-schemas. */
const MAP: ReadonlySet<string> = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
]);

/**
 * Keywords under which a wider sub-schema would make the parent NARROWER (`not`) or change which branch
 * applies (`if`). Widening is only sound in positive positions, so these sub-trees are never rewritten.
 */
export const NEGATIVE_POSITIONS: ReadonlySet<string> = new Set(['not', 'if']);

/**
 * Keywords that make a node's result depend on what its in-place sub-schemas evaluated. Rewriting
 * anything below such a node could change that set, so the node is left exactly as it is.
 */
const EVALUATION_DEPENDENT: readonly string[] = ['unevaluatedProperties', 'unevaluatedItems'];

/**
 * The first `EVALUATION_DEPENDENT` keyword `node` holds, or undefined. Asked at every node of every document a
 * mount projects: no closure, and (in code not yet optimised, as at a Worker's startup) no iterator result.
 */
export function evaluationDependent(node: object): string | undefined {
  for (let i = 0; i < EVALUATION_DEPENDENT.length; i++)
    if (EVALUATION_DEPENDENT[i]! in node) return EVALUATION_DEPENDENT[i];
  return undefined;
}

/** A sub-schema position: the keyword holding it and, for lists and maps, the index or name. */
export type Position = { keyword: string; key?: string | number };

/** The three tables as one (they share no keyword): every walk asks this of every keyword it meets. */
const SHAPES: ReadonlyMap<string, 'single' | 'list' | 'map'> = new Map([
  ...[...SINGLE].map((k) => [k, 'single'] as const),
  ...[...LIST].map((k) => [k, 'list'] as const),
  ...[...MAP].map((k) => [k, 'map'] as const),
]);

/** How a keyword holds sub-schemas: one, a list, a name → schema map, or none (data or a scalar). */
export function subschemaShape(keyword: string): 'single' | 'list' | 'map' | undefined {
  return SHAPES.get(keyword);
}

/** Calls `fn` for every direct sub-schema of `node`, in document order. */
export function forEachSubschema(node: JsonSchema, fn: (child: unknown, at: Position) => void): void {
  for (const keyword of Object.keys(node)) {
    const value = node[keyword];
    if (SINGLE.has(keyword)) {
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) fn(value[i], { keyword, key: i });
      } else fn(value, { keyword });
    } else if (LIST.has(keyword) && Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) fn(value[i], { keyword, key: i });
    } else if (MAP.has(keyword) && isPlainObject(value)) {
      for (const name of Object.keys(value)) fn(value[name], { keyword, key: name });
    }
  }
}

/**
 * Whether `test` holds for some direct sub-schema of `node`, asked in document order until it does: for the
 * walks that only look for something, without a position object per child (and, with a module-level `test`,
 * without a closure per node).
 */
export function someSubschema(node: JsonSchema, test: (child: unknown) => boolean): boolean {
  const keywords = Object.keys(node);
  for (let k = 0; k < keywords.length; k++) {
    const keyword = keywords[k]!;
    const value = node[keyword];
    if (SINGLE.has(keyword) && !Array.isArray(value)) {
      if (test(value)) return true;
    } else if (SINGLE.has(keyword) || LIST.has(keyword)) {
      if (Array.isArray(value)) for (let i = 0; i < value.length; i++) if (test(value[i])) return true;
    } else if (MAP.has(keyword) && isPlainObject(value)) {
      const names = Object.keys(value);
      for (let i = 0; i < names.length; i++) if (test(value[names[i]!])) return true;
    }
  }
  return false;
}

/**
 * A shallow copy of `node` with every direct sub-schema replaced by `fn(child)`. Data keywords are
 * copied by reference; callers never mutate them.
 */
export function mapSubschemas(node: JsonSchema, fn: (child: unknown, at: Position) => unknown): JsonSchema {
  const out: JsonSchema = {};
  for (const keyword of Object.keys(node)) {
    const value = node[keyword];
    if (SINGLE.has(keyword)) {
      setOwn(
        out,
        keyword,
        Array.isArray(value) ? value.map((child, i) => fn(child, { keyword, key: i })) : fn(value, { keyword }),
      );
    } else if (LIST.has(keyword) && Array.isArray(value)) {
      out[keyword] = value.map((child, i) => fn(child, { keyword, key: i }));
    } else if (MAP.has(keyword) && isPlainObject(value)) {
      const map: JsonSchema = {};
      for (const name of Object.keys(value)) setOwn(map, name, fn(value[name], { keyword, key: name }));
      out[keyword] = map;
    } else {
      setOwn(out, keyword, value);
    }
  }
  return out;
}

/**
 * `mapSubschemas`, but `node` itself when `fn` returns every child unchanged (`===`), and a list or map
 * itself when all of its children are: a rewrite that changes nothing allocates nothing. The result may
 * therefore share sub-trees with `node`; only for callers that never mutate what they get back.
 */
export function mapSubschemasShared(node: JsonSchema, fn: (child: unknown, at: Position) => unknown): JsonSchema {
  return mapKeywordsShared(node, fn, mapKeyword);
}

function mapKeyword(keyword: string, value: unknown, fn: (child: unknown, at: Position) => unknown): unknown {
  if (SINGLE.has(keyword)) return Array.isArray(value) ? mapList(value, keyword, fn) : fn(value, { keyword });
  if (LIST.has(keyword) && Array.isArray(value)) return mapList(value, keyword, fn);
  if (MAP.has(keyword) && isPlainObject(value)) return mapMap(value, keyword, fn);
  return value;
}

/**
 * `mapSubschemasShared` for the walks that leave negative positions (`not`, `if`) as they are and need no
 * position: `fn` is called on every other direct sub-schema, without a position object per child.
 */
export function mapPositiveSubschemasShared(node: JsonSchema, fn: (child: unknown) => unknown): JsonSchema {
  return mapKeywordsShared(node, fn, mapPositiveKeyword);
}

function mapPositiveKeyword(keyword: string, value: unknown, fn: (child: unknown) => unknown): unknown {
  const shape = SHAPES.get(keyword);
  if (shape === 'single') {
    if (NEGATIVE_POSITIONS.has(keyword)) return value;
    return Array.isArray(value) ? mapEach(value, fn) : fn(value);
  }
  if (shape === 'list') return Array.isArray(value) ? mapEach(value, fn) : value;
  if (shape === 'map' && isPlainObject(value)) return mapValues(value, fn);
  return value;
}

/**
 * `node` with each keyword's value replaced by `mapOne(keyword, value, fn)`: `node` itself when every value
 * comes back unchanged (`===`), else a copy made at the first change (module-level `mapOne`: no closure per node).
 */
function mapKeywordsShared<F>(
  node: JsonSchema,
  fn: F,
  mapOne: (keyword: string, value: unknown, fn: F) => unknown,
): JsonSchema {
  let out: JsonSchema | undefined;
  const keywords = Object.keys(node);
  for (let k = 0; k < keywords.length; k++) {
    const keyword = keywords[k]!;
    const value = node[keyword];
    const mapped = mapOne(keyword, value, fn);
    if (mapped !== value && out === undefined) out = keptBefore(node, keywords, k);
    if (out !== undefined) setOwn(out, keyword, mapped);
  }
  return out ?? node;
}

/** A copy of `node`'s first `k` keys (in `keywords`' order): what a shared map keeps once a child changes. */
function keptBefore(node: JsonSchema, keywords: readonly string[], k: number): JsonSchema {
  const out: JsonSchema = {};
  for (let j = 0; j < k; j++) setOwn(out, keywords[j]!, node[keywords[j]!]);
  return out;
}

function mapEach(list: unknown[], fn: (child: unknown) => unknown): unknown[] {
  let out: unknown[] | undefined;
  for (let i = 0; i < list.length; i++) {
    const mapped = fn(list[i]);
    if (mapped !== list[i] && out === undefined) out = list.slice(0, i);
    if (out !== undefined) out.push(mapped);
  }
  return out ?? list;
}

function mapValues(map: JsonSchema, fn: (child: unknown) => unknown): JsonSchema {
  let out: JsonSchema | undefined;
  const names = Object.keys(map);
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    const mapped = fn(map[name]);
    if (mapped !== map[name] && out === undefined) out = keptBefore(map, names, i);
    if (out !== undefined) setOwn(out, name, mapped);
  }
  return out ?? map;
}

function mapList(list: unknown[], keyword: string, fn: (child: unknown, at: Position) => unknown): unknown[] {
  let out: unknown[] | undefined;
  for (let i = 0; i < list.length; i++) {
    const mapped = fn(list[i], { keyword, key: i });
    if (mapped !== list[i] && out === undefined) out = list.slice(0, i);
    if (out !== undefined) out.push(mapped);
  }
  return out ?? list;
}

function mapMap(map: JsonSchema, keyword: string, fn: (child: unknown, at: Position) => unknown): JsonSchema {
  let out: JsonSchema | undefined;
  const names = Object.keys(map);
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    const mapped = fn(map[name], { keyword, key: name });
    if (mapped !== map[name] && out === undefined) out = keptBefore(map, names, i);
    if (out !== undefined) setOwn(out, name, mapped);
  }
  return out ?? map;
}

/** JSON instance types as `type` names them. `integer` is the subset of `number` with no fraction. */
export type JsonType = 'null' | 'boolean' | 'object' | 'array' | 'string' | 'number' | 'integer';

const JSON_TYPES: readonly JsonType[] = ['null', 'boolean', 'object', 'array', 'string', 'number', 'integer'];

/**
 * Validation keywords that only constrain instances of one type. Because the families are disjoint, a
 * node may carry several families beside a `type` array without them interfering.
 */
export const TYPE_FAMILIES: Readonly<Record<JsonType, readonly string[]>> = {
  null: [],
  boolean: [],
  string: ['minLength', 'maxLength', 'pattern', 'format', 'contentEncoding', 'contentMediaType', 'contentSchema'],
  number: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  integer: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  array: [
    'items',
    'prefixItems',
    'additionalItems',
    'minItems',
    'maxItems',
    'uniqueItems',
    'contains',
    'minContains',
    'maxContains',
    'unevaluatedItems',
  ],
  object: [
    'properties',
    'required',
    'additionalProperties',
    'patternProperties',
    'propertyNames',
    'minProperties',
    'maxProperties',
    'dependentRequired',
    'dependentSchemas',
    'unevaluatedProperties',
  ],
};

/** The JSON type of a JSON value (`integer` for whole numbers). */
export function typeOfValue(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (typeof value === 'object') return 'object';
  return typeof value as JsonType;
}

/** `type: "string"` and the like as a one-name list, one frozen list per name: the common case allocates nothing. */
const ONE_TYPE: Readonly<Record<string, readonly JsonType[]>> = Object.fromEntries(
  JSON_TYPES.map((t) => [t, Object.freeze([t])]),
);

/**
 * The `type` keyword as a list of known type names, or undefined when absent or malformed. Read-only: a
 * single name's list is shared, and a list's is the document's own array.
 */
export function declaredTypes(node: JsonSchema): readonly JsonType[] | undefined {
  const t = node.type;
  if (typeof t === 'string') return Object.hasOwn(ONE_TYPE, t) ? ONE_TYPE[t] : undefined;
  if (!Array.isArray(t) || t.length === 0 || !t.every((x) => JSON_TYPES.includes(x))) return undefined;
  return t as JsonType[];
}

/** True for a node typed exactly as an object (`"object"` or `["object"]`). */
export function isObjectTyped(node: unknown): node is JsonSchema {
  if (!isPlainObject(node)) return false;
  const types = declaredTypes(node);
  return types !== undefined && types.length === 1 && types[0] === 'object';
}

/** `{type:"null"}` or an equivalent schema that admits only null. */
export function isNullOnly(node: unknown): boolean {
  if (!isPlainObject(node)) return false;
  const types = declaredTypes(node);
  if (types) return types.length === 1 && types[0] === 'null';
  return node.const === null || (Array.isArray(node.enum) && node.enum.length === 1 && node.enum[0] === null);
}

/** `anyOf`/`oneOf` on a node, when it carries exactly one of them. */
export function unionKeyword(node: JsonSchema): 'anyOf' | 'oneOf' | undefined {
  const any = Array.isArray(node.anyOf);
  const one = Array.isArray(node.oneOf);
  if (any && !one) return 'anyOf';
  if (one && !any) return 'oneOf';
  return undefined;
}

/** `anyOf:[X, {type:"null"}]`: nullability around one real branch, not a choice between shapes. */
export function isNullableWrapper(node: JsonSchema): boolean {
  const kw = unionKeyword(node);
  if (!kw) return false;
  const members: unknown[] = node[kw];
  const nulls = members.filter(isNullOnly).length;
  return nulls > 0 && members.length - nulls === 1;
}
