/**
 * A structural fingerprint of Zod schemas: a hash of everything a served document is computed from, built by
 * one walk of the definitions that builds nothing else (docs/decisions/0024-build-time-documents.md).
 *
 * The walk reads each `_zod.def` field by field: the fields Zod's definitions have (`type`, `shape`,
 * `innerType`, `options`, `checks`, ...) are hashed by a handler of their own that knows what they hold, and
 * any other field, of any kind of definition, goes through the generic value walk, so a field a Zod release
 * adds is hashed without a change here. Beside the definition it hashes the metadata documents carry
 * (`.describe()`, `.meta()`: `z.globalRegistry`), a default's value and a catch's value (which conversion
 * serves as `default`), an override assigned to `_zod.toJSONSchema` (what conversion serves instead), and
 * follows `z.lazy`. A schema already hashed is not walked again: its hash is reused, so sharing a sub-schema
 * or building it twice gives the same fingerprint, and a cycle is hashed as a back-reference to the level it
 * returns to.
 *
 * Runs once per mount on schemas the author wrote, so its recursion depth is the schema's own.
 * Not cryptographic: it guards against drift, not against an attacker (Workers have no synchronous crypto).
 */
import * as z from 'zod';
import { lazyTarget } from './def.js';

/** Tags that keep different kinds of token from hashing alike. */
const Tag = {
  Undefined: 1,
  Null: 2,
  False: 3,
  True: 4,
  Number: 5,
  String: 6,
  BigInt: 7,
  Symbol: 8,
  Function: 9,
  RegExp: 10,
  Date: 11,
  Array: 12,
  Object: 13,
  Schema: 14,
  Check: 15,
  Back: 16,
  Meta: 17,
  Parent: 18,
  Varying: 19,
  Throws: 20,
  Cycle: 21,
  Map: 22,
  Set: 23,
  Override: 24,
  Field: 25,
  NaN: 26,
  ToJSON: 27,
} as const;

/** The definition fields with a handler of their own, each hashed as its number instead of its name. */
const Field = {
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
} as const;

/** The number of a definition field that holds a schema (or, from `options` on, an array of them), else 0. */
function schemaField(key: string): number {
  switch (key) {
    case 'innerType':
      return Field.innerType;
    case 'in':
      return Field.in;
    case 'out':
      return Field.out;
    case 'element':
      return Field.element;
    case 'keyType':
      return Field.keyType;
    case 'valueType':
      return Field.valueType;
    case 'catchall':
      return Field.catchall;
    case 'left':
      return Field.left;
    case 'right':
      return Field.right;
    case 'rest':
      return Field.rest;
    case 'options':
      return Field.options;
    case 'items':
      return Field.items;
    case 'values':
      return Field.values;
    default:
      return 0;
  }
}

/** The global registry's own map, read directly (a `get` with a parent merges copies of the parents' metadata). */
const ownMap = (z.globalRegistry as unknown as { _map?: unknown })._map;
const registry: Pick<WeakMap<object, unknown>, 'get'> | undefined = ownMap instanceof WeakMap ? ownMap : undefined;

const SEED1 = 0xdeadbeef;
const SEED2 = 0x41c6ce57;
/** Generic values nested deeper than this are checked for cycles (a value's metadata is a level or two deep). */
const UNTRACKED_DEPTH = 32;

/** A number's two 32-bit halves, read through one shared buffer. */
const float = new Float64Array(1);
const halves = new Int32Array(float.buffer);

