/**
 * A value as JSON carries it. `JSON.stringify` throws on a `BigInt` and on a cycle, and silently drops or
 * changes what it has no form for (a function, a symbol, `undefined` in an array, `NaN`, `Infinity`, a `Map`
 * or a `Set` that become `{}`): a result holding one would fail to send, or reach the client as something else
 * than what was returned. This walk gives such a value one answer:
 * - converted where the conversion is lossless and standard: a `BigInt` (or a boxed one) becomes its decimal
 *   string (`12345678901234567890n` → `"12345678901234567890"`), as JSON has no integers beyond ±(2^53 − 1);
 * - as `JSON.stringify` reads it where that loses nothing: `toJSON()` is called (a `Date` becomes its ISO
 *   string), boxed numbers, strings and booleans are unboxed, an object sends its own enumerable string keys, a
 *   key holding `undefined` is left out (absent);
 * - otherwise refused with the path of the first such value, in document order, and what it is; so is a
 *   container nested deeper than `maxDepth` (512 by default), which `JSON.stringify` and many clients'
 *   parsers, recursing per level, would overflow on.
 * The value given is never changed: containers on the way to a converted value are copied, each at most once,
 * and everything else is shared with it.
 *
 * Linear in the size of the value (its containers, their keys and scalars, counted by `work`), with an explicit
 * stack (no recursion, however deep the value), parent links instead of a path per level (a path is spelled
 * only for a refusal), and a set of the containers on the current path to find a cycle.
 */

/**
 * A path segment: an object key or an array index.
 * @internal exported for its tests alone
 */
export type JsonPathSegment = string | number;

export type JsonConversion =
  /**
   * `value` carries as JSON: the same value when nothing was converted, else a copy where something was;
   * `converted` counts the positions whose value changed (a `BigInt`, a `toJSON()`, a boxed primitive).
   */
  | { ok: true; value: unknown; converted: number; work: number }
  /** The first value JSON cannot carry: where, and what it is (`a function`, `NaN`, `a Map`, ...). */
  | { ok: false; path: JsonPathSegment[]; what: string; work: number };

/**
 * Containers deeper than this are refused: far beyond real results, within what stringifiers and parsers take.
 * @internal exported for its tests alone
 */
export const MAX_JSON_DEPTH = 512;

/**
 * `value` as JSON carries it (above). `undefined` at the root is left as it is (a handler that returns
 * nothing). `maxDepth`: the most levels of nested arrays and objects (the root's is 1), default
 * `MAX_JSON_DEPTH`. Throws only what the value's own getters or proxy traps throw.
 *
 * @example
 * toJsonValue({ count: 12n, at: new Date(0) })
 * // { ok: true, value: { count: '12', at: '1970-01-01T00:00:00.000Z' }, converted: 2, work: 5 }
 * toJsonValue({ rows: [{ id: 1, fetch() {} }] })
 * // { ok: false, path: ['rows', 0, 'fetch'], what: 'a function', work: 5 }
 */
export function toJsonValue(value: unknown, maxDepth = MAX_JSON_DEPTH): JsonConversion {
  const walk = new Walk(value, maxDepth);
  while (walk.tasks.length > 0) {
    const task = walk.tasks.pop()!;
    if ('exit' in task) {
      walk.leave(task.exit);
      continue;
    }
    const refusal = walk.visit(task);
    if (refusal) return refusal;
  }
  return { ok: true, value: walk.root, converted: walk.converted, work: walk.work };
}

/** The state of one `toJsonValue` walk: its stack of tasks, the containers met, and the result so far. */
class Walk {
  readonly nodes: Node[] = [];
  /** The containers on the current path, to find a cycle. */
  readonly onPath = new Set<object>();
  readonly tasks: Task[];
  root: unknown;
  converted = 0;
  work = 0;
  readonly maxDepth: number;

  constructor(value: unknown, maxDepth: number) {
    this.tasks = [{ value, parent: ROOT, key: '' }];
    this.root = value;
    this.maxDepth = maxDepth;
  }

