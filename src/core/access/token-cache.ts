/**
 * The cache of `verify` answers (`access.auth.cache`), one per mount: valid answers only, keyed by the
 * SHA-256 of the token (Web Crypto, so it runs on Workers too), each until the token's expiry or the cache's
 * `maxAgeSeconds`, whichever is first; the least recently used entry leaves first past `maxEntries`. Entries
 * are copies, and each hit a new copy, so nothing a request does to its `AuthInfo` reaches the cache.
 */
import type { AuthInfo } from '@modelcontextprotocol/server';

export interface TokenCache {
  /** The answer kept for `token`, with `token` put back, or undefined (not kept, or past its time). */
  get(token: string): Promise<AuthInfo | undefined>;
  /** Keeps `info` for `token` (whose `expiresAt` is in seconds, `Infinity` for a key that never expires). */
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
      return { ...copied(entry.info), token };
    },
    async set(token, info) {
      const key = await digest(token);
      const { token: _, ...kept } = info;
      const until = Math.min(Date.now() + maxAgeSeconds * 1000, (info.expiresAt ?? 0) * 1000);
      entries.delete(key);
      entries.set(key, { info: copied(kept), until });
      while (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
    },
  });
}

/**
 * `value` with its arrays and plain objects copied, all the way down; anything else (a `URL` in `resource`,
 * a class instance in `extra`) is kept as it is, where `structuredClone` would throw or change its kind. The
 * value is `verify`'s answer, not client data.
 */
function copied<T>(value: T): T {
  if (Array.isArray(value)) return value.map(copied) as T;
  if (value === null || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) out[key] = copied(inner);
  return out as T;
}

async function digest(token: string): Promise<string> {
  const bytes = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token)));
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex;
}
