/**
 * Flattening of union inputs over real HTTP: every case is a tool named after what it checks, mounted with many others in one
 * server per options-group and driven by both official clients. Served schemas are read from tools/list,
 * "accepted" means Ajv 2020 accepts the value on the served schema and the call is not isError, and
 * handler values are compared deep-equal (with `undefined` made visible).
 */
import { McpMountSchemaError, validateMcpSchemas } from 'mcp-mount';
import { createMcpFetchHandler } from 'mcp-mount/adapter';
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
  object_or_array: media(z.object({ id: z.string() })),
  object_or_array_optional: media(z.object({ id: z.string() }).optional()),
  string_or_array_nullable: two('value', z.string().nullable(), z.array(z.string()).nullable()),
  string_literals: two('mode', z.literal('fast'), z.literal('slow')),
  enum_or_string: two('mode', z.enum(['x', 'y']), z.string()),
  boolean_literals: two('flag', z.literal(true), z.literal(false)),
  string_or_number: two('target', z.string(), z.number()),
  two_object_shapes: two('cfg', z.object({ x: z.string() }), z.object({ y: z.number() })),
  object_unions_in_both: two(
    'value',
    z.union([z.object({ a: z.string() }), z.object({ b: z.string() })]),
    z.union([z.object({ c: z.string() }), z.object({ d: z.string() })]),
  ),
  default_per_variant: two('limit', z.number().default(10), z.number().default(50)),
  default_in_strict_variant: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('a'), x: z.string() }).strict(),
    z.object({ kind: z.literal('b'), y: z.string().default('z') }).strict(),
  ]),
  union_array_in_object: z.object({
    content: z.object({
      parts: z.array(
        z.discriminatedUnion('type', [
          z.object({ type: z.literal('text'), text: z.string() }),
          z.object({ type: z.literal('image'), url: z.url() }),
        ]),
      ),
    }),
  }),
  multi_value_tag: z.discriminatedUnion('k', [
    z.object({ k: z.literal(['a', 'b']), x: z.string() }),
    z.object({ k: z.literal('c'), y: z.string() }),
  ]),
  enum_tag: z.discriminatedUnion('k', [
    z.object({ k: z.enum(['x', 'y']), p: z.string() }),
    z.object({ k: z.literal('z'), q: z.string() }),
  ]),
  numeric_tag: z.object({ op: numericTag, other: DU }),
  boolean_tag: z.object({ op: booleanTag, other: DU }),
  optional_tag: z.object({ op: optionalTag }),
  overlapping_tags: z.object({
    f: z.union([
      z.object({ k: z.literal('a'), x: z.string() }),
      z.object({ k: z.literal('a'), y: z.string() }),
      z.object({ k: z.literal('b'), z: z.string() }),
    ]),
  }),
  plain_union_of_tagged: z.union([
    z.object({ kind: z.literal('a'), x: z.string() }),
    z.object({ kind: z.literal('b'), y: z.number() }),
  ]),
  string_or_union: z.object({ spec: z.union([z.string(), DU]) }),
  params_and_union: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('text'), text: z.string() }),
    z.object({ kind: z.literal('photo'), url: z.string() }),
  ]),
  optional_union_field: z.object({ op: DU.optional() }),
  defaulted_union_field: z.object({ op: DU.default({ kind: 'a', x: '1' }) }),
  union_in_tuple: z.object({ pair: z.tuple([DU, z.string()]) }),
  object_and_union: z.intersection(z.object({ a: z.string() }), DU),
  refined_variant: z.discriminatedUnion('k', [
    z.object({ k: z.literal('a'), v: z.string().refine((s) => s.length > 2) }),
    z.object({ k: z.literal('b'), v: z.string() }),
  ]),
  transform: z.object({ text: z.string().transform((s) => `${s}!`) }),
  pipe: z.object({ s: z.string().pipe(z.string().min(3)) }),
  coerced_number: z.object({ n: z.coerce.number() }),
  catch_fallback: z.object({ r: z.string().catch('fallback') }),
  trimmed_string: z.object({ t: z.string().trim() }),
  strict_variants: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('a'), a: z.string() }).strict(),
    z.object({ kind: z.literal('b'), b: z.string() }).strict(),
  ]),
  loose_input: z.looseObject({ a: z.string() }),
  strict_input_with_params: z.object({ a: z.string() }).strict(),
  strict_object_in_variant: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('a'), cfg: z.object({ x: z.string() }).strict() }),
    z.object({ kind: z.literal('b'), y: z.string() }),
  ]),
  same_integer_field: two('partIndex', z.number().int().min(0), z.number().int().min(0)),
  int_or_number: two('n', z.number().int(), z.number()),
  different_bounds: two('n', z.number().min(0), z.number().max(5)),
  different_bounds_swapped: two('n', z.number().max(5), z.number().min(0)),
  nullable_in_both: two('v', z.number().nullable(), z.number().nullable()),
  union_array_items: z.object({
    reminders: z.array(
      z.discriminatedUnion('kind', [
        z.object({ kind: z.literal('relative'), minutes: z.number() }),
        z.object({ kind: z.literal('absolute'), at: z.string() }),
        z.object({ kind: z.literal('location'), place: z.string() }),
      ]),
    ),
  }),
  union_root: z.discriminatedUnion('action', [
    z.object({ action: z.literal('create'), name: z.string() }),
    z.object({ action: z.literal('delete'), id: z.string() }),
  ]),
  union_root_beside_others: z.discriminatedUnion('action', [
    z.object({ action: z.literal('create'), title: z.string() }),
    z.object({ action: z.literal('update'), id: z.string() }),
  ]),
  four_variants_shared_fields: z.discriminatedUnion('operation', [
    z.object({ operation: z.literal('append'), path: z.string(), content: z.string() }),
    z.object({ operation: z.literal('prepend'), path: z.string(), content: z.string() }),
    z.object({ operation: z.literal('replace'), path: z.string(), content: z.string() }),
    z.object({ operation: z.literal('delete'), path: z.string() }),
  ]),
  object_intersection: z.object({ name: z.string() }).and(z.object({ dataType: z.enum(['NUMERIC', 'CATEGORICAL']) })),
  strict_variants_flat: z.discriminatedUnion('action', [
    z.object({ action: z.literal('prepare'), plan: z.string() }).strict(),
    z.object({ action: z.literal('execute'), token: z.string() }).strict(),
  ]),
  cross_field_refinement: z.object({ mode: z.enum(['small', 'large']), size: z.number() }).superRefine((v, ctx) => {
    if (v.mode === 'small' && v.size > 10)
      ctx.addIssue({ code: 'custom', path: ['size'], message: 'small allows at most 10' });
  }),
  other_variant_fields: strictVariantsWithOwnOptionals,
  search_or_get: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('search'), q: z.string() }),
    z.object({ kind: z.literal('get'), id: z.string() }),
  ]),
  bounds_and_enums_per_variant: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('a'), mode: z.enum(['a', 'b']), count: z.number().int().min(1) }),
    z.object({ kind: z.literal('b'), mode: z.enum(['c']), count: z.number().int().max(5) }),
  ]),
} satisfies Record<string, z.ZodType>;

