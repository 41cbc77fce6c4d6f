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

/**
 * What `await` would wait for: a promise, or any object or function with a `then` method. Asked instead of
 * `instanceof Promise` wherever a step answers a value or a promise: a promise made in another realm (the Edge
 * runtime's sandbox hands out its host's, e.g. from `request.arrayBuffer()`) is no instance of this realm's
 * `Promise`, and would be taken for the value it promises.
 */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}