/** Hashes schemas and values, sharing what it has hashed: one per mount, so a schema two tools use is walked once. */
export interface Fingerprinter {
  /** A schema's fingerprint: 16 hex digits. Throws what a shape getter or a `z.lazy` getter throws. */
  schema(schema: z.core.$ZodType): string;
  /** Any value's fingerprint (a tool's `scopes`, `_meta`); the schemas in it are hashed as by `schema`. */
  value(value: unknown): string;
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
  const walk = new Walk();
  return { schema: (schema) => walk.top(schema), value: (value) => walk.top(value) };
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

/** What `stable` reads twice. */
type Read = (owner: any) => unknown;
const readDefault: Read = (def) => def.defaultValue;
const readCatch: Read = (def) => def.catchValue(undefined);
const readOverride: Read = (internals) => internals.toJSONSchema();
const readToJSON: Read = (value) => value.toJSON();

type Def = Record<string, unknown>;
type Internals = { def: Def; parent?: object; toJSONSchema?: unknown };

/** A Zod schema's `_zod`, when `value` is a schema (its `def.type` a string), else undefined. */
function internalsOf(value: unknown): Internals | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const internals = (value as { _zod?: Internals })._zod;
  const def = internals?.def;
  return typeof def === 'object' && def !== null && typeof def.type === 'string' ? internals : undefined;
}

/**
 * The walk. One hash state (two 32-bit lanes, cyrb53's mixing) is fed token by token; entering a schema saves
 * it and starts a fresh one, so each schema gets a hash of its own that the enclosing one is fed, and that
 * can be reused wherever the schema is met again. Digests are kept in two lanes of numbers, indexed, so that
 * neither a schema nor a string allocates one.
 */
class Walk {
  private h1 = SEED1;
  private h2 = SEED2;
  /** The last digest `finish` computed. */
  private d1 = 0;
  private d2 = 0;
  /** Finished digests (schemas', strings'), by index. */
  private readonly lane1: number[] = [];
  private readonly lane2: number[] = [];
  /**
   * The index of the digest of each schema hashed whole (no back-reference out of it) that holds schemas. A
   * `Map`, not a `WeakMap`: the walk lives one mount, and tens of thousands of weak entries slow every collection.
   */
  private readonly seen = new Map<object, number>();
  /** The schemas being hashed, outermost first: a cycle is one met again here (a few levels: a scan is cheap). */
  private readonly stack: object[] = [];
  /** Schemas entered so far, to tell a schema that holds none. */
  private entered = 0;
  /** The index of each short string's digest: keys, literals and kinds are met again and again. */
  private readonly texts = new Map<string, number>();
  /** Generic values being walked deeper than `UNTRACKED_DEPTH`, to end a cycle that does not pass through a schema. */
  private readonly values = new Set<object>();
  private nesting = 0;
  /** The lowest level the current schema's back-references returned to. */
  private low = Number.POSITIVE_INFINITY;

  /** The fingerprint of `value` (a schema or anything else) as 16 hex digits. */
  top(value: unknown): string {
    this.h1 = SEED1;
    this.h2 = SEED2;
    this.stack.length = 0;
    this.nesting = 0;
    this.low = Number.POSITIVE_INFINITY;
    this.values.clear();
    this.value(value);
    this.finish();
    return (this.d1 >>> 0).toString(16).padStart(8, '0') + (this.d2 >>> 0).toString(16).padStart(8, '0');
  }

  private int(n: number): void {
    this.h1 = Math.imul(this.h1 ^ n, 2654435761);
    this.h2 = Math.imul(this.h2 ^ n, 1597334677);
  }

  /** Two tokens, as two `int`s would feed them, in one call: a Worker's startup runs this code unoptimised. */
  private pair(a: number, b: number): void {
    let h1 = Math.imul(this.h1 ^ a, 2654435761);
    let h2 = Math.imul(this.h2 ^ a, 1597334677);
    h1 = Math.imul(h1 ^ b, 2654435761);
    h2 = Math.imul(h2 ^ b, 1597334677);
    this.h1 = h1;
    this.h2 = h2;
  }

  /** Sets `d1`, `d2` to the digest of the state. */
  private finish(): void {
    let h1 = Math.imul(this.h1 ^ (this.h1 >>> 16), 2246822507);
    h1 ^= Math.imul(this.h2 ^ (this.h2 >>> 13), 3266489909);
    let h2 = Math.imul(this.h2 ^ (this.h2 >>> 16), 2246822507);
    h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    this.d1 = h1;
    this.d2 = h2;
  }

