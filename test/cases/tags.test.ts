/**
 * Discriminated unions tagged by values other than strings (numbers, booleans, null, and mixtures with
 * strings), over real HTTP with both official clients, under `flattenUnionInput: true`: every one is served
 * as one object at every depth (the tag one typed `enum` of every value), calls reach the handler as the
 * original parse, a tag sent as text is repaired where it is unambiguous, and error lines and ignored-key
 * notices name the tag value so that the string "1" and the number 1 read differently.
 */
import { createMcpFetchHandler } from 'mcp-mount/adapter';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  at,
  bare,
  call,
  caseTool,
  expectAccepted,
  expectFlatObject,
  expectRefused,
  issuesOf,
  mountGroup,
  pointersWith,
  unionsIn,
} from '../support/cases.js';

const FLAT = { flattenUnionInput: true } as const;

/** The Result shape. */
const result = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), data: z.string() }),
  z.object({ ok: z.literal(false), error: z.string() }),
]);

/** Numbered versions. */
const versions = z.discriminatedUnion('v', [
  z.object({ v: z.literal(1), name: z.string() }),
  z.object({ v: z.literal(2), name: z.string(), tags: z.array(z.string()) }),
]);

/** `null` beside a string. */
const nullOrFile = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('file'), path: z.string() }),
  z.object({ kind: z.null(), reason: z.string() }),
]);

/** The string "1" beside the number 1: two different tags. */
const textOrNumber = z.discriminatedUnion('k', [
  z.object({ k: z.literal('1'), s: z.string() }),
  z.object({ k: z.literal(1), n: z.number() }),
]);

/** A multi-value tag mixing a string and a number, a boolean, and null. */
const mixed = z.discriminatedUnion('t', [
  z.object({ t: z.literal(['a', 0]), a: z.string() }),
  z.object({ t: z.literal(true), b: z.number() }),
  z.object({ t: z.null(), c: z.boolean() }),
]);

/** Used twice, so Zod serves it from `$defs`. */
const sharedVersions = versions.meta({ id: 'TagsSharedVersions' });

const S = {
  result_root: result,
  versions_root: versions,
  null_tag_root: nullOrFile,
  text_or_number_root: textOrNumber,
  mixed_root: mixed,
  tags_at_every_depth: z.object({
    field: result,
    list: z.array(versions),
    byId: z.record(z.string(), nullOrFile),
    pair: z.tuple([z.string(), mixed]),
    shared: sharedVersions,
    again: z.array(sharedVersions),
    optional: textOrNumber.optional(),
  }),
} satisfies Record<string, z.ZodType>;

const tools = Object.entries(S).map(([name, input]) => caseTool(name, input));
const g = mountGroup(tools, { ...FLAT, schemaValidation: { policy: 'warn' } });

/** Values each tool's original schema accepts. */
const VALID: Record<keyof typeof S, unknown[]> = {
  result_root: [
    { ok: true, data: 'd' },
    { ok: false, error: 'e' },
  ],
  versions_root: [
    { v: 1, name: 'n' },
    { v: 2, name: 'n', tags: ['x'] },
  ],
  null_tag_root: [
    { kind: 'file', path: 'p' },
    { kind: null, reason: 'r' },
  ],
  text_or_number_root: [
    { k: '1', s: 'x' },
    { k: 1, n: 2 },
  ],
  mixed_root: [
    { t: 'a', a: 'x' },
    { t: 0, a: 'x' },
    { t: true, b: 1.5 },
    { t: null, c: false },
  ],
  tags_at_every_depth: [
    {
      field: { ok: false, error: 'e' },
      list: [
        { v: 1, name: 'a' },
        { v: 2, name: 'b', tags: [] },
      ],
      byId: { x: { kind: null, reason: 'r' }, y: { kind: 'file', path: 'p' } },
      pair: ['s', { t: 0, a: 'x' }],
      shared: { v: 2, name: 'n', tags: ['t'] },
      again: [{ v: 1, name: 'm' }],
      optional: { k: 1, n: 3 },
    },
    {
      field: { ok: true, data: 'd' },
      list: [],
      byId: {},
      pair: ['s', { t: null, c: true }],
      shared: { v: 1, name: 'n' },
      again: [],
    },
  ],
};

