import type { Position } from './keywords.js';

// JSON Pointers (RFC 6901) into schema documents and JSON values.

/** Escapes one JSON Pointer reference token (RFC 6901 section 4). */
export function escapePointerToken(token: string | number): string {
  const text = String(token);
  // Most tokens need no escaping; the probe spells a pointer for every node it visits.
  if (!text.includes('~') && !text.includes('/')) return text;
  return text.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Joins a parent JSON Pointer and reference tokens: `pointer('', 'properties', 'a~b')` is `/properties/a~0b`. */
export function pointer(parent: string, ...tokens: Array<string | number>): string {
  let out = parent;
  for (const token of tokens) out += `/${escapePointerToken(token)}`;
  return out;
}

/** The pointer of the sub-schema at position `at` below `parent`: `/items`, `/properties/a`, `/anyOf/0`. */
export function positionPointer(parent: string, at: Position): string {
  return at.key === undefined ? pointer(parent, at.keyword) : pointer(parent, at.keyword, at.key);
}

/** Unescapes one reference token: `~1` is `/`, then `~0` is `~` (RFC 6901 section 4). */
function unescapePointerToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** The reference tokens of a JSON Pointer, unescaped; the root (`''`) has none. */
function pointerTokens(ptr: string): string[] {
  return ptr === '' ? [] : ptr.slice(1).split('/').map(unescapePointerToken);
}

/**
 * The reference tokens of a local `$ref` (`#`, `#/$defs/A`), each percent-decoded (a URI fragment may be
 * percent-encoded) and unescaped; undefined for a ref that is not local or whose encoding is broken.
 */
export function localRefTokens(ref: string): string[] | undefined {
  if (ref === '#') return [];
  if (!ref.startsWith('#/')) return undefined;
  try {
    return ref
      .slice(2)
      .split('/')
      .map((token) => unescapePointerToken(decodeURIComponent(token)));
  } catch {
    return undefined;
  }
}

/** `#/$defs/Name` → `{ container: '$defs', name: 'Name' }` (also `definitions`); anything deeper or non-local → undefined. */
export function parseLocalDefRef(ref: string): { container: '$defs' | 'definitions'; name: string } | undefined {
  const tokens = localRefTokens(ref);
  if (tokens?.length !== 2) return undefined;
  const [container, name] = tokens as [string, string];
  return container === '$defs' || container === 'definitions' ? { container, name } : undefined;
}

/** Where a local `$ref` points in `doc`: the target's JSON Pointer and value; undefined when it points to nothing. */
export function resolveLocalRef(doc: unknown, ref: string): { pointer: string; value: unknown } | undefined {
  const tokens = localRefTokens(ref);
  if (tokens === undefined) return undefined;
  const { found, value } = valueAt(doc, tokens);
  return found ? { pointer: pointer('', ...tokens), value } : undefined;
}

/** The value a JSON Pointer names in `doc`, following own keys only. */
export function valueAtPointer(doc: unknown, ptr: string): { found: boolean; value: unknown } {
  return valueAt(doc, pointerTokens(ptr));
}

/** The value at `path` inside `root`, and whether it is there at all (an own key all the way down). */
export function valueAt(root: unknown, path: ReadonlyArray<PropertyKey>): { found: boolean; value: unknown } {
  let current: unknown = root;
  for (const key of path) {
    if (typeof current !== 'object' || current === null || typeof key === 'symbol')
      return { found: false, value: undefined };
    if (!Object.hasOwn(current, key)) return { found: false, value: undefined };
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return { found: true, value: current };
}
