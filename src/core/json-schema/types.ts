/**
 * JSON Schema (draft 2020-12) as plain JSON data. Every projection in mcp-mount
 * (flattening, `$ref` inlining, merging) is a pure function from one of these to another.
 */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** A schema object. Boolean schemas (`true`/`false`) appear only as sub-schemas, e.g. `additionalProperties: false`. */
export type JsonSchema = { [key: string]: any };

/** True for a plain JSON object (not an array, not null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Escapes one JSON Pointer reference token (RFC 6901 section 4). */
export function escapePointerToken(token: string | number): string {
  return String(token).replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Joins a parent JSON Pointer and reference tokens: `pointer('', 'properties', 'a~b')` is `/properties/a~0b`. */
export function pointer(parent: string, ...tokens: Array<string | number>): string {
  return parent + tokens.map((t) => `/${escapePointerToken(t)}`).join('');
}
