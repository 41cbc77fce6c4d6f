/**
 * flatten.md over real HTTP: every case is a tool named after its id, mounted with many others in one
 * server per options-group and driven by both official clients. Served schemas are read from tools/list,
 * "accepted" means Ajv 2020 accepts the value on the served schema and the call is not isError, and
 * handler values are compared deep-equal (with `undefined` made visible).
 */
import { createMcpHandler, McpMountSchemaError, validateMcpSchemas } from 'mcp-mount';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  at,
  bare,
  call,
  caseTool,
  enumSet,
  errorsOf,
  expectAccepted,
  expectFlatObject,
  expectListMatchesReport,
  expectRefused,
  issuesOf,
  mountGroup,
  pointersWith,
  typeSet,
  unionsIn,
} from '../support/cases.js';
import {
  booleanTag,
  DU,
  media,
  numericTag,
  optionalTag,
  strictVariantsWithOwnOptionals,
  two,
} from '../support/unions.js';

const FLAT = { flattenUnionInput: true } as const;

// --- the case schemas ---------------------------------------------------------------------------

const S = {
  sk_1: media(z.object({ id: z.string() })),
  sk_2: media(z.object({ id: z.string() }).optional()),
  sk_3: two('value', z.string().nullable(), z.array(z.string()).nullable()),
  sk_4: two('mode', z.literal('fast'), z.literal('slow')),
  sk_5: two('mode', z.enum(['x', 'y']), z.string()),
  sk_7: two('flag', z.literal(true), z.literal(false)),
  sk_8: two('target', z.string(), z.number()),
  sk_9: two('cfg', z.object({ x: z.string() }), z.object({ y: z.number() })),
  sk_10: two(
    'value',
    z.union([z.object({ a: z.string() }), z.object({ b: z.string() })]),
    z.union([z.object({ c: z.string() }), z.object({ d: z.string() })]),
  ),
  sk_12: two('limit', z.number().default(10), z.number().default(50)),
  sk_13: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('a'), x: z.string() }).strict(),
    z.object({ kind: z.literal('b'), y: z.string().default('z') }).strict(),
  ]),
  sk_15: z.object({
    content: z.object({
      parts: z.array(
        z.discriminatedUnion('type', [
          z.object({ type: z.literal('text'), text: z.string() }),
          z.object({ type: z.literal('image'), url: z.url() }),
        ]),
      ),
    }),
  }),
  sk_16: z.discriminatedUnion('k', [
    z.object({ k: z.literal(['a', 'b']), x: z.string() }),
    z.object({ k: z.literal('c'), y: z.string() }),
  ]),
  sk_17: z.discriminatedUnion('k', [
    z.object({ k: z.enum(['x', 'y']), p: z.string() }),
    z.object({ k: z.literal('z'), q: z.string() }),
  ]),
  sk_18: z.object({ op: numericTag, other: DU }),
  sk_19: z.object({ op: booleanTag, other: DU }),
  sk_20: z.object({ op: optionalTag }),
  sk_22: z.object({
    f: z.union([
      z.object({ k: z.literal('a'), x: z.string() }),
      z.object({ k: z.literal('a'), y: z.string() }),
      z.object({ k: z.literal('b'), z: z.string() }),
    ]),
  }),
  sk_23: z.union([
    z.object({ kind: z.literal('a'), x: z.string() }),
    z.object({ kind: z.literal('b'), y: z.number() }),
  ]),
  sk_24: z.object({ spec: z.union([z.string(), DU]) }),
  sk_25: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('text'), text: z.string() }),
    z.object({ kind: z.literal('photo'), url: z.string() }),
  ]),
  sk_31: z.object({ op: DU.optional() }),
  sk_33: z.object({ op: DU.default({ kind: 'a', x: '1' }) }),
  sk_34: z.object({ pair: z.tuple([DU, z.string()]) }),
  sk_36: z.intersection(z.object({ a: z.string() }), DU),
  sk_37: z.discriminatedUnion('k', [
    z.object({ k: z.literal('a'), v: z.string().refine((s) => s.length > 2) }),
    z.object({ k: z.literal('b'), v: z.string() }),
  ]),
  sk_38: z.object({ text: z.string().transform((s) => `${s}!`) }),
  sk_39: z.object({ s: z.string().pipe(z.string().min(3)) }),
  sk_40: z.object({ n: z.coerce.number() }),
  sk_41: z.object({ r: z.string().catch('fallback') }),
  sk_42: z.object({ t: z.string().trim() }),
  sk_43: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('a'), a: z.string() }).strict(),
    z.object({ kind: z.literal('b'), b: z.string() }).strict(),
  ]),
  sk_45: z.looseObject({ a: z.string() }),
  sk_47: z.object({ a: z.string() }).strict(),
  sk_48: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('a'), cfg: z.object({ x: z.string() }).strict() }),
    z.object({ kind: z.literal('b'), y: z.string() }),
  ]),
  sk_49: two('partIndex', z.number().int().min(0), z.number().int().min(0)),
  sk_50: two('n', z.number().int(), z.number()),
  sk_51: two('n', z.number().min(0), z.number().max(5)),
  sk_51_swapped: two('n', z.number().max(5), z.number().min(0)),
  sk_52: two('v', z.number().nullable(), z.number().nullable()),
  br_17: z.object({
    reminders: z.array(
      z.discriminatedUnion('kind', [
        z.object({ kind: z.literal('relative'), minutes: z.number() }),
        z.object({ kind: z.literal('absolute'), at: z.string() }),
        z.object({ kind: z.literal('location'), place: z.string() }),
      ]),
    ),
  }),
  br_39: z.discriminatedUnion('action', [
    z.object({ action: z.literal('create'), name: z.string() }),
    z.object({ action: z.literal('delete'), id: z.string() }),
  ]),
  br_40: z.discriminatedUnion('action', [
    z.object({ action: z.literal('create'), title: z.string() }),
    z.object({ action: z.literal('update'), id: z.string() }),
  ]),
  br_41: z.discriminatedUnion('operation', [
    z.object({ operation: z.literal('append'), path: z.string(), content: z.string() }),
    z.object({ operation: z.literal('prepend'), path: z.string(), content: z.string() }),
    z.object({ operation: z.literal('replace'), path: z.string(), content: z.string() }),
    z.object({ operation: z.literal('delete'), path: z.string() }),
  ]),
  br_43: z.object({ name: z.string() }).and(z.object({ dataType: z.enum(['NUMERIC', 'CATEGORICAL']) })),
  br_44: z.discriminatedUnion('action', [
    z.object({ action: z.literal('prepare'), plan: z.string() }).strict(),
    z.object({ action: z.literal('execute'), token: z.string() }).strict(),
  ]),
  br_46: z.object({ mode: z.enum(['small', 'large']), size: z.number() }).superRefine((v, ctx) => {
    if (v.mode === 'small' && v.size > 10)
      ctx.addIssue({ code: 'custom', path: ['size'], message: 'small allows at most 10' });
  }),
  br_48: strictVariantsWithOwnOptionals,
  br_50: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('search'), q: z.string() }),
    z.object({ kind: z.literal('get'), id: z.string() }),
  ]),
  br_51: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('a'), mode: z.enum(['a', 'b']), count: z.number().int().min(1) }),
    z.object({ kind: z.literal('b'), mode: z.enum(['c']), count: z.number().int().max(5) }),
  ]),
} satisfies Record<string, z.ZodType>;

