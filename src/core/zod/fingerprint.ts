/**
 * A structural fingerprint of Zod schemas: a hash of everything a served document is computed from, built by
 * one walk of the definitions that builds nothing else (docs/decisions/0024-build-time-documents.md).
 *
 * The walk reads each `_zod.def`: the kinds of definition the tools of a mount are made of (objects, unions,
 * wrappers, arrays, literals, enums, strings, numbers, booleans) by a handler of their own that reads the
 * fields Zod gives that kind, as long as the definition has no other field; any other definition, and any
 * definition with a field its kind's handler does not know, field by field, each through the generic value
 * walk unless Zod defines it, so that a field a Zod release adds is hashed without a change here. Beside the
 * definition it hashes the metadata documents carry (`.describe()`, `.meta()`: `z.globalRegistry`), a
 * default's value and a catch's value (which conversion serves as `default`), an override assigned to
 * `_zod.toJSONSchema` (what conversion serves instead), and follows `z.lazy`. An object or a union already
 * hashed is not walked again: its hash is reused, so sharing a sub-schema or building it twice gives the same
 * fingerprint, and a cycle is hashed as a back-reference to the level it returns to.
 *
 * How it stays cheap where it runs, at a Worker's startup and mostly in V8's unoptimised tiers: the walk
 * writes small integers (tags, and indexes of digests already computed) into one `Int32Array`, so that it
 * allocates nothing per token; each schema's run of tokens is mixed by a polynomial hash whose values stay
 * small integers, and each digest through lookup tables. The rules it keeps: docs/design/fingerprint.md.
 *
 * Runs once per mount on schemas the author wrote, so its recursion depth is the schema's own.
 * Not cryptographic: it guards against drift, not against an attacker (Workers have no synchronous crypto).
 */
import * as z from 'zod';
import { lazyTarget } from './def.js';

// Tokens: small integers, so that in V8's lower tiers each stays a small integer (no number is allocated).
// Each value is prefixed by what it is, and whatever has no count in front is closed by `END`, so that two
// different structures never write the same tokens. Only `REF` is read apart: the index after it names a
// digest, whose lanes are what is hashed (so an index never reaches a fingerprint).
const UNDEFINED = 1;
const NULL = 2;
const FALSE = 3;
const TRUE = 4;
const INT = 5;
const FLOAT = 6;
const STRING = 7;
const BIGINT = 8;
const SYMBOL = 9;
const FUNCTION = 10;
const REGEXP = 11;
const DATE = 12;
const ARRAY = 13;
const OBJECT = 14;
const SCHEMA = 15;
const CHECK = 16;
const BACK = 17;
const META = 18;
const PARENT = 19;
const VARYING = 20;
const THROWS = 21;
const CYCLE = 22;
const MAP = 23;
const SET = 24;
const OVERRIDE = 25;
const FIELD = 26;
const NAN = 27;
const TO_JSON = 28;
const STABLE = 29;
const BOXED = 32;
/** Opens a definition its kind's handler read; the kind's own number follows. */
const KIND = 30;
/** Closes what has no count in front: a schema hashed in line, a shape, an object, a check's fields. */
const END = 31;
/** Integers from here up are never value tokens (`INT` operands are below it in size). */
const SMALL = 2 ** 29;
const REF = SMALL;

/** Definition fields with a meaning of their own, each hashed as its number instead of its name. */
const F = {
  type: 101,
  check: 102,
  shape: 103,
  checks: 106,
  read: 107,
  innerType: 111,
  in: 112,
  out: 113,
  element: 114,
  keyType: 115,
  valueType: 116,
  catchall: 117,
  left: 118,
  right: 119,
  rest: 120,
  options: 121,
  items: 122,
  values: 123,
  discriminator: 124,
  inclusive: 125,
  entries: 126,
} as const;

/**
 * The number of each definition field the generic walk knows: from `innerType` to `rest` a field holding one
 * schema, from `options` to `values` an array of them (or of a literal's values). A null-prototype object, so
 * that a key such as `constructor` finds nothing.
 */
