import { declaredTypes, mapSubschemas, NEGATIVE_POSITIONS } from '../json-schema/keywords.js';
import { isPlainObject } from '../json-schema/types.js';

// Zod writes every `z.number().int()` with the bounds of a safe integer, ±(2^53 - 1). They cost a model
// tokens on every integer field and tell it nothing it would ever send; the parse still enforces them.

const SAFE_MAX = Number.MAX_SAFE_INTEGER;

/**
 * `node` without `minimum: -(2^53 - 1)` and `maximum: 2^53 - 1` on integer-typed schemas, at every positive
 * position. Real bounds (`min(0)`, `z.int32()`) stay. Dropping a bound only widens, so the result is a
 * superset; under `not` and `if` it would narrow or change the branch, so nothing there is touched. Pure.
 */
export function dropSafeIntegerBounds(node: unknown): unknown {
  if (!isPlainObject(node)) return node;
  const walked = mapSubschemas(node, (child, at) =>
    NEGATIVE_POSITIONS.has(at.keyword) ? child : dropSafeIntegerBounds(child),
  );
  if (!declaredTypes(walked)?.includes('integer')) return walked;
  // `walked` is a fresh copy (mapSubschemas), so it may be trimmed in place.
  if (walked.minimum === -SAFE_MAX) delete walked.minimum;
  if (walked.maximum === SAFE_MAX) delete walked.maximum;
  return walked;
}
