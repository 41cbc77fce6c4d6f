/**
 * A structural fingerprint of Zod schemas: a hash of everything a served document is computed from, built by
 * one walk of the definitions that builds nothing else (docs/decisions/0024-build-time-documents.md).
 *
 * The walk is generic over `_zod.def`: primitives are hashed, arrays and objects walked, nested schemas
 * recursed, functions (transforms, refinements, error maps) counted by presence only. Beside the definition it
 * hashes the metadata documents carry (`.describe()`, `.meta()`: `z.globalRegistry`), a default's value and a
 * catch's value (which conversion serves as `default`), and follows `z.lazy`. A schema already hashed is not
 * walked again: its hash is reused, so sharing a sub-schema or building it twice gives the same fingerprint,
 * and a cycle is hashed as a back-reference to the level it returns to.
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
} as const;

/** The global registry's own map, read directly for the schemas without a parent (nearly all of them). */
const ownMap = (z.globalRegistry as unknown as { _map?: unknown })._map;
const registry: Pick<WeakMap<object, unknown>, 'get'> =
  ownMap instanceof WeakMap ? ownMap : { get: (schema) => z.globalRegistry.get(schema as z.ZodType) };

const SEED1 = 0xdeadbeef;
const SEED2 = 0x41c6ce57;

/** A finished hash: two 32-bit lanes. */
type Digest = readonly [number, number];

/** 16 hex digits. */
function hex([h1, h2]: Digest): string {
  return (h1 >>> 0).toString(16).padStart(8, '0') + (h2 >>> 0).toString(16).padStart(8, '0');
}

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
  return {
    schema: (schema) => hex(walk.whole(() => walk.value(schema))),
    value: (value) => hex(walk.whole(() => walk.value(value))),
  };
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

/**
 * The walk. One hash state (two 32-bit lanes, cyrb53's mixing) is fed token by token; entering a schema saves
 * it and starts a fresh one, so each schema gets a hash of its own that the enclosing one is fed, and that
 * can be reused wherever the schema is met again.
 */
class Walk {
  private h1 = SEED1;
  private h2 = SEED2;
  /**
   * Per schema met: its level on the stack while it is hashed (a number), then its digest once hashed whole
   * (no back-reference out of it), reused as it is. One map for both, so that a schema costs one lookup. A
   * `Map`, not a `WeakMap`: the walk lives one mount, and tens of thousands of weak entries slow every collection.
   */
  private readonly seen = new Map<object, number | Digest>();
  /** Plain objects and arrays being walked, to end a cycle that does not pass through a schema. */
  private readonly values = new Set<object>();
  /** Each short string's own hash. */
  private readonly texts = new Map<string, Digest>();
  private depth = 0;
  /** The lowest level the current schema's back-references returned to. */
  private low = Number.POSITIVE_INFINITY;

  /** The digest of what `feed` feeds into a fresh state; the state around it is kept. */
  whole(feed: () => void): Digest {
    const [h1, h2] = [this.h1, this.h2];
    this.h1 = SEED1;
    this.h2 = SEED2;
    try {
      feed();
      return this.digest();
    } finally {
      this.h1 = h1;
      this.h2 = h2;
    }
  }

  private int(n: number): void {
    this.h1 = Math.imul(this.h1 ^ n, 2654435761);
    this.h2 = Math.imul(this.h2 ^ n, 1597334677);
  }

  /** A string, as two tokens: its own hash, kept for the short strings (keys, kinds) met again and again. */
  private text(s: string): void {
    let digest = s.length <= 64 ? this.texts.get(s) : undefined;
    if (digest === undefined) {
      let [h1, h2] = [SEED1 ^ s.length, SEED2 ^ s.length];
      for (let i = 0; i < s.length; i++) {
        const c = s.charCodeAt(i);
        h1 = Math.imul(h1 ^ c, 2654435761);
        h2 = Math.imul(h2 ^ c, 1597334677);
      }
      digest = [h1, h2];
      if (s.length <= 64) this.texts.set(s, digest);
    }
    this.int(digest[0]);
    this.int(digest[1]);
  }

  private digest(): Digest {
    let h1 = Math.imul(this.h1 ^ (this.h1 >>> 16), 2246822507);
    h1 ^= Math.imul(this.h2 ^ (this.h2 >>> 13), 3266489909);
    let h2 = Math.imul(this.h2 ^ (this.h2 >>> 16), 2246822507);
    h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    return [h1, h2];
  }

  private digestOf(digest: Digest): void {
    this.int(digest[0]);
    this.int(digest[1]);
  }