const FIELD_OF: Record<string, number | undefined> = Object.assign(Object.create(null), {
  type: F.type,
  check: F.check,
  shape: F.shape,
  checks: F.checks,
  defaultValue: F.read,
  catchValue: F.read,
  innerType: F.innerType,
  in: F.in,
  out: F.out,
  element: F.element,
  keyType: F.keyType,
  valueType: F.valueType,
  catchall: F.catchall,
  left: F.left,
  right: F.right,
  rest: F.rest,
  options: F.options,
  items: F.items,
  values: F.values,
});

/**
 * The kinds of definition read by a handler of their own, each by its number: 1 to 4 wrap one schema, 10 to
 * 18 hold none but their checks, then objects, arrays, unions, literals and enums. All but objects and unions
 * hold at most one schema besides their checks, and are hashed in line (`schema`).
 */
const KIND_OF: Record<string, number | undefined> = Object.assign(Object.create(null), {
  optional: 1,
  nullable: 2,
  readonly: 3,
  nonoptional: 4,
  string: 10,
  number: 11,
  boolean: 12,
  bigint: 13,
  any: 14,
  unknown: 15,
  null: 16,
  undefined: 17,
  never: 18,
  object: 20,
  array: 21,
  union: 22,
  literal: 23,
  enum: 24,
});
const OBJECT_KIND = 20;
const ARRAY_KIND = 21;
const UNION_KIND = 22;
const LITERAL_KIND = 23;
const ENUM_KIND = 24;

// Three lanes of a polynomial hash, each modulo a prime below 2^24 with a base small enough that every
// intermediate value stays a small integer (under 2^30) in V8's lower tiers.
const P1 = 16777213;
const P2 = 16777199;
const P3 = 16777183;
const B1 = 31;
const B2 = 29;
const B3 = 23;
/**
 * Nine tables of 256 random 24-bit numbers for `keep`, three per lane, one per byte: a fixed sequence
 * (xorshift32 from a fixed seed), since fingerprints built in one process are checked in another.
 */
const TABLES = (() => {
  const tables = new Int32Array(9 * 256);
  let x = 0x2545f491;
  for (let i = 0; i < tables.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    tables[i] = x >>> 8;
  }
  return tables;
})();
/** Schemas hashed in line, one inside another, before the next is hashed as a schema of its own. */
const INLINE_DEPTH = 64;

/** Hashes schemas and values, sharing what it has hashed: one per mount, so a schema two tools use is walked once. */
export interface Fingerprinter {
  /** A schema's fingerprint: 16 hex digits. Throws what a shape getter or a `z.lazy` getter throws. */
  schema(schema: z.core.$ZodType): string;
  /** Any value's fingerprint (a tool's `scopes`, `_meta`); the schemas in it are hashed as by `schema`. */
  value(value: unknown): string;
}

/** What a fingerprinter keeps from one walk to the next (its memo), and what the walk installs. */
interface Tables {
  /** Digests by index, three lanes: schemas', strings' and stable reads'. */
  lane1: Int32Array<ArrayBuffer>;
  lane2: Int32Array<ArrayBuffer>;
  lane3: Int32Array<ArrayBuffer>;
  size: number;
  /** The digest of each schema with no back-reference inside that holds 4 schemas or more. */
  seen: Map<object, number>;
  /** The digest of each string met. */
  texts: Map<string, number>;
}

/**
 * A fingerprinter whose memo lives as long as it does.
 *
 * @example
 * ```ts
 * const fp = fingerprinter();
 * const [a, b] = [fp.schema(tool.input), fp.value(tool._meta)];
 * ```
 */
export function fingerprinter(): Fingerprinter {
  const tables = newTables();
  return { schema: (schema) => top(tables, schema), value: (value) => top(tables, value) };
}

function newTables(): Tables {
  const lanes = () => new Int32Array(1024);
  return { lane1: lanes(), lane2: lanes(), lane3: lanes(), size: 0, seen: new Map(), texts: new Map() };
}