/** Roots that can never be served: a string or a union as the whole input, an array. */
const BAD_ROOTS = {
  string_or_union_root: z.union([z.string(), DU]),
  array_root: z.array(z.object({ id: z.string(), title: z.string() })),
} satisfies Record<string, z.ZodType>;

/** Untagged unions of objects: served flat with flattening, refused as a root without it. */
const UNTAGGED = {
  untagged_object_union_root: z.union([z.object({ id: z.string() }), z.object({ slug: z.string() })]),
  untagged_union_of_three: z.union([
    z.object({ content: z.string(), filename: z.string() }),
    z.object({ source_url: z.url() }),
    z.object({ source_file_id: z.string() }),
  ]),
} satisfies Record<string, z.ZodType>;

const tools = Object.entries({ ...S, ...UNTAGGED }).map(([name, input]) =>
  name === 'params_and_union'
    ? caseTool(name, input, z.object({ botId: z.string() }))
    : name === 'strict_input_with_params'
      ? caseTool(name, input, z.object({ id: z.string() }))
      : caseTool(name, input),
);

// The main group: the case defaults, with policy 'warn' so that one failing case cannot take the other
// tools down; each case that must be served checks that it has no error-level issue (so the default
// 'throw' mount serves it too).
const g = mountGroup(tools, { ...FLAT, schemaValidation: { policy: 'warn' } });

// Extend with a union input.
const resolve = vi.fn((values: Record<string, unknown>) => ({ tenantId: values.tenantId }));
const extendGroup = mountGroup(
  [
    caseTool(
      'extend_with_strict_union',
      z.discriminatedUnion('kind', [
        z.object({ kind: z.literal('a'), x: z.string() }).strict(),
        z.object({ kind: z.literal('b'), y: z.string() }).strict(),
      ]),
    ),
  ],
  { ...FLAT, arguments: { extend: { schema: z.object({ tenantId: z.string() }), resolve } } },
);

// Bad roots next to good tools under 'warn': the bad ones are left out, the rest are served.
const badRoots = mountGroup(
  [
    caseTool('object_or_array', S.object_or_array),
    ...Object.entries(BAD_ROOTS).map(([name, input]) => caseTool(name, input)),
    caseTool('union_root_beside_others', S.union_root_beside_others),
  ],
  { ...FLAT, schemaValidation: { policy: 'warn' } },
);

// Params plus a union input with flatten off, under 'warn'.
const unflattenedTool = caseTool('params_and_union_unflattened', S.params_and_union, z.object({ botId: z.string() }));
const flattenOff = mountGroup(
  [
    unflattenedTool,
    caseTool('plain_message', z.object({ message: z.string() })),
    ...Object.entries(UNTAGGED).map(([name, input]) => caseTool(name, input)),
  ],
  { schemaValidation: { policy: 'warn' } },
);

/** The case is served under the default policy: no error-level issue for it. */
const servable = (name: string) => expect(errorsOf(g.report, name), `${name} error issues`).toEqual([]);

describe('mounts', () => {
  it('tools/list serves exactly what validateMcpSchemas reports, for every group', async () => {
    await expectListMatchesReport(g, extendGroup, badRoots, flattenOff);
  });
});

describe('collisions: object vs array', () => {
  it('an object in one variant and an array in the other: a type set, both forms accepted', () =>
    g.each(async (c) => {
      servable('object_or_array');
      const s = g.schema(c, 'object_or_array');
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
        'object_or_array',
        { kind: 'one', media: { id: 'a' } },
        { input: { kind: 'one', media: { id: 'a' } } },
      );
      await expectAccepted(
        g,
        c,
        'object_or_array',
        { kind: 'many', media: [{ id: 'a' }] },
        { input: { kind: 'many', media: [{ id: 'a' }] } },
      );
      await expectRefused(g, c, 'object_or_array', { kind: 'one', media: [{ id: 'a' }] }, ['media'], { ajv: true });
      const typed = validateMcpSchemas([tools.find((t) => t.name === 'object_or_array')!], {
        ...FLAT,
        schemaValidation: { requireTypedProperties: true },
      });
      expect(typed.issues.filter((i) => i.code === 'untyped-property')).toEqual([]);
    }));

  it('the object/array collision, optional in one variant: not required, hinted, {kind:"one"} accepted', () =>
    g.each(async (c) => {
      servable('object_or_array_optional');
      const s = g.schema(c, 'object_or_array_optional');
      expect(s.required ?? []).not.toContain('media');
      expect(at(s, '/properties/media/description')).toContain('Required if kind = many');
      await expectAccepted(g, c, 'object_or_array_optional', { kind: 'one' }, { input: { kind: 'one' } });
    }));

  it('a string vs an array, both nullable: type set {string, array, null}, no anyOf; all accepted', () =>
    g.each(async (c) => {
      servable('string_or_array_nullable');
      const s = g.schema(c, 'string_or_array_nullable');
      const v = at(s, '/properties/value');
      expect(typeSet(v)).toEqual(['array', 'null', 'string']);
      expect(v).not.toHaveProperty('anyOf');
      for (const value of [
        { kind: 'a', value: null },
        { kind: 'b', value: ['x'] },
        { kind: 'a', value: 'x' },
      ]) {
        await expectAccepted(g, c, 'string_or_array_nullable', value, { input: value });
      }
    }));
});

