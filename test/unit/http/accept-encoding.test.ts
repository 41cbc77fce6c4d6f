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