/**
 * The fingerprint of one schema: equal for schemas built alike, different when anything a served document or
 * the parse's input side depends on differs (a key, a literal, a check, a flag, a description, a default,
 * optionality, a variant).
 *
 * @example
 * ```ts
 * fingerprint(z.object({ id: z.string() })) === fingerprint(z.object({ id: z.string() })); // true
 * ```
 */
export function fingerprint(schema: z.core.$ZodType): string {
  return fingerprinter().schema(schema);
}

type Def = Record<string, unknown>;
type Internals = { def: Def; parent?: object; toJSONSchema?: unknown };
type Registry = Pick<WeakMap<object, unknown>, 'get'>;

// The walk's state, in module variables (a closure's slots are the cheapest state in V8's lower tiers). `top`
// installs a fingerprinter's tables here and takes them back, so a walk that re-enters (a getter that
// fingerprints) keeps its own.
let tokens = new Int32Array(4096);
let count = 0;
let lane1 = new Int32Array(0);
let lane2 = new Int32Array(0);
let lane3 = new Int32Array(0);
let size = 0;
let seen = new Map<object, number>();
let texts = new Map<string, number>();
/** The schemas being hashed as schemas of their own, outermost first: a cycle is one met again here. */
let stack: object[] = [];
/** Schemas hashed so far (in line or not), to tell how many a schema holds. */
let entered = 0;
/** The lowest level the current schema's back-references returned to. */
let low = Number.POSITIVE_INFINITY;
/** Schemas being hashed in line, one inside another. */
let inline = 0;
/** The values (not schemas) being walked, to end a cycle that does not pass through a schema. */
let values = new Set<object>();
/** The global registry's own map, read per walk (`clear()` replaces it); undefined when Zod keeps it elsewhere. */
let registry: Registry | undefined;
/** Walks under way: one that re-enters gets a token buffer of its own. */
let active = 0;

/** A number's two 32-bit halves, read through one shared buffer. */
const float = new Float64Array(1);
const halves = new Int32Array(float.buffer);

/** The fingerprint of `value` (a schema or anything else) as 16 hex digits, with `tables` as the memo. */
function top(tables: Tables, value: unknown): string {
  return active === 0 ? run(tables, value) : nested(value);
}

/** Installs `tables`, walks, and takes them back (the memo's lanes may have grown, even when it threw). */
function run(tables: Tables, value: unknown): string {
  count = 0;
  lane1 = tables.lane1;
  lane2 = tables.lane2;
  lane3 = tables.lane3;
  size = tables.size;
  seen = tables.seen;
  texts = tables.texts;
  stack.length = 0;
  entered = 0;
  low = Number.POSITIVE_INFINITY;
  inline = 0;
  if (values.size > 0) values.clear();
  const own = (z.globalRegistry as unknown as { _map?: unknown })._map;
  registry = own instanceof WeakMap ? own : undefined;
  active++;
  try {
    walkValue(value);
    const at = digest(0);
    return hex(lane1[at]!, 6) + hex(lane2[at]!, 6) + hex(lane3[at]! & 0xffff, 4);
  } finally {
    active--;
    tables.lane1 = lane1;
    tables.lane2 = lane2;
    tables.lane3 = lane3;
    tables.size = size;
  }
}

/**
 * A walk begun inside another (a getter that fingerprints): with a token buffer, a stack and a memo of its
 * own, so the outer walk's state is as it left it.
 */
function nested(value: unknown): string {
  const outer = { tokens, count, lane1, lane2, lane3, size, seen, texts, stack, entered, low, inline, values };
  tokens = new Int32Array(4096);
  stack = [];
  values = new Set();
  active--;
  try {
    return run(newTables(), value);
  } finally {
    active++;
    ({ tokens, count, lane1, lane2, lane3, size, seen, texts, stack, entered, low, inline, values } = outer);
  }
}

/** A lane (24 bits) as `digits` hex digits. */
function hex(n: number, digits: number): string {
  return (n % 16 ** digits).toString(16).padStart(digits, '0');
}