describe('collisions: literals and enums', () => {
  it('a string literal vs a string literal: {type:string, enum:[fast, slow]}, stable order; b+fast refused', () =>
    g.each(async (c) => {
      servable('string_literals');
      const s = g.schema(c, 'string_literals');
      expect(bare(at(s, '/properties/mode'))).toEqual({ type: 'string', enum: ['fast', 'slow'] });
      const again = validateMcpSchemas([caseTool('string_literals', S.string_literals)], FLAT).tools[0]!.inputSchema;
      expect(JSON.stringify(again)).toBe(JSON.stringify(s));
      await expectRefused(g, c, 'string_literals', { kind: 'b', mode: 'fast' }, ['mode'], { ajv: true });
    }));

  it('an enum vs a free string: {type:string}, no enum', () =>
    g.each(async (c) => {
      servable('enum_or_string');
      expect(bare(at(g.schema(c, 'enum_or_string'), '/properties/mode'))).toEqual({ type: 'string' });
      await expectAccepted(
        g,
        c,
        'enum_or_string',
        { kind: 'b', mode: 'anything' },
        { input: { kind: 'b', mode: 'anything' } },
      );
    }));

  it('boolean literals: {type:boolean}, nothing pins a value; a+false refused', () =>
    g.each(async (c) => {
      servable('boolean_literals');
      expect(bare(at(g.schema(c, 'boolean_literals'), '/properties/flag'))).toEqual({ type: 'boolean' });
      await expectAccepted(g, c, 'boolean_literals', { kind: 'b', flag: false }, { input: { kind: 'b', flag: false } });
      await expectRefused(g, c, 'boolean_literals', { kind: 'a', flag: false }, ['flag'], { ajv: true });
    }));

  it('a string vs a number: type set {string, number}, typed; both accepted', () =>
    g.each(async (c) => {
      servable('string_or_number');
      const t = at(g.schema(c, 'string_or_number'), '/properties/target');
      expect(typeSet(t)).toEqual(['number', 'string']);
      expect(t).not.toEqual({});
      const typed = validateMcpSchemas([caseTool('string_or_number', S.string_or_number)], {
        ...FLAT,
        schemaValidation: { requireTypedProperties: true },
      });
      expect(typed.issues).toEqual([]);
      await expectAccepted(g, c, 'string_or_number', { kind: 'a', target: 'x' }, { input: { kind: 'a', target: 'x' } });
      await expectAccepted(g, c, 'string_or_number', { kind: 'b', target: 3 }, { input: { kind: 'b', target: 3 } });
    }));
});

describe('collisions: object shapes', () => {
  it('two object shapes: an open {type:object}; a+{y} refused naming cfg', () =>
    g.each(async (c) => {
      servable('two_object_shapes');
      const cfg = at(g.schema(c, 'two_object_shapes'), '/properties/cfg');
      expect(cfg.type).toBe('object');
      expect(cfg).not.toHaveProperty('required');
      expect(cfg.additionalProperties).not.toBe(false);
      await expectRefused(g, c, 'two_object_shapes', { kind: 'a', cfg: { y: 1 } }, ['cfg'], { ajv: true });
    }));

  it('plain object unions in both variants: an open object, no anyOf inside', () =>
    g.each(async (c) => {
      servable('object_unions_in_both');
      const value = at(g.schema(c, 'object_unions_in_both'), '/properties/value');
      expect(value.type).toBe('object');
      expect(value).not.toHaveProperty('required');
      expect(value.additionalProperties).not.toBe(false);
      expect(unionsIn(value)).toEqual([]);
      await expectAccepted(
        g,
        c,
        'object_unions_in_both',
        { kind: 'b', value: { d: '1' } },
        { input: { kind: 'b', value: { d: '1' } } },
      );
    }));
});

describe('defaults', () => {
  it('a different default per variant: {type:number}, no default, optional; each variant gets its own', () =>
    g.each(async (c) => {
      servable('default_per_variant');
      const s = g.schema(c, 'default_per_variant');
      expect(bare(at(s, '/properties/limit'))).toEqual({ type: 'number' });
      expect(s.required ?? []).not.toContain('limit');
      await expectAccepted(g, c, 'default_per_variant', { kind: 'a' }, { input: { kind: 'a', limit: 10 } });
      await expectAccepted(g, c, 'default_per_variant', { kind: 'b' }, { input: { kind: 'b', limit: 50 } });
    }));

  it('a default in one strict variant: additionalProperties false, no default on y, nothing injected', () =>
    g.each(async (c) => {
      servable('default_in_strict_variant');
      const s = g.schema(c, 'default_in_strict_variant');
      expect(s.additionalProperties).toBe(false);
      expect(at(s, '/properties/y')).not.toHaveProperty('default');
      await expectAccepted(g, c, 'default_in_strict_variant', { kind: 'a', x: '1' }, { input: { kind: 'a', x: '1' } });
    }));
});

describe('nesting', () => {
  it('an array of a union inside an object: one item object with hints, no unions', () =>
    g.each(async (c) => {
      servable('union_array_in_object');
      const s = g.schema(c, 'union_array_in_object');
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
      await expectAccepted(g, c, 'union_array_in_object', text, { input: text });
      await expectAccepted(g, c, 'union_array_in_object', both, { input: both });
    }));
});