describe('served under flattenUnionInput', () => {
  it("every tool is served by a default ('throw') mount, and the probe reports nothing for any of them", () => {
    expect(() => createMcpFetchHandler(tools, FLAT)).not.toThrow();
    for (const name of Object.keys(S)) expect(issuesOf(g.report, name), name).toEqual([]);
  });

  it('every tool is one object with no oneOf, anyOf or allOf anywhere, at every depth', () =>
    g.each(async (c) => {
      for (const name of Object.keys(S)) {
        const s = g.schema(c, name);
        expectFlatObject(s, name);
        expect(pointersWith(s, 'oneOf'), name).toEqual([]);
      }
      const deep = g.schema(c, 'tags_at_every_depth');
      for (const ptr of [
        '/properties/field',
        '/properties/list/items',
        '/properties/byId/additionalProperties',
        '/properties/pair/prefixItems/1',
        '/properties/shared',
        '/properties/again/items',
        '/properties/optional',
      ])
        expectFlatObject(at(deep, ptr), ptr);
      expect(unionsIn(deep)).toEqual([]);
    }));

  it('the tag is one required property whose enum lists every value in variant order, typed by the values', () =>
    g.each(async (c) => {
      const tag = (name: string, key: string, base = '') => bare(at(g.schema(c, name), `${base}/properties/${key}`));
      expect(tag('result_root', 'ok')).toEqual({ type: 'boolean', enum: [true, false] });
      expect(tag('versions_root', 'v')).toEqual({ type: 'integer', enum: [1, 2] });
      expect(tag('null_tag_root', 'kind')).toEqual({ type: ['string', 'null'], enum: ['file', null] });
      expect(tag('text_or_number_root', 'k')).toEqual({ type: ['string', 'integer'], enum: ['1', 1] });
      expect(tag('mixed_root', 't')).toEqual({
        type: ['string', 'integer', 'boolean', 'null'],
        enum: ['a', 0, true, null],
      });
      expect(tag('tags_at_every_depth', 't', '/properties/pair/prefixItems/1')).toEqual(tag('mixed_root', 't'));
      for (const [name, required] of [
        ['result_root', ['ok']],
        ['versions_root', ['v', 'name']],
        ['null_tag_root', ['kind']],
        ['text_or_number_root', ['k']],
        ['mixed_root', ['t']],
      ] as const)
        expect(g.schema(c, name).required, name).toEqual(required);
    }));

  it('the hints write each tag value unambiguously: `ok = true`, `v = 2`, `kind = null`, `k = "1"` beside `k = 1`', () =>
    g.each(async (c) => {
      const description = (name: string, key: string) => at(g.schema(c, name), `/properties/${key}/description`);
      expect(description('result_root', 'data')).toBe('Required if ok = true.');
      expect(description('result_root', 'error')).toBe('Required if ok = false.');
      expect(description('versions_root', 'tags')).toBe('Required if v = 2.');
      expect(description('null_tag_root', 'reason')).toBe('Required if kind = null.');
      expect(description('null_tag_root', 'path')).toBe('Required if kind = file.');
      expect(description('text_or_number_root', 's')).toBe('Required if k = "1".');
      expect(description('text_or_number_root', 'n')).toBe('Required if k = 1.');
      expect(description('mixed_root', 'a')).toBe('Required if t = a | 0.');
      expect(description('mixed_root', 'c')).toBe('Required if t = null.');
    }));

  it('every value the original accepts passes Ajv on the served document and reaches the handler as its parse', () =>
    g.each(async (c) => {
      for (const [name, values] of Object.entries(VALID)) {
        for (const value of values) {
          const parsed = S[name as keyof typeof S].safeParse(value);
          expect(parsed.success, `${name} ${JSON.stringify(value)}`).toBe(true);
          await expectAccepted(g, c, name, value, { input: parsed.data });
        }
      }
    }));
});

describe('repair', () => {
  it('a boolean, number or null tag sent as text is converted and reported, at the root and nested', () =>
    g.each(async (c) => {
      const cases: Array<[string, unknown, unknown, Array<{ path: string; from: string }>]> = [
        ['result_root', { ok: 'true', data: 'd' }, { ok: true, data: 'd' }, [{ path: 'ok', from: 'boolean-string' }]],
        [
          'versions_root',
          { v: '2', name: 'n', tags: [] },
          { v: 2, name: 'n', tags: [] },
          [{ path: 'v', from: 'number-string' }],
        ],
        [
          'null_tag_root',
          { kind: 'null', reason: 'r' },
          { kind: null, reason: 'r' },
          [{ path: 'kind', from: 'null-string' }],
        ],
        ['mixed_root', { t: 'true', b: 1 }, { t: true, b: 1 }, [{ path: 't', from: 'boolean-string' }]],
      ];
      for (const [name, sent, expected, repairs] of cases) {
        const out = await call(c, name, sent);
        expect(out.isError, `${name} ${JSON.stringify(sent)}: ${out.text}`).toBe(false);
        expect(out.received!.input).toEqual(expected);
        expect(out.received!.repairs).toEqual(repairs);
      }
      const deep = {
        field: { ok: 'false', error: 'e' },
        list: [{ v: '1', name: 'a' }],
        byId: { x: { kind: 'null', reason: 'r' } },
        pair: ['s', { t: 'null', c: false }],
        shared: { v: 1, name: 'n' },
        again: [],
      };
      const out = await call(c, 'tags_at_every_depth', deep);
      expect(out.isError, out.text).toBe(false);
      expect(out.received!.input).toEqual({
        field: { ok: false, error: 'e' },
        list: [{ v: 1, name: 'a' }],
        byId: { x: { kind: null, reason: 'r' } },
        pair: ['s', { t: null, c: false }],
        shared: { v: 1, name: 'n' },
        again: [],
      });
      expect(out.received!.repairs).toEqual([
        { path: 'field.ok', from: 'boolean-string' },
        { path: 'list[0].v', from: 'number-string' },
        { path: 'byId.x.kind', from: 'null-string' },
        { path: 'pair[1].t', from: 'null-string' },
      ]);
    }));

  it('where the string is a tag of its own ("1" beside 1), it is kept: the string\'s variant is chosen, nothing repaired', () =>
    g.each(async (c) => {
      const out = await call(c, 'text_or_number_root', { k: '1', s: 'x' });
      expect(out.received).toMatchObject({ input: { k: '1', s: 'x' }, repairs: [] });
      // The number's fields do not make "1" the number 1: the call is refused for the string variant's field.
      const text = await expectRefused(g, c, 'text_or_number_root', { k: '1', n: 2 }, ['s']);
      expect(text).toContain('s: required, expected string (k = "1" requires s)');
    }));
});