/** Room for `n` more tokens. */
function room(n: number): void {
  if (count + n <= tokens.length) return;
  let length = tokens.length * 2;
  while (length < count + n) length *= 2;
  const grown = new Int32Array(length);
  grown.set(tokens.subarray(0, count));
  tokens = grown;
}

function put(t: number): void {
  if (count === tokens.length) room(1);
  tokens[count++] = t;
}

function put2(a: number, b: number): void {
  if (count + 2 > tokens.length) room(2);
  tokens[count++] = a;
  tokens[count++] = b;
}

/**
 * Mixes the tokens from `start` on into a new digest (three lanes of a polynomial hash), drops them, and
 * returns the digest's index. A `REF` mixes the lanes of the digest it names.
 */
function digest(start: number): number {
  let a = 1;
  let b = 2;
  let c = 3;
  const end = count;
  const t = tokens;
  for (let i = start; i < end; i++) {
    const token = t[i]!;
    if (token === REF) {
      const at = t[++i]!;
      a = (a * B1 + lane1[at]!) % P1;
      b = (b * B2 + lane2[at]!) % P2;
      c = (c * B3 + lane3[at]!) % P3;
    } else {
      a = (a * B1 + token) % P1;
      b = (b * B2 + token) % P2;
      c = (c * B3 + token) % P3;
    }
  }
  count = start;
  return keep(a, b, c);
}

/**
 * Stores a digest, each lane put through tabulation (a table of random numbers per byte, the bytes' entries
 * xored); returns its index. The tables are what keep the polynomial from being linear across schemas:
 * without them a schema's digest would be a sum in which two schemas nested the other way round could come
 * out equal. Lookups and xors keep every value a small integer.
 */
function keep(a: number, b: number, c: number): number {
  if (size === lane1.length) {
    const grown = [new Int32Array(size * 2), new Int32Array(size * 2), new Int32Array(size * 2)] as const;
    grown[0].set(lane1);
    grown[1].set(lane2);
    grown[2].set(lane3);
    [lane1, lane2, lane3] = grown;
  }
  // A lane is negative after a negative token: taken to its residue, so that it and v + 2^24 stay apart.
  if (a < 0) a += P1;
  if (b < 0) b += P2;
  if (c < 0) c += P3;
  const t = TABLES;
  lane1[size] = t[a & 255]! ^ t[256 + ((a >>> 8) & 255)]! ^ t[512 + ((a >>> 16) & 255)]!;
  lane2[size] = t[768 + (b & 255)]! ^ t[1024 + ((b >>> 8) & 255)]! ^ t[1280 + ((b >>> 16) & 255)]!;
  lane3[size] = t[1536 + (c & 255)]! ^ t[1792 + ((c >>> 8) & 255)]! ^ t[2048 + ((c >>> 16) & 255)]!;
  return size++;
}

/** A string, by its digest, computed once per fingerprinter. */
function text(s: string): void {
  let at = texts.get(s);
  if (at === undefined) {
    let a = s.length;
    let b = s.length;
    let c = s.length;
    for (let i = 0; i < s.length; i++) {
      const code = s.charCodeAt(i);
      a = (a * B1 + code) % P1;
      b = (b * B2 + code) % P2;
      c = (c * B3 + code) % P3;
    }
    at = keep(a, b, c);
    texts.set(s, at);
  }
  put2(REF, at);
}

/** A number: a small integer as itself, anything else as 16-bit pieces of its halves (-0 apart from 0), NaN as one. */
function number(n: number): void {
  if (Number.isInteger(n) && n < SMALL && n > -SMALL && (n !== 0 || 1 / n > 0)) {
    put2(INT, n);
  } else if (Number.isNaN(n)) {
    put(NAN);
  } else {
    float[0] = n;
    room(5);
    tokens[count++] = FLOAT;
    tokens[count++] = halves[0]! & 0xffff;
    tokens[count++] = halves[0]! >>> 16;
    tokens[count++] = halves[1]! & 0xffff;
    tokens[count++] = halves[1]! >>> 16;
  }
}