describe('discriminators', () => {
  it('multi-value literal tag: enum [a, b, c], required, hint "k = a | b"', () =>
    g.each(async (c) => {
      servable('multi_value_tag');
      const s = g.schema(c, 'multi_value_tag');
      expect(bare(at(s, '/properties/k'))).toEqual({ type: 'string', enum: ['a', 'b', 'c'] });
      expect(s.required).toContain('k');
      expect(at(s, '/properties/x/description')).toContain('Required if k = a | b');
      await expectAccepted(g, c, 'multi_value_tag', { k: 'b', x: '1' }, { input: { k: 'b', x: '1' } });
    }));

  it('a z.enum tag: enum x, y, z', () =>
    g.each(async (c) => {
      servable('enum_tag');
      expect(enumSet(at(g.schema(c, 'enum_tag'), '/properties/k'))).toEqual(['x', 'y', 'z']);
      await expectAccepted(g, c, 'enum_tag', { k: 'y', p: '1' }, { input: { k: 'y', p: '1' } });
    }));

  for (const [id, union] of [
    ['numeric_tag', numericTag],
    ['boolean_tag', booleanTag],
  ] as const) {
    const label = id === 'numeric_tag' ? 'a numeric tag' : 'a boolean tag';
    const [one, two] = id === 'numeric_tag' ? [1, 2] : [true, false];
    it(`${label} is flattened like a string tag: one object typed by its values, other flattened, no issue`, () =>
      g.each(async (c) => {
        const tool = tools.find((t) => t.name === id)!;
        expect(() => createMcpFetchHandler([tool], FLAT)).not.toThrow();
        servable(id);
        expect(issuesOf(g.report, id)).toEqual([]);
        const s = g.schema(c, id);
        expectFlatObject(at(s, '/properties/op'), 'op');
        expect(bare(at(s, '/properties/op/properties/k'))).toEqual({
          type: id === 'numeric_tag' ? 'integer' : 'boolean',
          enum: [one, two],
        });
        expect(at(s, '/properties/op/required')).toEqual(['k']);
        expect(at(s, '/properties/op/properties/x/description')).toBe(`Required if k = ${one}.`);
        expect(at(s, '/properties/op/properties/y/description')).toBe(`Required if k = ${two}.`);
        expectFlatObject(at(s, '/properties/other'), 'other');
        for (const op of [
          { k: one, x: 'a' },
          { k: two, y: 'b' },
        ]) {
          const args = { op, other: { kind: 'a', x: '1' } };
          expect(union.safeParse(op).success).toBe(true);
          await expectAccepted(g, c, id, args, { input: args });
        }
        await expectRefused(g, c, id, { op: { k: two, x: 'a' }, other: { kind: 'a', x: '1' } }, ['op.y'], {
          ajv: true,
        });
      }));
  }

  it('a tag optional in one variant: oneOf stays, nothing throws, {op:{x}} accepted', () =>
    g.each(async (c) => {
      expect(() => createMcpFetchHandler([tools.find((t) => t.name === 'optional_tag')!], FLAT)).not.toThrow();
      servable('optional_tag');
      expect(at(g.schema(c, 'optional_tag'), '/properties/op/oneOf')).toBeInstanceOf(Array);
      await expectAccepted(g, c, 'optional_tag', { op: { x: '1' } }, { input: { op: { x: '1' } } });
    }));

  it('overlapping tag values: anyOf stays, nothing throws, accepted', () =>
    g.each(async (c) => {
      expect(() => createMcpFetchHandler([tools.find((t) => t.name === 'overlapping_tags')!], FLAT)).not.toThrow();
      servable('overlapping_tags');
      expect(at(g.schema(c, 'overlapping_tags'), '/properties/f/anyOf')).toHaveLength(3);
      await expectAccepted(g, c, 'overlapping_tags', { f: { k: 'a', y: '1' } }, { input: { f: { k: 'a', y: '1' } } });
    }));

  it('a plain z.union of tagged objects is flattened like a discriminated union', () =>
    g.each(async (c) => {
      servable('plain_union_of_tagged');
      const s = g.schema(c, 'plain_union_of_tagged');
      expect(s.type).toBe('object');
      expect(unionsIn(s)).toEqual([]);
      expect(at(s, '/properties/kind/type')).toBe('string');
      expect(enumSet(at(s, '/properties/kind'))).toEqual(['a', 'b']);
      expect(s.required).toContain('kind');
      expect(s.required).not.toContain('x');
      expect(s.required).not.toContain('y');
      expect(at(s, '/properties/x/description')).toContain('Required if kind = a');
      expect(at(s, '/properties/y/description')).toContain('Required if kind = b');
      await expectAccepted(g, c, 'plain_union_of_tagged', { kind: 'b', y: 2 }, { input: { kind: 'b', y: 2 } });
      // Run is the original union: b without y fails even though the flat schema accepts it.
      await expectRefused(g, c, 'plain_union_of_tagged', { kind: 'b', x: 's' }, [], { ajv: true });
    }));
});

