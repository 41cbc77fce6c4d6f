/**
 * Scalar repair: a number, boolean or null that arrived as a string.
 *
 * Strict by design. Hand-rolled "truthy" coercion has turned `"false"` into `true` in the wild, so
 * only exact spellings convert, and only where the schema expects that kind and accepts no string.
 */
import { canonicalNumber } from '../json-schema/canonical-number.js';
import { type Accepts, acceptsNumberValue, acceptsSomeNumber, acceptsSomeString } from '../zod/accepted-kinds.js';

type ScalarFrom = 'number-string' | 'boolean-string' | 'null-string';

export interface ScalarRepair {
  value: number | boolean | null;
  from: ScalarFrom;
}

/**
 * The scalar a string converts to at a position with summary `a`, or undefined to leave it.
 * Never converts where any string is accepted (a union with a string member keeps the string).
 */
export function repairScalar(a: Accepts, s: string): ScalarRepair | undefined {
  if (acceptsSomeString(a)) return undefined;
  if (s === 'null') return a.null ? { value: null, from: 'null-string' } : undefined;
  if (s === 'true') return a.true ? { value: true, from: 'boolean-string' } : undefined;
  if (s === 'false') return a.false ? { value: false, from: 'boolean-string' } : undefined;
  if (!acceptsSomeNumber(a)) return undefined;
  const n = canonicalNumber(s);
  // "5.5" where only integers pass is left as a string for Zod to reject with the path.
  if (n === undefined || !acceptsNumberValue(a, n)) return undefined;
  return { value: n, from: 'number-string' };
}