/** A Zod schema's `_zod`, when `value` is a schema (its `def.type` a string), else undefined. */
function internalsOf(value: unknown): Internals | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const internals = (value as { _zod?: Internals })._zod;
  const def = internals?.def;
  return typeof def === 'object' && def !== null && typeof def.type === 'string' ? internals : undefined;
}

/**
 * A schema. One of the kinds that hold at most one schema besides their checks (wrappers, arrays, leaves) is
 * hashed in line: its tokens, closed by `END`, go into the enclosing schema's run, with no digest, memo or
 * stack entry of its own. A cycle through such schemas alone (only a definition edited by hand makes one)
 * still ends: past `INLINE_DEPTH` of them, one inside another, the next is hashed as a schema of its own.
 * Any other schema is hashed as one: its digest reused, or computed now, or a back-reference on a cycle.
 * Objects and unions, which can share sub-schemas many times over, are memoised so that the walk stays linear.
 */
function schema(value: object, internals: Internals): void {
  entered++;
  const def = internals.def;
  let kind = KIND_OF[def.type as string];
  if (kind !== undefined && kind !== OBJECT_KIND && kind !== UNION_KIND && inline < INLINE_DEPTH) {
    inline++;
    const read = byKind(def, kind);
    if (read) extras(value, internals);
    inline--;
    if (read) {
      put(END);
      return;
    }
    // Its handler refused the definition (nothing was written): the generic walk reads it.
    kind = undefined;
  }
  const known = seen.get(value);
  if (known !== undefined) {
    put2(REF, known);
    return;
  }
  const at = stack.lastIndexOf(value);
  if (at >= 0) {
    counted(BACK, stack.length - at);
    if (at < low) low = at;
    return;
  }
  const level = stack.push(value) - 1;
  const before = entered;
  const outer = low;
  const outerInline = inline;
  low = Number.POSITIVE_INFINITY;
  inline = 0;
  const start = count;
  schemaBody(value, internals, kind);
  stack.pop();
  inline = outerInline;
  const index = digest(start);
  // A schema with no back-reference inside hashes the same wherever it is met: kept, when it holds enough
  // schemas that walking it again would cost more than remembering it. One on a cycle is not: met first from
  // another schema of the cycle it hashes otherwise, and a fingerprint must not depend on what was walked first.
  const whole = low >= level;
  if (low === Number.POSITIVE_INFINITY && entered - before >= 4) seen.set(value, index);
  low = whole ? outer : Math.min(outer, low);
  put2(REF, index);
}

/** The definition (by its kind's handler, `kind`, when it has one), then what `extras` adds. */
function schemaBody(value: object, internals: Internals, kind: number | undefined): void {
  const def = internals.def;
  put(SCHEMA);
  if (kind === undefined || !byKind(def, kind)) fields(def);
  if (def.type === 'lazy') {
    const target = lazyTarget(value as z.core.$ZodType);
    if (target) schema(target, target._zod as unknown as Internals);
  }
  extras(value, internals);
}

/**
 * The metadata a document carries, the parent's presence and an override. A parent with metadata of its own
 * is hashed whole: conversion puts it in `$defs` when it has an `id` (which its children do not inherit), and
 * leaves out of the child what the parent's definition already says.
 */
function extras(value: object, internals: Internals): void {
  const described = describedParentOf(internals);
  const meta = metaOf(value, described);
  if (meta !== undefined) {
    put(META);
    walkValue(meta);
  }
  if (internals.parent !== undefined) {
    put(PARENT);
    const parent = described === undefined ? undefined : internalsOf(described);
    if (parent !== undefined) schema(described!, parent);
  }
  // Conversion serves what an override assigned to `_zod.toJSONSchema` returns instead of the definition.
  const override = internals.toJSONSchema;
  if (override !== undefined) {
    put(OVERRIDE);
    if (typeof override === 'function') stable(readOverride, internals);
    else walkValue(override);
  }
}