describe('non-object members, params, extend', () => {
  it('a string or a union: one node typed string and object, the object side flat; both accepted', () =>
    g.each(async (c) => {
      servable('string_or_union');
      // Below the root, the union of a string and the flat DU is one node with a type list.
      const spec = at(g.schema(c, 'string_or_union'), '/properties/spec');
      expect(typeSet(spec)).toEqual(['object', 'string']);
      expect(unionsIn(spec)).toEqual([]);
      expect(spec.properties.kind).toMatchObject({ type: 'string', enum: ['a', 'b'] });
      expect(spec.required).toEqual(['kind']);
      await expectAccepted(g, c, 'string_or_union', { spec: 'text' }, { input: { spec: 'text' } });
      await expectAccepted(
        g,
        c,
        'string_or_union',
        { spec: { kind: 'b', y: 2 } },
        { input: { spec: { kind: 'b', y: 2 } } },
      );
    }));

  it('a string or a union as the whole input: still not an object, the probe reports an error at ""', () => {
    const report = validateMcpSchemas([caseTool('string_or_union_root', BAD_ROOTS.string_or_union_root)], FLAT);
    expect(errorsOf(report, 'string_or_union_root')).toContain('root-not-object@');
  });

  it('params plus a union input: one root object, params and input split', () =>
    g.each(async (c) => {
      servable('params_and_union');
      const s = g.schema(c, 'params_and_union');
      expectFlatObject(s, 'root');
      expect(Object.keys(s.properties)).toEqual(expect.arrayContaining(['botId', 'kind', 'text', 'url']));
      expect(s.required).toEqual(expect.arrayContaining(['botId', 'kind']));
      await expectAccepted(
        g,
        c,
        'params_and_union',
        { botId: 'b-1', kind: 'text', text: 'hi' },
        { params: { botId: 'b-1' }, input: { kind: 'text', text: 'hi' } },
      );
    }));

  it('params plus a union input with flatten off: error at "", throw names the tool, warn leaves it out', async () => {
    const report = validateMcpSchemas([unflattenedTool], {});
    expect(errorsOf(report, 'params_and_union_unflattened')).toContain('root-not-object@');
    expect(() => createMcpFetchHandler([unflattenedTool], {})).toThrow(/params_and_union_unflattened/);
    await flattenOff.each(async (c) => {
      const names = [...flattenOff.listed(c).keys()];
      expect(names).toEqual(['plain_message']);
      for (const t of flattenOff.listed(c).values()) {
        expect(t.inputSchema).not.toHaveProperty('allOf');
        expect(t.inputSchema).not.toHaveProperty('oneOf');
      }
    });
    expect(flattenOff.warn).toHaveBeenCalled();
    expect(String(flattenOff.warn.mock.calls[0]![0])).toContain('params_and_union_unflattened');
  });

  it('the same key in params and input: the mount fails naming x and the tool; the probe reports it', () => {
    const tool = caseTool(
      'params_input_key_clash',
      z.object({ x: z.string(), y: z.string() }),
      z.object({ x: z.string() }),
    );
    for (const policy of ['throw', 'warn'] as const) {
      const logger = { warn: vi.fn(), error: vi.fn() };
      let thrown: unknown;
      try {
        createMcpFetchHandler([tool], { schemaValidation: { policy }, observe: { logger } });
      } catch (e) {
        thrown = e;
      }
      expect(thrown, policy).toBeInstanceOf(McpMountSchemaError);
      expect(String(thrown)).toMatch(/\bx\b/);
      expect(String(thrown)).toContain('params_input_key_clash');
    }
    let report: ReturnType<typeof validateMcpSchemas> | undefined;
    expect(() => {
      report = validateMcpSchemas([tool], {});
    }).not.toThrow();
    expect(errorsOf(report!, 'params_input_key_clash')).toContain('key-conflict@/properties/x');
  });

  it('an extend key equal to a tool key: the mount fails naming tenantId and the tool; the probe reports it', () => {
    const tool = caseTool('extend_key_clash', z.object({ tenantId: z.string(), q: z.string() }));
    const extend = { schema: z.object({ tenantId: z.string() }) };
    for (const policy of ['throw', 'warn'] as const) {
      let thrown: unknown;
      try {
        createMcpFetchHandler([tool], {
          arguments: { extend },
          schemaValidation: { policy },
          observe: { logger: { warn: vi.fn(), error: vi.fn() } },
        });
      } catch (e) {
        thrown = e;
      }
      expect(thrown, policy).toBeInstanceOf(McpMountSchemaError);
      expect(String(thrown)).toContain('tenantId');
      expect(String(thrown)).toContain('extend_key_clash');
    }
    let report: ReturnType<typeof validateMcpSchemas> | undefined;
    expect(() => {
      report = validateMcpSchemas([tool], { arguments: { extend } });
    }).not.toThrow();
    expect(errorsOf(report!, 'extend_key_clash')).toContain('key-conflict@/properties/tenantId');
  });

  it('extend with a strict union input: tenantId parsed by extend, resolved, removed before the union', () =>
    extendGroup.each(async (c) => {
      expect(errorsOf(extendGroup.report, 'extend_with_strict_union')).toEqual([]);
      const s = extendGroup.schema(c, 'extend_with_strict_union');
      expect(Object.keys(s.properties)).toEqual(expect.arrayContaining(['tenantId', 'kind', 'x', 'y']));
      expect(s.additionalProperties).toBe(false);
      resolve.mockClear();
      await expectAccepted(
        extendGroup,
        c,
        'extend_with_strict_union',
        { tenantId: 't-1', kind: 'a', x: '1' },
        { input: { kind: 'a', x: '1' }, extend: { tenantId: 't-1' } },
      );
      expect(resolve).toHaveBeenCalledTimes(1);
      expect(resolve.mock.calls[0]![0]).toEqual({ tenantId: 't-1' });
    }));
});

