/**
 * The JSON walk a tool's result goes through before it is sent (src/core/json-schema/json-value.ts): what it
 * converts, what it refuses and where, that it never changes the value it is given, and that its work is
 * linear in the value's size for every shape, by its own work counter (no clock).
 */
import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, toJsonValue } from '../../../src/core/json-schema/json-value.js';

describe('converted, losslessly', () => {
  it('a BigInt becomes its decimal string, at the root and at any depth, boxed or not', () => {
    expect(toJsonValue(12345678901234567890n)).toMatchObject({ ok: true, value: '12345678901234567890' });
    expect(toJsonValue(Object(-5n))).toMatchObject({ ok: true, value: '-5' });
    const converted = toJsonValue({ rows: [{ id: 1n, n: 2 }, { id: 9007199254740993n }], total: 2 });
    expect(converted).toEqual({
      ok: true,
      value: { rows: [{ id: '1', n: 2 }, { id: '9007199254740993' }], total: 2 },
      converted: 2,
      work: expect.any(Number),
    });
  });

  it('reads what JSON.stringify reads: toJSON(), boxed primitives, own enumerable keys; undefined keys stay absent', () => {
    class Point {
      constructor(
        readonly x: number,
        readonly y: number,
      ) {}
    }
    const value = { at: new Date(0), label: Object('a'), point: new Point(1, 2), gone: undefined };
    const result = toJsonValue(value);
    expect(result.ok).toBe(true);
    expect(JSON.stringify((result as { value: unknown }).value)).toBe(JSON.stringify(value));
  });

  it('returns the value itself when nothing needs converting, and never changes what it was given', () => {
    const plain = { a: [1, 'two', { three: true, four: null }] };
    expect((toJsonValue(plain) as { value: unknown }).value).toBe(plain);
    const frozen = Object.freeze({ keep: Object.freeze({ k: 1 }), deep: Object.freeze([Object.freeze({ n: 1n })]) });
    const result = toJsonValue(frozen) as { value: typeof frozen };
    expect(result.value).toEqual({ keep: { k: 1 }, deep: [{ n: '1' }] });
    expect(result.value.keep).toBe(frozen.keep);
    expect(frozen.deep[0]!.n).toBe(1n);
  });

  it('honours BigInt.prototype.toJSON when the application set one, as JSON.stringify does', () => {
    const proto = BigInt.prototype as unknown as { toJSON?: () => unknown };
    proto.toJSON = function (this: bigint) {
      return Number(this);
    };
    try {
      expect(toJsonValue({ n: 5n })).toMatchObject({ ok: true, value: { n: 5 } });
    } finally {
      delete proto.toJSON;
    }
    expect(toJsonValue({ n: 5n })).toMatchObject({ ok: true, value: { n: '5' } });
  });

  it('reads what a toJSON() returns: a URL as its href, undefined as an absent key', () => {
    const value = { site: new URL('https://example.com/a'), gone: { toJSON: () => undefined }, kept: 1 };
    const result = toJsonValue(value) as { ok: true; value: unknown };
    expect(result.ok).toBe(true);
    expect(JSON.stringify(result.value)).toBe('{"site":"https://example.com/a","kept":1}');
  });

  it('takes an instance of a class by its own enumerable keys, and an empty plain or null-prototype object', () => {
    class Row {
      id = 1n;
      name = 'a';
    }
    expect(toJsonValue({ row: new Row(), a: {}, b: Object.create(null) })).toMatchObject({
      ok: true,
      value: { row: { id: '1', name: 'a' }, a: {}, b: {} },
    });
  });

  it('keeps a `__proto__` key as a key', () => {
    const parsed = JSON.parse('{"__proto__": {"n": 1}, "m": 2}');
    const result = toJsonValue({ ...parsed, big: 3n }) as { value: Record<string, unknown> };
    expect(Object.getPrototypeOf(result.value)).toBe(Object.prototype);
    expect(JSON.stringify(result.value)).toBe('{"__proto__":{"n":1},"m":2,"big":"3"}');
  });
});