/** Roots that can never be served (flatten.md SK-24 whole input, BR-42, BR-45, BR-47). */
const BAD_ROOTS = {
  sk_24_root: z.union([z.string(), DU]),
  br_42: z.union([z.object({ id: z.string() }), z.object({ slug: z.string() })]),
  br_45: z.union([
    z.object({ content: z.string(), filename: z.string() }),
    z.object({ source_url: z.url() }),
    z.object({ source_file_id: z.string() }),
  ]),
  br_47: z.array(z.object({ id: z.string(), title: z.string() })),
} satisfies Record<string, z.ZodType>;

const tools = Object.entries(S).map(([name, input]) =>
  name === 'sk_25'
    ? caseTool(name, input, z.object({ botId: z.string() }))
    : name === 'sk_47'
      ? caseTool(name, input, z.object({ id: z.string() }))
      : caseTool(name, input),
);

// The main group: the case defaults, with policy 'warn' so that one failing case cannot take the other
// tools down; each case that must be served checks that it has no error-level issue (so the default
// 'throw' mount serves it too).
const g = mountGroup(tools, { ...FLAT, schemaValidation: { policy: 'warn' } });

// SK-29: extend with a union input.
const resolve = vi.fn((values: Record<string, unknown>) => ({ tenantId: values.tenantId }));
const sk29 = mountGroup(
  [
    caseTool(
      'sk_29',
      z.discriminatedUnion('kind', [
        z.object({ kind: z.literal('a'), x: z.string() }).strict(),
        z.object({ kind: z.literal('b'), y: z.string() }).strict(),
      ]),
    ),
  ],
  { ...FLAT, extend: { schema: z.object({ tenantId: z.string() }), resolve } },
);

// Bad roots next to good tools under 'warn': the bad ones are left out, the rest are served.
const badRoots = mountGroup(
  [
    caseTool('sk_1', S.sk_1),
    ...Object.entries(BAD_ROOTS).map(([name, input]) => caseTool(name, input)),
    caseTool('br_40', S.br_40),
  ],
  { ...FLAT, schemaValidation: { policy: 'warn' } },
);

// SK-26: params plus a union input with flatten off, under 'warn'.
const sk26Tool = caseTool('sk_26', S.sk_25, z.object({ botId: z.string() }));
const flattenOff = mountGroup([sk26Tool, caseTool('br_38', z.object({ message: z.string() }))], {
  schemaValidation: { policy: 'warn' },
});

/** The case is served under the default policy: no error-level issue for it. */
const servable = (name: string) => expect(errorsOf(g.report, name), `${name} error issues`).toEqual([]);

describe('mounts', () => {
  it('tools/list serves exactly what validateMcpSchemas reports, for every group', async () => {
    await expectListMatchesReport(g, sk29, badRoots, flattenOff);
  });
});

