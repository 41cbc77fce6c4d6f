/** The JSON text reader and the scalar rules, unit by unit. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { firstSignificant, parseJsonText, utf8Length } from '../../../src/core/repair/json-text.js';
import { CANONICAL_DECIMAL, canonicalNumber } from '../../../src/core/repair/scalars.js';

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
  it.each(['0', '-0', '7', '5812', '-3.5', '0.25', '10.0', '123456789012345678901234567890'])('accepts %j', (s) => {
    expect(canonicalNumber(s)).toBe(Number(s));
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