  /** One value: its JSON form put in place of it when that differs, and a container entered; else the refusal. */
  visit(task: Visit): JsonConversion | undefined {
    this.work++;
    const { parent, key } = task;
    const inArray = parent !== ROOT && Array.isArray(this.nodes[parent]!.source);
    const form = jsonForm(task.value, key, inArray);
    if ('what' in form) return this.refused(parent, key, form.what);
    const v = form.value;
    if (form.changed) {
      this.converted++;
      this.assign(parent, key, v);
    }
    if (typeof v !== 'object' || v === null) return undefined;
    return this.enter(v, parent, key);
  }

  /**
   * Pushes a frame for container `v`: its exit, then its keys or items (or the refusal of a cycle, a built-in
   * JSON would change, an empty object of a class, or a level too deep).
   */
  enter(v: object, parent: number, key: JsonPathSegment): JsonConversion | undefined {
    if (this.onPath.has(v)) return this.refused(parent, key, 'a circular reference (to a value that holds it)');
    const array = Array.isArray(v);
    // Before its keys are listed: a typed array's would be one per item.
    const builtIn = array ? undefined : lostBuiltIn(v);
    if (builtIn) return this.refused(parent, key, builtIn);
    const keys = array ? undefined : Object.keys(v);
    if (keys && keys.length === 0 && ofAClass(v))
      return this.refused(parent, key, `${kindOf(v)} with no own enumerable key (JSON would send {})`);
    const depth = parent === ROOT ? 1 : this.nodes[parent]!.depth + 1;
    if (depth > this.maxDepth)
      return this.refused(parent, key, `nested deeper than ${this.maxDepth} levels of arrays and objects`);
    const size = keys ? keys.length : (v as unknown[]).length;
    const at = this.nodes.push({ source: v, parent, key, size, depth }) - 1;
    this.onPath.add(v);
    this.tasks.push({ exit: at });
    // Pushed last to first, so that they are visited first to last: the first refusal in document order.
    if (keys)
      for (let i = keys.length - 1; i >= 0; i--)
        this.tasks.push({ value: (v as Record<string, unknown>)[keys[i]!], parent: at, key: keys[i]! });
    else for (let i = size - 1; i >= 0; i--) this.tasks.push({ value: (v as unknown[])[i], parent: at, key: i });
    return undefined;
  }

  /** Pops the frame of the container at `at`: every value below it was visited. */
  leave(at: number): void {
    this.onPath.delete(this.nodes[at]!.source);
  }

  /** Puts `child` at `key` of the parent's copy, copying each container on the way up once. */
  assign(parent: number, key: JsonPathSegment, child: unknown): void {
    let at = parent;
    let k = key;
    let v = child;
    for (;;) {
      if (at === ROOT) {
        this.root = v;
        return;
      }
      const node = this.nodes[at]!;
      if (node.copy) {
        setOwn(node.copy, k, v);
        return;
      }
      node.copy = copyOf(node.source);
      this.work += node.size;
      setOwn(node.copy, k, v);
      v = node.copy;
      k = node.key;
      at = node.parent;
    }
  }

  /** The refusal of the value at `key` of `parent`, its path spelled from the parent links. */
  refused(parent: number, key: JsonPathSegment, what: string): JsonConversion {
    const nodes = this.nodes;
    const path: JsonPathSegment[] = [];
    if (parent !== ROOT) path.push(key);
    for (let at = parent; at !== ROOT && nodes[at]!.parent !== ROOT; at = nodes[at]!.parent) path.push(nodes[at]!.key);
    return { ok: false, path: path.reverse(), what, work: this.work };
  }
}

/** What JSON sends for one value, and whether that differs from the value; or what it is, when JSON cannot carry it. */
type JsonForm = { value: unknown; changed: boolean } | { what: string };

/**
 * The JSON form of `value` at `key` (in an array when `inArray`), by its kind: `toJSON()` called, a boxed
 * primitive unboxed, a `BigInt` as its decimal string; refused when it is a function, a symbol, a number
 * JSON has not, or `undefined` in an array. A container's content is the walk's to visit.
 */
