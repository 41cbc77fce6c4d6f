/**
 * The cache of `verify` answers (`access.auth.cache`), one per mount: valid answers only, keyed by the
 * SHA-256 of the token (Web Crypto, so it runs on Workers too), each until the token's expiry or the cache's
 * `maxAgeSeconds`, whichever is first; the least recently used entry leaves first past `maxEntries`. Entries
 * are copies, and each hit a new copy, whatever the answer's shape (plain objects, dictionaries without a
 * prototype, class instances, arrays, dates, maps, sets, URLs...), so nothing a request does to its `AuthInfo`
 * reaches the cache. An answer holding something that cannot be copied is not kept.
 */
import type { AuthInfo } from '@modelcontextprotocol/server';

export interface TokenCache {
  /** The answer kept for `token`, with `token` put back, or undefined (not kept, or past its time). */
  get(token: string): Promise<AuthInfo | undefined>;
  /**
   * Keeps a copy of `info` for `token` (whose `expiresAt` is in seconds, `Infinity` for a key that never
   * expires); an answer that cannot be copied (`copied` below) is not kept, and `verify` answers each time.
   */
  set(token: string, info: AuthInfo): Promise<void>;
}

interface Entry {
  /** The answer without its `token`: the cache keeps no token, as a key or a value. */
  info: Omit<AuthInfo, 'token'>;
  /** `Date.now()` past which the entry is gone. */
  until: number;
}

