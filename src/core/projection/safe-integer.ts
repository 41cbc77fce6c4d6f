import { declaredTypes, mapPositiveSubschemasShared } from '../json-schema/keywords.js';
import { setOwn } from '../json-schema/own-properties.js';
import { isPlainObject, type JsonSchema } from '../json-schema/types.js';

// Zod writes every `z.number().int()` with the bounds of a safe integer, ±(2^53 - 1). They cost a model
// tokens on every integer field and tell it nothing it would ever send; the parse still enforces them.

const SAFE_MAX = Number.MAX_SAFE_INTEGER;

/**
 * `node` without `minimum: -(2^53 - 1)` and `maximum: 2^53 - 1` on integer-typed schemas, at every positive
 * position. Real bounds (`min(0)`, `z.int32()`) stay. Dropping a bound only widens, so the result is a
 * superset; under `not` and `if` it would narrow or change the branch, so nothing there is touched. Pure;
 * the result shares the sub-trees it did not change with `node` (the projections after it copy).
 */
export function dropSafeIntegerBounds(node: unknown): unknown {
  if (!isPlainObject(node)) return node;
  const walked = mapPositiveSubschemasShared(node, dropSafeIntegerBounds);
  if (!declaredTypes(walked)?.includes('integer')) return walked;
  if (walked.minimum !== -SAFE_MAX && walked.maximum !== SAFE_MAX) return walked;
  // Copied before trimming: `walked` may be `node` itself (nothing below changed).
  const out: JsonSchema = {};
  for (const key of Object.keys(walked)) {
    const bound =
      (key === 'minimum' && walked.minimum === -SAFE_MAX) || (key === 'maximum' && walked.maximum === SAFE_MAX);
    if (!bound) setOwn(out, key, walked[key]);
  }
  return out;
}
