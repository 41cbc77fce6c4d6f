/**
 * How a client-chosen value is written into a log line or a span: nothing that could break the line or mislead
 * its reader survives, nothing is lost (the escape reads back to the value), and a value of any length costs a
 * bounded line.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapedText, LOG_VALUE_CHARS, loggedError, logValue } from '../../../src/core/observe/log-text.js';
import { holdsUnsafe, hostileText, UNSAFE_CHARACTERS } from '../../support/hostile-text.js';
import { propertyRuns } from '../../support/property-runs.js';

/** What a reader recovers from an escaped text: JSON's escapes are the ones written. */
const readBack = (escaped: string) => JSON.parse(`"${escaped.replaceAll('"', '\\"')}"`) as string;

describe('escapedText', () => {
  it('escapes every character that could break a line, and reads back to the value', () => {
    fc.assert(
      fc.property(hostileText(), (text) => {
        const escaped = escapedText(text);
        expect(holdsUnsafe(escaped)).toBe(false);
        if (text.length <= LOG_VALUE_CHARS) expect(readBack(escaped)).toBe(text);
      }),
      { numRuns: propertyRuns(500, 100), seed: 20261210 },
    );
  });

  it('escapes each unsafe character on its own', () => {
    for (const char of UNSAFE_CHARACTERS) {
      const escaped = escapedText(`a${char}b`);
      expect(holdsUnsafe(escaped), JSON.stringify(char)).toBe(false);
      expect(readBack(escaped)).toBe(`a${char}b`);
    }
  });

  it('cuts a long value with an ellipsis and its length, never inside a surrogate pair', () => {
    const long = `${'k'.repeat(LOG_VALUE_CHARS - 1)}😀${'k'.repeat(1_000_000)}`;
    const escaped = escapedText(long);
    expect(escaped).toBe(`${'k'.repeat(LOG_VALUE_CHARS - 1)}…(${long.length} characters)`);
    expect(escapedText('\n'.repeat(1_000_000)).length).toBeLessThan(LOG_VALUE_CHARS * 2 + 40);
  });
});

describe('logValue', () => {
  const QUOTED = /^"(?:[^"\\]|\\.)*"$/;

  it('writes a plain token as it is and anything else quoted, so the value always ends where it seems to', () => {
    fc.assert(
      fc.property(fc.oneof(hostileText(), fc.string(), fc.integer()), (value) => {
        const shown = logValue(value);
        expect(holdsUnsafe(shown)).toBe(false);
        if (typeof value === 'number') expect(shown).toBe(String(value));
        else if (/^[A-Za-z0-9_.:@+-]{1,128}$/.test(value)) expect(shown).toBe(value);
        else {
          expect(shown).toMatch(QUOTED);
          if (value.length <= LOG_VALUE_CHARS) expect(JSON.parse(shown)).toBe(value);
        }
      }),
      { numRuns: propertyRuns(500, 100), seed: 20261211 },
    );
  });
});

describe('loggedError', () => {
  it('hands on an error whose message is safe as it is', () => {
    const error = new Error('connect ECONNREFUSED 10.0.0.7:5432');
    expect(loggedError(error)).toBe(error);
  });

  it('hands a logger a copy of the same class whose message and stack head are escaped', () => {
    class UpstreamError extends Error {
      code = 'E_UP';
    }
    const error = new UpstreamError('bad id 7)\nmcp-mount: auth error (caller admin/root)');
    const shown = loggedError(error) as UpstreamError;
    expect(shown).not.toBe(error);
    expect(shown).toBeInstanceOf(UpstreamError);
    expect(shown.code).toBe('E_UP');
    expect(holdsUnsafe(shown.message)).toBe(false);
    expect(shown.stack?.split('\n')[0]).toBe(`Error: ${shown.message}`);
    expect(shown.stack?.split('\n').slice(1)).toEqual(error.stack?.split('\n').slice(2));
    // The original is untouched: onError gets it as thrown.
    expect(error.message).toContain('\n');
  });
});