describe('collisions: object vs array', () => {
  it('SK-1 object in one variant, array in the other: a type set, both forms accepted', () =>
    g.each(async (c) => {
      servable('sk_1');
      const s = g.schema(c, 'sk_1');
      expect(unionsIn(s)).toEqual([]);
      expect(bare(at(s, '/properties/kind'))).toEqual({ type: 'string', enum: ['one', 'many'] });
      const m = at(s, '/properties/media');
      expect(typeSet(m)).toEqual(['array', 'object']);
      expect(m).not.toEqual({});
      expect(Object.keys(m)).not.toEqual(['description']);
      expect(s.required).toContain('media');
      await expectAccepted(
        g,
        c,
        'sk_1',
        { kind: 'one', media: { id: 'a' } },
        { input: { kind: 'one', media: { id: 'a' } } },
      );
      await expectAccepted(
        g,
        c,
        'sk_1',
        { kind: 'many', media: [{ id: 'a' }] },
        { input: { kind: 'many', media: [{ id: 'a' }] } },
      );
      await expectRefused(g, c, 'sk_1', { kind: 'one', media: [{ id: 'a' }] }, ['media'], { ajv: true });
      const typed = validateMcpSchemas([tools.find((t) => t.name === 'sk_1')!], {
        ...FLAT,
        schemaValidation: { requireTypedProperties: true },
      });
      expect(typed.issues.filter((i) => i.code === 'untyped-property')).toEqual([]);
    }));

  it('SK-2 the same collision, optional in one variant: not required, hinted, {kind:"one"} accepted', () =>
    g.each(async (c) => {
      servable('sk_2');
      const s = g.schema(c, 'sk_2');
      expect(s.required ?? []).not.toContain('media');
      expect(at(s, '/properties/media/description')).toContain('Required if kind = many');
      await expectAccepted(g, c, 'sk_2', { kind: 'one' }, { input: { kind: 'one' } });
    }));

  it('SK-3 object vs array with null: type set {string, array, null}, no anyOf; all accepted', () =>
    g.each(async (c) => {
      servable('sk_3');
      const s = g.schema(c, 'sk_3');
      const v = at(s, '/properties/value');
      expect(typeSet(v)).toEqual(['array', 'null', 'string']);
      expect(v).not.toHaveProperty('anyOf');
      for (const value of [
        { kind: 'a', value: null },
        { kind: 'b', value: ['x'] },
        { kind: 'a', value: 'x' },
      ]) {
        await expectAccepted(g, c, 'sk_3', value, { input: value });
      }
    }));
});

describe('collisions: literals and enums', () => {
  it('SK-4 string literal vs string literal: {type:string, enum:[fast, slow]}, stable order; b+fast refused', () =>
    g.each(async (c) => {
      servable('sk_4');
      const s = g.schema(c, 'sk_4');
      expect(bare(at(s, '/properties/mode'))).toEqual({ type: 'string', enum: ['fast', 'slow'] });
      const again = validateMcpSchemas([caseTool('sk_4', S.sk_4)], FLAT).tools[0]!.inputSchema;
      expect(JSON.stringify(again)).toBe(JSON.stringify(s));
      await expectRefused(g, c, 'sk_4', { kind: 'b', mode: 'fast' }, ['mode'], { ajv: true });
    }));

  it('SK-5 enum vs free string: {type:string}, no enum', () =>
    g.each(async (c) => {
      servable('sk_5');
      expect(bare(at(g.schema(c, 'sk_5'), '/properties/mode'))).toEqual({ type: 'string' });
      await expectAccepted(g, c, 'sk_5', { kind: 'b', mode: 'anything' }, { input: { kind: 'b', mode: 'anything' } });
    }));

  it('SK-7 boolean literals: {type:boolean}, nothing pins a value; a+false refused', () =>
    g.each(async (c) => {
      servable('sk_7');
      expect(bare(at(g.schema(c, 'sk_7'), '/properties/flag'))).toEqual({ type: 'boolean' });
      await expectAccepted(g, c, 'sk_7', { kind: 'b', flag: false }, { input: { kind: 'b', flag: false } });
      await expectRefused(g, c, 'sk_7', { kind: 'a', flag: false }, ['flag'], { ajv: true });
    }));

  it('SK-8 string vs number: type set {string, number}, typed; both accepted', () =>
    g.each(async (c) => {
      servable('sk_8');
      const t = at(g.schema(c, 'sk_8'), '/properties/target');
      expect(typeSet(t)).toEqual(['number', 'string']);
      expect(t).not.toEqual({});
      const typed = validateMcpSchemas([caseTool('sk_8', S.sk_8)], {
        ...FLAT,
        schemaValidation: { requireTypedProperties: true },
      });
      expect(typed.issues).toEqual([]);
      await expectAccepted(g, c, 'sk_8', { kind: 'a', target: 'x' }, { input: { kind: 'a', target: 'x' } });
      await expectAccepted(g, c, 'sk_8', { kind: 'b', target: 3 }, { input: { kind: 'b', target: 3 } });
    }));
});

describe('collisions: object shapes', () => {
  it('SK-9 two object shapes: an open {type:object}; a+{y} refused naming cfg', () =>
    g.each(async (c) => {
      servable('sk_9');
      const cfg = at(g.schema(c, 'sk_9'), '/properties/cfg');
      expect(cfg.type).toBe('object');
      expect(cfg).not.toHaveProperty('required');
      expect(cfg.additionalProperties).not.toBe(false);
      await expectRefused(g, c, 'sk_9', { kind: 'a', cfg: { y: 1 } }, ['cfg'], { ajv: true });
    }));

  it('SK-10 plain object unions in both variants: an open object, no anyOf inside', () =>
    g.each(async (c) => {
      servable('sk_10');
      const value = at(g.schema(c, 'sk_10'), '/properties/value');
      expect(value.type).toBe('object');
      expect(value).not.toHaveProperty('required');
      expect(value.additionalProperties).not.toBe(false);
      expect(unionsIn(value)).toEqual([]);
      await expectAccepted(
        g,
        c,
        'sk_10',
        { kind: 'b', value: { d: '1' } },
        { input: { kind: 'b', value: { d: '1' } } },
      );
    }));
});

describe('defaults', () => {
  it('SK-12 a different default per variant: {type:number}, no default, optional; each variant gets its own', () =>
    g.each(async (c) => {
      servable('sk_12');
      const s = g.schema(c, 'sk_12');
      expect(bare(at(s, '/properties/limit'))).toEqual({ type: 'number' });
      expect(s.required ?? []).not.toContain('limit');
      await expectAccepted(g, c, 'sk_12', { kind: 'a' }, { input: { kind: 'a', limit: 10 } });
      await expectAccepted(g, c, 'sk_12', { kind: 'b' }, { input: { kind: 'b', limit: 50 } });
    }));

  it('SK-13 a default in one strict variant: additionalProperties false, no default on y, nothing injected', () =>
    g.each(async (c) => {
      servable('sk_13');
      const s = g.schema(c, 'sk_13');
      expect(s.additionalProperties).toBe(false);
      expect(at(s, '/properties/y')).not.toHaveProperty('default');
      await expectAccepted(g, c, 'sk_13', { kind: 'a', x: '1' }, { input: { kind: 'a', x: '1' } });
    }));
});

