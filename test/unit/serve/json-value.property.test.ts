/**
 * Values JSON cannot carry as they are, put at random places in random results: BigInts anywhere are sent as
 * their decimal strings and nothing else changes; one value JSON has no form for (a function, a symbol, NaN,
 * Infinity, undefined in an array, a Map, a Set, an Error, a Promise, a typed array, an object of a class
 * whose data JSON cannot see, a cycle, a toJSON() that throws), wherever it sits,
 * is refused with exactly its path. Held on the walk itself (json-schema/json-value.ts), and on what a tool
 * returning the same value answers through a mount.
 */
import fc from 'fast-check';
import { defineTool } from 'mcp-mount';
import { createMcpFetchHandler } from 'mcp-mount/adapter';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type JsonPathSegment, toJsonValue } from '../../../src/core/json-schema/json-value.js';
import { formatPath } from '../../../src/core/messages/path.js';
import { propertyRuns } from '../../support/property-runs.js';

type Container = Record<string, unknown> | unknown[];

/** Every array and object in `value` with its path, the value itself first. */
function containers(value: unknown): Array<{ at: Container; path: JsonPathSegment[] }> {
  const found: Array<{ at: Container; path: JsonPathSegment[] }> = [];
  const stack: Array<{ v: unknown; path: JsonPathSegment[] }> = [{ v: value, path: [] }];
  while (stack.length > 0) {
    const { v, path } = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    found.push({ at: v as Container, path });
    if (Array.isArray(v)) for (let i = 0; i < v.length; i++) stack.push({ v: v[i], path: [...path, i] });
    else for (const [k, item] of Object.entries(v)) stack.push({ v: item, path: [...path, k] });
  }
  return found;
}

/** Puts `item` into the `pick`-th container at `slot`: where it went. */
function insert(value: unknown, pick: number, slot: number, item: (at: Container) => unknown): JsonPathSegment[] {
  const all = containers(value);
  const { at, path } = all[pick % all.length]!;
  if (Array.isArray(at)) {
    const index = slot % (at.length + 1);
    at.splice(index, 0, item(at));
    return [...path, index];
  }
  let key = 'inserted';
  while (key in at) key += '_';
  at[key] = item(at);
  return [...path, key];
}

/** A random result: always an object, so that every insertion has a place. */
const results = fc.jsonValue({ maxDepth: 4 }).map((v) => ({ data: v }));
const places = fc.array(fc.tuple(fc.nat(), fc.nat(), fc.bigInt()), { maxLength: 4 });

interface Unsendable {
  what: string;
  /** Only where JSON would change it: `undefined` is absent in an object, and refused in an array only. */
  arrays?: boolean;
  item(at: Container): unknown;
}
const UNSENDABLE: readonly Unsendable[] = [
  { what: 'a function', item: () => () => 1 },
  { what: 'a symbol', item: () => Symbol('s') },
  { what: 'NaN (JSON has no such number)', item: () => Number.NaN },
  { what: 'Infinity (JSON has no such number)', item: () => Number.POSITIVE_INFINITY },
  { what: 'undefined in an array (JSON would send null)', arrays: true, item: () => undefined },
  { what: 'a Map (JSON would send {})', item: () => new Map([[1, 2]]) },
  { what: 'a Set (JSON would send {})', item: () => new Set([1]) },
  { what: 'an Error (JSON would send {})', item: () => new Error('e') },
  { what: 'a Promise (not awaited?) (JSON would send {})', item: () => Promise.resolve(1) },
  {
    what: 'an instance of Float64Array (JSON would send an object of its indices)',
    item: () => new Float64Array([1.5]),
  },
  {
    what: 'an instance of URLSearchParams with no own enumerable key (JSON would send {})',
    item: () => new URLSearchParams('a=1'),
  },
  { what: 'a circular reference (to a value that holds it)', item: (at) => at },
  {
    what: 'a value whose toJSON() threw',
    item: () => ({
      toJSON() {
        throw new Error('no');
      },
    }),
  },
];

/** `value` with BigInts put at `spots`: what JSON should carry (BigInts as decimal strings). */
function withBigInts(value: unknown, spots: ReadonlyArray<readonly [number, number, bigint]>): string {
  for (const [pick, slot, n] of spots) insert(value, pick, slot, () => n);
  return JSON.stringify(value, (_key, v) => (typeof v === 'bigint' ? v.toString() : v));
}

