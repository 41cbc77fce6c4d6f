/**
 * The verification cache hands each request its own `AuthInfo`: what a tool does to `ctx.authInfo` (adding a
 * scope, changing `extra`) or what `verify` does to its answer later never reaches the next request's,
 * whatever the answer's shape: plain objects, dictionaries without a prototype (what JWT and introspection
 * libraries hand back), class instances, arrays, dates, maps, sets, URLs, byte arrays, shared references and
 * cycles (generated). An answer holding what cannot be copied is not kept.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tokenCache } from '../../../src/core/access/token-cache.js';
import { propertyRuns } from '../../support/property-runs.js';

const answer = () => ({
  token: 'alice-token',
  clientId: 'app',
  scopes: ['read'],
  expiresAt: Date.now() / 1000 + 3600,
  extra: { sub: 'alice', groups: ['staff'] },
});

describe('the token cache', () => {
  it("keeps its own copy: a request that changes its AuthInfo changes no later request's", async () => {
    const cache = tokenCache(10, 600);
    const verified = answer();
    await cache.set('alice-token', verified);
    verified.scopes.push('admin');
    const first = await cache.get('alice-token');
    if (!first) throw new Error('the answer was not kept');
    first.scopes.push('admin');
    const extra = first.extra as { sub: string; groups: string[] };
    extra.sub = 'root';
    extra.groups.push('admins');
    const second = await cache.get('alice-token');
    expect(second).toEqual({ ...answer(), expiresAt: verified.expiresAt });
  });

  it('keeps a resource URL a URL', async () => {
    const cache = tokenCache(10, 600);
    await cache.set('t', { ...answer(), token: 't', resource: new URL('https://mcp.example.com/mcp') });
    expect((await cache.get('t'))?.resource?.href).toBe('https://mcp.example.com/mcp');
  });

  it('copies a dictionary without a prototype and a class instance too', async () => {
    class Claims {
      constructor(public role: string) {}
      isAdmin() {
        return this.role === 'admin';
      }
    }
    const claims: Record<string, unknown> = Object.create(null);
    claims.role = 'reader';
    const cache = tokenCache(10, 600);
    await cache.set('t', { ...answer(), token: 't', extra: { claims, profile: new Claims('reader') } });
    const first = (await cache.get('t'))!.extra as { claims: Record<string, unknown>; profile: Claims };
    first.claims.role = 'admin';
    first.profile.role = 'admin';
    const second = (await cache.get('t'))!.extra as { claims: Record<string, unknown>; profile: Claims };
    expect(second.claims.role).toBe('reader');
    expect(Object.getPrototypeOf(second.claims)).toBe(null);
    expect(second.profile).toBeInstanceOf(Claims);
    expect(second.profile.isAdmin()).toBe(false);
  });

  it('does not keep an answer holding what it cannot copy: verify answers each time', async () => {
    const cache = tokenCache(10, 600);
    await cache.set('t', { ...answer(), token: 't', extra: { session: new WeakMap() } });
    expect(await cache.get('t')).toBeUndefined();
  });
});

/** Classes a verifier might hand back: a field, an accessor and a method on the prototype, a subclass. */
class Profile {
  constructor(
    public name: string,
    public tags: string[],
  ) {}
  get shout() {
    return this.name.toUpperCase();
  }
}
class Staff extends Profile {
  level = 1;
}
class Scopes extends Array<string> {}

/** Any shape of value a `verify` answer's `extra` may hold (a tree: shared references and a cycle are added after). */
const shapes = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.constant(undefined)),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 4 }), tie('value'), { maxKeys: 3 }),
    fc
      .dictionary(fc.string({ maxLength: 4 }), tie('value'), { maxKeys: 3 })
      .map((entries) => Object.assign(Object.create(null), entries)),
    fc.tuple(fc.string(), fc.array(fc.string(), { maxLength: 2 })).map(([n, t]) => new Profile(n, t)),
    fc.tuple(fc.string(), fc.array(fc.string(), { maxLength: 2 })).map(([n, t]) => new Staff(n, t)),
    fc.array(fc.string(), { maxLength: 3 }).map((items) => Scopes.from(items)),
    fc.date({ noInvalidDate: true }),
    fc.array(fc.tuple(fc.string({ maxLength: 3 }), tie('value')), { maxLength: 2 }).map((e) => new Map(e)),
    fc.array(fc.string({ maxLength: 3 }), { maxLength: 3 }).map((e) => new Set(e)),
    fc.webUrl().map((u) => new URL(u)),
    fc.uint8Array({ maxLength: 4 }),
    fc.uint8Array({ maxLength: 4 }).map((bytes) => Buffer.from(bytes)),
  ),
})).value;

/** Every value reachable from `root`, once each. */
function reachable(root: unknown): object[] {
  const seen = new Set<object>();
  const stack = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (value === null || typeof value !== 'object' || seen.has(value)) continue;
    seen.add(value);
    if (value instanceof Map) for (const [k, v] of value) stack.push(k, v);
    if (value instanceof Set) for (const v of value) stack.push(v);
    if (!ArrayBuffer.isView(value)) for (const key of Reflect.ownKeys(value)) stack.push((value as any)[key]);
  }
  return [...seen];
}