describe('nesting', () => {
  it('SK-15 an array of a union inside an object: one item object with hints, no unions', () =>
    g.each(async (c) => {
      servable('sk_15');
      const s = g.schema(c, 'sk_15');
      const items = at(s, '/properties/content/properties/parts/items');
      expect(items.type).toBe('object');
      expect(items.properties.type.type).toBe('string');
      expect(enumSet(items.properties.type)).toEqual(['image', 'text']);
      expect(items.required ?? []).not.toContain('text');
      expect(items.required ?? []).not.toContain('url');
      expect(items.properties.text.description).toContain('Required if type = text');
      expect(items.properties.url.description).toContain('Required if type = image');
      expect(unionsIn(s)).toEqual([]);
      const text = { content: { parts: [{ type: 'text', text: 'hi' }] } };
      const both = {
        content: {
          parts: [
            { type: 'text', text: 'hi' },
            { type: 'image', url: 'https://e.x/a.png' },
          ],
        },
      };
      await expectAccepted(g, c, 'sk_15', text, { input: text });
      await expectAccepted(g, c, 'sk_15', both, { input: both });
    }));
});

describe('discriminators', () => {
  it('SK-16 multi-value literal tag: enum [a, b, c], required, hint "k = a | b"', () =>
    g.each(async (c) => {
      servable('sk_16');
      const s = g.schema(c, 'sk_16');
      expect(bare(at(s, '/properties/k'))).toEqual({ type: 'string', enum: ['a', 'b', 'c'] });
      expect(s.required).toContain('k');
      expect(at(s, '/properties/x/description')).toContain('Required if k = a | b');
      await expectAccepted(g, c, 'sk_16', { k: 'b', x: '1' }, { input: { k: 'b', x: '1' } });
    }));

  it('SK-17 a z.enum tag: enum x, y, z', () =>
    g.each(async (c) => {
      servable('sk_17');
      expect(enumSet(at(g.schema(c, 'sk_17'), '/properties/k'))).toEqual(['x', 'y', 'z']);
      await expectAccepted(g, c, 'sk_17', { k: 'y', p: '1' }, { input: { k: 'y', p: '1' } });
    }));

  for (const [id, union] of [
    ['sk_18', numericTag],
    ['sk_19', booleanTag],
  ] as const) {
    const label = id === 'sk_18' ? 'SK-18 a numeric tag' : 'SK-19 a boolean tag';
    it(`${label} is left as it is: oneOf unchanged, other flattened, nothing throws, probe reports op`, () =>
      g.each(async (c) => {
        const tool = tools.find((t) => t.name === id)!;
        expect(() => createMcpHandler([tool], FLAT)).not.toThrow();
        expect(() => validateMcpSchemas([tool], FLAT)).not.toThrow();
        servable(id);
        const s = g.schema(c, id);
        const zodOneOf = (z.toJSONSchema(union, { target: 'draft-2020-12', io: 'input' }) as { oneOf?: unknown[] })
          .oneOf;
        expect(at(s, '/properties/op/oneOf')).toEqual(zodOneOf);
        expectFlatObject(at(s, '/properties/other'), 'other');
        const value = id === 'sk_18' ? { k: 1, x: 'a' } : { k: true, x: 'a' };
        const args = { op: value, other: { kind: 'a', x: '1' } };
        await expectAccepted(g, c, id, args, { input: args });
        expect(issuesOf(g.report, id).map((i) => i.path)).toContain('/properties/op');
      }));
  }

  it('SK-20 a tag optional in one variant: oneOf stays, nothing throws, {op:{x}} accepted', () =>
    g.each(async (c) => {
      expect(() => createMcpHandler([tools.find((t) => t.name === 'sk_20')!], FLAT)).not.toThrow();
      servable('sk_20');
      expect(at(g.schema(c, 'sk_20'), '/properties/op/oneOf')).toBeInstanceOf(Array);
      await expectAccepted(g, c, 'sk_20', { op: { x: '1' } }, { input: { op: { x: '1' } } });
    }));

  it('SK-22 overlapping tag values: anyOf stays, nothing throws, accepted', () =>
    g.each(async (c) => {
      expect(() => createMcpHandler([tools.find((t) => t.name === 'sk_22')!], FLAT)).not.toThrow();
      servable('sk_22');
      expect(at(g.schema(c, 'sk_22'), '/properties/f/anyOf')).toHaveLength(3);
      await expectAccepted(g, c, 'sk_22', { f: { k: 'a', y: '1' } }, { input: { f: { k: 'a', y: '1' } } });
    }));

  it('SK-23 a plain z.union of tagged objects is flattened like a discriminated union', () =>
    g.each(async (c) => {
      servable('sk_23');
      const s = g.schema(c, 'sk_23');
      expect(s.type).toBe('object');
      expect(unionsIn(s)).toEqual([]);
      expect(at(s, '/properties/kind/type')).toBe('string');
      expect(enumSet(at(s, '/properties/kind'))).toEqual(['a', 'b']);
      expect(s.required).toContain('kind');
      expect(s.required).not.toContain('x');
      expect(s.required).not.toContain('y');
      expect(at(s, '/properties/x/description')).toContain('Required if kind = a');
      expect(at(s, '/properties/y/description')).toContain('Required if kind = b');
      await expectAccepted(g, c, 'sk_23', { kind: 'b', y: 2 }, { input: { kind: 'b', y: 2 } });
      // Run is the original union: b without y fails even though the flat schema accepts it.
      await expectRefused(g, c, 'sk_23', { kind: 'b', x: 's' }, [], { ajv: true });
    }));
});