  /** The index of a new digest. */
  private keep(d1: number, d2: number): number {
    this.lane2.push(d2);
    return this.lane1.push(d1) - 1;
  }

  private kept(index: number): void {
    this.pair(this.lane1[index]!, this.lane2[index]!);
  }

  /** A string, as two tokens: its own hash, kept for the short strings met again and again. */
  private text(s: string): void {
    const short = s.length <= 64;
    if (short) {
      const index = this.texts.get(s);
      if (index !== undefined) {
        this.kept(index);
        return;
      }
    }
    let h1 = SEED1 ^ s.length;
    let h2 = SEED2 ^ s.length;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 2654435761);
      h2 = Math.imul(h2 ^ c, 1597334677);
    }
    if (short) this.texts.set(s, this.keep(h1, h2));
    this.pair(h1, h2);
  }

  /** A number as its two 32-bit halves (so -0 and 0 differ), NaN as one token. */
  private number(n: number): void {
    if (Number.isNaN(n)) {
      this.int(Tag.NaN);
      return;
    }
    float[0] = n;
    this.int(Tag.Number);
    this.pair(halves[0]!, halves[1]!);
  }

  /** A schema met inside another: its own hash (reused, or computed now), or a back-reference on a cycle. */
  private schema(schema: object, internals: Internals): void {
    const seen = this.seen.get(schema);
    if (seen !== undefined) {
      this.kept(seen);
      return;
    }
    this.entered++;
    const at = this.stack.lastIndexOf(schema);
    if (at >= 0) {
      this.pair(Tag.Back, this.stack.length - at);
      if (at < this.low) this.low = at;
      return;
    }
    const level = this.stack.push(schema) - 1;
    const entered = this.entered;
    const outer = this.low;
    const h1 = this.h1;
    const h2 = this.h2;
    this.low = Number.POSITIVE_INFINITY;
    this.h1 = SEED1;
    this.h2 = SEED2;
    try {
      this.schemaBody(schema, internals);
    } finally {
      this.stack.pop();
    }
    this.finish();
    this.h1 = h1;
    this.h2 = h2;
    // A schema whose back-references all end inside it hashes the same wherever it is met: kept, unless it
    // holds no schema (most do not: a leaf costs less to hash again than to remember).
    const whole = this.low >= level;
    if (whole && this.entered !== entered) this.seen.set(schema, this.keep(this.d1, this.d2));
    this.low = whole ? outer : Math.min(outer, this.low);
    this.pair(this.d1, this.d2);
  }

  /** The definition, then the metadata a document carries, the parent's presence and an override. */
  private schemaBody(schema: object, internals: Internals): void {
    const def = internals.def;
    this.int(Tag.Schema);
    this.fields(def);
    if (def.type === 'lazy') {
      const target = lazyTarget(schema as z.core.$ZodType);
      if (target) this.schema(target, target._zod as unknown as Internals);
    }
    const meta = this.meta(schema, internals);
    if (meta !== undefined) {
      this.int(Tag.Meta);
      this.value(meta);
    }
    if (internals.parent !== undefined) this.int(Tag.Parent);
    // Conversion serves what an override assigned to `_zod.toJSONSchema` returns instead of the definition.
    const override = internals.toJSONSchema;
    if (typeof override === 'function') {
      this.int(Tag.Override);
      this.stable(readOverride, internals);
    } else if (override !== undefined) {
      this.int(Tag.Override);
      this.value(override);
    }
  }

  /**
   * A definition's (or a check's) fields in Zod's order, each that has a value: the ones Zod defines by a
   * handler of their own, any other by its name and the generic walk.
   */
  private fields(def: Def): void {
    for (const key in def) {
      switch (key) {
        case 'type':
        case 'check':
          if (typeof def[key] !== 'string') break;
          this.int(key === 'type' ? Field.type : Field.check);
          this.text(def[key] as string);
          continue;
        case 'shape':
          this.int(Field.shape);
          this.shape(def);
          continue;
        case 'checks':
          if (this.checks(def[key])) continue;
          break;
        case 'defaultValue':
          this.int(Field.read);
          this.text(key);
          this.stable(readDefault, def);
          continue;
        case 'catchValue':
          if (typeof def[key] !== 'function') break;
          this.int(Field.read);
          this.text(key);
          this.stable(readCatch, def);
          continue;
        case 'getter':
          if (def.type === 'lazy') continue; // followed by the schema, as the target it returns
          break;
        default: {
          const field = schemaField(key);
          if (field !== 0 && (field < Field.options ? this.inner(field, def[key]) : this.list(field, def[key])))
            continue;
        }
      }
      this.field(key, def[key]);
    }
  }

  /** A field by its name and the generic walk. */
  private field(key: string, value: unknown): void {
    if (value === undefined) return;
    this.int(Tag.Field);
    this.text(key);
    this.value(value);
  }

  /** A field (numbered `field`) holding one schema; false (for the generic walk) when it holds anything else. */
  private inner(field: number, value: unknown): boolean {
    const internals = internalsOf(value);
    if (internals === undefined) return false;
    this.int(field);
    this.schema(value as object, internals);
    return true;
  }

  /** A field that holds an array (of schemas, or a literal's values); false when it holds something else. */
  private list(field: number, value: unknown): boolean {
    if (!Array.isArray(value)) return false;
    this.pair(field, value.length);
    for (const item of value) {
      const internals = internalsOf(item);
      if (internals !== undefined) this.schema(item, internals);
      else this.value(item);
    }
    return true;
  }

  /** An object's shape, read without running Zod's first-read copy of it when that has not run yet. */
  private shape(def: Def): void {
    const getter = (def as { __lookupGetter__?: (key: string) => { raw?: unknown } | undefined }).__lookupGetter__?.(
      'shape',
    );
    const shape = getter?.raw ?? def.shape;
    if (typeof shape !== 'object' || shape === null) {
      this.value(shape);
      return;
    }
    const entries = shape as Record<string, unknown>;
    for (const key in entries) {
      const value = entries[key];
      if (value === undefined) continue;
      this.text(key);
      const internals = internalsOf(value);
      if (internals !== undefined) this.schema(value as object, internals);
      else this.value(value);
    }
  }

  /** The checks (`.min(1)`, `.regex(...)`) by their definitions; false when `value` is not an array. */
  private checks(value: unknown): boolean {
    if (!Array.isArray(value)) return false;
    this.pair(Field.checks, value.length);
    for (const check of value) {
      const internals = internalsOf(check);
      const def = (check as { _zod?: { def?: unknown } } | null | undefined)?._zod?.def;
      if (internals !== undefined) this.schema(check, internals);
      else if (typeof def === 'object' && def !== null) {
        this.int(Tag.Check);
        this.fields(def as Def);
      } else this.value(check);
    }
    return true;
  }

  /**
   * The metadata conversion puts in a schema's document: its own registry entry, merged with its parents'
   * (`.describe()` and every check clone have a parent) only where a parent has one, as `get` would merge them.
   */
  private meta(schema: object, internals: Internals): unknown {
    if (registry === undefined) return z.globalRegistry.get(schema as z.ZodType);
    const own = registry.get(schema);
    for (let p = internals.parent; p !== undefined; p = (p as { _zod?: Internals })._zod?.parent) {
      if (registry.get(p) !== undefined) return z.globalRegistry.get(schema as z.ZodType);
    }
    return own;
  }

  /**
   * A value a getter produces (a default, a catch's value, an override): hashed when two reads agree, else as
   * "varying" (`.default(() => randomUUID())`), so that a generated default does not make every mount stale.
   */
  private stable(read: Read, owner: object): void {
    this.once(read, owner);
    const [first1, first2] = [this.d1, this.d2];
    this.once(read, owner);
    if (first1 === this.d1 && first2 === this.d2) this.pair(first1, first2);
    else this.int(Tag.Varying);
  }

  /** Sets `d1`, `d2` to the digest of one read, hashed in a fresh state; the state around it is kept. */
  private once(read: Read, owner: object): void {
    const h1 = this.h1;
    const h2 = this.h2;
    this.h1 = SEED1;
    this.h2 = SEED2;
    try {
      let value: unknown;
      let threw = false;
      try {
        value = read(owner);
      } catch {
        threw = true;
      }
      if (threw) this.int(Tag.Throws);
      else this.value(value);
      this.finish();
    } finally {
      this.h1 = h1;
      this.h2 = h2;
    }
  }

  private value(value: unknown): void {
    switch (typeof value) {
      case 'object':
        if (value === null) this.int(Tag.Null);
        else this.object(value);
        return;
      case 'string':
        this.int(Tag.String);
        {
          this.text(value);
          return;
        }
      case 'number': {
        this.number(value);
        return;
      }
      case 'boolean': {
        this.int(value ? Tag.True : Tag.False);
        return;
      }
      case 'function': {
        this.int(Tag.Function);
        return;
      }
      case 'undefined': {
        this.int(Tag.Undefined);
        return;
      }
      case 'bigint':
        this.int(Tag.BigInt);
        {
          this.text(value.toString());
          return;
        }
      default:
        this.int(Tag.Symbol);
        {
          this.text((value as symbol).description ?? '');
          return;
        }
    }
  }

  private object(value: object): void {
    const internals = internalsOf(value);
    if (internals !== undefined) {
      this.schema(value, internals);
      return;
    }
    const def = (value as { _zod?: { def?: unknown } })._zod?.def;
    if (typeof def === 'object' && def !== null) {
      // A check (`.min(1)`, `.regex(...)`): its definition is what it checks.
      this.int(Tag.Check);
      this.fields(def as Def);
      return;
    }
    const tracked = this.nesting >= UNTRACKED_DEPTH;
    if (tracked) {
      if (this.values.has(value)) {
        this.int(Tag.Cycle);
        return;
      }
      this.values.add(value);
    }
    this.nesting++;
    try {
      this.container(value);
    } finally {
      this.nesting--;
      if (tracked) this.values.delete(value);
    }
  }

  /**
   * Arrays, plain objects and the built-in objects a default can hold, each as JSON serialises it or tagged
   * apart from what it would be mistaken for (a `Set` serialises as `{}`, not as the array of its items).
   */
  private container(value: object): void {
    if (Array.isArray(value)) {
      this.items(Tag.Array, value);
      return;
    }
    if (value instanceof RegExp) {
      this.int(Tag.RegExp);
      this.text(value.source);
      this.text(value.flags);
      return;
    }
    if (value instanceof Date) {
      this.int(Tag.Date);
      this.number(value.getTime());
      return;
    }
    if (value instanceof Set) {
      this.items(Tag.Set, [...value]);
      return;
    }
    if (value instanceof Map) {
      this.items(Tag.Map, [...value]);
      return;
    }
    if (typeof (value as { toJSON?: unknown }).toJSON === 'function') {
      // It serialises as what its `toJSON` returns (a served default is that).
      this.int(Tag.ToJSON);
      this.stable(readToJSON, value);
      return;
    }
    this.int(Tag.Object);
    for (const key of Object.keys(value)) {
      const item = (value as Record<string, unknown>)[key];
      if (item === undefined) continue;
      this.text(key);
      this.value(item);
    }
  }

  private items(tag: number, items: readonly unknown[]): void {
    this.pair(tag, items.length);
    for (const item of items) this.value(item);
  }
}
