/**
 * Parsing JSON text found in arguments, within limits and without prototype keys.
 *
 * The text comes from a model or a client, so it is hostile until proven otherwise: it may be
 * huge, nested 100,000 levels deep (V8's `JSON.parse` copes, but a reviver or any recursive walk
 * would overflow the stack), or carry `__proto__` keys. A linear pre-scan measures nesting and
 * counts values before anything is parsed, so over-limit text is refused without being parsed.
 */

export interface JsonTextLimits {
  /** Most UTF-8 bytes in the text. */
  maxBytes: number;
  /** Most nesting levels of arrays/objects inside the text. */
  maxNesting: number;
  /** Most values the text may hold (an upper estimate is compared). */
  maxNodes: number;
}

export type JsonTextResult =
  | { ok: true; value: unknown; nodes: number }
  | { ok: false; reason: 'syntax' }
  | { ok: false; reason: 'bytes'; bytes: number }
  | { ok: false; reason: 'nesting' }
  | { ok: false; reason: 'nodes' };

/** Keys that must never reach an object built from untrusted JSON. */
const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * UTF-8 length of `s`, or `limit + 1` as soon as it is known to exceed `limit`. Written out
 * rather than `Buffer.byteLength` so it runs on every runtime mcp-mount serves (Workers, edge).
 * @internal exported for its tests alone
 */
export function utf8Length(s: string, limit = Number.POSITIVE_INFINITY): number {
  if (s.length > limit) return limit + 1; // every UTF-16 unit is at least one byte
  let bytes = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
    if (bytes > limit) return limit + 1;
  }
  return bytes;
}

/** First character that is not JSON whitespace, or '' for blank text. Decides which kind the text claims to be. */
export function firstSignificant(s: string): string {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return s[i]!;
  }
  return '';
}

/**
 * One pass over the text outside string literals: deepest bracket nesting and an upper estimate
 * of the number of values (one per comma and per opening bracket, plus one). Stops early at a limit.
 */
function scan(s: string, maxNesting: number, maxNodes: number): 'nesting' | 'nodes' | number {
  let depth = 0;
  let nodes = 1;
  let inString = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth++;
      nodes++;
      if (depth > maxNesting) return 'nesting';
      if (nodes > maxNodes) return 'nodes';
    } else if (c === 0x5d || c === 0x7d) depth--;
    else if (c === 0x2c) {
      nodes++;
      if (nodes > maxNodes) return 'nodes';
    }
  }
  return nodes;
}

/** Reviver that deletes the forbidden keys at every depth (returning undefined removes the member). */
function dropForbidden(key: string, value: unknown): unknown {
  return FORBIDDEN_KEYS.has(key) ? undefined : value;
}

/**
 * Could the text spell a forbidden key? Letters can only be escaped as \uXXXX, so text without any
 * forbidden word and without `\u` cannot produce one, and skips the (slower) reviver.
 */
function mayHoldForbiddenKey(s: string): boolean {
  return s.includes('__proto__') || s.includes('constructor') || s.includes('prototype') || s.includes('\\u');
}

/** Parses untrusted JSON text within `limits`. Never throws. */
export function parseJsonText(s: string, limits: JsonTextLimits): JsonTextResult {
  const bytes = utf8Length(s, limits.maxBytes);
  if (bytes > limits.maxBytes) return { ok: false, reason: 'bytes', bytes: utf8Length(s) };
  const scanned = scan(s, limits.maxNesting, limits.maxNodes);
  if (scanned === 'nesting' || scanned === 'nodes') return { ok: false, reason: scanned };
  try {
    const value = mayHoldForbiddenKey(s) ? JSON.parse(s, dropForbidden) : JSON.parse(s);
    return { ok: true, value, nodes: scanned };
  } catch {
    return { ok: false, reason: 'syntax' };
  }
}