describe('non-object members, params, extend', () => {
  it('SK-24 a string or a union: anyOf of {type:string} and one flat object; both accepted', () =>
    g.each(async (c) => {
      servable('sk_24');
      const anyOf = at(g.schema(c, 'sk_24'), '/properties/spec/anyOf');
      expect(anyOf).toHaveLength(2);
      const str = anyOf.find((m: any) => m.type === 'string');
      const obj = anyOf.find((m: any) => m.type === 'object');
      expect(bare(str)).toEqual({ type: 'string' });
      expectFlatObject(obj, 'DU member');
      await expectAccepted(g, c, 'sk_24', { spec: 'text' }, { input: { spec: 'text' } });
      await expectAccepted(g, c, 'sk_24', { spec: { kind: 'b', y: 2 } }, { input: { spec: { kind: 'b', y: 2 } } });
    }));

  it('SK-24 as the whole input: still not an object, the probe reports an error at ""', () => {
    const report = validateMcpSchemas([caseTool('sk_24_root', BAD_ROOTS.sk_24_root)], FLAT);
    expect(errorsOf(report, 'sk_24_root')).toContain('root-not-object@');
  });

  it('SK-25 params plus a union input: one root object, params and input split', () =>
    g.each(async (c) => {
      servable('sk_25');
      const s = g.schema(c, 'sk_25');
      expectFlatObject(s, 'root');
      expect(Object.keys(s.properties)).toEqual(expect.arrayContaining(['botId', 'kind', 'text', 'url']));
      expect(s.required).toEqual(expect.arrayContaining(['botId', 'kind']));
      await expectAccepted(
        g,
        c,
        'sk_25',
        { botId: 'b-1', kind: 'text', text: 'hi' },
        { params: { botId: 'b-1' }, input: { kind: 'text', text: 'hi' } },
      );
    }));

  it('SK-26 the same with flatten off: error at "", throw names the tool, warn leaves it out', async () => {
    const report = validateMcpSchemas([sk26Tool], {});
    expect(errorsOf(report, 'sk_26')).toContain('root-not-object@');
    expect(() => createMcpHandler([sk26Tool], {})).toThrow(/sk_26/);
    await flattenOff.each(async (c) => {
      const names = [...flattenOff.listed(c).keys()];
      expect(names).toEqual(['br_38']);
      for (const t of flattenOff.listed(c).values()) {
        expect(t.inputSchema).not.toHaveProperty('allOf');
        expect(t.inputSchema).not.toHaveProperty('oneOf');
      }
    });
    expect(flattenOff.warn).toHaveBeenCalled();
    expect(String(flattenOff.warn.mock.calls[0]![0])).toContain('sk_26');
  });

  it('SK-27 the same key in params and input: the mount fails naming x and the tool; the probe reports it', () => {
    const tool = caseTool('sk_27', z.object({ x: z.string(), y: z.string() }), z.object({ x: z.string() }));
    for (const policy of ['throw', 'warn'] as const) {
      const logger = { warn: vi.fn(), error: vi.fn() };
      let thrown: unknown;
      try {
        createMcpHandler([tool], { schemaValidation: { policy }, logger });
      } catch (e) {
        thrown = e;
      }
      expect(thrown, policy).toBeInstanceOf(McpMountSchemaError);
      expect(String(thrown)).toMatch(/\bx\b/);
      expect(String(thrown)).toContain('sk_27');
    }
    let report: ReturnType<typeof validateMcpSchemas> | undefined;
    expect(() => {
      report = validateMcpSchemas([tool], {});
    }).not.toThrow();
    expect(errorsOf(report!, 'sk_27')).toContain('key-conflict@/properties/x');
  });

  it('SK-28 an extend key equal to a tool key: the same, naming tenantId', () => {
    const tool = caseTool('sk_28', z.object({ tenantId: z.string(), q: z.string() }));
    const extend = { schema: z.object({ tenantId: z.string() }) };
    for (const policy of ['throw', 'warn'] as const) {
      let thrown: unknown;
      try {
        createMcpHandler([tool], { extend, schemaValidation: { policy }, logger: { warn: vi.fn(), error: vi.fn() } });
      } catch (e) {
        thrown = e;
      }
      expect(thrown, policy).toBeInstanceOf(McpMountSchemaError);
      expect(String(thrown)).toContain('tenantId');
      expect(String(thrown)).toContain('sk_28');
    }
    let report: ReturnType<typeof validateMcpSchemas> | undefined;
    expect(() => {
      report = validateMcpSchemas([tool], { extend });
    }).not.toThrow();
    expect(errorsOf(report!, 'sk_28')).toContain('key-conflict@/properties/tenantId');
  });

  it('SK-29 extend with a strict union input: tenantId parsed by extend, resolved, removed before the union', () =>
    sk29.each(async (c) => {
      expect(errorsOf(sk29.report, 'sk_29')).toEqual([]);
      const s = sk29.schema(c, 'sk_29');
      expect(Object.keys(s.properties)).toEqual(expect.arrayContaining(['tenantId', 'kind', 'x', 'y']));
      expect(s.additionalProperties).toBe(false);
      resolve.mockClear();
      await expectAccepted(
        sk29,
        c,
        'sk_29',
        { tenantId: 't-1', kind: 'a', x: '1' },
        { input: { kind: 'a', x: '1' }, extend: { tenantId: 't-1' } },
      );
      expect(resolve).toHaveBeenCalledTimes(1);
      expect(resolve.mock.calls[0]![0]).toEqual({ tenantId: 't-1' });
    }));
});