describe('refused, with the path of the first such value in document order', () => {
  const cases: Array<[string, unknown, Array<string | number>, string]> = [
    ['a function', { rows: [{ id: 1, fetch() {} }] }, ['rows', 0, 'fetch'], 'a function'],
    ['a symbol', { tag: Symbol('x') }, ['tag'], 'a symbol'],
    ['NaN', { ratio: Number.NaN }, ['ratio'], 'NaN (JSON has no such number)'],
    ['-Infinity', [0, Number.NEGATIVE_INFINITY], [1], '-Infinity (JSON has no such number)'],
    ['undefined in an array', { list: [1, undefined] }, ['list', 1], 'undefined in an array (JSON would send null)'],
    [
      'a hole in an array',
      { list: Object.assign(new Array<number>(3), { 0: 1, 2: 3 }) },
      ['list', 1],
      'undefined in an array (JSON would send null)',
    ],
    ['a Map', { index: new Map([['a', 1]]) }, ['index'], 'a Map (JSON would send {})'],
    ['a Set', new Set([1]), [], 'a Set (JSON would send {})'],
    ['an Error', { cause: new Error('x') }, ['cause'], 'an Error (JSON would send {})'],
    ['a Promise', { later: Promise.resolve(1) }, ['later'], 'a Promise (not awaited?) (JSON would send {})'],
    [
      'a throwing toJSON',
      {
        bad: {
          toJSON: () => {
            throw new Error('no');
          },
        },
      },
      ['bad'],
      'a value whose toJSON() threw',
    ],
    ['the first of two', { a: { b: () => 1 }, c: Number.NaN }, ['a', 'b'], 'a function'],
    ['a WeakMap', { cache: new WeakMap() }, ['cache'], 'a WeakMap (JSON would send {})'],
    ['a RegExp', { match: /a/ }, ['match'], 'a RegExp (JSON would send {})'],
    ['an ArrayBuffer', { raw: new ArrayBuffer(2) }, ['raw'], 'an ArrayBuffer (JSON would send {})'],
    ['a DataView', { raw: new DataView(new ArrayBuffer(2)) }, ['raw'], 'a DataView (JSON would send {})'],
    [
      'a typed array',
      { bytes: new Uint8Array([1, 2]) },
      ['bytes'],
      'an instance of Uint8Array (JSON would send an object of its indices)',
    ],
    [
      'an object of a class whose data JSON cannot see',
      { headers: new Headers({ a: '1' }) },
      ['headers'],
      'an instance of Headers with no own enumerable key (JSON would send {})',
    ],
    [
      'an instance of a class of getters',
      {
        total: new (class Total {
          get value() {
            return 1;
          }
        })(),
      },
      ['total'],
      'an instance of Total with no own enumerable key (JSON would send {})',
    ],
    [
      'undefined from a toJSON() in an array',
      [{ toJSON: () => undefined }],
      [0],
      'undefined in an array (JSON would send null)',
    ],
  ];
  it.each(cases)('%s', (_name, value, path, what) => {
    expect(toJsonValue(value)).toEqual({ ok: false, path, what, work: expect.any(Number) });
  });

  it('a cycle, where it closes, and not a value shared by two keys', () => {
    const shared = { n: 1 };
    expect(toJsonValue({ a: shared, b: shared }).ok).toBe(true);
    const cyclic: Record<string, unknown> = { list: [1] };
    (cyclic.list as unknown[]).push({ back: cyclic });
    expect(toJsonValue(cyclic)).toMatchObject({
      ok: false,
      path: ['list', 1, 'back'],
      what: 'a circular reference (to a value that holds it)',
    });
  });
});

/** Shapes at size n, each with a BigInt at its far end or on every leaf, so conversion and copying are counted. */
const SHAPES: Record<string, (n: number) => unknown> = {
  'deep objects, a BigInt at the bottom': (n) => {
    let v: unknown = 1n;
    for (let i = 0; i < n; i++) v = { d: v };
    return v;
  },
  'deep arrays, a BigInt at the bottom': (n) => {
    let v: unknown = 1n;
    for (let i = 0; i < n; i++) v = [v];
    return v;
  },
  'a wide object of BigInts': (n) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, BigInt(i)])),
  'a long array of BigInts': (n) => Array.from({ length: n }, (_, i) => BigInt(i)),
  'rows of plain values': (n) => Array.from({ length: n }, (_, i) => ({ id: i, name: `row ${i}`, ok: true })),
  'rows with a BigInt each': (n) => Array.from({ length: n }, (_, i) => ({ id: BigInt(i), tags: ['a', 'b'] })),
  'a deep chain, a function at the bottom': (n) => {
    let v: unknown = () => 1;
    for (let i = 0; i < n; i++) v = { d: v };
    return v;
  },
};

describe('depth', () => {
  const nested = (levels: number) => {
    let v: unknown = 1n;
    for (let i = 0; i < levels; i++) v = { d: v };
    return v;
  };

  it(`takes ${MAX_JSON_DEPTH} levels of containers, and refuses one more where it starts`, () => {
    expect(toJsonValue(nested(MAX_JSON_DEPTH)).ok).toBe(true);
    const refused = toJsonValue(nested(MAX_JSON_DEPTH + 1));
    expect(refused).toMatchObject({
      ok: false,
      what: `nested deeper than ${MAX_JSON_DEPTH} levels of arrays and objects`,
    });
    expect((refused as { path: unknown[] }).path).toEqual(Array(MAX_JSON_DEPTH).fill('d'));
  });
});

describe('linear work', () => {
  it.each(Object.keys(SHAPES))('%s: twice the size costs at most twice the work', (name) => {
    const n = 20_000;
    // No depth limit here: the walk itself, at every depth.
    const small = toJsonValue(SHAPES[name]!(n), Number.POSITIVE_INFINITY);
    const large = toJsonValue(SHAPES[name]!(2 * n), Number.POSITIVE_INFINITY);
    expect(large.ok).toBe(small.ok);
    // +4: the root and its copy do not double.
    expect(large.work, `${small.work} → ${large.work}`).toBeLessThanOrEqual(2 * small.work + 4);
    expect(large.work).toBeGreaterThan(small.work);
  });

  it('walks a value nested 200,000 deep without overflowing the stack', () => {
    const result = toJsonValue(SHAPES['deep objects, a BigInt at the bottom']!(200_000), Number.POSITIVE_INFINITY);
    expect(result.ok).toBe(true);
  });
});
