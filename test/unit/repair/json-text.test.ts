/** The JSON text reader and the scalar rules, unit by unit. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CANONICAL_DECIMAL, canonicalNumber } from '../../../src/core/json-schema/canonical-number.js';
import { firstSignificant, parseJsonText, utf8Length } from '../../../src/core/repair/json-text.js';

const LOOSE = { maxBytes: Number.POSITIVE_INFINITY, maxNesting: 64, maxNodes: Number.POSITIVE_INFINITY };

describe('utf8Length', () => {
  it('matches Buffer.byteLength for any string, lone surrogates included', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        expect(utf8Length(s)).toBe(Buffer.byteLength(s, 'utf8'));
      }),
      { seed: 7, numRuns: 1000 },
    );
    expect(utf8Length('\ud800')).toBe(Buffer.byteLength('\ud800'));
  });
  it('stops early past the limit', () => {
    expect(utf8Length('é'.repeat(10), 5)).toBe(6);
  });
});

describe('parseJsonText', () => {
  it('parses pretty-printed text and reports the value count estimate', () => {
    const r = parseJsonText('[\n  {"a": 1},\n  2\n]', LOOSE);
    expect(r).toEqual({ ok: true, value: [{ a: 1 }, 2], nodes: 4 });
  });
  it('never counts brackets or commas inside strings', () => {
    const r = parseJsonText('["[[[,,,{{{", "\\"]]"]', { ...LOOSE, maxNesting: 1 });
    expect(r.ok).toBe(true);
  });
  it.each([
    ['nesting', '[[[1]]]', { ...LOOSE, maxNesting: 2 }],
    ['nodes', '[1,2,3,4]', { ...LOOSE, maxNodes: 3 }],
    ['bytes', '[1,2]', { ...LOOSE, maxBytes: 4 }],
    ['syntax', '{"a":', LOOSE],
  ])('refuses on %s', (reason, text, limits) => {
    expect(parseJsonText(text, limits)).toMatchObject({ ok: false, reason });
  });
  it('the node estimate is never below the true count', () => {
    const count = (v: unknown): number =>
      typeof v === 'object' && v !== null ? 1 + Object.values(v).reduce((n: number, x) => n + count(x), 0) : 1;
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (v) => {
        const r = parseJsonText(JSON.stringify(v), { ...LOOSE, maxNesting: 100 });
        expect(r.ok).toBe(true);
        if (r.ok) expect(r.nodes).toBeGreaterThanOrEqual(count(v));
      }),
      { seed: 8, numRuns: 500 },
    );
  });
});

describe('firstSignificant', () => {
  it('skips JSON whitespace only', () => {
    expect(firstSignificant(' \n\t\r[1]')).toBe('[');
    expect(firstSignificant('\u00a0[1]')).toBe('\u00a0');
    expect(firstSignificant('   ')).toBe('');
  });
});

describe('canonical decimals', () => {
  it.each(['0', '-0', '7', '5812', '-3.5', '0.25', '10.0'])('accepts %j', (s) => {
    expect(canonicalNumber(s)).toBe(Number(s));
  });
  it.each([
    '9007199254740992',
    '-9007199254740991',
    '9007199254740994',
    '1000000000000000000000',
    '0.0000001',
    '0.30000000000000004',
    '-0.000',
    '1.7976931348623157',
    `0.${'0'.repeat(323)}5`, // 5e-324, the least double
  ])('accepts %j: the double prints back as written (round trip)', (s) => {
    expect(canonicalNumber(s)).toBe(Number(s));
  });
  it.each([
    ['rounds to 9007199254740992', '9007199254740993'],
    ['rounds to -9007199254740992', '-9007199254740993'],
    ['rounds to 0.12345678901234568', '0.12345678901234567890123'],
    ['has 30 significant digits', '123456789012345678901234567890'],
    ['is 2^60 = 1152921504606846976', '1152921504606847000'],
    ['is 2^60 but prints back as 1152921504606847000', '1152921504606846976'],
    ['underflows to 0 (1 at the 331st decimal)', `0.${'0'.repeat(330)}1`],
  ])('refuses a decimal that %s', (_why, s) => {
    expect(CANONICAL_DECIMAL.test(s)).toBe(true);
    expect(canonicalNumber(s)).toBeUndefined();
  });
  it('any double written out in full (no exponent) converts back to itself, unless an integer past 2^53 prints inexactly', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
        const s = plain(x);
        if (s.length > 400) return; // past the length limit: not even tested
        const exactInteger =
          !(Number.isInteger(x) && Math.abs(x) > Number.MAX_SAFE_INTEGER) || BigInt(x).toString() === s;
        expect(canonicalNumber(s)).toBe(exactInteger ? x : undefined);
      }),
      { seed: 11, numRuns: 2000 },
    );
  });
  it('a decimal with more digits than a double holds never converts to a different number', () => {
    const digits = fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 1, maxLength: 25 });
    fc.assert(
      fc.property(fc.boolean(), digits, fc.option(digits, { nil: undefined }), (neg, whole, frac) => {
        const w = whole.replace(/^0+(?=\d)/, '');
        const s = `${neg ? '-' : ''}${w}${frac === undefined ? '' : `.${frac}`}`;
        const n = canonicalNumber(s);
        if (n === undefined) return;
        // What the number prints as, written out in full, is the text sent (trailing fraction zeros aside).
        const trim = (t: string) => (t.includes('.') ? t.replace(/0+$/, '').replace(/\.$/, '') : t);
        expect(trim(plain(n)).replace(/^-0$/, '0')).toBe(trim(s).replace(/^-0$/, '0'));
      }),
      { seed: 12, numRuns: 3000 },
    );
  });
  it.each(['', ' 7', '7 ', '+1', '01', '1.', '.5', '0x10', '1e3', '1e400', '12abc', 'NaN', 'Infinity', '1_000', '١٢'])(
    'refuses %j',
    (s) => {
      expect(canonicalNumber(s)).toBeUndefined();
    },
  );
  it('refuses a canonical decimal too large to be finite', () => {
    expect(CANONICAL_DECIMAL.test('9'.repeat(400))).toBe(true);
    expect(canonicalNumber('9'.repeat(400))).toBeUndefined();
  });
  it('any finite number written by JSON.stringify without exponent converts back to itself', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e15, max: 1e15 }), (x) => {
        const s = JSON.stringify(x);
        if (/e/i.test(s)) return;
        expect(canonicalNumber(s)).toBe(x === 0 ? Number(s) : x);
      }),
      { seed: 9, numRuns: 1000 },
    );
  });
});

/** A number written out in full, without exponent (`1e-7` as `0.0000001`, `1e+21` as `1000000000000000000000`). */
function plain(x: number): string {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(x))!;
  const digits = m[2]! + (m[3] ?? '');
  const point = m[2]!.length + Number(m[4] ?? 0);
  const sign = Object.is(x, -0) ? '-' : m[1]!;
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}