/** The nearest parent (`.describe()` and every check clone have one) with a registry entry of its own. */
function describedParentOf(internals: Internals): object | undefined {
  if (registry === undefined) return undefined;
  for (let p = internals.parent; p !== undefined; p = (p as { _zod?: Internals })._zod?.parent) {
    if (registry.get(p) !== undefined) return p;
  }
  return undefined;
}

/**
 * The metadata conversion puts in a schema's document: its own registry entry, merged with its parents' only
 * where a parent has one (`described`), as `get` would merge them.
 */
function metaOf(value: object, described: object | undefined): unknown {
  if (registry === undefined || described !== undefined) return z.globalRegistry.get(value as z.ZodType);
  return registry.get(value);
}

/**
 * The definitions tools are mostly made of, read by their kind's own fields (`kind`: its number in
 * `KIND_OF`). False, with nothing written, when the definition has a field the kind's handler does not read,
 * or a field that holds what the handler does not expect: then the generic walk reads it.
 */
function byKind(def: Def, kind: number): boolean {
  let keys = 0;
  for (const _ in def) keys++;
  if (kind < 10) {
    const inner = def.innerType;
    const internals = keys === 2 ? internalsOf(inner) : undefined;
    if (internals === undefined) return false;
    put2(KIND, kind);
    schema(inner as object, internals);
    return true;
  }
  if (kind < 20) {
    const checks = def.checks;
    if (checks === undefined) {
      if (keys !== 1) return false;
      put2(KIND, kind);
      return true;
    }
    if (keys !== 2 || !Array.isArray(checks)) return false;
    put2(KIND, kind);
    checkList(checks);
    return true;
  }
  if (kind === LITERAL_KIND || kind === ENUM_KIND) {
    const held = kind === LITERAL_KIND ? def.values : def.entries;
    if (keys !== 2 || typeof held !== 'object' || held === null) return false;
    put2(KIND, kind);
    if (Array.isArray(held)) items(ARRAY, held);
    else walkValue(held);
    return true;
  }
  if (kind === OBJECT_KIND) return objectDef(def, keys);
  if (kind === ARRAY_KIND) {
    const { element, checks } = def;
    const internals = internalsOf(element);
    if (keys !== (checks === undefined ? 2 : 3) || internals === undefined) return false;
    if (checks !== undefined && !Array.isArray(checks)) return false;
    put2(KIND, kind);
    schema(element as object, internals);
    if (checks !== undefined) checkList(checks as unknown[]);
    return true;
  }
  const { options, discriminator, inclusive } = def;
  let expected = 2;
  if (discriminator !== undefined) expected++;
  if (inclusive !== undefined) expected++;
  if (keys !== expected || !Array.isArray(options)) return false;
  if (discriminator !== undefined && typeof discriminator !== 'string') return false;
  if (inclusive !== undefined && typeof inclusive !== 'boolean') return false;
  put2(KIND, kind);
  list(F.options, options);
  if (discriminator !== undefined) {
    put(F.discriminator);
    text(discriminator as string);
  }
  if (inclusive !== undefined) put2(F.inclusive, inclusive ? TRUE : FALSE);
  return true;
}

/** An object's definition: its shape, and its catch-all and checks when it has them. */
function objectDef(def: Def, keys: number): boolean {
  const { catchall, checks } = def;
  const shape = rawShape(def);
  let expected = 2;
  if (catchall !== undefined) expected++;
  if (checks !== undefined) expected++;
  const catchallInternals = catchall === undefined ? undefined : internalsOf(catchall);
  if (keys !== expected || typeof shape !== 'object' || shape === null) return false;
  if (catchall !== undefined && catchallInternals === undefined) return false;
  if (checks !== undefined && !Array.isArray(checks)) return false;
  room(3);
  tokens[count++] = KIND;
  tokens[count++] = OBJECT_KIND;
  tokens[count++] = F.shape;
  shapeEntries(shape as Record<string, unknown>);
  if (catchallInternals !== undefined) {
    put(F.catchall);
    schema(catchall as object, catchallInternals);
  }
  if (checks !== undefined) checkList(checks as unknown[]);
  return true;
}

