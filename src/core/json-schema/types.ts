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
