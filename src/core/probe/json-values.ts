import { pointer } from '../json-schema/pointer.js';

/**
 * Values in the document that do not survive `JSON.stringify` unchanged: what `tools/list` sends would
 * differ from the frozen document (NaN becomes null, undefined keys vanish) or the listing would throw (bigint, cycles).
 * Scans every value, data keywords (`default`, `const`, `enum`, `examples`) included.
 */
export function findNonJsonValues(doc: unknown): Array<{ path: string; what: string }> {
  const found: Array<{ path: string; what: string }> = [];
  const scan = (value: unknown, path: string, ancestors: Set<object>): void => {
    const what = describeNonJson(value);
    if (what) {
      found.push({ path, what });
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    if (ancestors.has(value)) {
      found.push({ path, what: 'a circular reference (JSON.stringify throws)' });
      return;
    }
    ancestors.add(value);
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) scan(value[i], pointer(path, i), ancestors);
    } else {
      for (const key of Object.keys(value))
        scan((value as Record<string, unknown>)[key], pointer(path, key), ancestors);
    }
    ancestors.delete(value);
  };
  scan(doc, '', new Set());
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