/**
 * A definition's (or a check's) fields in Zod's order, each that has a value: the ones Zod defines by their
 * number and what they hold, any other by its name and the generic walk.
 */
function fields(def: Def): void {
  for (const key in def) {
    const value = def[key];
    if (value === undefined) continue;
    // Zod caches a `z.lazy`'s target here on first use; the target is hashed after the fields either way.
    if (key === '_cachedInner' && def.type === 'lazy') continue;
    const field = FIELD_OF[key];
    if (field !== undefined && knownField(def, key, field, value)) continue;
    put(FIELD);
    text(key);
    walkValue(value);
  }
}

/** A field the generic walk knows, hashed by what it holds; false when it holds what the field does not. */
function knownField(def: Def, key: string, field: number, value: unknown): boolean {
  switch (field) {
    case F.type:
    case F.check:
      if (typeof value !== 'string') return false;
      put(field);
      text(value);
      return true;
    case F.shape: {
      put(field);
      const shape = rawShape(def);
      if (typeof shape === 'object' && shape !== null) shapeEntries(shape as Record<string, unknown>);
      else walkValue(shape);
      return true;
    }
    case F.checks:
      if (!Array.isArray(value)) return false;
      checkList(value);
      return true;
    case F.read:
      if (key === 'catchValue' && typeof value !== 'function') return false;
      put(field);
      text(key);
      stable(key === 'catchValue' ? readCatch : readDefault, def);
      return true;
    default: {
      if (field >= F.options) {
        if (!Array.isArray(value)) return false;
        list(field, value);
        return true;
      }
      const internals = internalsOf(value);
      if (internals === undefined) return false;
      put(field);
      schema(value as object, internals);
      return true;
    }
  }
}

/** An object's shape as the definition holds it, without running Zod's first-read copy when that has not run. */
function rawShape(def: Def): unknown {
  const getter = (def as { __lookupGetter__?: (key: string) => { raw?: unknown } | undefined }).__lookupGetter__?.(
    'shape',
  );
  return getter?.raw ?? def.shape;
}

function shapeEntries(shape: Record<string, unknown>): void {
  for (const key in shape) {
    const value = shape[key];
    if (value === undefined) continue;
    text(key);
    member(value);
  }
  put(END);
}

/** Opens a run with a count in front: `tag`, then `n` as an integer. */
function counted(tag: number, n: number): void {
  room(3);
  tokens[count++] = tag;
  tokens[count++] = INT;
  tokens[count++] = n;
}

/** A schema, or any other value, where a schema is expected. */
function member(value: unknown): void {
  const internals = internalsOf(value);
  if (internals !== undefined) schema(value as object, internals);
  else walkValue(value);
}

/** An array of schemas (or of a literal's values), after its field's number and length. */
function list(field: number, items: readonly unknown[]): void {
  counted(field, items.length);
  for (const item of items) member(item);
}

/** The checks (`.min(1)`, `.regex(...)`) by their definitions. */
function checkList(checks: readonly unknown[]): void {
  counted(F.checks, checks.length);
  for (const check of checks) {
    // A check can be a schema (`.int()`); most are not (`.min(1)`).
    const internals = internalsOf(check);
    if (internals !== undefined) schema(check as object, internals);
    else {
      const def = checkDef(check);
      if (def !== undefined) checkFields(def);
      else walkValue(check);
    }
  }
}

/** The definition of a check that is not a schema (`.min(1)`: its `_zod` has a `check` function), else undefined. */
function checkDef(value: unknown): Def | undefined {
  const zod =
    typeof value === 'object' && value !== null
      ? (value as { _zod?: { def?: unknown; check?: unknown } })._zod
      : undefined;
  const def = zod?.def;
  return typeof def === 'object' && def !== null && typeof zod!.check === 'function' ? (def as Def) : undefined;
}

/** A check, by its definition: what it checks. */
function checkFields(def: Def): void {
  put(CHECK);
  fields(def);
  put(END);
}

