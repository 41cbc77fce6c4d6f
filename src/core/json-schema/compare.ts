import { ANNOTATION_KEYWORDS, subschemaShape } from './keywords.js';
import { setOwn } from './own-properties.js';
import { isPlainObject } from './types.js';

// Comparison of schemas by meaning rather than by spelling: key order, `required` order and annotations
// must not make two variants' copies of one field look different, or the merge would widen needlessly.

/** JSON text with object keys sorted, so equal JSON values give equal strings (and stable output). */
export function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  if (isPlainObject(value)) {
    const keys = Object.keys(value)
      .filter((k) => value[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${stableStringify(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** A copy of a JSON value with the keys of every object in sorted order (a `__proto__` key stays a key). */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) setOwn(out, key, sortKeys(value[key]));
  return out;
}

/** Deep equality of JSON values: same own keys with equal values, arrays element by element; key order aside. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  // Loops, not every(): this runs over whole sub-trees on every merge of equal variants.
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    for (const k of ka) if (!Object.hasOwn(b, k) || !jsonEqual(a[k], b[k])) return false;
    return true;
  }
  return false;
}

/**
 * Canonical key of what a schema accepts: equal keys mean the schemas accept the same values.
 * Annotations are left out at every schema node (never inside data such as `const` or `properties`
 * names), keys are sorted, and `required` / `type` lists are sorted and deduplicated. Inside
 * `withMemo` it is memoized per node: the bottom-up rewrite compares the same sub-trees at every
 * level of nesting.
 */
export function validationKey(schema: unknown): string {
  if (!isPlainObject(schema)) return stableStringify(schema);
  const cached = keyCache?.get(schema);
  if (cached !== undefined) return cached;
  const parts: string[] = [];
  for (const key of Object.keys(schema).sort()) {
    const value = schema[key];
    if (value === undefined || ANNOTATION_KEYWORDS.has(key)) continue;
    let text: string;
    const shape = subschemaShape(key);
    if (shape === 'single' && !Array.isArray(value)) text = validationKey(value);
    else if ((shape === 'list' || shape === 'single') && Array.isArray(value))
      text = `[${value.map(validationKey).join(',')}]`;
    else if (shape === 'map' && isPlainObject(value)) {
      text = `{${Object.keys(value)
        .sort()
        .map((name) => `${JSON.stringify(name)}:${validationKey(value[name])}`)
        .join(',')}}`;
    } else if ((key === 'required' || key === 'type') && Array.isArray(value)) {
      text = stableStringify([...new Set(value)].sort());
    } else text = stableStringify(value);
    parts.push(`${JSON.stringify(key)}:${text}`);
  }
  const result = `{${parts.join(',')}}`;
  keyCache?.set(schema, result);
  return result;
}

/** Memo tables of one projection call, keyed by node identity (see `withMemo`). */
interface Memo {
  keys: WeakMap<object, string>;
  /** Any other per-node result a projection step memoizes, by the step's own table. */
  tables: Map<symbol, WeakMap<object, unknown>>;
}

let memo: Memo | undefined;
let keyCache: WeakMap<object, string> | undefined;

/**
 * Runs `fn` with `validationKey` (and every `memoTable`) memoized by node identity. Scoped to one
 * projection call: nodes are not mutated while it runs, but a caller may mutate its own document between
 * calls. Nested calls share the outer scope.
 */
export function withMemo<T>(fn: () => T): T {
  const outer = memo;
  memo = outer ?? { keys: new WeakMap(), tables: new Map() };
  keyCache = memo.keys;
  try {
    return fn();
  } finally {
    memo = outer;
    keyCache = outer?.keys;
  }
}

/** The table `id` of the running `withMemo` scope, or undefined outside one (then nothing is memoized). */
export function memoTable<V>(id: symbol): WeakMap<object, V> | undefined {
  if (memo === undefined) return undefined;
  let table = memo.tables.get(id);
  if (table === undefined) {
    table = new WeakMap();
    memo.tables.set(id, table);
  }
  return table as WeakMap<object, V>;
}

/** A deep copy of a JSON value, so results never share structure with the caller's input. */
export function cloneJson<T>(value: T): T {
  if (Array.isArray(value)) return value.map(cloneJson) as T;
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) setOwn(out, key, cloneJson(value[key]));
    return out as T;
  }
  return value;
}

/**
 * `deepFreeze(cloneJson(value))` in one walk: a served document copied from a projection's shared
 * sub-trees is frozen as it is built, so the freeze before serving finds it frozen and walks it no more.
 */
export function frozenCopy<T>(value: T): T {
  if (Array.isArray(value)) return Object.freeze(value.map(frozenCopy)) as T;
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) setOwn(out, key, frozenCopy(value[key]));
    return Object.freeze(out) as T;
  }
  return value;
}

/** `cloneJson`, or `value` itself when it cannot be copied (a cyclic JS object): the fallback of defensive paths. */
export function cloneJsonOrSelf<T>(value: T): T {
  try {
    return cloneJson(value);
  } catch {
    return value;
  }
}

/** Order-preserving de-duplication by JSON value. */
export function uniqueValues<T>(values: readonly T[]): T[] {
  const seen = new Set<string>();
  const out: T[] = [];
  for (const v of values) {
    const key = stableStringify(v);
    if (!seen.has(key)) {
      seen.add(key);
      out.push(v);
    }
  }
  return out;
}