/** What a hostile tool does to everything it can reach of its `ctx.authInfo`. */
function vandalize(root: unknown): void {
  for (const value of reachable(root)) {
    if (value instanceof Date) value.setTime(0);
    else if (value instanceof URL) value.pathname = '/owned';
    else if (value instanceof Map) value.set('owned', true);
    else if (value instanceof Set) value.add('owned');
    else if (ArrayBuffer.isView(value)) new Uint8Array(value.buffer, value.byteOffset, value.byteLength).fill(255);
    else if (Array.isArray(value)) value.push('owned');
    if (!ArrayBuffer.isView(value)) {
      for (const key of Reflect.ownKeys(value)) {
        const descriptor = Object.getOwnPropertyDescriptor(value, key)!;
        if (Array.isArray(value) && key === 'length') continue;
        if (descriptor.writable && typeof descriptor.value !== 'object') (value as any)[key] = 'owned';
      }
      if (!Array.isArray(value)) (value as any).owned = true;
    }
  }
}

/**
 * The same value: the same prototypes and own keys all the way down, and the same contents of every built-in,
 * with shared references and cycles in the same places.
 */
function expectSame(actual: unknown, expected: unknown, path = 'extra', pairs = new Map<object, unknown>()): void {
  if (expected === null || typeof expected !== 'object') return void expect(actual, path).toBe(expected);
  expect(typeof actual, path).toBe('object');
  if (pairs.has(expected)) return void expect(actual, `${path} (shared)`).toBe(pairs.get(expected));
  pairs.set(expected, actual);
  const a = actual as object;
  expect(a, path).not.toBe(expected);
  expect(Object.getPrototypeOf(a), `${path} prototype`).toBe(Object.getPrototypeOf(expected));
  if (expected instanceof Date) expect((a as Date).getTime(), path).toBe(expected.getTime());
  if (expected instanceof URL) expect((a as URL).href, path).toBe(expected.href);
  if (ArrayBuffer.isView(expected))
    return void expect([...(a as Uint8Array)], path).toEqual([...(expected as Uint8Array)]);
  if (expected instanceof Map) {
    expect([...(a as Map<unknown, unknown>).keys()], path).toEqual([...expected.keys()]);
    for (const [k, v] of expected)
      expectSame((a as Map<unknown, unknown>).get(k), v, `${path}.get(${String(k)})`, pairs);
  }
  if (expected instanceof Set) expect([...(a as Set<unknown>)], path).toEqual([...expected]);
  expect(Reflect.ownKeys(a), `${path} keys`).toEqual(Reflect.ownKeys(expected));
  for (const key of Reflect.ownKeys(expected)) {
    expectSame((a as any)[key], (expected as any)[key], `${path}.${String(key)}`, pairs);
  }
}

describe('cached identities of any shape', () => {
  it('are copies: nothing a request does to its AuthInfo reaches a later one (generated)', async () => {
    await fc.assert(
      fc.asyncProperty(shapes, shapes, async (first, second) => {
        // Two references to one value, and a cycle, as a verifier's object graph may hold them.
        const shared = { first, second };
        const extra: Record<string, unknown> = { a: shared, b: shared, list: [first, second] };
        extra.self = extra;
        const build = () => ({
          token: 't',
          clientId: 'app',
          scopes: ['read'],
          expiresAt: Date.now() / 1000 + 60,
          extra,
        });
        const cache = tokenCache(10, 600);
        const verified = build();
        await cache.set('t', verified);
        const original = structuredCloneKeepingShape(extra);
        const served = await cache.get('t');
        expect(served).toBeDefined();
        vandalize(served);
        vandalize(verified.extra);
        const later = await cache.get('t');
        expectSame(later!.extra, original);
        expect(later!.scopes).toEqual(['read']);
      }),
      { numRuns: propertyRuns(300, 60), seed: 20261214 },
    );
  });
});

/**
 * A reference copy of `value` made before anything is changed, for `expectSame` to compare with: a second,
 * independent copier (the cache's own would prove nothing about itself).
 */
function structuredCloneKeepingShape(value: unknown, seen = new Map<object, unknown>()): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) return seen.get(value);
  let copy: any;
  if (value instanceof Date) copy = new Date(value.getTime());
  else if (value instanceof URL) copy = new URL(value.href);
  else if (Buffer.isBuffer(value)) copy = Buffer.from(value);
  else if (value instanceof Uint8Array) copy = new Uint8Array(value);
  else if (value instanceof Map) copy = new Map();
  else if (value instanceof Set) copy = new Set();
  else if (Array.isArray(value)) copy = [];
  else copy = {};
  Object.setPrototypeOf(copy, Object.getPrototypeOf(value));
  seen.set(value, copy);
  if (value instanceof Map) for (const [k, v] of value) copy.set(k, structuredCloneKeepingShape(v, seen));
  if (value instanceof Set) for (const v of value) copy.add(v);
  if (ArrayBuffer.isView(value)) return copy;
  for (const key of Reflect.ownKeys(value)) {
    if (Array.isArray(value) && key === 'length') continue;
    copy[key] = structuredCloneKeepingShape((value as any)[key], seen);
  }
  return copy;
}
