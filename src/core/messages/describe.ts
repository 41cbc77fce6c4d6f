/** Small helpers that turn values and Zod type names into the words a model reads in an error. */

/**
 * The JSON-ish type name of a value, as a sender would understand it. A number that is not finite is
 * named by its value (`Infinity`, `-Infinity`, `NaN`: JSON text such as `1e400` parses to Infinity), so
 * `expected number` never reads `received number`.
 */
export function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
  if (v instanceof Date) return 'date';
  return typeof v;
}

/** Zod's `expected` names, in plain words where Zod's differ. */
export function expectedName(expected: string): string {
  if (expected === 'int') return 'integer';
  if (expected === 'nonoptional') return 'a value';
  return expected;
}

/** A short literal for a value (`"post"`, `42`, `null`), cut at 60 characters. */
export function shortLiteral(v: unknown): string {
  // JSON.stringify writes Infinity and NaN as null.
  if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
  let text: string;
  try {
    text = typeof v === 'bigint' ? `${v}n` : (JSON.stringify(v) ?? String(v));
  } catch {
    text = typeName(v);
  }
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