describe('error lines and notices', () => {
  it('a value missing from the chosen variant names the tag value: `(v = 2 requires name, tags)`, `(ok = false requires error)`', () =>
    g.each(async (c) => {
      const versionsText = await expectRefused(g, c, 'versions_root', { v: 2, name: 'n' }, ['tags']);
      expect(versionsText).toContain('tags: required, expected array (v = 2 requires name, tags)');
      const resultText = await expectRefused(g, c, 'result_root', { ok: false }, ['error']);
      expect(resultText).toContain('error: required, expected string (ok = false requires error)');
      const nullText = await expectRefused(g, c, 'null_tag_root', { kind: null }, ['reason']);
      expect(nullText).toContain('(kind = null requires reason)');
    }));

  it('an unknown tag lists every value with what each requires, "1" and 1 apart', () =>
    g.each(async (c) => {
      const text = await expectRefused(g, c, 'text_or_number_root', { k: 2, n: 1 }, ['k']);
      expect(text).toContain('k: expected one of "1" | 1, received 2 ("1" requires s; 1 requires n)');
      const versionsText = await expectRefused(g, c, 'versions_root', { v: 3, name: 'n' }, ['v']);
      expect(versionsText).toContain('v: expected one of 1 | 2, received 3 (1 requires name; 2 requires name, tags)');
      const mixedText = await expectRefused(g, c, 'mixed_root', { t: 'b' }, ['t']);
      expect(mixedText).toContain(
        't: expected one of "a" | 0 | true | null, received "b" (a | 0 require a; true requires b; null requires c)',
      );
    }));

  it('a key of another variant is noticed with the chosen tag value: `when ok = false`, `when k = "1"`', () =>
    g.each(async (c) => {
      const result = await call(c, 'result_root', { ok: false, error: 'e', data: 'd' });
      expect(result.received!.input).toEqual({ ok: false, error: 'e' });
      expect(result.notice).toBe(
        'ignored `data`: not an argument of result_root when ok = false; it belongs to another form, send one form only',
      );
      const text = await call(c, 'text_or_number_root', { k: '1', s: 'x', n: 2 });
      expect(text.received!.input).toEqual({ k: '1', s: 'x' });
      expect(text.notice).toBe(
        'ignored `n`: not an argument of text_or_number_root when k = "1"; it belongs to another form, send one form only',
      );
      const number = await call(c, 'text_or_number_root', { k: 1, s: 'x', n: 2 });
      expect(number.notice).toContain('when k = 1;');
    }));
});

describe("a client profile's projection of the flattened tag", () => {
  const gemini = mountGroup(
    ['result_root', 'versions_root', 'null_tag_root'].map((name) => caseTool(name, S[name as keyof typeof S])),
    { projection: 'gemini' },
  );

  it('gemini: a boolean or number tag is served as its type (Gemini takes string enums only); calls reach the handler', () =>
    gemini.each(async (c) => {
      expect(bare(at(gemini.schema(c, 'result_root'), '/properties/ok'))).toEqual({ type: 'boolean' });
      expect(bare(at(gemini.schema(c, 'versions_root'), '/properties/v'))).toEqual({ type: 'integer' });
      // Gemini takes no null in an enum: the null variant's tag is left out, and the narrowing is reported.
      expect(bare(at(gemini.schema(c, 'null_tag_root'), '/properties/kind'))).toEqual({
        type: 'string',
        enum: ['file'],
        nullable: true,
      });
      expect(issuesOf(gemini.report, 'null_tag_root').map((i) => `${i.severity} ${i.code}@${i.path}`)).toEqual([
        'info narrowed@/properties/kind',
      ]);
      for (const name of ['result_root', 'versions_root'] as const) {
        for (const value of VALID[name]) await expectAccepted(gemini, c, name, value, { input: S[name].parse(value) });
      }
      await expectAccepted(
        gemini,
        c,
        'null_tag_root',
        { kind: 'file', path: 'p' },
        { input: { kind: 'file', path: 'p' } },
      );
      // What the narrowed document cannot say, the server still takes: the Zod parse decides.
      const out = await call(c, 'null_tag_root', { kind: null, reason: 'r' });
      expect(out.received?.input).toEqual({ kind: null, reason: 'r' });
    }));
});
