/**
 * Scalar repair: a number, boolean or null that arrived as a string.
 *
 * Strict by design. Hand-rolled "truthy" coercion has turned `"false"` into `true` in the wild, so
 * only exact spellings convert, and only where the schema expects that kind and accepts no string.
 */
import { type Accepts, acceptsNumberValue, acceptsSomeNumber, acceptsSomeString } from './accepts.js';

/**
 * A canonical decimal: optional minus, an integer part without leading zeros, an optional
 * fraction. No exponent, no `+`, no whitespace, no hex, no `.5` or `5.`. Exponents are left out on
 * purpose: a model that writes `"1e3"` for a number is rare, while `"1e400"` (Infinity) and
 * `"1e-400"` (0) silently change the value.
 */
export const CANONICAL_DECIMAL = /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/;

/**
 * Longest digit string converted. A canonical decimal of up to 400 characters still needs the
 * finiteness check below; anything longer cannot be a sensible number and is not even tested.
 */
const MAX_NUMBER_TEXT = 400;

export type ScalarFrom = 'number-string' | 'boolean-string' | 'null-string';

export interface ScalarRepair {
  value: number | boolean | null;
  from: ScalarFrom;
}

/** The number a canonical decimal string stands for, or undefined when it is not one or not finite. */
export function canonicalNumber(s: string): number | undefined {
  if (s.length === 0 || s.length > MAX_NUMBER_TEXT || !CANONICAL_DECIMAL.test(s)) return undefined;
  const n = Number(s);
  return Number.isFinite(n) ? n : undefined;
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