function jsonForm(value: unknown, key: JsonPathSegment, inArray: boolean): JsonForm {
  let v = value;
  let changed = false;
  // `JSON.stringify` asks objects and BigInts for `toJSON` (a `BigInt.prototype.toJSON` set by the
  // application is its chosen form, honoured as `JSON.stringify` would).
  if (
    ((typeof v === 'object' && v !== null) || typeof v === 'bigint') &&
    typeof (v as { toJSON?: unknown }).toJSON === 'function'
  ) {
    try {
      v = (v as { toJSON(key: string): unknown }).toJSON(String(key));
    } catch {
      return { what: 'a value whose toJSON() threw' };
    }
    changed = v !== value;
  }
  if (typeof v === 'object' && v !== null) {
    const unboxed = unbox(v);
    if (unboxed !== v) {
      v = unboxed;
      changed = true;
    }
  }
  switch (typeof v) {
    case 'bigint':
      v = v.toString();
      changed = true;
      break;
    case 'number':
      if (!Number.isFinite(v)) return { what: `${v} (JSON has no such number)` };
      break;
    case 'function':
      return { what: 'a function' };
    case 'symbol':
      return { what: 'a symbol' };
    case 'undefined':
      // Left out of an object, as JSON leaves it; an array would send null in its place.
      if (inArray) return { what: 'undefined in an array (JSON would send null)' };
      break;
    default:
      break;
  }
  return { value: v, changed };
}

const ROOT = -1;

interface Node {
  source: object;
  /** The copy made when a value below it was converted. */
  copy?: Record<string, unknown> | unknown[];
  parent: number;
  key: JsonPathSegment;
  /** Its keys or items: what a copy costs. */
  size: number;
  /** Levels of containers down to it, itself included. */
  depth: number;
}

/** A value to visit at `key` of the container at `parent`. */
type Visit = { value: unknown; parent: number; key: JsonPathSegment };

/** A value to visit, or the end of a container's frame. */
type Task = Visit | { exit: number };

/** The primitive a boxed `Number`, `String`, `Boolean` or `BigInt` holds, as `JSON.stringify` reads it; else `v`. */
function unbox(v: object): unknown {
  if (v instanceof Number || v instanceof String || v instanceof Boolean || v instanceof BigInt) return v.valueOf();
  return v;
}

/**
 * What `v` is, when it is a built-in whose content `JSON.stringify` would send as something else: a
 * collection, a promise, an error, a buffer as `{}`, a typed array as an object of its indices. Undefined for
 * every other object.
 */
function lostBuiltIn(v: object): string | undefined {
  for (const [type, name] of EMPTIED) if (v instanceof type) return `${name} (JSON would send {})`;
  if (ArrayBuffer.isView(v)) return `${kindOf(v)} (JSON would send an object of its indices)`;
  return undefined;
}

/**
 * Whether `v` is an object of a class (a prototype other than `Object.prototype` or `null`): with no own
 * enumerable key, its data is where JSON cannot see it (a `Headers`, a stream, an iterator, a class of getters).
 */
function ofAClass(v: object): boolean {
  const proto = Object.getPrototypeOf(v);
  return proto !== Object.prototype && proto !== null;
}

const EMPTIED: ReadonlyArray<readonly [abstract new (...args: never[]) => object, string]> = [
  [Map, 'a Map'],
  [Set, 'a Set'],
  [WeakMap, 'a WeakMap'],
  [WeakSet, 'a WeakSet'],
  [WeakRef, 'a WeakRef'],
  [Promise, 'a Promise (not awaited?)'],
  [RegExp, 'a RegExp'],
  [Error, 'an Error'],
  [ArrayBuffer, 'an ArrayBuffer'],
  [DataView, 'a DataView'],
  ...(typeof SharedArrayBuffer === 'function' ? [[SharedArrayBuffer, 'a SharedArrayBuffer'] as const] : []),
];

/** `an instance of <its constructor's name>`, the name bounded and plain (an identifier), else `an object of a class`. */
function kindOf(v: object): string {
  const name = (v as { constructor?: { name?: unknown } }).constructor?.name;
  if (typeof name !== 'string' || !/^[A-Za-z_$][\w$]{0,63}$/.test(name)) return 'an object of a class';
  return `an instance of ${name}`;
}

function copyOf(source: object): Record<string, unknown> | unknown[] {
  if (Array.isArray(source)) return source.slice();
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(source)) setOwn(copy, key, (source as Record<string, unknown>)[key]);
  return copy;
}

/** `target[key] = value`, as an own property even for `__proto__`. */
function setOwn(target: Record<string, unknown> | unknown[], key: JsonPathSegment, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else (target as Record<JsonPathSegment, unknown>)[key] = value;
}