/** A container to put an unsendable item in: an array when only an array makes it one. */
function placeFor(value: unknown, pick: number, arrays: boolean | undefined): number {
  if (!arrays) return pick;
  const all = containers(value);
  const arrayAt = all.findIndex((c, i) => i >= pick % all.length && Array.isArray(c.at));
  if (arrayAt >= 0) return arrayAt;
  (value as { data: unknown; list?: unknown[] }).list = [];
  return containers(value).findIndex((c) => Array.isArray(c.at) && c.at.length === 0);
}

describe('the JSON walk over random results', () => {
  it('sends BigInts anywhere as decimal strings, changes nothing else, and leaves the value as it was', () => {
    fc.assert(
      fc.property(results, places, (result, spots) => {
        const expected = withBigInts(result, spots);
        const converted = toJsonValue(result);
        expect(converted.ok).toBe(true);
        expect(JSON.stringify((converted as { value: unknown }).value)).toBe(expected);
        // The value given is untouched: its BigInts are still BigInts.
        expect(JSON.stringify(result, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))).toBe(expected);
        if (spots.length > 0) expect(converted.ok && converted.converted).toBe(spots.length);
      }),
      { numRuns: propertyRuns(500, 50), seed: 3301 },
    );
  });

  it('refuses one value JSON has no form for with exactly its path, wherever it is, BigInts or not', () => {
    fc.assert(
      fc.property(
        results,
        places,
        fc.constantFrom(...UNSENDABLE),
        fc.nat(),
        fc.nat(),
        (result, spots, kind, pick, slot) => {
          withBigInts(result, spots);
          const path = insert(result, placeFor(result, pick, kind.arrays), slot, kind.item);
          expect(toJsonValue(result)).toEqual({ ok: false, path, what: kind.what, work: expect.any(Number) });
        },
      ),
      { numRuns: propertyRuns(500, 50), seed: 3302 },
    );
  });

  it('does work within a constant of the values in the result', () => {
    fc.assert(
      fc.property(results, places, (result, spots) => {
        withBigInts(result, spots);
        const values = containers(result).reduce((n, c) => n + 1 + Object.keys(c.at).length, 0);
        // A visit per value, and at most one copy of each container on the way to a BigInt.
        expect(toJsonValue(result).work).toBeLessThanOrEqual(2 * values + 1);
      }),
      { numRuns: propertyRuns(500, 50), seed: 3303 },
    );
  });
});

describe('a tool returning such a result, through a mount', () => {
  let returned: unknown;
  const mount = createMcpFetchHandler(
    [defineTool({ name: 'report', input: z.object({}), handler: () => returned as never })],
    { observe: { logger: { warn() {}, error() {} } } },
  );
  const call = async (): Promise<{ isError?: boolean; content: Array<{ text: string }> }> => {
    const response = await mount.fetch(
      new Request('http://localhost/mcp', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          'mcp-protocol-version': '2025-11-25',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'report', arguments: {} },
        }),
      }),
    );
    return JSON.parse(await response.text()).result;
  };

  it('answers the JSON text with BigInts as strings, or an isError naming the path of what JSON cannot carry', async () => {
    await fc.assert(
      fc.asyncProperty(
        results,
        places,
        fc.option(fc.tuple(fc.constantFrom(...UNSENDABLE), fc.nat(), fc.nat()), { nil: undefined }),
        async (result, spots, unsendable) => {
          const expected = withBigInts(result, spots);
          returned = result;
          if (!unsendable) {
            const answer = await call();
            expect(answer.isError).toBeFalsy();
            expect(answer.content[0]!.text).toBe(expected);
            return;
          }
          const [kind, pick, slot] = unsendable;
          const path = insert(result, placeFor(result, pick, kind.arrays), slot, kind.item);
          const answer = await call();
          expect(answer.isError).toBe(true);
          // Paths here are short (four levels of short keys), so never cut.
          expect(answer.content[0]!.text.replace(/^(Tool report failed \(error id )[0-9a-f-]{36}\)/, '$1ID)')).toBe(
            `Tool report failed (error id ID): its result cannot be sent as JSON: ${formatPath(path)} is ${kind.what}`,
          );
        },
      ),
      { numRuns: propertyRuns(150, 30), seed: 3304 },
    );
  });
});