/** What `stable` reads twice. */
type Read = (owner: any) => unknown;
const readDefault: Read = (def) => def.defaultValue;
const readCatch: Read = (def) => def.catchValue(undefined);
const readOverride: Read = (internals) => internals.toJSONSchema();
const readToJSON: Read = (value) => value.toJSON();

/**
 * A value a getter produces (a default, a catch's value, an override): hashed when two reads agree, else as
 * "varying" (`.default(() => randomUUID())`), so that a generated default does not make every mount stale.
 */
function stable(read: Read, owner: object): void {
  const first = once(read, owner);
  const second = once(read, owner);
  if (lane1[first] !== lane1[second] || lane2[first] !== lane2[second] || lane3[first] !== lane3[second]) {
    put(VARYING);
    return;
  }
  room(3);
  tokens[count++] = STABLE;
  tokens[count++] = REF;
  tokens[count++] = first;
}

/** The digest of one read (what it returns, or that it threw). */
function once(read: Read, owner: object): number {
  const start = count;
  let value: unknown;
  let threw = false;
  try {
    value = read(owner);
  } catch {
    threw = true;
  }
  if (threw) put(THROWS);
  else walkValue(value);
  return digest(start);
}

function walkValue(value: unknown): void {
  switch (typeof value) {
    case 'object':
      if (value === null) put(NULL);
      else object(value);
      return;
    case 'string':
      put(STRING);
      text(value);
      return;
    case 'number':
      number(value);
      return;
    case 'boolean':
      put(value ? TRUE : FALSE);
      return;
    case 'function':
      put(FUNCTION);
      return;
    case 'undefined':
      put(UNDEFINED);
      return;
    case 'bigint':
      put(BIGINT);
      text(value.toString());
      return;
    default:
      put(SYMBOL);
      text((value as symbol).description ?? '');
  }
}

function object(value: object): void {
  const internals = internalsOf(value);
  if (internals !== undefined) {
    schema(value, internals);
    return;
  }
  // Every value being walked is on `values`, so a cycle through values alone (metadata, a check's fields)
  // ends where it returns, however many ways it returns.
  if (values.has(value)) {
    put(CYCLE);
    return;
  }
  values.add(value);
  const def = checkDef(value);
  if (def !== undefined) checkFields(def);
  else container(value);
  values.delete(value);
}

/**
 * Arrays, plain objects and the built-in objects a default can hold, each as JSON serialises it or tagged
 * apart from what it would be mistaken for (a `Set` serialises as `{}`, not as the array of its items).
 */
function container(value: object): void {
  const proto = Object.getPrototypeOf(value);
  if ((proto === Object.prototype || proto === null) && (value as { toJSON?: unknown }).toJSON === undefined) {
    entries(value as Record<string, unknown>);
    return;
  }
  if (Array.isArray(value)) {
    items(ARRAY, value);
    return;
  }
  if (value instanceof Number || value instanceof String || value instanceof Boolean) {
    // JSON serialises a boxed primitive as the primitive.
    put(BOXED);
    walkValue(value.valueOf());
    return;
  }
  if (value instanceof RegExp) {
    put(REGEXP);
    text(value.source);
    text(value.flags);
    return;
  }
  if (value instanceof Date) {
    put(DATE);
    number(value.getTime());
    return;
  }
  if (value instanceof Set) {
    items(SET, [...value]);
    return;
  }
  if (value instanceof Map) {
    items(MAP, [...value]);
    return;
  }
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    // It serialises as what its `toJSON` returns (a served default is that).
    put(TO_JSON);
    stable(readToJSON, value);
    return;
  }
  entries(value as Record<string, unknown>);
}

/**
 * An object's own enumerable entries, an undefined value included: JSON leaves such a key out of a default,
 * but conversion assigns a metadata key as it is, so `undefined` there deletes what it would have written.
 */
function entries(value: Record<string, unknown>): void {
  put(OBJECT);
  for (const key of Object.keys(value)) {
    text(key);
    walkValue(value[key]);
  }
  put(END);
}

function items(tag: number, list: readonly unknown[]): void {
  counted(tag, list.length);
  for (const item of list) walkValue(item);
}