describe('positions', () => {
  it('SK-31 an optional union field: flat, not required, {} accepted', () =>
    g.each(async (c) => {
      servable('sk_31');
      const s = g.schema(c, 'sk_31');
      expectFlatObject(at(s, '/properties/op'), 'op');
      expect(s.required ?? []).not.toContain('op');
      await expectAccepted(g, c, 'sk_31', {}, { input: {} });
    }));

  it('SK-33 a union field with a default: flat, not required, the default reaches the handler', () =>
    g.each(async (c) => {
      servable('sk_33');
      const s = g.schema(c, 'sk_33');
      const op = at(s, '/properties/op');
      expectFlatObject(op, 'op');
      expect(s.required ?? []).not.toContain('op');
      if ('default' in op) expect(op.default).toEqual({ kind: 'a', x: '1' });
      await expectAccepted(g, c, 'sk_33', {}, { input: { op: { kind: 'a', x: '1' } } });
    }));

  it('SK-34 a union inside a tuple: prefixItems/0 is flat with kind enum a, b', () =>
    g.each(async (c) => {
      servable('sk_34');
      const s = g.schema(c, 'sk_34');
      const first = at(s, '/properties/pair/prefixItems/0');
      expectFlatObject(first, 'prefixItems/0');
      expect(enumSet(first.properties.kind)).toEqual(['a', 'b']);
      expect(pointersWith(s, 'oneOf')).toEqual([]);
      const args = { pair: [{ kind: 'b', y: 2 }, 's'] };
      await expectAccepted(g, c, 'sk_34', args, { input: args });
    }));

  it('SK-36 object & union: one flat root with a and kind required, x and y present', () =>
    g.each(async (c) => {
      servable('sk_36');
      const s = g.schema(c, 'sk_36');
      expectFlatObject(s, 'root');
      expect(pointersWith(s, 'allOf')).toEqual([]);
      expect(Object.keys(s.properties)).toEqual(expect.arrayContaining(['a', 'kind', 'x', 'y']));
      expect(s.required).toEqual(expect.arrayContaining(['a', 'kind']));
      expect(enumSet(at(s, '/properties/kind'))).toEqual(['a', 'b']);
      const args = { a: '1', kind: 'b', y: 2 };
      await expectAccepted(g, c, 'sk_36', args, { input: args });
    }));
});

describe('hidden checks', () => {
  it('SK-37 a refine on one variant: {type:string} required; only a is refined', () =>
    g.each(async (c) => {
      servable('sk_37');
      const s = g.schema(c, 'sk_37');
      expect(bare(at(s, '/properties/v'))).toEqual({ type: 'string' });
      expect(s.required).toContain('v');
      await expectAccepted(g, c, 'sk_37', { k: 'b', v: 'x' }, { input: { k: 'b', v: 'x' } });
      await expectRefused(g, c, 'sk_37', { k: 'a', v: 'x' }, ['v'], { ajv: true });
    }));

  it('SK-38 a transform runs once', () =>
    g.each(async (c) => {
      servable('sk_38');
      expect(bare(at(g.schema(c, 'sk_38'), '/properties/text'))).toEqual({ type: 'string' });
      await expectAccepted(g, c, 'sk_38', { text: 'x' }, { input: { text: 'x!' } });
    }));

  it('SK-39 a pipe is served from its input side; Run rejects "ab"', () =>
    g.each(async (c) => {
      servable('sk_39');
      expect(bare(at(g.schema(c, 'sk_39'), '/properties/s'))).toEqual({ type: 'string' });
      await expectRefused(g, c, 'sk_39', { s: 'ab' }, ['s']);
    }));

  it('SK-40 z.coerce.number(): {type:number}, "7" reaches the handler as 7', () =>
    g.each(async (c) => {
      servable('sk_40');
      expect(bare(at(g.schema(c, 'sk_40'), '/properties/n'))).toEqual({ type: 'number' });
      const out = await call(c, 'sk_40', { n: '7' });
      expect(out.isError, out.text).toBe(false);
      expect(out.received!.input).toEqual({ n: 7 });
    }));

  it('SK-41 .catch(): {type:string, default:"fallback"}; 42 becomes "fallback", never "42"', () =>
    g.each(async (c) => {
      servable('sk_41');
      expect(bare(at(g.schema(c, 'sk_41'), '/properties/r'))).toEqual({ type: 'string', default: 'fallback' });
      const out = await call(c, 'sk_41', { r: 42 });
      expect(out.isError, out.text).toBe(false);
      expect(out.received!.input).toEqual({ r: 'fallback' });
    }));

  it('SK-42 .trim(): {type:string}; the handler gets "a"', () =>
    g.each(async (c) => {
      servable('sk_42');
      expect(bare(at(g.schema(c, 'sk_42'), '/properties/t'))).toEqual({ type: 'string' });
      await expectAccepted(g, c, 'sk_42', { t: '  a  ' }, { input: { t: 'a' } });
    }));
});

