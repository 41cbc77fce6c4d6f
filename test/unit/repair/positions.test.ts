/**
 * Each kind of fault repair handles, at every position a value can sit in: object fields at
 * depth, array items, record values, tuple slots, optional/nullable/default wrappers, the variant
 * a tag selects, a plain-union member, a recursive z.lazy tree, an intersection, a transform's
 * input side, readonly, and inside a parent that was itself sent as JSON text.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { call, names } from './helpers.js';

interface Position {
  name: string;
  schema(s: z.ZodType): z.ZodType;
  sent(v: unknown): unknown;
  handler(v: unknown): unknown;
  path: string;
}

const positions: Position[] = [
  {
    name: 'top-level field',
    schema: (s) => z.object({ f: s }),
    sent: (v) => ({ f: v }),
    handler: (v) => ({ f: v }),
    path: 'f',
  },
  {
    name: 'field three objects deep',
    schema: (s) => z.object({ a: z.object({ b: z.object({ f: s }) }) }),
    sent: (v) => ({ a: { b: { f: v } } }),
    handler: (v) => ({ a: { b: { f: v } } }),
    path: 'a.b.f',
  },
  {
    name: 'array item (second)',
    schema: (s) => z.object({ list: z.array(z.object({ f: s.optional() })) }),
    sent: (v) => ({ list: [{}, { f: v }] }),
    handler: (v) => ({ list: [{}, { f: v }] }),
    path: 'list[1].f',
  },
  {
    name: 'record value',
    schema: (s) => z.object({ r: z.record(z.string(), z.object({ f: s })) }),
    sent: (v) => ({ r: { k: { f: v } } }),
    handler: (v) => ({ r: { k: { f: v } } }),
    path: 'r.k.f',
  },
  {
    name: 'tuple slot',
    schema: (s) => z.object({ t: z.tuple([z.string(), z.object({ f: s })]) }),
    sent: (v) => ({ t: ['x', { f: v }] }),
    handler: (v) => ({ t: ['x', { f: v }] }),
    path: 't[1].f',
  },
  {
    name: 'tuple rest item',
    schema: (s) => z.object({ t: z.tuple([z.string()], z.object({ f: s })) }),
    sent: (v) => ({ t: ['x', { f: v }] }),
    handler: (v) => ({ t: ['x', { f: v }] }),
    path: 't[1].f',
  },
  {
    name: 'nullable optional default wrappers',
    schema: (s) => z.object({ o: z.object({ f: s.optional() }).nullable().default(null) }),
    sent: (v) => ({ o: { f: v } }),
    handler: (v) => ({ o: { f: v } }),
    path: 'o.f',
  },
  {
    name: 'variant selected by the tag',
    schema: (s) =>
      z.object({
        d: z.discriminatedUnion('kind', [
          z.object({ kind: z.literal('a'), f: s }),
          z.object({ kind: z.literal('b'), f: z.string() }),
        ]),
      }),
    sent: (v) => ({ d: { kind: 'a', f: v } }),
    handler: (v) => ({ d: { kind: 'a', f: v } }),
    path: 'd.f',
  },
  {
    name: 'plain union member',
    schema: (s) => z.object({ u: z.union([z.object({ tag: z.literal('x'), f: s }), z.object({ other: z.number() })]) }),
    sent: (v) => ({ u: { tag: 'x', f: v } }),
    handler: (v) => ({ u: { tag: 'x', f: v } }),
    path: 'u.f',
  },
  {
    name: 'recursive z.lazy tree, third level',
    schema: (s) => {
      const Node: z.ZodType = z.lazy(() => z.object({ f: s.optional(), children: z.array(Node).optional() }));
      return z.object({ tree: Node });
    },
    sent: (v) => ({ tree: { children: [{ children: [{ f: v }] }] } }),
    handler: (v) => ({ tree: { children: [{ children: [{ f: v }] }] } }),
    path: 'tree.children[0].children[0].f',
  },
  {
    name: 'intersection side',
    schema: (s) => z.object({ i: z.intersection(z.object({ f: s }), z.object({ g: z.string().optional() })) }),
    sent: (v) => ({ i: { f: v } }),
    handler: (v) => ({ i: { f: v } }),
    path: 'i.f',
  },
  {
    name: "transform's input side",
    schema: (s) => z.object({ p: z.object({ f: s }).transform((o) => o) }),
    sent: (v) => ({ p: { f: v } }),
    handler: (v) => ({ p: { f: v } }),
    path: 'p.f',
  },
  {
    name: 'readonly',
    schema: (s) => z.object({ ro: z.object({ f: s }).readonly() }),
    sent: (v) => ({ ro: { f: v } }),
    handler: (v) => ({ ro: { f: v } }),
    path: 'ro.f',
  },
  {
    name: 'inside a parent sent as JSON text',
    schema: (s) => z.object({ list: z.array(z.object({ f: s })) }),
    sent: (v) => ({ list: JSON.stringify([{ f: v }]) }),
    handler: (v) => ({ list: [{ f: v }] }),
    path: 'list[0].f',
  },
];

type Want = { handler: unknown; from?: string } | { refuse: true; text?: RegExp };

interface Kind {
  name: string;
  schema: () => z.ZodType;
  sent: unknown;
  want: Want;
}

const kinds: Kind[] = [
  {
    name: 'array as text',
    schema: () => z.array(z.string()),
    sent: '["a","b"]',
    want: { handler: ['a', 'b'], from: 'json-string' },
  },
  {
    name: 'object as text',
    schema: () => z.object({ x: z.number() }),
    sent: '{"x":42}',
    want: { handler: { x: 42 }, from: 'json-string' },
  },
  {
    name: 'pretty-printed text',
    schema: () => z.object({ x: z.number() }),
    sent: '{\n  "x": 42\n}',
    want: { handler: { x: 42 } },
  },
  { name: 'text that is not JSON', schema: () => z.array(z.string()), sent: 'not-json', want: { refuse: true } },
  { name: 'JSON of the wrong kind', schema: () => z.array(z.number()), sent: '{"a":1}', want: { refuse: true } },
  { name: 'a scalar is never wrapped', schema: () => z.array(z.string()), sent: 'solo', want: { refuse: true } },
  {
    name: 'JSON text inside parsed JSON',
    schema: () => z.array(z.object({ tags: z.array(z.string()) })),
    sent: '[{"tags":"[\\"a\\"]"}]',
    want: { handler: [{ tags: ['a'] }], from: 'json-string' },
  },
  {
    name: 'record as text',
    schema: () => z.record(z.string(), z.number()),
    sent: '{"k":1}',
    want: { handler: { k: 1 } },
  },
  {
    name: 'tuple as text',
    schema: () => z.tuple([z.string(), z.number()]),
    sent: '["a",1]',
    want: { handler: ['a', 1] },
  },
  {
    name: 'plain union without a string member',
    schema: () => z.union([z.array(z.string()), z.object({ a: z.string() })]),
    sent: '{"a":"x"}',
    want: { handler: { a: 'x' } },
  },
  {
    name: 'union with a string member keeps it',
    schema: () => z.union([z.string(), z.number()]),
    sent: '123',
    want: { handler: '123' },
  },
  { name: 'number as text', schema: () => z.number(), sent: '42', want: { handler: 42, from: 'number-string' } },
  { name: 'negative decimal as text', schema: () => z.number(), sent: '-3.5', want: { handler: -3.5 } },
  { name: 'non-integer for an integer', schema: () => z.number().int(), sent: '5.5', want: { refuse: true } },
  { name: 'hex for a number', schema: () => z.number(), sent: '0x10', want: { refuse: true } },
  { name: 'exponent for a number', schema: () => z.number(), sent: '1e400', want: { refuse: true } },
  {
    name: 'boolean as text',
    schema: () => z.boolean(),
    sent: 'false',
    want: { handler: false, from: 'boolean-string' },
  },
  { name: 'boolean in other spelling', schema: () => z.boolean(), sent: 'TRUE', want: { refuse: true } },
  {
    name: 'null as text',
    schema: () => z.number().nullable(),
    sent: 'null',
    want: { handler: null, from: 'null-string' },
  },
  { name: 'a string field is never touched', schema: () => z.string(), sent: '{"a":1}', want: { handler: '{"a":1}' } },
  { name: 'an unknown field is never touched', schema: () => z.unknown(), sent: '[1]', want: { handler: '[1]' } },
  { name: 'a string enum keeps digits', schema: () => z.enum(['1', '2']), sent: '1', want: { handler: '1' } },
  { name: 'a number is never stringified', schema: () => z.string(), sent: 7, want: { refuse: true } },
  { name: '.catch() is left to its fallback', schema: () => z.number().catch(-1), sent: '5', want: { handler: -1 } },
  { name: 'z.coerce is left to Zod', schema: () => z.coerce.number(), sent: '7', want: { handler: 7 } },
  {
    name: 'list text where a string is also valid',
    schema: () => z.union([z.string(), z.array(z.string())]),
    sent: '["a","b"]',
    want: { refuse: true, text: /the list was written as text/ },
  },
  {
    name: 'prototype keys dropped from parsed text',
    schema: () => z.record(z.string(), z.unknown()),
    sent: '{"__proto__":{"polluted":1},"constructor":{"prototype":{"p":1}},"a":{"prototype":2,"b":1}}',
    want: { handler: { a: { b: 1 } } },
  },
];

describe.each(positions)('at $name', (pos) => {
  it.each(kinds)('$name', (kind) => {
    const schema = pos.schema(kind.schema());
    const r = call(schema, pos.sent(kind.sent));
    if ('refuse' in kind.want) {
      expect(r.ok).toBe(false);
      expect(names(r.lines, pos.path)).toBe(true);
      if (kind.want.text) expect(r.lines.join('\n')).toMatch(kind.want.text);
      return;
    }
    expect(r.lines).toEqual([]);
    expect(r.data).toEqual(pos.handler(kind.want.handler));
    if (kind.want.from) expect(r.repair.repairs).toContainEqual({ path: pos.path, from: kind.want.from });
    expect(({} as any).polluted).toBeUndefined();
  });
});

describe('repairs where the whole arguments arrive as one JSON string', () => {
  it('parses the root and keeps walking', () => {
    const schema = z.object({ tags: z.array(z.string()), n: z.number() });
    const r = call(schema, JSON.stringify({ tags: '["a"]', n: '2' }));
    expect(r.data).toEqual({ tags: ['a'], n: 2 });
    expect(r.repair.repairs).toEqual([
      { path: '', from: 'json-string' },
      { path: 'tags', from: 'json-string' },
      { path: 'n', from: 'number-string' },
    ]);
  });
  it('a root union input follows its tag after the root is parsed', () => {
    const schema = z.discriminatedUnion('type', [
      z.object({ type: z.literal('message'), text: z.string(), media: z.object({ url: z.string() }).optional() }),
      z.object({ type: z.literal('mediaGroup'), media: z.array(z.object({ url: z.string() })) }),
    ]);
    const r = call(schema, JSON.stringify({ type: 'mediaGroup', media: '[{"url":"a"}]' }));
    expect(r.data).toEqual({ type: 'mediaGroup', media: [{ url: 'a' }] });
    // Same field name, object in the other variant.
    expect(call(schema, { type: 'message', text: 't', media: '{"url":"b"}' }).data).toEqual({
      type: 'message',
      text: 't',
      media: { url: 'b' },
    });
  });
});