describe('positions', () => {
  it('an optional union field: flat, not required, {} accepted', () =>
    g.each(async (c) => {
      servable('optional_union_field');
      const s = g.schema(c, 'optional_union_field');
      expectFlatObject(at(s, '/properties/op'), 'op');
      expect(s.required ?? []).not.toContain('op');
      await expectAccepted(g, c, 'optional_union_field', {}, { input: {} });
    }));

  it('a union field with a default: flat, not required, the default reaches the handler', () =>
    g.each(async (c) => {
      servable('defaulted_union_field');
      const s = g.schema(c, 'defaulted_union_field');
      const op = at(s, '/properties/op');
      expectFlatObject(op, 'op');
      expect(s.required ?? []).not.toContain('op');
      if ('default' in op) expect(op.default).toEqual({ kind: 'a', x: '1' });
      await expectAccepted(g, c, 'defaulted_union_field', {}, { input: { op: { kind: 'a', x: '1' } } });
    }));

  it('a union inside a tuple: prefixItems/0 is flat with kind enum a, b', () =>
    g.each(async (c) => {
      servable('union_in_tuple');
      const s = g.schema(c, 'union_in_tuple');
      const first = at(s, '/properties/pair/prefixItems/0');
      expectFlatObject(first, 'prefixItems/0');
      expect(enumSet(first.properties.kind)).toEqual(['a', 'b']);
      expect(pointersWith(s, 'oneOf')).toEqual([]);
      const args = { pair: [{ kind: 'b', y: 2 }, 's'] };
      await expectAccepted(g, c, 'union_in_tuple', args, { input: args });
    }));

  it('object & union: one flat root with a and kind required, x and y present', () =>
    g.each(async (c) => {
      servable('object_and_union');
      const s = g.schema(c, 'object_and_union');
      expectFlatObject(s, 'root');
      expect(pointersWith(s, 'allOf')).toEqual([]);
      expect(Object.keys(s.properties)).toEqual(expect.arrayContaining(['a', 'kind', 'x', 'y']));
      expect(s.required).toEqual(expect.arrayContaining(['a', 'kind']));
      expect(enumSet(at(s, '/properties/kind'))).toEqual(['a', 'b']);
      const args = { a: '1', kind: 'b', y: 2 };
      await expectAccepted(g, c, 'object_and_union', args, { input: args });
    }));
});

describe('hidden checks', () => {
  it('a refine on one variant: {type:string} required; only a is refined', () =>
    g.each(async (c) => {
      servable('refined_variant');
      const s = g.schema(c, 'refined_variant');
      expect(bare(at(s, '/properties/v'))).toEqual({ type: 'string' });
      expect(s.required).toContain('v');
      await expectAccepted(g, c, 'refined_variant', { k: 'b', v: 'x' }, { input: { k: 'b', v: 'x' } });
      await expectRefused(g, c, 'refined_variant', { k: 'a', v: 'x' }, ['v'], { ajv: true });
    }));

  it('a transform runs once', () =>
    g.each(async (c) => {
      servable('transform');
      expect(bare(at(g.schema(c, 'transform'), '/properties/text'))).toEqual({ type: 'string' });
      await expectAccepted(g, c, 'transform', { text: 'x' }, { input: { text: 'x!' } });
    }));

  it('a pipe is served from its input side; Run rejects "ab"', () =>
    g.each(async (c) => {
      servable('pipe');
      expect(bare(at(g.schema(c, 'pipe'), '/properties/s'))).toEqual({ type: 'string' });
      await expectRefused(g, c, 'pipe', { s: 'ab' }, ['s']);
    }));

  it('z.coerce.number(): {type:number}, "7" reaches the handler as 7', () =>
    g.each(async (c) => {
      servable('coerced_number');
      expect(bare(at(g.schema(c, 'coerced_number'), '/properties/n'))).toEqual({ type: 'number' });
      const out = await call(c, 'coerced_number', { n: '7' });
      expect(out.isError, out.text).toBe(false);
      expect(out.received!.input).toEqual({ n: 7 });
    }));

  it('.catch(): {type:string, default:"fallback"}; 42 becomes "fallback", never "42"', () =>
    g.each(async (c) => {
      servable('catch_fallback');
      expect(bare(at(g.schema(c, 'catch_fallback'), '/properties/r'))).toEqual({ type: 'string', default: 'fallback' });
      const out = await call(c, 'catch_fallback', { r: 42 });
      expect(out.isError, out.text).toBe(false);
      expect(out.received!.input).toEqual({ r: 'fallback' });
    }));

  it('.trim(): {type:string}; the handler gets "a"', () =>
    g.each(async (c) => {
      servable('trimmed_string');
      expect(bare(at(g.schema(c, 'trimmed_string'), '/properties/t'))).toEqual({ type: 'string' });
      await expectAccepted(g, c, 'trimmed_string', { t: '  a  ' }, { input: { t: 'a' } });
    }));
});

describe('key policy', () => {
  it('every variant strict: additionalProperties false; extra is an isError result seen by onCall', () =>
    g.each(async (c) => {
      servable('strict_variants');
      expect(g.schema(c, 'strict_variants').additionalProperties).toBe(false);
      g.onCall.mockClear();
      await expectRefused(g, c, 'strict_variants', { kind: 'a', a: 'x', extra: 1 }, ['extra']);
      const events = g.onCall.mock.calls.map(([e]) => e).filter((e) => e.tool === 'strict_variants');
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ ok: false });
      expect(events[0].error).toContain('extra');
    }));

  it('a loose input: additionalProperties not false; extra reaches the handler', () =>
    g.each(async (c) => {
      servable('loose_input');
      expect(g.schema(c, 'loose_input').additionalProperties).not.toBe(false);
      await expectAccepted(g, c, 'loose_input', { a: 'x', extra: 1 }, { input: { a: 'x', extra: 1 } });
    }));

  it('a strict input plus params: additionalProperties false from input; id goes to params', () =>
    g.each(async (c) => {
      servable('strict_input_with_params');
      expect(g.schema(c, 'strict_input_with_params').additionalProperties).toBe(false);
      await expectAccepted(
        g,
        c,
        'strict_input_with_params',
        { id: '1', a: 'x' },
        { params: { id: '1' }, input: { a: 'x' } },
      );
      await expectRefused(g, c, 'strict_input_with_params', { id: '1', a: 'x', extra: 1 }, ['extra']);
    }));

  it('a strict object inside a variant stays strict; cfg.extra is refused', () =>
    g.each(async (c) => {
      servable('strict_object_in_variant');
      expect(at(g.schema(c, 'strict_object_in_variant'), '/properties/cfg/additionalProperties')).toBe(false);
      await expectRefused(g, c, 'strict_object_in_variant', { kind: 'a', cfg: { x: '1', extra: 1 } }, ['cfg.extra']);
    }));
});