describe('key policy', () => {
  it('SK-43 every variant strict: additionalProperties false; extra is an isError result seen by onCall', () =>
    g.each(async (c) => {
      servable('sk_43');
      expect(g.schema(c, 'sk_43').additionalProperties).toBe(false);
      g.onCall.mockClear();
      await expectRefused(g, c, 'sk_43', { kind: 'a', a: 'x', extra: 1 }, ['extra']);
      const events = g.onCall.mock.calls.map(([e]) => e).filter((e) => e.tool === 'sk_43');
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ ok: false });
      expect(events[0].error).toContain('extra');
    }));

  it('SK-45 a loose input: additionalProperties not false; extra reaches the handler', () =>
    g.each(async (c) => {
      servable('sk_45');
      expect(g.schema(c, 'sk_45').additionalProperties).not.toBe(false);
      await expectAccepted(g, c, 'sk_45', { a: 'x', extra: 1 }, { input: { a: 'x', extra: 1 } });
    }));

  it('SK-47 a strict input plus params: additionalProperties false from input; id goes to params', () =>
    g.each(async (c) => {
      servable('sk_47');
      expect(g.schema(c, 'sk_47').additionalProperties).toBe(false);
      await expectAccepted(g, c, 'sk_47', { id: '1', a: 'x' }, { params: { id: '1' }, input: { a: 'x' } });
      await expectRefused(g, c, 'sk_47', { id: '1', a: 'x', extra: 1 }, ['extra']);
    }));

  it('SK-48 a strict object inside a variant stays strict; cfg.extra is refused', () =>
    g.each(async (c) => {
      servable('sk_48');
      expect(at(g.schema(c, 'sk_48'), '/properties/cfg/additionalProperties')).toBe(false);
      await expectRefused(g, c, 'sk_48', { kind: 'a', cfg: { x: '1', extra: 1 } }, ['cfg.extra']);
    }));
});

describe('integer, number, null', () => {
  it('SK-49 an identical integer field: type integer, minimum 0, required', () =>
    g.each(async (c) => {
      servable('sk_49');
      const s = g.schema(c, 'sk_49');
      const p = at(s, '/properties/partIndex');
      expect(p.type).toBe('integer');
      expect(p.minimum).toBe(0);
      expect(s.required).toContain('partIndex');
      await expectAccepted(g, c, 'sk_49', { kind: 'a', partIndex: 1 }, { input: { kind: 'a', partIndex: 1 } });
    }));

  it('SK-50 int vs number: {type:number}; 1.5 accepted in b', () =>
    g.each(async (c) => {
      servable('sk_50');
      expect(bare(at(g.schema(c, 'sk_50'), '/properties/n'))).toEqual({ type: 'number' });
      await expectAccepted(g, c, 'sk_50', { kind: 'b', n: 1.5 }, { input: { kind: 'b', n: 1.5 } });
    }));

  it('SK-51 different bounds: {type:number} without bounds, either order; a+(-1) refused', () =>
    g.each(async (c) => {
      servable('sk_51');
      expect(bare(at(g.schema(c, 'sk_51'), '/properties/n'))).toEqual({ type: 'number' });
      expect(bare(at(g.schema(c, 'sk_51_swapped'), '/properties/n'))).toEqual({ type: 'number' });
      await expectRefused(g, c, 'sk_51', { kind: 'a', n: -1 }, ['n'], { ajv: true });
    }));

  it('SK-52 nullable in both: type set {number, null}, no anyOf', () =>
    g.each(async (c) => {
      servable('sk_52');
      const v = at(g.schema(c, 'sk_52'), '/properties/v');
      expect(typeSet(v)).toEqual(['null', 'number']);
      expect(v).not.toHaveProperty('anyOf');
      await expectAccepted(g, c, 'sk_52', { kind: 'a', v: null }, { input: { kind: 'a', v: null } });
    }));
});

