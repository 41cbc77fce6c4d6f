// Numbers written as text (`"42"` for 42, a tag `"1"` for the literal 1): only a canonical decimal that a
// double holds exactly is read as a number.

/**
 * A canonical decimal: optional minus, an integer part without leading zeros, an optional
 * fraction. No exponent, no `+`, no whitespace, no hex, no `.5` or `5.`. Exponents are left out on
 * purpose: a model that writes `"1e3"` for a number is rare, while `"1e400"` (Infinity) and
 * `"1e-400"` (0) silently change the value.
 * @internal exported for its tests alone
 */
export const CANONICAL_DECIMAL = /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/;

/**
 * Longest digit string converted. A canonical decimal of up to 400 characters still needs the
 * finiteness check below; anything longer cannot be a sensible number and is not even tested.
 */
const MAX_NUMBER_TEXT = 400;

/**
 * The number a canonical decimal string stands for, or undefined when it is not one, not finite, or
 * not exactly the number it would become. A double holds about 17 significant digits, so
 * `"9007199254740993"` would silently become 9007199254740992 and `"0.12345678901234567890123"`
 * 0.12345678901234568: such text is left for Zod to refuse by path. The test is a round trip: the
 * shortest text of the double (`String(n)`, exponent form included) must spell the same decimal
 * value as the text sent, trailing fraction zeros aside (`"10.0"` is 10). `"-0"` gives -0, as
 * `JSON.parse` does. An integer past 2^53 must also be exactly the double (see below).
 */
export function canonicalNumber(s: string): number | undefined {
  if (s.length === 0 || s.length > MAX_NUMBER_TEXT || !CANONICAL_DECIMAL.test(s)) return undefined;
  const n = Number(s);
  if (!Number.isFinite(n) || !sameDecimal(decimalOf(s), decimalOf(String(n)))) return undefined;
  // Past 2^53 a double that prints back as the text may still not BE that integer ("1152921504606847000"
  // is 2^60 = 1152921504606846976): an id must keep every digit, so the integer must be exact too.
  if (Math.abs(n) > Number.MAX_SAFE_INTEGER && BigInt(s.replace(/\.0*$/, '')) !== BigInt(n)) return undefined;
  return n;
}

/** A decimal as its significant digits (no leading or trailing zeros) and the power of ten after them: 0.d1d2... x 10^point. */
interface Decimal {
  negative: boolean;
  digits: string;
  point: number;
}

/** Reads `-?digits(.digits)?(e[+-]digits)?`, the forms of a canonical decimal and of `String(n)`. */
function decimalOf(text: string): Decimal {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/i.exec(text)!;
  const whole = m[2]!;
  const all = whole + (m[3] ?? '');
  let point = whole.length + (m[4] ? Number(m[4]) : 0);
  let start = 0;
  while (start < all.length && all[start] === '0') start++;
  let end = all.length;
  while (end > start && all[end - 1] === '0') end--;
  point -= start;
  return { negative: m[1] === '-', digits: all.slice(start, end), point };
}

function sameDecimal(a: Decimal, b: Decimal): boolean {
  // Zero: Number() already kept the sign the text gave ("-0" is -0), and String(-0) is "0".
  if (a.digits === '' || b.digits === '') return a.digits === b.digits;
  return a.negative === b.negative && a.digits === b.digits && a.point === b.point;
}
