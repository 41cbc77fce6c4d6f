/**
 * One spelling of a value path for every message mcp-mount shows a model or an operator.
 * Keys join with dots and indices sit in brackets (`media[0].url`), the way a model reads code.
 * A key that would be misread that way (empty, with dots, brackets, quotes or spaces) is written
 * as a quoted bracket (`headers["x.y"]`), so every path stays unambiguous.
 */

const PLAIN_KEY = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;

export function formatPathSegment(segment: PropertyKey, first: boolean): string {
  if (typeof segment === 'number') return `[${segment}]`;
  if (typeof segment === 'symbol') return `[${segment.toString()}]`;
  if (PLAIN_KEY.test(segment)) return first ? segment : `.${segment}`;
  return `[${JSON.stringify(segment)}]`;
}

/** `['media', 0, 'url']` → `media[0].url`; the root (`[]`) is `''`. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (let i = 0; i < path.length; i++) out += formatPathSegment(path[i]!, i === 0);
  return out;
}
