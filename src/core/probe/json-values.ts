import { pointer } from '../json-schema/pointer.js';

/**
 * Values in the document that do not survive `JSON.stringify` unchanged: what `tools/list` sends would
 * differ from the frozen document (NaN becomes null, undefined keys vanish) or the listing would throw (bigint, cycles).
 * Scans every value, data keywords (`default`, `const`, `enum`, `examples`) included.
 */
export function findNonJsonValues(doc: unknown): Array<{ path: string; what: string }> {
  if (plainJson(doc, 0)) return [];
  const found: Array<{ path: string; what: string }> = [];
  // The path is kept as tokens and spelled as a pointer only for a finding: most documents have none.
  const tokens: Array<string | number> = [];
  const ancestors = new Set<object>();
  const report = (what: string) => found.push({ path: pointer('', ...tokens), what });
  const scan = (value: unknown): void => {
    const what = describeNonJson(value);
    if (what) {
      report(what);
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    if (ancestors.has(value)) {
      report('a circular reference (JSON.stringify throws)');
      return;
    }
    ancestors.add(value);
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        tokens.push(i);
        scan(value[i]);
        tokens.pop();
      }
    } else {
      for (const key of Object.keys(value)) {
        tokens.push(key);
        scan((value as Record<string, unknown>)[key]);
        tokens.pop();
      }
    }
    ancestors.delete(value);
  };
  scan(doc);
  return found;
}

function describeNonJson(value: unknown): string | undefined {
  switch (typeof value) {
    case 'undefined':
      return 'undefined (JSON.stringify drops it)';
    case 'number':
      return Number.isFinite(value) ? undefined : `${value} (JSON.stringify turns it into null)`;
    case 'bigint':
      return `the bigint ${value}n (JSON.stringify throws)`;
    case 'function':
      return 'a function (JSON.stringify drops it)';
    case 'symbol':
      return 'a symbol (JSON.stringify drops it)';
    case 'object': {
      if (value === null || Array.isArray(value)) return undefined;
      const proto = Object.getPrototypeOf(value);
      if (proto === Object.prototype || proto === null) return undefined;
      const name = (value as object).constructor?.name ?? 'class instance';
      return `a ${name} object, not plain JSON (it serializes differently or not at all)`;
    }
    default:
      return undefined;
  }
}

/** Deeper than this, `plainJson` leaves the document to the full scan, which also finds a cycle. */
const PLAIN_DEPTH = 256;

/**
 * True when every value in `value` survives `JSON.stringify` as it is and nothing is nested deeper than
 * `PLAIN_DEPTH` (so nothing is circular): what the full scan would find nothing in, checked without keeping
 * a path or a set of ancestors. Most documents are plain, and the probe scans every one at startup.
 */
function plainJson(value: unknown, depth: number): boolean {
  if (depth > PLAIN_DEPTH) return false;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value);
    case 'object':
      break;
    default:
      return false;
  }
  if (value === null) return true;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!plainJson(value[i], depth + 1)) return false;
    return true;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return false;
  const keys = Object.keys(value);
  for (let i = 0; i < keys.length; i++) {
    if (!plainJson((value as Record<string, unknown>)[keys[i]!], depth + 1)) return false;
  }
  return true;
}