describe('integer, number, null', () => {
  it('an identical integer field in both variants: type integer, minimum 0, required', () =>
    g.each(async (c) => {
      servable('same_integer_field');
      const s = g.schema(c, 'same_integer_field');
      const p = at(s, '/properties/partIndex');
      expect(p.type).toBe('integer');
      expect(p.minimum).toBe(0);
      expect(s.required).toContain('partIndex');
      await expectAccepted(
        g,
        c,
        'same_integer_field',
        { kind: 'a', partIndex: 1 },
        { input: { kind: 'a', partIndex: 1 } },
      );
    }));

  it('an int vs a number: {type:number}; 1.5 accepted in b', () =>
    g.each(async (c) => {
      servable('int_or_number');
      expect(bare(at(g.schema(c, 'int_or_number'), '/properties/n'))).toEqual({ type: 'number' });
      await expectAccepted(g, c, 'int_or_number', { kind: 'b', n: 1.5 }, { input: { kind: 'b', n: 1.5 } });
    }));

  it('different bounds per variant: {type:number} without bounds, either order; a+(-1) refused', () =>
    g.each(async (c) => {
      servable('different_bounds');
      expect(bare(at(g.schema(c, 'different_bounds'), '/properties/n'))).toEqual({ type: 'number' });
      expect(bare(at(g.schema(c, 'different_bounds_swapped'), '/properties/n'))).toEqual({ type: 'number' });
      await expectRefused(g, c, 'different_bounds', { kind: 'a', n: -1 }, ['n'], { ajv: true });
    }));

  it('a number nullable in both variants: type set {number, null}, no anyOf', () =>
    g.each(async (c) => {
      servable('nullable_in_both');
      const v = at(g.schema(c, 'nullable_in_both'), '/properties/v');
      expect(typeSet(v)).toEqual(['null', 'number']);
      expect(v).not.toHaveProperty('anyOf');
      await expectAccepted(g, c, 'nullable_in_both', { kind: 'a', v: null }, { input: { kind: 'a', v: null } });
    }));
});