describe('from bug reports', () => {
  it('BR-17 array items that are a union: one object, kind enum, optional hinted fields', () =>
    g.each(async (c) => {
      servable('br_17');
      const s = g.schema(c, 'br_17');
      const items = at(s, '/properties/reminders/items');
      expect(items.type).toBe('object');
      expect(enumSet(items.properties.kind)).toEqual(['absolute', 'location', 'relative']);
      for (const [key, tag] of [
        ['minutes', 'relative'],
        ['at', 'absolute'],
        ['place', 'location'],
      ]) {
        expect(items.required ?? []).not.toContain(key);
        expect(items.properties[key!].description).toContain(`Required if kind = ${tag}`);
      }
      expect(pointersWith(s, 'oneOf')).toEqual([]);
    }));

  it('BR-39 a union root: an object with typed keys, required [action], open; {action:create} refused', () =>
    g.each(async (c) => {
      servable('br_39');
      const s = g.schema(c, 'br_39');
      expect(s.type).toBe('object');
      expect(bare(at(s, '/properties/action'))).toEqual({ type: 'string', enum: ['create', 'delete'] });
      expect(at(s, '/properties/name/type')).toBe('string');
      expect(at(s, '/properties/id/type')).toBe('string');
      expect(s.required).toEqual(['action']);
      expect(s.properties).not.toEqual({});
      expect(s.additionalProperties).not.toBe(false);
      await expectRefused(g, c, 'br_39', { action: 'create' }, ['name']);
    }));

  it('BR-40 a union root is served as an object, and every other tool is listed', () =>
    g.each(async (c) => {
      servable('br_40');
      const s = g.schema(c, 'br_40');
      expect(s.type).toBe('object');
      expect(Object.keys(s.properties)).toEqual(expect.arrayContaining(['action', 'title', 'id']));
      expect([...g.listed(c).keys()]).toEqual(tools.map((t) => t.name));
    }));

  it('BR-41 four variants sharing fields: path required, content hinted for append | prepend | replace', () =>
    g.each(async (c) => {
      servable('br_41');
      const s = g.schema(c, 'br_41');
      expect(enumSet(at(s, '/properties/operation'))).toEqual(['append', 'delete', 'prepend', 'replace']);
      expect(s.required).toContain('path');
      expect(s.required).not.toContain('content');
      expect(at(s, '/properties/content/description')).toContain('Required if operation = append | prepend | replace');
      await expectAccepted(
        g,
        c,
        'br_41',
        { operation: 'delete', path: 'a.md' },
        { input: { operation: 'delete', path: 'a.md' } },
      );
      await expectRefused(g, c, 'br_41', { operation: 'append', path: 'a.md' }, ['content']);
    }));

  it('BR-42 an untagged object union: left alone, error at "" as a root; throw refuses, warn leaves it out', async () => {
    const tool = caseTool('br_42', BAD_ROOTS.br_42);
    let report: ReturnType<typeof validateMcpSchemas> | undefined;
    expect(() => {
      report = validateMcpSchemas([tool], FLAT);
    }).not.toThrow();
    expect(errorsOf(report!, 'br_42')).toContain('root-not-object@');
    expect(() => createMcpHandler([tool], FLAT)).toThrow(/br_42/);
    await badRoots.each(async (c) => {
      expect(badRoots.listed(c).has('br_42')).toBe(false);
      expect(badRoots.listed(c).has('sk_1')).toBe(true);
      expect(badRoots.listed(c).has('br_40')).toBe(true);
    });
  });

  it('BR-43 the intersection of two objects: one object, both keys required, no allOf', () =>
    g.each(async (c) => {
      servable('br_43');
      const s = g.schema(c, 'br_43');
      expect(s.type).toBe('object');
      expect(s.required).toEqual(expect.arrayContaining(['name', 'dataType']));
      expect(s).not.toHaveProperty('allOf');
    }));

  it('BR-44 a flat schema with strict variants: no root union, additionalProperties false; plan refused', () =>
    g.each(async (c) => {
      servable('br_44');
      const s = g.schema(c, 'br_44');
      expect(s.type).toBe('object');
      expect(s).not.toHaveProperty('oneOf');
      expect(s).not.toHaveProperty('anyOf');
      expect(s.additionalProperties).toBe(false);
      await expectRefused(g, c, 'br_44', { action: 'execute', token: 't', plan: 'p' }, ['plan'], { ajv: true });
    }));

  it('BR-45 an untagged root union of three shapes: not flattened, error at "", anthropic flags it, never served', async () => {
    const tool = caseTool('br_45', BAD_ROOTS.br_45);
    const report = validateMcpSchemas([tool], { ...FLAT, schemaValidation: { profiles: ['anthropic'] } });
    expect(errorsOf(report, 'br_45')).toContain('root-not-object@');
    expect(report.issues.some((i) => i.tool === 'br_45' && i.profile === 'anthropic' && i.path === '')).toBe(true);
    expect(report.tools.map((t) => t.name)).not.toContain('br_45');
    await badRoots.each(async (c) => {
      expect(badRoots.listed(c).has('br_45')).toBe(false);
    });
  });

  it('BR-46 a cross-field refinement: a plain root without conditionals; size refused', () =>
    g.each(async (c) => {
      servable('br_46');
      const s = g.schema(c, 'br_46');
      expect(s.type).toBe('object');
      expect(Object.keys(s.properties)).toEqual(expect.arrayContaining(['mode', 'size']));
      for (const k of ['allOf', 'if', 'then', 'else']) expect(s).not.toHaveProperty(k);
      await expectRefused(g, c, 'br_46', { mode: 'small', size: 20 }, ['size']);
    }));

  it('BR-47 an array root is neither touched nor wrapped: the probe reports it at ""', async () => {
    const report = validateMcpSchemas([caseTool('br_47', BAD_ROOTS.br_47)], FLAT);
    expect(errorsOf(report, 'br_47')).toContain('root-not-object@');
    expect(report.tools).toEqual([]);
    await badRoots.each(async (c) => {
      expect(badRoots.listed(c).has('br_47')).toBe(false);
    });
    expect(String(badRoots.warn.mock.calls[0]?.[0])).toContain('br_47');
  });

  it('BR-48 fields of other variants are marked, and strict variants reject them', () =>
    g.each(async (c) => {
      servable('br_48');
      const s = g.schema(c, 'br_48');
      expect(s.required).toContain('title');
      expect(at(s, '/properties/input/description')).toContain('Required if type = send');
      expect(at(s, '/properties/target/description')).toContain('Required if type = open');
      for (const k of ['cwd', 'direction']) {
        const d = at(s, `/properties/${k}/description`);
        expect(d, k).toMatch(/only/i);
        expect(d, k).toContain('type = open');
        expect(d, k).not.toContain('send');
      }
      await expectRefused(g, c, 'br_48', { type: 'send', title: 'weather', input: 'echo hi', cwd: '~' }, ['cwd']);
    }));

  it('BR-50 a reference shape: object root, required [kind]; get+q refused naming id', () =>
    g.each(async (c) => {
      servable('br_50');
      const s = g.schema(c, 'br_50');
      expect(s.type).toBe('object');
      expect(enumSet(at(s, '/properties/kind'))).toEqual(['get', 'search']);
      expect(at(s, '/properties/q/type')).toBe('string');
      expect(at(s, '/properties/id/type')).toBe('string');
      expect(s.required).toEqual(['kind']);
      await expectRefused(g, c, 'br_50', { kind: 'get', q: 'x' }, ['id'], { ajv: true });
    }));

  it('BR-51 the advertised schema never validates: mode enum a, b, c; count {type:integer}; Run refuses', () =>
    g.each(async (c) => {
      servable('br_51');
      const s = g.schema(c, 'br_51');
      expect(enumSet(at(s, '/properties/mode'))).toEqual(['a', 'b', 'c']);
      expect(bare(at(s, '/properties/count'))).toEqual({ type: 'integer' });
      g.onCall.mockClear();
      await expectRefused(g, c, 'br_51', { kind: 'a', mode: 'c', count: 0 }, ['mode', 'count'], { ajv: true });
      const events = g.onCall.mock.calls.map(([e]) => e).filter((e) => e.tool === 'br_51');
      expect(events.map((e) => e.ok)).toEqual([false]);
    }));
});
