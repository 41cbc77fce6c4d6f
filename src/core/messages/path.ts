/**
 * One spelling of a value path for every message mcp-mount shows a model or an operator.
 * Keys join with dots and indices sit in brackets (`media[0].url`), the way a model reads code.
 * A key that would be misread that way (empty, with dots, brackets, quotes or spaces) is written
 * as a quoted bracket (`headers["x.y"]`), so every path stays unambiguous.
 *
 * A path quotes the client's keys, so it is bounded: a key past `QUOTED_KEY_CHARS` is cut
 * (`["kkkk"…(1048576 characters)]`: the first characters quoted, then the length), and a path past `QUOTED_PATH_CHARS` keeps its first and last levels
 * around `…(N more levels)…`. Each costs the characters it keeps.
 */
import { boundedText, QUOTED_KEY_CHARS, QUOTED_PATH_CHARS } from './bounded.js';

const PLAIN_KEY = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;

export function formatPathSegment(segment: PropertyKey, first: boolean): string {
  if (typeof segment === 'number') return `[${segment}]`;
  if (typeof segment === 'symbol') return `[${boundedText(segment.toString(), QUOTED_KEY_CHARS)}]`;
  if (segment.length > QUOTED_KEY_CHARS) {
    // The part kept is quoted as it is; what follows the quote says it was cut, so no key reads this way.
    const kept = boundedText(segment, QUOTED_KEY_CHARS);
    const cut = kept.lastIndexOf('…(');
    return `[${JSON.stringify(kept.slice(0, cut))}${kept.slice(cut)}]`;
  }
  if (PLAIN_KEY.test(segment)) return first ? segment : `.${segment}`;
  return `[${JSON.stringify(segment)}]`;
}

/** `['media', 0, 'url']` → `media[0].url`; the root (`[]`) is `''`. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (let i = 0; i < path.length; i++) {
    out += formatPathSegment(path[i]!, i === 0);
    if (out.length > QUOTED_PATH_CHARS) return boundedPath(path);
  }
  return out;
}

/**
 * A path too long to show whole: its first and last levels, each side within three eighths of the budget, so
 * what is left out is always longer than the words that say so.
 */
function boundedPath(path: ReadonlyArray<PropertyKey>): string {
  const side = (QUOTED_PATH_CHARS * 3) / 8;
  let head = '';
  let first = 0;
  for (; first < path.length; first++) {
    const next = formatPathSegment(path[first]!, first === 0);
    if (head.length + next.length > side && first > 0) break;
    head += next;
  }
  let tail = '';
  let last = path.length;
  while (last > first + 1) {
    const next = formatPathSegment(path[last - 1]!, false);
    if (tail.length + next.length > side && last < path.length) break;
    tail = next + tail;
    last--;
  }
  const left = last - first;
  return left > 0 ? `${head}…(${left} more ${left === 1 ? 'level' : 'levels'})…${tail}` : head + tail;
}