export function tokenCache(maxEntries: number, maxAgeSeconds: number): TokenCache {
  const entries = new Map<string, Entry>();
  return Object.freeze<TokenCache>({
    async get(token) {
      const key = await digest(token);
      const entry = entries.get(key);
      if (!entry) return undefined;
      entries.delete(key);
      if (entry.until <= Date.now()) return undefined;
      // Moved to the end: the most recently used.
      entries.set(key, entry);
      // A copy per request: a tool that changes its `ctx.authInfo` (scopes, `extra`) must not change what
      // later requests with this token are judged as.
      return { ...(copied(entry.info) as Entry['info']), token };
    },
    async set(token, info) {
      const key = await digest(token);
      const { token: _, ...rest } = info;
      const kept = copied(rest);
      entries.delete(key);
      if (kept === UNCOPYABLE) return;
      const until = Math.min(Date.now() + maxAgeSeconds * 1000, (info.expiresAt ?? 0) * 1000);
      entries.set(key, { info: kept as Entry['info'], until });
      while (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
    },
  });
}

/** What `copied` answers for a value it cannot copy. */
const UNCOPYABLE: unique symbol = Symbol('uncopyable');

/**
 * A copy of `value` that shares nothing mutable with it, all the way down (a reference met twice stays one
 * shared copy, so a cycle is copied as a cycle): arrays; `Date`, `RegExp`, `URL`, `URLSearchParams`, `Map`,
 * `Set`, `ArrayBuffer` and typed arrays, each as its own kind; any other object (plain, without a prototype, a
 * class instance, an `Error`) as an object of the same prototype with every own property (symbols and
 * non-enumerable ones included; an accessor as the same getter and setter). Functions are shared. State a
 * class keeps in private fields (`#x`) is not an own property: such an instance's copy lacks it. An object with
 * a built-in's hidden state this does not know how to copy (a `Promise`, a `WeakMap`, `Headers`...) makes the
 * whole `UNCOPYABLE`. The value is `verify`'s answer, not client data.
 */
function copied(value: unknown, seen = new Map<object, unknown>()): unknown {
  if (value === null || typeof value !== 'object') return value;
  const known = seen.get(value);
  if (known !== undefined) return known;
  const kind = builtIn(value);
  if (kind === 'unknown') return UNCOPYABLE;
  const prototype = Object.getPrototypeOf(value);
  let copy: unknown;
  if (kind === 'object') copy = Object.create(prototype);
  else if (kind === 'array') copy = new Array((value as unknown[]).length);
  else copy = copiedBuiltIn(value, kind, seen);
  if (copy === UNCOPYABLE) return UNCOPYABLE;
  // A subclass (of Array, Map, Date...) stays one.
  if (Object.getPrototypeOf(copy) !== prototype) Object.setPrototypeOf(copy, prototype);
  seen.set(value, copy);
  // A buffer's and a typed array's own keys are their bytes, copied already.
  if (kind === 'buffer' || kind === 'view') return copy;
  for (const key of Reflect.ownKeys(value)) {
    const descriptor = Object.getOwnPropertyDescriptor(value, key)!;
    if ('value' in descriptor) {
      const inner = copied(descriptor.value, seen);
      if (inner === UNCOPYABLE) return UNCOPYABLE;
      descriptor.value = inner;
    }
    // An array's `length` is its own and not configurable: set as a value, never redefined.
    if (kind === 'array' && key === 'length') continue;
    Object.defineProperty(copy as object, key, descriptor);
  }
  return copy;
}

type Kind = 'object' | 'array' | 'date' | 'regexp' | 'url' | 'search' | 'map' | 'set' | 'buffer' | 'view' | 'unknown';

/**
 * What `value` is, as far as copying goes: one of the built-ins `copied` knows, an ordinary object (its
 * prototype chain holds no built-in constructor but `Object` and `Error`), or `unknown`.
 */
function builtIn(value: object): Kind {
  if (Array.isArray(value)) return 'array';
  if (value instanceof Date) return 'date';
  if (value instanceof RegExp) return 'regexp';
  if (typeof URL !== 'undefined' && value instanceof URL) return 'url';
  if (typeof URLSearchParams !== 'undefined' && value instanceof URLSearchParams) return 'search';
  if (value instanceof Map) return 'map';
  if (value instanceof Set) return 'set';
  if (value instanceof ArrayBuffer) return 'buffer';
  if (ArrayBuffer.isView(value)) return 'view';
  for (let proto = Object.getPrototypeOf(value); proto !== null; proto = Object.getPrototypeOf(proto)) {
    if (proto === Object.prototype || proto === Error.prototype) return 'object';
    const maker = Object.getOwnPropertyDescriptor(proto, 'constructor')?.value;
    if (typeof maker === 'function' && NATIVE.test(Function.prototype.toString.call(maker))) return 'unknown';
  }
  return 'object';
}

/** The standard views over an `ArrayBuffer`. */
const VIEWS: ReadonlyArray<new (buffer: ArrayBuffer) => ArrayBufferView> = [
  Int8Array,
  Uint8Array,
  Uint8ClampedArray,
  Int16Array,
  Uint16Array,
  Int32Array,
  Uint32Array,
  Float32Array,
  Float64Array,
  BigInt64Array,
  BigUint64Array,
  DataView,
];

const NATIVE = /\{\s*\[native code\]\s*\}\s*$/;

function copiedBuiltIn(value: object, kind: Kind, seen: Map<object, unknown>): unknown {
  switch (kind) {
    case 'date':
      return new Date((value as Date).getTime());
    case 'regexp':
      return new RegExp(value as RegExp);
    case 'url':
      return new URL((value as URL).href);
    case 'search':
      return new URLSearchParams(value as URLSearchParams);
    case 'buffer':
      return (value as ArrayBuffer).slice(0);
    case 'view': {
      const view = value as ArrayBufferView;
      const bytes = view.buffer.slice(view.byteOffset, view.byteOffset + view.byteLength);
      // Built as the standard view it extends (a Node `Buffer` is a `Uint8Array`), its prototype set after.
      const View = VIEWS.find((V) => view instanceof V) ?? DataView;
      return new View(bytes as ArrayBuffer);
    }
    case 'map': {
      const map = new Map();
      seen.set(value, map);
      for (const [k, v] of value as Map<unknown, unknown>) {
        const [key, inner] = [copied(k, seen), copied(v, seen)];
        if (key === UNCOPYABLE || inner === UNCOPYABLE) return UNCOPYABLE;
        map.set(key, inner);
      }
      return map;
    }
    case 'set': {
      const set = new Set();
      seen.set(value, set);
      for (const v of value as Set<unknown>) {
        const inner = copied(v, seen);
        if (inner === UNCOPYABLE) return UNCOPYABLE;
        set.add(inner);
      }
      return set;
    }
    default:
      return UNCOPYABLE;
  }
}

async function digest(token: string): Promise<string> {
  const bytes = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token)));
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex;
}