  /** A schema met inside another: its own hash (reused, or computed now), or a back-reference on a cycle. */
  private schema(schema: z.core.$ZodType): void {
    const seen = this.seen.get(schema);
    if (typeof seen === 'object') {
      this.digestOf(seen);
      return;
    }
    if (seen !== undefined) {
      const at = seen;
      this.int(Tag.Back);
      this.int(this.depth - at);
      if (at < this.low) this.low = at;
      return;
    }
    const level = this.depth++;
    this.seen.set(schema, level);
    const outer = this.low;
    this.low = Number.POSITIVE_INFINITY;
    const h1 = this.h1;
    const h2 = this.h2;
    this.h1 = SEED1;
    this.h2 = SEED2;
    let digest: Digest;
    try {
      this.schemaBody(schema);
      digest = this.digest();
    } catch (error) {
      this.seen.delete(schema);
      throw error;
    } finally {
      this.depth--;
      this.h1 = h1;
      this.h2 = h2;
    }
    // A schema whose back-references all end inside it hashes the same wherever it is met.
    if (this.low >= level) this.seen.set(schema, digest);
    else this.seen.delete(schema);
    this.low = Math.min(outer, this.low >= level ? Number.POSITIVE_INFINITY : this.low);
    this.digestOf(digest);
  }

  /** The definition, field by field in Zod's order, then the metadata a document carries. */
  private schemaBody(schema: z.core.$ZodType): void {
    const internals = schema._zod;
    const def = internals.def as unknown as Record<string, unknown>;
    this.int(Tag.Schema);
    for (const key of Object.keys(def)) {
      const value = def[key];
      if (value === undefined || (key === 'getter' && def.type === 'lazy')) continue;
      this.text(key);
      if (key === 'defaultValue') this.stable(() => def.defaultValue);
      else if (key === 'catchValue' && typeof value === 'function') this.stable(() => value(undefined));
      else this.value(value);
    }
    if (def.type === 'lazy') {
      const target = lazyTarget(schema);
      if (target) this.schema(target);
    }
    // `get` merges what a clone inherits from its parent (`.describe()` clones); without a parent it is the map's.
    const meta = internals.parent === undefined ? registry.get(schema) : z.globalRegistry.get(schema as z.ZodType);
    if (meta !== undefined) {
      this.int(Tag.Meta);
      this.value(meta);
    }
    if (internals.parent !== undefined) this.int(Tag.Parent);
  }

  /**
   * A value a getter produces (a default, a catch's value): hashed when two reads agree, else as "varying"
   * (`.default(() => randomUUID())`), so that a generated default does not make every mount stale.
   */
  private stable(read: () => unknown): void {
    const once = () => {
      let value: unknown;
      try {
        value = read();
      } catch {
        this.int(Tag.Throws);
        return;
      }
      this.value(value);
    };
    const [first, second] = [this.whole(once), this.whole(once)];
    if (first[0] === second[0] && first[1] === second[1]) this.digestOf(first);
    else this.int(Tag.Varying);
  }

  value(value: unknown): void {
    if (value === null) this.int(Tag.Null);
    else if (typeof value === 'object') this.object(value);
    else if (typeof value === 'string') {
      this.int(Tag.String);
      this.text(value);
    } else if (typeof value === 'number') {
      this.int(Tag.Number);
      this.text(Object.is(value, -0) ? '-0' : String(value));
    } else if (typeof value === 'boolean') this.int(value ? Tag.True : Tag.False);
    else if (typeof value === 'function') this.int(Tag.Function);
    else if (value === undefined) this.int(Tag.Undefined);
    else if (typeof value === 'bigint') {
      this.int(Tag.BigInt);
      this.text(value.toString());
    } else {
      this.int(Tag.Symbol);
      this.text((value as symbol).description ?? '');
    }
  }

  private object(value: object): void {
    const internals = (value as { _zod?: { def?: { type?: unknown } } })._zod;
    if (typeof internals?.def === 'object' && internals.def !== null) {
      if (typeof internals.def.type === 'string') {
        this.schema(value as z.core.$ZodType);
        return;
      }
      // A check (`.min(1)`, `.regex(...)`): its definition is what it checks.
      this.int(Tag.Check);
      this.value(internals.def);
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
      this.text(String(value.getTime()));
      return;
    }
    if (this.values.has(value)) {
      this.int(Tag.Cycle);
      return;
    }
    this.values.add(value);
    try {
      this.container(value);
    } finally {
      this.values.delete(value);
    }
  }

  private container(value: object): void {
    if (Array.isArray(value) || value instanceof Set || value instanceof Map) {
      const items = Array.isArray(value) ? value : [...(value as Iterable<unknown>)];
      this.int(value instanceof Map ? Tag.Map : Tag.Array);
      this.int(items.length);
      for (const item of items) this.value(item);
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
}
