/** Repair never throws, never hangs, never mutates, and refuses over-limit input cleanly. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { repairArgs } from '../../../src/core/repair/index.js';
import {
  DEFAULT_MAX_DEPTH,
  DEFAULT_MAX_NODES,
  DEFAULT_MAX_STRING_BYTES,
  DEFAULT_REPAIR_LIMITS,
} from '../../../src/core/repair/limits.js';

function deepFreeze<T>(v: T): T {
  if (typeof v === 'object' && v !== null && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const k of Object.keys(v)) deepFreeze((v as any)[k]);
  }
  return v;
}

const Tree: z.ZodType = z.lazy(() => z.object({ v: z.number().optional(), kids: z.array(Tree).optional() }));
const NestedArray: z.ZodType = z.lazy(() => z.array(NestedArray));

describe('limits', () => {
  it('documents its defaults as constants', () => {
    expect(DEFAULT_MAX_DEPTH).toBe(64);
    expect(DEFAULT_MAX_STRING_BYTES).toBe(1024 * 1024);
    expect(DEFAULT_MAX_NODES).toBe(1_000_000);
    expect(DEFAULT_REPAIR_LIMITS).toEqual({ maxDepth: 64, maxStringBytes: 1048576, maxNodes: 1_000_000 });
  });

  it.each([
    ['a field', z.object({ a: z.array(z.unknown()) }), (s: string) => ({ a: s }), ['a']],
    ['the root', z.array(z.unknown()), (s: string) => s, []],
    ['an array item', z.object({ l: z.array(z.array(z.unknown())) }), (s: string) => ({ l: [[], s] }), ['l', 1]],
  ])('JSON text nested 100,000 deep in %s is refused by path', (_name, schema, put, path) => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const r = repairArgs(put(deep), schema);
    expect(r.issues).toHaveLength(1);
    expect(r.issues[0]!.path).toEqual(path);
    expect(r.issues[0]!.message).toMatch(/deeper than 64 levels/);
    expect(r.repairs).toEqual([]);
  });

  it('depth counts from the arguments root, so text at depth 60 may hold only 4 more levels', () => {
    const schema = z.object({ d: NestedArray });
    let sent: unknown = '[[[[]]]]';
    let wrapped = 0;
    for (; wrapped < 59; wrapped++) sent = [sent];
    // 1 (root object) + 59 sent arrays = 60 levels above the text; the text adds 4: exactly 64.
    expect(repairArgs({ d: sent }, schema).issues).toEqual([]);
    expect(repairArgs({ d: [sent] }, schema).issues[0]?.message).toMatch(/deeper than 64/);
    expect(repairArgs({ d: [sent] }, schema, { maxDepth: 65 }).issues).toEqual([]);
  });

  it('a string over maxStringBytes is refused, and allowed when the limit is raised', () => {
    const big = JSON.stringify(Array.from({ length: 300_000 }, () => 'ab'));
    const schema = z.object({ tags: z.array(z.string()) });
    const r = repairArgs({ tags: big }, schema);
    expect(r.issues[0]?.path).toEqual(['tags']);
    expect(r.issues[0]?.message).toMatch(/over the 1048576-byte repair limit/);
    expect(repairArgs({ tags: big }, schema, { maxStringBytes: 4 * 1024 * 1024 }).issues).toEqual([]);
  });

  it('counts multi-byte characters as UTF-8 bytes', () => {
    const schema = z.object({ t: z.array(z.string()) });
    const text = JSON.stringify(['é'.repeat(600)]); // 600 characters, 1,200 bytes of é
    expect(repairArgs({ t: text }, schema, { maxStringBytes: 1000 }).issues).toHaveLength(1);
    expect(repairArgs({ t: text }, schema, { maxStringBytes: 1300 }).issues).toEqual([]);
  });

  it('maxNodes refuses and returns the original value, nothing half-repaired', () => {
    const schema = z.object({ a: z.array(z.number()), b: z.array(z.number()) });
    const sent = { a: '[1,2,3]', b: JSON.stringify(Array.from({ length: 50 }, (_, i) => i)) };
    const r = repairArgs(sent, schema, { maxNodes: 20 });
    expect(r.value).toBe(sent);
    expect(r.repairs).toEqual([]);
    expect(r.issues).toEqual([{ path: ['b'], message: expect.stringMatching(/more than 20 values/) }]);
  });

  it('maxNodes also bounds the walk over sent values: past it repair gives up, refusing nothing', () => {
    // The sent values outnumber the budget and need no repair: returned as sent, no issue (Zod judges them).
    const sent = { a: Array.from({ length: 100 }, () => 1) };
    const r = repairArgs(sent, z.object({ a: z.array(z.number()) }), { maxNodes: 50 });
    expect(r.issues).toEqual([]);
    expect(r.value).toBe(sent);
    // The walk stops at the budget: a repair after it is not made, and one before it is undone (nothing half-repaired).
    const schema = z.object({ a: z.array(z.number()), b: z.number(), c: z.number() });
    const late = { c: '1', a: Array.from({ length: 100 }, () => 1), b: '5' };
    const stopped = repairArgs(late, schema, { maxNodes: 50 });
    expect(stopped).toMatchObject({ value: late, repairs: [], issues: [] });
    expect(stopped.value).toBe(late);
    expect(repairArgs(late, schema, { maxNodes: 200 }).value).toEqual({ c: 1, a: late.a, b: 5 });
  });

  it('a valid call larger than maxNodes is not refused (1,100,000 numbers under the 4 MiB body limit)', () => {
    const schema = z.object({ xs: z.array(z.number()) });
    const sent = { xs: new Array(1_100_000).fill(0) };
    const r = repairArgs(sent, schema);
    expect(r.issues).toEqual([]);
    expect(r.repairs).toEqual([]);
    expect(r.value).toBe(sent);
    expect(schema.safeParse(r.value).success).toBe(true);
  });

  it('only values parsed out of text count toward the refusal', () => {
    // 100 sent values plus 31 parsed ones: over 50 together, but the text alone is within the budget.
    const schema = z.object({ a: z.array(z.number()), t: z.array(z.number()) });
    const sent = { a: Array.from({ length: 40 }, () => 1), t: JSON.stringify(Array.from({ length: 30 }, (_, i) => i)) };
    const r = repairArgs(sent, schema, { maxNodes: 50 });
    expect(r.issues).toEqual([]);
    expect((r.value as any).t).toHaveLength(30);
    // Text over the budget is refused with an issue naming its path, the original value returned.
    const big = { a: [], t: JSON.stringify(Array.from({ length: 60 }, (_, i) => i)) };
    const refused = repairArgs(big, schema, { maxNodes: 50 });
    expect(refused.value).toBe(big);
    expect(refused.issues).toEqual([
      { path: ['t'], message: expect.stringMatching(/JSON text .* more than 50 values/) },
    ]);
  });

  it('invalid limit options fall back to the defaults', () => {
    const r = repairArgs({ a: '[1]' }, z.object({ a: z.array(z.number()) }), {
      maxDepth: Number.NaN,
      maxNodes: -1,
      maxStringBytes: 'x' as any,
    });
    expect(r.value).toEqual({ a: [1] });
  });
});

describe('adversarial values never throw', () => {
  it('sent structure nested 100,000 deep under a recursive schema does not overflow the stack', () => {
    let deep: unknown = [];
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const r = repairArgs({ d: deep }, z.object({ d: NestedArray }));
    expect(r.issues).toEqual([]);
    expect((r.value as any).d).toBe(deep);
  });

  it('a 100,000-deep tree with one repair at the bottom is repaired (iterative walk)', () => {
    const leaf: any = { v: '7' };
    let node: any = leaf;
    for (let i = 0; i < 100_000; i++) node = { kids: [node] };
    const r = repairArgs({ t: node }, z.object({ t: Tree }));
    expect(r.issues).toEqual([]);
    let cur: any = (r.value as any).t;
    while (cur.kids) cur = cur.kids[0];
    expect(cur).toEqual({ v: 7 });
    expect(leaf.v).toBe('7');
  });

  it('a cyclic value is refused at the cycle, without hanging', () => {
    const a: any = { v: 1 };
    a.kids = [a];
    const r = repairArgs({ t: a }, z.object({ t: Tree }));
    expect(r.issues).toEqual([{ path: ['t', 'kids', 0], message: expect.stringMatching(/cyclic/) }]);
  });

  it('a cyclic value under a non-recursive schema is simply walked once', () => {
    const a: any = { n: '1' };
    a.self = a;
    const r = repairArgs(a, z.looseObject({ n: z.number() }));
    expect((r.value as any).n).toBe(1);
    expect(r.issues).toEqual([]);
  });

  it('a throwing getter becomes an issue, not an exception', () => {
    const sent = {
      get a(): string {
        throw new Error('boom');
      },
    };
    const r = repairArgs(sent, z.object({ a: z.array(z.number()) }));
    expect(r.value).toBe(sent);
    expect(r.issues[0]?.message).toMatch(/boom/);
  });

  it('a throwing z.lazy getter becomes an issue', () => {
    const bad = z.lazy((): z.ZodType => {
      throw new Error('lazy failed');
    });
    const r = repairArgs({ a: '[1]' }, z.object({ a: bad }));
    expect(r.issues[0]?.message).toMatch(/lazy failed/);
  });

  it('a degenerate self-referencing lazy does not loop', () => {
    const self: z.ZodType = z.lazy(() => self);
    expect(repairArgs({ a: '[1]' }, z.object({ a: self })).value).toEqual({ a: '[1]' });
  });

  it('non-schema input is returned untouched', () => {
    const v = { a: '1' };
    expect(repairArgs(v, {} as any).value).toBe(v);
    expect(repairArgs(v, null as any).value).toBe(v);
  });

  it.each([undefined, null, 0, true, 'text', Symbol('s'), 10n, new Date(0), new Map()])('root value %s', (v) => {
    expect(() => repairArgs(v, z.object({ a: z.number() }))).not.toThrow();
  });
});

describe('prototype safety', () => {
  it.each([
    '{"__proto__":{"polluted":true},"a":1}',
    '{"\\u005f_proto__":{"polluted":true},"a":1}',
    '{"constructor":{"prototype":{"polluted":true}},"a":1}',
    '{"n":{"__proto__":{"polluted":true},"prototype":1,"a":1},"a":1}',
  ])('drops prototype keys from parsed text at every depth: %s', (text) => {
    const r = repairArgs({ r: text }, z.object({ r: z.record(z.string(), z.unknown()) }));
    const out = (r.value as any).r;
    const visit = (o: any): void => {
      expect(Object.getPrototypeOf(o)).toBe(Object.prototype);
      for (const k of Object.keys(o)) {
        expect(['__proto__', 'constructor', 'prototype']).not.toContain(k);
        if (typeof o[k] === 'object' && o[k] !== null) visit(o[k]);
      }
    };
    visit(out);
    expect(({} as any).polluted).toBeUndefined();
  });

  it('an own __proto__ key in a sent object survives a copy as a key, not as the prototype', () => {
    const sent = JSON.parse('{"__proto__":{"polluted":true},"n":"1"}');
    const r = repairArgs(sent, z.looseObject({ n: z.number() }));
    const out = r.value as any;
    expect(out).not.toBe(sent);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.hasOwn(out, '__proto__')).toBe(true);
    expect(out.polluted).toBeUndefined();
    expect(out.n).toBe(1);
  });

  it('a schema key named __proto__ is written as an own key', () => {
    const schema = z.object({ ['__proto__' as string]: z.array(z.number()) } as Record<string, z.ZodType>);
    const sent = JSON.parse('{"__proto__":"[1]"}');
    const out = repairArgs(sent, schema).value as any;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(out, '__proto__')?.value).toEqual([1]);
  });
});

describe('never mutates, copies only along repaired paths', () => {
  it('leaves a deep-frozen input intact and shares untouched subtrees', () => {
    const schema = z.object({
      keep: z.object({ deep: z.array(z.object({ s: z.string() })) }),
      fix: z.object({ n: z.number(), list: z.array(z.number()) }),
    });
    const sent = deepFreeze({ keep: { deep: [{ s: '1' }] }, fix: { n: '2', list: '[3]' } });
    const before = structuredClone(sent);
    const r = repairArgs(sent, schema);
    expect(sent).toEqual(before);
    expect(r.value).toEqual({ keep: { deep: [{ s: '1' }] }, fix: { n: 2, list: [3] } });
    expect((r.value as any).keep).toBe(sent.keep);
    expect(r.value).not.toBe(sent);
  });

  it('returns the very same object when nothing needed repair', () => {
    const sent = { a: [1, 2], b: { c: 'x' } };
    expect(repairArgs(sent, z.object({ a: z.array(z.number()), b: z.object({ c: z.string() }) })).value).toBe(sent);
  });
});

describe('unions and intersections', () => {
  it('a string that any candidate member accepts is never changed', () => {
    const schema = z.union([
      z.object({ a: z.object({ b: z.number() }) }),
      z.object({ a: z.object({ b: z.string() }) }),
    ]);
    const r = repairArgs({ a: { b: '5' } }, schema);
    expect(r.value).toEqual({ a: { b: '5' } });
    expect(schema.parse(r.value)).toEqual({ a: { b: '5' } });
  });

  it('members that cannot take the value (strict, missing keys, literals) do not block a repair', () => {
    const strict = z.union([z.strictObject({ a: z.string() }), z.strictObject({ b: z.number() })]);
    expect(repairArgs({ b: '5' }, strict).value).toEqual({ b: 5 });
    const tagged = z.union([
      z.object({ k: z.literal('s'), v: z.string() }),
      z.object({ k: z.literal('n'), v: z.number() }),
    ]);
    expect(repairArgs({ k: 'n', v: '5' }, tagged).value).toEqual({ k: 'n', v: 5 });
    expect(repairArgs({ k: 's', v: '5' }, tagged).value).toEqual({ k: 's', v: '5' });
  });

  it('a member that accepts anything stops repair below it', () => {
    const schema = z.union([z.object({ n: z.number() }), z.record(z.string(), z.unknown())]);
    expect(repairArgs({ n: '1' }, schema).value).toEqual({ n: '1' });
  });

  it('a numeric tag sent as text selects its variant and is converted', () => {
    const schema = z.discriminatedUnion('v', [
      z.object({ v: z.literal(1), x: z.number() }),
      z.object({ v: z.literal(2), y: z.string() }),
    ]);
    const r = repairArgs({ v: '1', x: '3' }, schema);
    expect(schema.parse(r.value)).toEqual({ v: 1, x: 3 });
    expect(repairArgs({ v: '1', x: '3' }, schema, { scalars: false }).value).toEqual({ v: '1', x: '3' });
  });

  it('nested discriminated unions follow both tags', () => {
    const inner = z.discriminatedUnion('m', [
      z.object({ k: z.literal('a'), m: z.literal('x'), list: z.array(z.number()) }),
      z.object({ k: z.literal('a'), m: z.literal('y'), list: z.string() }),
    ]);
    const schema = z.discriminatedUnion('k', [inner, z.object({ k: z.literal('b') })]);
    expect(repairArgs({ k: 'a', m: 'x', list: '[1]' }, schema).value).toEqual({ k: 'a', m: 'x', list: [1] });
    expect(repairArgs({ k: 'a', m: 'y', list: '[1]' }, schema).value).toEqual({ k: 'a', m: 'y', list: '[1]' });
  });

  it('an intersection is judged by both sides: a string accepted by only one side is not accepted', () => {
    const schema = z.intersection(z.union([z.string(), z.array(z.string())]), z.array(z.string()));
    const r = repairArgs('["a"]', schema);
    expect(r.value).toEqual(['a']);
    expect(schema.parse(r.value)).toEqual(['a']);
  });

  it('intersection of objects repairs fields of either side', () => {
    const schema = z.intersection(z.object({ a: z.array(z.number()) }), z.object({ b: z.number() }));
    expect(schema.parse(repairArgs({ a: '[1]', b: '2' }, schema).value)).toEqual({ a: [1], b: 2 });
  });
});

describe('the ambiguity rule', () => {
  const list = z.object({ v: z.union([z.string(), z.array(z.number())]) });
  it('refuses a list written as text that the list member would accept', () => {
    const r = repairArgs({ v: '[1, 2]' }, list);
    expect(r.value).toEqual({ v: '[1, 2]' });
    expect(r.issues).toEqual([
      { path: ['v'], message: expect.stringMatching(/^the list was written as text; send the list itself/) },
    ]);
  });
  it('counts repairable scalars inside as fitting', () => {
    expect(repairArgs({ v: '["1"]' }, list).issues).toHaveLength(1);
  });
  it('keeps a string whose JSON the list member would not accept', () => {
    expect(repairArgs({ v: '["a"]' }, list).issues).toEqual([]);
    expect(repairArgs({ v: '[1' }, list).issues).toEqual([]);
    expect(repairArgs({ v: 'plain' }, list).issues).toEqual([]);
  });
  it('works for objects too', () => {
    const obj = z.object({ v: z.union([z.string(), z.object({ a: z.number() })]) });
    expect(repairArgs({ v: '{"a":1}' }, obj).issues[0]?.message).toMatch(/^the object was written as text/);
    expect(repairArgs({ v: '{"b":1}' }, obj).issues).toEqual([]);
  });
  it('is part of JSON repair: off with json:false', () => {
    expect(repairArgs({ v: '[1]' }, list, { json: false }).issues).toEqual([]);
  });
  it('does not apply where anything is accepted', () => {
    expect(repairArgs({ v: '[1]' }, z.object({ v: z.union([z.unknown(), z.array(z.number())]) })).issues).toEqual([]);
  });
  it('an over-limit string in an ambiguous position is kept without a refusal', () => {
    const deep = `${'['.repeat(200)}${']'.repeat(200)}`;
    expect(repairArgs({ v: deep }, list).issues).toEqual([]);
  });
});

describe('schema kinds that accept strings or anything are left alone', () => {
  it.each([
    ['z.stringbool()', z.stringbool(), 'true', true],
    ['z.json()', z.json(), '[1]', '[1]'],
    ['template literal', z.templateLiteral([z.number(), 'px']), '5px', '5px'],
    ['z.coerce.boolean()', z.coerce.boolean(), 'false', true],
    ['z.preprocess', z.preprocess((x) => x, z.array(z.number())), '[1]', undefined],
    ['z.custom', z.custom<unknown>(() => true), '[1]', '[1]'],
    ['z.any', z.any(), '1', '1'],
    ['string literal', z.literal('1'), '1', '1'],
    ['email', z.email().or(z.number()), '1', undefined],
  ])('%s', (_name, schema, sent, want) => {
    const r = repairArgs({ f: sent }, z.object({ f: schema }));
    expect(r.value).toEqual({ f: sent });
    const parsed = z.object({ f: schema }).safeParse(r.value);
    if (want === undefined) expect(parsed.success).toBe(false);
    else expect(parsed.data).toEqual({ f: want });
  });

  it.each([
    ['numeric literal', z.literal(5), '5', 5],
    ['numeric literal, other value', z.literal(5), '6', '6'],
    ['numeric enum-like literal set', z.literal([1, 2, 3]), '2', 2],
    ['boolean literal true', z.literal(true), 'true', true],
    ['boolean literal true, sent false', z.literal(true), 'false', 'false'],
    ['null literal', z.literal(null), 'null', null],
    ['int32', z.int32(), '12', 12],
    ['int32, fraction', z.int32(), '1.5', '1.5'],
    ['nonoptional', z.number().optional().nonoptional(), '3', 3],
    ['prefault', z.array(z.number()).prefault([]), '[3]', [3]],
    ['bigint gets nothing', z.bigint(), '5', '5'],
    ['nan gets nothing', z.nan(), 'NaN', 'NaN'],
    ['xor', z.xor([z.number(), z.boolean()]), '4', 4],
    ['pipe into a transform', z.number().pipe(z.transform((n) => n * 2)), '4', 4],
  ])('%s', (_name, schema, sent, want) => {
    expect(repairArgs({ f: sent }, z.object({ f: schema })).value).toEqual({ f: want });
  });
});

describe('JSON text repair alone (repair: { scalars: false, nullAsAbsent: false })', () => {
  it('parses JSON text but converts no scalars', () => {
    const schema = z.object({ tags: z.array(z.string()), n: z.number() });
    const only = repairArgs({ tags: '["a"]', n: '1' }, schema, { scalars: false, nullAsAbsent: false });
    expect(only.value).toEqual({ tags: ['a'], n: '1' });
  });
});