describe('shapes from real tools', () => {
  it('array items that are a union: one object, kind enum, optional hinted fields', () =>
    g.each(async (c) => {
      servable('union_array_items');
      const s = g.schema(c, 'union_array_items');
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

  it('a union root: an object with typed keys, required [action], open; {action:create} refused', () =>
    g.each(async (c) => {
      servable('union_root');
      const s = g.schema(c, 'union_root');
      expect(s.type).toBe('object');
      expect(bare(at(s, '/properties/action'))).toEqual({ type: 'string', enum: ['create', 'delete'] });
      expect(at(s, '/properties/name/type')).toBe('string');
      expect(at(s, '/properties/id/type')).toBe('string');
      expect(s.required).toEqual(['action']);
      expect(s.properties).not.toEqual({});
      expect(s.additionalProperties).not.toBe(false);
      await expectRefused(g, c, 'union_root', { action: 'create' }, ['name']);
    }));

  it('a second union root is served as an object, and every other tool is listed', () =>
    g.each(async (c) => {
      servable('union_root_beside_others');
      const s = g.schema(c, 'union_root_beside_others');
      expect(s.type).toBe('object');
      expect(Object.keys(s.properties)).toEqual(expect.arrayContaining(['action', 'title', 'id']));
      expect([...g.listed(c).keys()]).toEqual(tools.map((t) => t.name));
    }));

  it('four variants sharing fields: path required, content hinted for append | prepend | replace', () =>
    g.each(async (c) => {
      servable('four_variants_shared_fields');
      const s = g.schema(c, 'four_variants_shared_fields');
      expect(enumSet(at(s, '/properties/operation'))).toEqual(['append', 'delete', 'prepend', 'replace']);
      expect(s.required).toContain('path');
      expect(s.required).not.toContain('content');
      expect(at(s, '/properties/content/description')).toContain('Required if operation = append | prepend | replace');
      await expectAccepted(
        g,
        c,
        'four_variants_shared_fields',
        { operation: 'delete', path: 'notes.txt' },
        { input: { operation: 'delete', path: 'notes.txt' } },
      );
      await expectRefused(g, c, 'four_variants_shared_fields', { operation: 'append', path: 'notes.txt' }, ['content']);
    }));

  it('an untagged object union: one flat object, both keys typed and optional; {} refused naming both', () =>
    g.each(async (c) => {
      servable('untagged_object_union_root');
      const s = g.schema(c, 'untagged_object_union_root');
      expectFlatObject(s, 'root');
      expect(s.properties).toEqual({ id: { type: 'string' }, slug: { type: 'string' } });
      expect(s).not.toHaveProperty('required');
      expect(s.description).toContain('Give one of: id | slug');
      await expectAccepted(g, c, 'untagged_object_union_root', { id: 'a' }, { input: { id: 'a' } });
      await expectAccepted(g, c, 'untagged_object_union_root', { slug: 'b' }, { input: { slug: 'b' } });
      await expectRefused(g, c, 'untagged_object_union_root', {}, ['id', 'slug'], { ajv: true });
    }));

  it('an untagged object union without flattening: an error at "" and nothing throws; throw refuses, warn leaves it out', async () => {
    const tool = caseTool('untagged_object_union_root', UNTAGGED.untagged_object_union_root);
    let report: ReturnType<typeof validateMcpSchemas> | undefined;
    expect(() => {
      report = validateMcpSchemas([tool]);
    }).not.toThrow();
    expect(errorsOf(report!, 'untagged_object_union_root')).toContain('root-not-object@');
    expect(() => createMcpFetchHandler([tool])).toThrow(/untagged_object_union_root/);
    await flattenOff.each(async (c) => {
      expect(flattenOff.listed(c).has('untagged_object_union_root')).toBe(false);
      expect(flattenOff.listed(c).has('plain_message')).toBe(true);
    });
  });

  it('the intersection of two objects: one object, both keys required, no allOf', () =>
    g.each(async (c) => {
      servable('object_intersection');
      const s = g.schema(c, 'object_intersection');
      expect(s.type).toBe('object');
      expect(s.required).toEqual(expect.arrayContaining(['name', 'dataType']));
      expect(s).not.toHaveProperty('allOf');
    }));

  it('a flat schema with strict variants: no root union, additionalProperties false; plan refused', () =>
    g.each(async (c) => {
      servable('strict_variants_flat');
      const s = g.schema(c, 'strict_variants_flat');
      expect(s.type).toBe('object');
      expect(s).not.toHaveProperty('oneOf');
      expect(s).not.toHaveProperty('anyOf');
      expect(s.additionalProperties).toBe(false);
      await expectRefused(g, c, 'strict_variants_flat', { action: 'execute', token: 't', plan: 'p' }, ['plan'], {
        ajv: true,
      });
    }));

  it('an untagged root union of three shapes: one object with every key typed, none required, no combinator', () =>
    g.each(async (c) => {
      servable('untagged_union_of_three');
      const s = g.schema(c, 'untagged_union_of_three');
      expectFlatObject(s, 'root');
      expect(Object.keys(s.properties)).toEqual(['content', 'filename', 'source_url', 'source_file_id']);
      for (const key of Object.keys(s.properties)) expect(s.properties[key].type, key).toBe('string');
      expect(s).not.toHaveProperty('required');
      await expectAccepted(
        g,
        c,
        'untagged_union_of_three',
        { source_url: 'https://e.x/a' },
        { input: { source_url: 'https://e.x/a' } },
      );
      await expectRefused(g, c, 'untagged_union_of_three', { content: 'x' }, ['filename'], { ajv: true });
    }));

  it('an untagged root union of three shapes without flattening: an error at "" suggesting flattening or tags, anthropic flags it, never served', async () => {
    const tool = caseTool('untagged_union_of_three', UNTAGGED.untagged_union_of_three);
    const report = validateMcpSchemas([tool], { schemaValidation: { profiles: ['anthropic'] } });
    const root = report.issues.find((i) => i.tool === 'untagged_union_of_three' && i.code === 'root-not-object');
    expect(root?.message).toMatch(/flattenUnionInput: true/);
    expect(root?.message).toMatch(/tag/);
    expect(
      report.issues.some((i) => i.tool === 'untagged_union_of_three' && i.profile === 'anthropic' && i.path === ''),
    ).toBe(true);
    expect(report.tools.map((t) => t.name)).not.toContain('untagged_union_of_three');
    await flattenOff.each(async (c) => {
      expect(flattenOff.listed(c).has('untagged_union_of_three')).toBe(false);
    });
  });

  it('a cross-field refinement: a plain root without conditionals; size refused', () =>
    g.each(async (c) => {
      servable('cross_field_refinement');
      const s = g.schema(c, 'cross_field_refinement');
      expect(s.type).toBe('object');
      expect(Object.keys(s.properties)).toEqual(expect.arrayContaining(['mode', 'size']));
      for (const k of ['allOf', 'if', 'then', 'else']) expect(s).not.toHaveProperty(k);
      await expectRefused(g, c, 'cross_field_refinement', { mode: 'small', size: 20 }, ['size']);
    }));

  it('an array root is neither touched nor wrapped: the probe reports it at ""', async () => {
    const report = validateMcpSchemas([caseTool('array_root', BAD_ROOTS.array_root)], FLAT);
    expect(errorsOf(report, 'array_root')).toContain('root-not-object@');
    expect(report.tools).toEqual([]);
    await badRoots.each(async (c) => {
      expect(badRoots.listed(c).has('array_root')).toBe(false);
    });
    expect(String(badRoots.warn.mock.calls[0]?.[0])).toContain('array_root');
  });

  it('fields of other variants are marked, and strict variants reject them', () =>
    g.each(async (c) => {
      servable('other_variant_fields');
      const s = g.schema(c, 'other_variant_fields');
      expect(s.required).toContain('title');
      expect(at(s, '/properties/input/description')).toContain('Required if type = send');
      expect(at(s, '/properties/target/description')).toContain('Required if type = open');
      for (const k of ['cwd', 'direction']) {
        const d = at(s, `/properties/${k}/description`);
        expect(d, k).toMatch(/only/i);
        expect(d, k).toContain('type = open');
        expect(d, k).not.toContain('send');
      }
      await expectRefused(
        g,
        c,
        'other_variant_fields',
        { type: 'send', title: 'weather', input: 'echo hi', cwd: '~' },
        ['cwd'],
      );
    }));

  it('search or get by id: object root, required [kind]; get+q refused naming id', () =>
    g.each(async (c) => {
      servable('search_or_get');
      const s = g.schema(c, 'search_or_get');
      expect(s.type).toBe('object');
      expect(enumSet(at(s, '/properties/kind'))).toEqual(['get', 'search']);
      expect(at(s, '/properties/q/type')).toBe('string');
      expect(at(s, '/properties/id/type')).toBe('string');
      expect(s.required).toEqual(['kind']);
      await expectRefused(g, c, 'search_or_get', { kind: 'get', q: 'x' }, ['id'], { ajv: true });
    }));

  it('enums and bounds that differ per variant: mode enum a, b, c; count {type:integer}; Run refuses', () =>
    g.each(async (c) => {
      servable('bounds_and_enums_per_variant');
      const s = g.schema(c, 'bounds_and_enums_per_variant');
      expect(enumSet(at(s, '/properties/mode'))).toEqual(['a', 'b', 'c']);
      expect(bare(at(s, '/properties/count'))).toEqual({ type: 'integer' });
      g.onCall.mockClear();
      await expectRefused(g, c, 'bounds_and_enums_per_variant', { kind: 'a', mode: 'c', count: 0 }, ['mode', 'count'], {
        ajv: true,
      });
      const events = g.onCall.mock.calls.map(([e]) => e).filter((e) => e.tool === 'bounds_and_enums_per_variant');
      expect(events.map((e) => e.ok)).toEqual([false]);
    }));
});
