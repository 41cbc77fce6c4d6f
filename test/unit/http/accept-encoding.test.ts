/** `Accept-Encoding` (accept-encoding.ts): which header values let an answer be sent gzip-encoded. */
import { describe, expect, it } from 'vitest';
import { acceptsGzip } from '../../../src/core/http/accept-encoding.js';

describe('acceptsGzip', () => {
  it.each([
    // What fetch (undici), browsers, httpx and Go send.
    ['gzip, deflate', true],
    ['gzip, deflate, br, zstd', true],
    ['br, gzip', true],
    ['gzip', true],
    ['GZIP', true],
    ['x-gzip', true],
    [' gzip ; q=1 ', true],
    ['gzip;q=0.001', true],
    // More than RFC 9110's three decimals, yet a number from 0 to 1: read as it is.
    ['gzip;q=0.0001', true],
    // gzip not below identity: identity unnamed ranks as the least preferred coding listed.
    ['gzip;q=0.5', true],
    ['gzip;q=0.2, br;q=0.8', true],
    ['gzip;q=0.5, identity;q=0.5', true],
    ['*', true],
    ['*;q=0.3', true],
    ['br, *', true],
    ['gzip, identity;q=0', true],
    ['gzip, *;q=0', true],
    // No coding asked for, or gzip refused or ranked below identity.
    [null, false],
    ['', false],
    ['identity', false],
    ['deflate, br', false],
    ['gzip;q=0', false],
    ['gzip;q=0.0', false],
    ['x-gzip;q=0', false],
    ['*;q=0', false],
    ['*, gzip;q=0', false],
    ['gzip;q=0.5, identity', false],
    ['gzip;q=0.4, identity;q=0.5', false],
    ['identity;q=0', false],
    // A q that is no number from 0 to 1 reads as a refusal, the safe side.
    ['gzip;q=', false],
    ['gzip;q=abc', false],
    ['gzip;q=2', false],
    ['gzip;q=-1', false],
    ['gzipped', false],
    // Codings named like Object.prototype's keys are codings like any other.
    ['__proto__, gzip', true],
    ['constructor;q=1, gzip;q=0.5, toString', true],
    ['__proto__;q=1, identity', false],
  ])('%s', (value, expected) => {
    expect(acceptsGzip(value)).toBe(expected);
  });
});

describe('acceptsGzip on a header of any size', () => {
  /**
   * The work per part is what the function does to text: a split, a lowercase, a trim. Counted by the calls
   * to those string methods (deterministic), doubling the header at most doubles them, whether it grows in
   * codings, in parameters of one coding, or in the length of one name.
   */
  function work(value: string): number {
    let calls = 0;
    const methods = ['split', 'toLowerCase', 'trim', 'slice', 'indexOf'] as const;
    const originals = methods.map((m) => String.prototype[m]);
    methods.forEach((m, i) => {
      const original = originals[i] as (...args: unknown[]) => unknown;
      (String.prototype as unknown as Record<string, unknown>)[m] = function (this: string, ...args: unknown[]) {
        // Each call weighs the characters it reads.
        calls += 1 + this.length;
        return original.apply(this, args);
      };
    });
    try {
      acceptsGzip(value);
    } finally {
      methods.forEach((m, i) => {
        (String.prototype as unknown as Record<string, unknown>)[m] = originals[i];
      });
    }
    return calls;
  }

  it.each([
    ['codings', (n: number) => Array.from({ length: n }, (_, i) => `c${String(i).padStart(6, '0')};q=0.5`).join(', ')],
    ['parameters of one coding', (n: number) => `gzip${';a=1'.repeat(n)}`],
    ['one long name', (n: number) => `${'x'.repeat(n)}, gzip`],
  ])('%s: twice the header, at most twice the work', (_label, header) => {
    for (const n of [1000, 4000]) {
      const small = work(header(n));
      const large = work(header(2 * n));
      expect(large, `${small} → ${large}`).toBeLessThanOrEqual(2 * small + 16);
      expect(acceptsGzip(header(2 * n))).toBe(acceptsGzip(header(n)));
    }
  });
});
