/**
 * probe.md over real HTTP: the issues `validateMcpSchemas` reports (kind, JSON Pointer, severity) for each
 * case tool, and what a mount with the same options does with them: tools/list serves exactly
 * `report.tools`, 'throw' fails with one error listing every error-level issue, 'warn' logs, leaves out
 * what cannot be served and serves the rest. One server per options-group (policy 'warn', so that the
 * served documents of every tool can be compared); issue codes are the probe's own (src/core/probe).
 */
import {
  type AnyTool,
  createMcpHandler,
  type McpMountOptions,
  McpMountSchemaError,
  type SchemaIssue,
  validateMcpSchemas,
} from 'mcp-mount';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { z as z3 } from 'zod/v3';
import {
  ajvCheck,
  at,
  caseTool,
  expectAccepted,
  expectHandlerGets,
  expectListMatchesReport,
  expectRefused,
  type Group,
  issuesOf,
  mountGroup,
  pointersWith,
} from '../support/cases.js';
import { QueryModel, Screen } from '../support/models.js';
import { booleanTag, numericTag, optionalTag } from '../support/unions.js';

// --- the case schemas ---------------------------------------------------------------------------

const br39 = z.discriminatedUnion('action', [
  z.object({ action: z.literal('create'), name: z.string() }),
  z.object({ action: z.literal('delete'), id: z.string() }),
]);
const br40 = z.discriminatedUnion('action', [
  z.object({ action: z.literal('create'), title: z.string() }),
  z.object({ action: z.literal('update'), id: z.string() }),
]);
const br44 = z.discriminatedUnion('action', [
  z.object({ action: z.literal('prepare'), plan: z.string() }),
  z.object({ action: z.literal('execute'), token: z.string() }),
]);
const br45 = z.union([
  z.object({ content: z.string(), filename: z.string() }),
  z.object({ source_url: z.url() }),
  z.object({ source_file_id: z.string() }),
]);
const br58 = z.object({
  url: z.url(),
  max_length: z.number().int().default(5000),
  start_index: z.number().int().min(0).default(0),
});
interface Tree {
  name: string;
  children: Tree[];
}
const TreeSchema: z.ZodType<Tree> = z.lazy(() => z.object({ name: z.string(), children: z.array(TreeSchema) }));

const S = {
  br_20: z.object({ a: z.number().int(), b: z.unknown(), f: z.object({ database_id: z.string() }), g: z.unknown() }),
  br_41: z.discriminatedUnion('operation', [
    z.object({ operation: z.literal('append'), path: z.string(), content: z.string() }),
    z.object({ operation: z.literal('delete'), path: z.string() }),
  ]),
  br_42: z.union([z.object({ id: z.string() }), z.object({ slug: z.string() })]),
  br_43: z.object({ name: z.string() }).and(z.object({ dataType: z.enum(['NUMERIC', 'CATEGORICAL']) })),
  br_43_unsat: z.object({ a: z.string() }).and(z.object({ a: z.number() })),
  br_46: z.object({ mode: z.enum(['small', 'large']), size: z.number() }).superRefine((v, ctx) => {
    if (v.mode === 'small' && v.size > 10) ctx.addIssue({ code: 'custom', path: ['size'], message: 'too big' });
  }),
  br_47: z.array(z.object({ id: z.string(), title: z.string() })),
  br_53: z.object({ name: z.string().describe('A name'), count: z.number().min(1).max(10) }),
  br_55: z.object({ field: z.string().transform((v) => v.toLowerCase()) }),
  br_55_custom: z.object({ field: z.custom<string>(() => true) }),
  br_56: z.object({
    topics: z.array(z.object({ name: z.string(), start: z.enum(['earliest', 'latest']).default('latest') })),
    maxMessages: z.number().default(10),
    timeoutMs: z.number().default(10000),
  }),
  br_58: br58,
  br_60: z.object({
    query: z.string(),
    filters: z.array(z.looseObject({ key: z.string(), value: z.string() })).optional(),
  }),
  br_61: z.object({ function_name: z.string(), function_arguments: z.record(z.string(), z.unknown()).optional() }),
  br_62: z.object({ value: z.union([z.number().int(), z.string()]) }),
  br_63: z.object({
    op: z.literal('insert_text'),
    calendar_id: z.string().nullable().optional(),
    target: z.union([z.object({ index: z.number() }), z.object({ segment: z.string() })]),
  }),
  br_64: z.object({ formulas: z.array(z.array(z.string()).nullable()).nullable().optional() }),
  br_65: z.object({ requiredParam: z.string(), optionalStr: z.string().nullable().optional() }),
  br_67: z.object({ opts: z.union([z.string(), z.object({ a: z.string(), b: z.string(), c: z.literal(true) })]) }),
  br_68: z.object({ record: z.looseObject({ id: z.string() }) }),
  br_69: z.object({ arguments: z.record(z.string(), z.unknown()) }),
  br_70: z.object({
    data: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('page'), page_id: z.string() }),
      z.object({ kind: z.literal('database'), database_id: z.string() }),
    ]),
  }),
  br_71: z.discriminatedUnion('k', [
    z.object({ k: z.literal('a'), tags: z.array(z.string()) }),
    z.object({ k: z.literal('b'), tags: z.array(z.number()) }),
  ]),
  br_73: z.object({ screens: z.array(Screen), primary: Screen }),
  br_73_lazy: z.object({ tree: TreeSchema }),
  br_74: z.object({ query_model: QueryModel }),
  br_75: z.object({ thought: z.string(), tags: z.array(z.string()).nullable().optional(), extra: z.unknown() }),
  br_76: z.object({
    where: z.array(
      z.object({
        column: z.string(),
        operator: z.enum(['eq', 'neq', 'gt']),
        value: z.unknown().describe('Value to compare'),
      }),
    ),
  }),
  br_78: z.object({ labels: z.array(z.string()).nullable().default(null) }),
  br_79: z.object({ field1: z.string(), field2: z.string().nullable().default(null) }),
  br_80: z.object({ files: z.array(z.object({ path: z.string(), content: z.string().max(5000) })) }),
  br_80_2000: z.object({ text: z.string().max(2000) }),
  br_80_1999: z.object({ text: z.string().max(1999) }),
  br_80_pattern: z.object({ code: z.string().regex(new RegExp(`^(?:${'[a-z]{1,3}-'.repeat(25)})$`)) }),
  br_80_deep: z.object({
    a: z.object({ b: z.object({ c: z.object({ d: z.object({ e: z.object({ f: z.object({ g: z.string() }) }) }) }) }) }),
  }),
  sk_18: numericTag,
  sk_18_nested: z.object({ op: numericTag }),
  sk_19: booleanTag,
  sk_19_nested: z.object({ op: booleanTag }),
  sk_20: optionalTag,
  sk_20_nested: z.object({ op: optionalTag }),
  sk_71: z.object({ when: z.date() }),
  sk_72_bigint: z.object({ n: z.bigint() }),
  sk_72_map: z.object({ m: z.map(z.string(), z.string()) }),
  sk_72_set: z.object({ s: z.set(z.string()) }),
  sk_72_custom: z.object({ c: z.custom(() => true) }),
  sk_74: z.object({ payload: z.cuid2() }),
  sk_75: z.object({ operations: z.object({ payload: z.unknown().describe('blob') }) }),
  sk_75_typed: z.object({ operations: z.object({ payload: z.string().describe('blob') }) }),
} satisfies Record<string, z.ZodType>;

const tool = (name: keyof typeof S | string, input?: z.ZodType) => caseTool(name, input ?? S[name as keyof typeof S]);
const named = (...names: Array<keyof typeof S>) => names.map((n) => tool(n));

/** A good tool that every group also serves, to show that one bad tool never breaks the listing. */
const good = () => caseTool('good', z.object({ q: z.string() }));

const sk73 = caseTool('sk_73', z.object({}));
(sk73 as { output?: z.ZodType }).output = z.object({ at: z.date() });
const br52 = caseTool('br_52', z3.object({ query: z3.string() }) as unknown as z.ZodType);

const WARN = { policy: 'warn' } as const;
const flat = { flattenUnionInput: true } as const;

// --- groups: one server per exact option set (policy 'warn' for serving; the probe ignores policy) ---

const base = mountGroup(
  [
    tool('br_39', br39),
    tool('br_40', br40),
    tool('br_44', br44),
    tool('br_45', br45),
    ...named(
      'br_43',
      'br_43_unsat',
      'br_46',
      'br_47',
      'br_53',
      'br_55',
      'br_55_custom',
      'br_56',
      'br_73',
      'br_73_lazy',
      'br_74',
      'br_79',
    ),
    ...named('sk_71', 'sk_72_bigint', 'sk_72_map', 'sk_72_set', 'sk_72_custom'),
    sk73,
    br52,
    good(),
  ],
  { schemaValidation: WARN },
);
const flattened = mountGroup(
  [
    tool('br_39', br39),
    tool('br_45', br45),
    ...named('br_41', 'br_42', 'br_71', 'sk_18', 'sk_18_nested', 'sk_19', 'sk_19_nested', 'sk_20', 'sk_20_nested'),
    good(),
  ],
  { ...flat, schemaValidation: WARN },
);
const typed = mountGroup(named('sk_75', 'sk_75_typed', 'br_20', 'br_75', 'br_76'), {
  schemaValidation: { ...WARN, requireTypedProperties: true },
});
const ALLOW_UNTYPED = ['sk_75:/properties/operations/properties/payload'];
const typedAllowed = mountGroup(named('sk_75'), {
  schemaValidation: { ...WARN, requireTypedProperties: true, allowUntyped: ALLOW_UNTYPED },
});
const portable = mountGroup(named('sk_74'), { schemaValidation: { ...WARN, requirePortableFormats: true } });
const portableAllowed = mountGroup(named('sk_74'), {
  schemaValidation: { ...WARN, requirePortableFormats: true, allowFormats: ['cuid2'] },
});
const gemini = mountGroup(
  [...named('br_58', 'br_63', 'br_64', 'br_67', 'br_68', 'br_69', 'br_73_lazy', 'br_75', 'br_78', 'br_79'), good()],
  { schemaValidation: { ...WARN, profiles: ['gemini'] } },
);
const geminiFlat = mountGroup(named('br_70'), { ...flat, schemaValidation: { ...WARN, profiles: ['gemini'] } });
const openai = mountGroup([...named('br_56', 'br_58', 'br_60', 'br_61', 'br_62'), tool('br_45', br45)], {
  schemaValidation: { ...WARN, profiles: ['openai-strict'] },
});
const openaiFlat = mountGroup([tool('br_45', br45)], {
  ...flat,
  schemaValidation: { ...WARN, profiles: ['openai-strict'] },
});
const cursor = mountGroup(named('br_65', 'br_79'), { schemaValidation: { ...WARN, profiles: ['cursor'] } });
const anthropic = mountGroup([tool('br_44', br44), tool('br_45', br45), good()], {
  schemaValidation: { ...WARN, profiles: ['anthropic'] },
});
const anthropicFlat = mountGroup([tool('br_44', br44), tool('br_45', br45), good()], {
  ...flat,
  schemaValidation: { ...WARN, profiles: ['anthropic'] },
});
const local = mountGroup(named('br_80', 'br_80_2000', 'br_80_1999', 'br_80_pattern', 'br_80_deep'), {
  schemaValidation: { ...WARN, profiles: ['local-grammar'] },
});
const names = mountGroup(
  [
    caseTool('get_bot_status', z.object({})),
    caseTool('get-user_note', z.object({})),
    caseTool('n'.repeat(64), z.object({})),
  ],
  {},
);

/** The groups mounted with a profile or a typed-properties check. */
const CHECKED_GROUPS: Record<string, Group> = {
  typed,
  typedAllowed,
  portable,
  portableAllowed,
  gemini,
  geminiFlat,
  openai,
  openaiFlat,
  cursor,
  anthropic,
  anthropicFlat,
  local,
};
const GROUPS: Record<string, Group> = { base, flattened, ...CHECKED_GROUPS, names };

// --- helpers --------------------------------------------------------------------------------------

/** `code@path` (with `[profile]` and the severity) of every issue of a tool, for readable failures. */
const show = (issues: SchemaIssue[]) =>
  issues.map(
    (i) =>
      `${i.severity} ${i.code}@${JSON.stringify(i.path)}${i.profile ? `[${i.profile}]` : ''}${i.side && i.side !== 'input' ? ` (${i.side})` : ''}`,
  );

/** The issues of `tool` in `g`'s report that match, failing with the whole list when there are none. */
function find(
  g: Group,
  tool: string,
  match: { code?: string; path?: string; severity?: 'error' | 'warning'; profile?: string | null; side?: string },
): SchemaIssue[] {
  const all = issuesOf(g.report, tool);
  const found = all.filter(
    (i) =>
      (match.code === undefined || i.code === match.code) &&
      (match.path === undefined || i.path === match.path) &&
      (match.severity === undefined || i.severity === match.severity) &&
      (match.side === undefined || (i.side ?? 'input') === match.side) &&
      (match.profile === undefined || (match.profile === null ? i.profile === undefined : i.profile === match.profile)),
  );
  expect(
    found.length,
    `${tool}: expected an issue ${JSON.stringify(match)}; got ${JSON.stringify(show(all))}`,
  ).toBeGreaterThan(0);
  return found;
}

/** No issue at all for `tool` (optionally: none from `profile`, or none at `path`). */
function none(g: Group, tool: string, filter: (i: SchemaIssue) => boolean = () => true) {
  expect(show(issuesOf(g.report, tool).filter(filter)), tool).toEqual([]);
}

/** Paths of the issues of `tool` from `profile` (or base checks with `null`). */
const pathsOf = (g: Group, tool: string, profile: string | null) =>
  issuesOf(g.report, tool)
    .filter((i) => (profile === null ? i.profile === undefined : i.profile === profile))
    .map((i) => i.path);

/**
 * Under 'throw', the mount fails with ONE error that names every tool with an error-level issue and lists
 * every such issue; under 'warn' (checked on the group's server) the tool is left out and the others served.
 */
function expectThrowListingAll(tools: readonly AnyTool[], options: McpMountOptions, mustName: readonly string[]) {
  const report = validateMcpSchemas(tools, options);
  const errors = report.issues.filter((i) => i.severity === 'error');
  let thrown: unknown;
  try {
    createMcpHandler(tools, { ...options, schemaValidation: { ...options.schemaValidation, policy: 'throw' } });
  } catch (e) {
    thrown = e;
  }
  expect(thrown).toBeInstanceOf(McpMountSchemaError);
  const error = thrown as McpMountSchemaError;
  expect(show(error.issues)).toEqual(show(errors));
  for (const name of mustName) expect(error.message).toContain(name);
  for (const i of errors) {
    expect(error.message).toContain(i.tool);
    expect(error.message).toContain(i.code);
    if (i.path) expect(error.message).toContain(i.path);
  }
}

/** Under 'warn' the group's server left `bad` out, served the others, and logged why. */
async function expectLeftOut(g: Group, bad: string) {
  await g.each(async (c) => {
    const listed = [...g.listed(c).keys()];
    expect(listed).not.toContain(bad);
    const expected = g.tools.map((t) => t.name).filter((n) => n !== bad && g.report.tools.some((t) => t.name === n));
    expect(listed).toEqual(expected);
  });
  const logged = g.warn.mock.calls.map((args) => args.map(String).join(' ')).join('\n');
  expect(logged).toContain(bad);
}

// --- tests ----------------------------------------------------------------------------------------

describe('common to every case', () => {
  it('validateMcpSchemas never throws, and tools/list serves exactly report.tools, in every group', async () => {
    for (const [label, g] of Object.entries(GROUPS)) {
      expect(() => validateMcpSchemas(g.tools, g.options), label).not.toThrow();
      await expectListMatchesReport(g);
    }
  });

  it("'throw' fails with one error listing every error-level issue; 'warn' logs every issue once", () => {
    for (const [label, g] of Object.entries(GROUPS)) {
      const errors = g.report.issues.filter((i) => i.severity === 'error');
      const { policy: _policy, ...validation } = g.options.schemaValidation ?? {};
      const options = { ...g.options, schemaValidation: validation };
      if (errors.length > 0) expectThrowListingAll(g.tools, options, [...new Set(errors.map((i) => i.tool))]);
      else
        expect(
          () => createMcpHandler(g.tools, { ...options, logger: { warn: vi.fn(), error: vi.fn() } }),
          label,
        ).not.toThrow();
      if (g.options.schemaValidation?.policy === 'warn' && g.report.issues.length > 0) {
        expect(g.warn, label).toHaveBeenCalledTimes(1);
        const logged = String(g.warn.mock.calls[0]![0]);
        for (const i of g.report.issues)
          expect(logged, label).toContain(
            `${i.tool} ${i.side === 'output' ? 'output ' : ''}${i.path || '(root)'} ${i.code}`,
          );
      }
    }
  });

  it('a profile reports but never rewrites the served schema', () => {
    for (const g of Object.values(CHECKED_GROUPS)) {
      const plain = validateMcpSchemas(g.tools, { flattenUnionInput: g.options.flattenUnionInput });
      expect(g.report.tools).toEqual(plain.tools);
    }
  });
});

describe('unions that cannot be flattened', () => {
  for (const [id, why] of [
    ['sk_18', /not a string|numeric/],
    ['sk_19', /not a string|boolean/],
    ['sk_20', /optional/],
  ] as const) {
    const label = {
      sk_18: 'SK-18 a numeric tag',
      sk_19: 'SK-19 a boolean tag',
      sk_20: 'SK-20 a tag optional in one variant',
    }[id];
    it(`${label}: an error at "" saying why; throw names the tool, warn leaves it out; nested: an issue at /properties/op, still served`, async () => {
      const [root] = find(flattened, id, { code: 'root-not-object', path: '', severity: 'error' });
      expect(root!.message).toMatch(why);
      if (id === 'sk_20') expect(root!.message).toMatch(/\bk\b/);
      expectThrowListingAll([tool(id), good()], flat, [id]);
      await expectLeftOut(flattened, id);
      const nested = `${id}_nested`;
      find(flattened, nested, { code: 'union-not-flattened', path: '/properties/op' });
      expect(flattened.report.tools.map((t) => t.name)).toContain(nested);
      await flattened.each(async (c) => {
        expect(flattened.listed(c).has(nested)).toBe(true);
      });
    });
  }
});

describe('schemas that cannot be converted', () => {
  it('SK-71 a date: a conversion error at /properties/when suggesting z.iso.datetime(); throw fails, warn leaves it out', async () => {
    const [issue] = find(base, 'sk_71', { code: 'conversion-failed', path: '/properties/when', severity: 'error' });
    expect(issue!.message).toContain('z.iso.datetime()');
    expectThrowListingAll([tool('sk_71'), good()], {}, ['sk_71']);
    await expectLeftOut(base, 'sk_71');
  });

  for (const [id, field] of [
    ['sk_72_bigint', 'n'],
    ['sk_72_map', 'm'],
    ['sk_72_set', 's'],
    ['sk_72_custom', 'c'],
  ] as const) {
    it(`SK-72 ${id.slice(6)}: behaves as SK-71, never served as {}`, async () => {
      find(base, id, { code: 'conversion-failed', path: `/properties/${field}`, severity: 'error' });
      expectThrowListingAll([tool(id), good()], {}, [id]);
      await expectLeftOut(base, id);
      for (const t of base.report.tools) expect(at(t.inputSchema, `/properties/${field}`)).not.toEqual({});
    });
  }

  it('SK-73 an output schema that cannot be converted: an output-side error; never served with a wrong outputSchema', async () => {
    const [issue] = find(base, 'sk_73', { severity: 'error', side: 'output' });
    expect(`${issue!.code} ${issue!.message}`).toMatch(/output/i);
    expectThrowListingAll([sk73, good()], {}, ['sk_73']);
    await expectLeftOut(base, 'sk_73');
  });
});

describe('formats and untyped properties', () => {
  it('SK-74 a format that is not portable: an issue naming cuid2; allowFormats silences it and keeps format and pattern', async () => {
    const [issue] = find(portable, 'sk_74', { code: 'non-portable-format', path: '/properties/payload' });
    expect(issue!.message).toContain('cuid2');
    none(portableAllowed, 'sk_74');
    const zod = z.toJSONSchema(S.sk_74, { target: 'draft-2020-12', io: 'input' }) as any;
    await portableAllowed.each(async (c) => {
      const payload = at(portableAllowed.schema(c, 'sk_74'), '/properties/payload');
      expect(payload.format).toBe('cuid2');
      expect(payload.pattern).toBe(zod.properties.payload.pattern);
    });
  });

  it('SK-75 a property with only a description: an issue quoting "blob"; allowUntyped or a type clears it', () => {
    const [issue] = find(typed, 'sk_75', {
      code: 'untyped-property',
      path: '/properties/operations/properties/payload',
    });
    expect(issue!.message).toMatch(/only a description/);
    expect(issue!.message).toContain('"blob"');
    none(typedAllowed, 'sk_75');
    none(typed, 'sk_75_typed');
  });

  it('BR-20 untyped parameters: issues at /properties/b and /properties/g only, recommending a typed schema', () => {
    expect(pathsOf(typed, 'br_20', null).sort()).toEqual(['/properties/b', '/properties/g']);
    for (const i of find(typed, 'br_20', { code: 'untyped-property' })) expect(i.message).toMatch(/typed schema/);
  });

  it('BR-76 an untyped value inside array items', () => {
    const [issue] = find(typed, 'br_76', {
      code: 'untyped-property',
      path: '/properties/where/items/properties/value',
    });
    expect(issue!.message).toMatch(/only a description/);
  });

  it('BR-75 untyped parameters: gemini flags extra (and tags when served as anyOf with null); requireTypedProperties flags extra', async () => {
    find(gemini, 'br_75', { path: '/properties/extra', profile: 'gemini' });
    await gemini.each(async (c) => {
      const tags = at(gemini.schema(c, 'br_75'), '/properties/tags');
      if (Array.isArray(tags.anyOf) && !('type' in tags))
        find(gemini, 'br_75', { path: '/properties/tags', profile: 'gemini' });
    });
    find(typed, 'br_75', { code: 'untyped-property', path: '/properties/extra' });
  });
});

describe('roots', () => {
  it('BR-39 a union input without flattening: an error at ""; with flattening, an object with action, name, id', async () => {
    find(base, 'br_39', { code: 'root-not-object', path: '', severity: 'error' });
    none(flattened, 'br_39', (i) => i.path === '');
    await flattened.each(async (c) => {
      const s = flattened.schema(c, 'br_39');
      expect(Object.keys(s.properties).sort()).toEqual(['action', 'id', 'name']);
    });
    // properties:{} is never served for a non-empty Zod shape (z.object({}) tools legitimately serve it).
    for (const g of Object.values(GROUPS)) {
      for (const t of g.report.tools) {
        const input = g.tools.find((x) => x.name === t.name)?.input as { shape?: object } | undefined;
        if (input?.shape && Object.keys(input.shape).length === 0) continue;
        expect(t.inputSchema.properties, t.name).not.toEqual({});
      }
    }
  });

  it('BR-40 a bad root never ships silently: error at "", throw fails; never served as {}; the listing holds', async () => {
    find(base, 'br_40', { code: 'root-not-object', path: '', severity: 'error' });
    expectThrowListingAll([tool('br_40', br40), good()], {}, ['br_40']);
    await expectLeftOut(base, 'br_40');
    for (const t of base.report.tools) expect(t.inputSchema.type, t.name).toBe('object');
  });

  it('BR-41 served keys match the Zod keys: no issue, properties exactly operation, path, content', async () => {
    none(flattened, 'br_41');
    await flattened.each(async (c) => {
      expect(Object.keys(flattened.schema(c, 'br_41').properties).sort()).toEqual(['content', 'operation', 'path']);
    });
  });

  it('BR-42 an untagged object union at the root: an error at "" even with flattening; warn leaves it out', async () => {
    find(flattened, 'br_42', { code: 'root-not-object', path: '', severity: 'error' });
    await expectLeftOut(flattened, 'br_42');
  });

  it('BR-43 a root intersection: no issue, one object; an unsatisfiable one: an error at /properties/a', async () => {
    none(base, 'br_43');
    await base.each(async (c) => {
      const s = base.schema(c, 'br_43');
      expect(s.type).toBe('object');
      expect(s).not.toHaveProperty('allOf');
    });
    const [issue] = find(base, 'br_43_unsat', { path: '/properties/a', severity: 'error' });
    expect(issue!.message).toMatch(/no value can pass/);
  });

  it('BR-44 anthropic and root combinators: an issue at "" when not flattened, none when flattened', () => {
    find(anthropic, 'br_44', { path: '', profile: 'anthropic' });
    none(anthropicFlat, 'br_44', (i) => i.profile === 'anthropic');
  });

  it('BR-45 a root union of three shapes: an error at "" either way; anthropic and openai-strict flag the root anyOf', async () => {
    find(base, 'br_45', { code: 'root-not-object', path: '', severity: 'error' });
    const [flatIssue] = find(flattened, 'br_45', { code: 'root-not-object', path: '', severity: 'error' });
    // The advice the case gives authors: tag each branch, and the union flattens.
    expect(flatIssue!.message).toMatch(/tag/);
    for (const g of [anthropic, anthropicFlat])
      find(g, 'br_45', { code: 'root-combinator', path: '', profile: 'anthropic' });
    for (const g of [openai, openaiFlat])
      find(g, 'br_45', { code: 'root-combinator', path: '', profile: 'openai-strict' });
    await expectLeftOut(flattened, 'br_45');
  });

  it('BR-46 no conditionals at the root, and no error for the tool', async () => {
    none(base, 'br_46', (i) => i.severity === 'error');
    await base.each(async (c) => {
      const s = base.schema(c, 'br_46');
      for (const k of ['allOf', 'if', 'then', 'else']) expect(s).not.toHaveProperty(k);
    });
  });

  it('BR-47 an array root: an error at "" suggesting a wrapping object; never skipped silently', async () => {
    const [issue] = find(base, 'br_47', { code: 'root-not-object', path: '', severity: 'error' });
    expect(issue!.message).toContain('z.object({ items:');
    await expectLeftOut(base, 'br_47');
  });
});

describe('conversion', () => {
  it('BR-52 a Zod 3 schema: served correctly and validated, or a conversion error naming the tool; never properties:{}', async () => {
    const served = base.report.tools.find((t) => t.name === 'br_52');
    if (served) {
      expect(served.inputSchema.properties).toHaveProperty('query');
      await base.each(async (c) => {
        await expectHandlerGets(c, 'br_52', { query: 'q' }, { input: { query: 'q' } });
        await expectRefused(base, c, 'br_52', { query: 1 }, ['query']);
      });
    } else {
      const [issue] = find(base, 'br_52', { severity: 'error' });
      expect(issue!.code).toMatch(/conversion/);
      expectThrowListingAll([br52], {}, ['br_52']);
      await expectLeftOut(base, 'br_52');
    }
  });

  it('BR-53 descriptions and bounds survive, with no issue', async () => {
    none(base, 'br_53');
    await base.each(async (c) => {
      const s = base.schema(c, 'br_53');
      expect(at(s, '/properties/name/description')).toBe('A name');
      expect(at(s, '/properties/count/minimum')).toBe(1);
      expect(at(s, '/properties/count/maximum')).toBe(10);
    });
  });

  it('BR-55 a transform converts from its input side and runs once; z.custom is a conversion error naming the field', async () => {
    none(base, 'br_55');
    await base.each(async (c) => {
      expect(at(base.schema(c, 'br_55'), '/properties/field')).toEqual({ type: 'string' });
      await expectAccepted(base, c, 'br_55', { field: 'ABC' }, { input: { field: 'abc' } });
    });
    const [issue] = find(base, 'br_55_custom', { path: '/properties/field', severity: 'error' });
    expect(issue!.tool).toBe('br_55_custom');
  });

  it('BR-56 defaulted fields are optional, defaults served and applied; openai-strict flags them', async () => {
    await base.each(async (c) => {
      const s = base.schema(c, 'br_56');
      expect(s.required).toEqual(['topics']);
      expect(at(s, '/properties/topics/items/required')).toEqual(['name']);
      expect(at(s, '/properties/topics/items/properties/start/default')).toBe('latest');
      expect(at(s, '/properties/maxMessages/default')).toBe(10);
      expect(at(s, '/properties/timeoutMs/default')).toBe(10000);
      await expectAccepted(
        base,
        c,
        'br_56',
        { topics: [{ name: 'orders' }] },
        { input: { topics: [{ name: 'orders', start: 'latest' }], maxMessages: 10, timeoutMs: 10000 } },
      );
    });
    const flagged = find(openai, 'br_56', { code: 'optional-key', profile: 'openai-strict' }).map((i) => i.path);
    expect(flagged).toEqual(
      expect.arrayContaining([
        '/properties/maxMessages',
        '/properties/timeoutMs',
        '/properties/topics/items/properties/start',
      ]),
    );
  });
});

describe('client profiles', () => {
  it('BR-58 gemini and format "uri": an issue at /properties/url naming uri, with advice', () => {
    const [issue] = find(gemini, 'br_58', { path: '/properties/url', profile: 'gemini' });
    expect(issue!.message).toContain('uri');
    expect(issue!.message).toMatch(/description/);
    expect(issue!.message).toMatch(/Zod/);
  });

  it('BR-59 openai-strict on the same schema: the format, the two optional keys, and additionalProperties at ""', () => {
    find(openai, 'br_58', { path: '/properties/url', profile: 'openai-strict' });
    find(openai, 'br_58', { code: 'optional-key', path: '/properties/max_length', profile: 'openai-strict' });
    find(openai, 'br_58', { code: 'optional-key', path: '/properties/start_index', profile: 'openai-strict' });
    find(openai, 'br_58', { code: 'additional-properties-not-false', path: '', profile: 'openai-strict' });
  });

  it('BR-60 openai-strict and nested objects: items and root additionalProperties, filters optional', () => {
    find(openai, 'br_60', {
      code: 'additional-properties-not-false',
      path: '/properties/filters/items',
      profile: 'openai-strict',
    });
    find(openai, 'br_60', { code: 'additional-properties-not-false', path: '', profile: 'openai-strict' });
    find(openai, 'br_60', { code: 'optional-key', path: '/properties/filters', profile: 'openai-strict' });
  });

  it('BR-61 openai-strict requires every key: function_arguments is optional and an open record', () => {
    find(openai, 'br_61', { code: 'optional-key', path: '/properties/function_arguments', profile: 'openai-strict' });
    find(openai, 'br_61', { code: 'open-record', path: '/properties/function_arguments', profile: 'openai-strict' });
  });

  it('BR-62 openai-strict and a nested union: an issue at /properties/value; the base check reports nothing', () => {
    find(openai, 'br_62', { code: 'nested-union', path: '/properties/value', profile: 'openai-strict' });
    none(openai, 'br_62', (i) => i.profile === undefined);
  });

  it('BR-63 gemini: const, a nullable type list and a nested union; calendar_id keeps accepting null', async () => {
    find(gemini, 'br_63', { code: 'const', path: '/properties/op', profile: 'gemini' });
    find(gemini, 'br_63', { code: 'type-list', path: '/properties/calendar_id', profile: 'gemini' });
    find(gemini, 'br_63', { code: 'union', path: '/properties/target', profile: 'gemini' });
    await gemini.each(async (c) => {
      const s = gemini.schema(c, 'br_63');
      const ok = ajvCheck(s, { op: 'insert_text', calendar_id: null, target: { index: 1 } });
      expect(ok.ok, ok.errors).toBe(true);
    });
  });

  it('BR-65 cursor and type ["string","null"]: an issue at /properties/optionalStr suggesting optional', () => {
    const [issue] = find(cursor, 'br_65', { path: '/properties/optionalStr', profile: 'cursor' });
    expect(issue!.message).toMatch(/optional/);
  });

  it('BR-67 gemini and a boolean literal: an issue under /properties/opts naming c; a base warning at /properties/opts', () => {
    const flagged = find(gemini, 'br_67', { profile: 'gemini' }).filter(
      (i) =>
        i.path.startsWith('/properties/opts') &&
        (i.path.endsWith('/c') || /\bc\b/.test(i.message)) &&
        /true|boolean/.test(i.message),
    );
    expect(flagged.length, JSON.stringify(show(issuesOf(gemini.report, 'br_67')))).toBeGreaterThan(0);
    find(gemini, 'br_67', { path: '/properties/opts', severity: 'warning', profile: null });
  });

  it('BR-68 gemini and additionalProperties: an issue at /properties/record', () => {
    find(gemini, 'br_68', { code: 'record-keyword', path: '/properties/record', profile: 'gemini' });
  });

  it('BR-69 gemini and a record: propertyNames and additionalProperties at /properties/arguments', () => {
    const messages = find(gemini, 'br_69', { path: '/properties/arguments', profile: 'gemini' })
      .map((i) => i.message)
      .join('\n');
    expect(messages).toContain('propertyNames');
    expect(messages).toContain('additionalProperties');
  });

  it('BR-70 properties only on object nodes: /properties/data is type object; no node has properties without it', async () => {
    await geminiFlat.each(async (c) => {
      const s = geminiFlat.schema(c, 'br_70');
      expect(at(s, '/properties/data/type')).toBe('object');
      expect(at(s, '/properties/data/properties')).toBeDefined();
      for (const ptr of [...pointersWith(s, 'properties'), ...pointersWith(s, 'required')]) {
        expect(at(s, ptr).type, ptr).toBe('object');
      }
    });
    none(geminiFlat, 'br_70', (i) => i.code === 'properties-without-object-type');
  });

  it('BR-71 every array has items: the widened /properties/tags keeps type array and an items key', async () => {
    await flattened.each(async (c) => {
      const tags = at(flattened.schema(c, 'br_71'), '/properties/tags');
      expect(tags.type).toBe('array');
      expect(tags).toHaveProperty('items');
    });
    none(flattened, 'br_71', (i) => i.code === 'array-without-items');
  });

  it('BR-73 reused schemas are inlined; a recursive z.lazy keeps its $ref, which gemini alone flags', async () => {
    none(base, 'br_73');
    await base.each(async (c) => {
      const s = base.schema(c, 'br_73');
      expect(pointersWith(s, '$ref')).toEqual([]);
      for (const ptr of ['/properties/primary', '/properties/screens/items']) {
        expect(at(s, ptr).type, ptr).toBe('object');
        expect(at(s, `${ptr}/properties/id`), ptr).toBeDefined();
      }
      expect(pointersWith(base.schema(c, 'br_73_lazy'), '$ref').length).toBeGreaterThan(0);
    });
    none(base, 'br_73_lazy', (i) => i.severity === 'error');
    find(gemini, 'br_73_lazy', { code: 'ref', profile: 'gemini' });
  });

  it("BR-74 a $ref'd required object: inline, required [query_model], nothing required inside, items kept, no issue", async () => {
    none(base, 'br_74');
    await base.each(async (c) => {
      const s = base.schema(c, 'br_74');
      const qm = at(s, '/properties/query_model');
      expect(qm.type).toBe('object');
      expect(qm).not.toHaveProperty('$ref');
      expect(s.required).toEqual(['query_model']);
      expect(qm.required ?? []).toEqual([]);
      expect(at(qm, '/properties/team_ids')).toHaveProperty('items');
    });
  });

  it('BR-78 gemini and a nullable list with default null: an issue at /properties/labels; null still accepted', async () => {
    find(gemini, 'br_78', { path: '/properties/labels', profile: 'gemini' });
    await gemini.each(async (c) => {
      const ok = ajvCheck(gemini.schema(c, 'br_78'), { labels: null });
      expect(ok.ok, ok.errors).toBe(true);
    });
  });

  it('BR-79 cursor and gemini flag /properties/field2; {} is isError naming field1', async () => {
    find(cursor, 'br_79', { path: '/properties/field2', profile: 'cursor' });
    find(gemini, 'br_79', { path: '/properties/field2', profile: 'gemini' });
    await base.each(async (c) => {
      await expectRefused(base, c, 'br_79', {}, ['field1']);
    });
  });

  it('BR-80 local-grammar: warnings for maxLength 5000, a long pattern and deep nesting; the Zod check stays', async () => {
    find(local, 'br_80', {
      code: 'large-bound',
      path: '/properties/files/items/properties/content',
      severity: 'warning',
      profile: 'local-grammar',
    });
    find(local, 'br_80_2000', {
      code: 'large-bound',
      path: '/properties/text',
      severity: 'warning',
      profile: 'local-grammar',
    });
    none(local, 'br_80_1999');
    find(local, 'br_80_pattern', { code: 'long-pattern', severity: 'warning', profile: 'local-grammar' });
    find(local, 'br_80_deep', { code: 'deep-nesting', severity: 'warning', profile: 'local-grammar' });
    await local.each(async (c) => {
      expect(at(local.schema(c, 'br_80'), '/properties/files/items/properties/content/maxLength')).toBe(5000);
      await expectRefused(local, c, 'br_80', { files: [{ path: 'a', content: 'x'.repeat(5001) }] }, [
        'files[0].content',
      ]);
    });
  });
});

describe('tool names', () => {
  const invalid = (report: ReturnType<typeof validateMcpSchemas>, name: string) =>
    report.issues.filter((i) => i.tool === name && i.code === 'invalid-tool-name' && i.severity === 'error');
  const ok = () => caseTool('ok_tool', z.object({}));

  /** The mount fails (under every policy) with an error naming the tool; nothing is served half-registered. */
  function mountFails(tools: AnyTool[], name: string) {
    for (const policy of ['throw', 'warn', 'skip'] as const) {
      let thrown: unknown;
      try {
        createMcpHandler(tools, { schemaValidation: { policy }, logger: { warn: vi.fn(), error: vi.fn() } });
      } catch (e) {
        thrown = e;
      }
      expect(thrown, policy).toBeInstanceOf(McpMountSchemaError);
      expect(String(thrown), policy).toContain(name);
    }
  }

  it('SK-76 a slash in a name: an invalid-name issue, and the mount fails', () => {
    const tools = [caseTool('overview_admin/analytics', z.object({})), ok()];
    expect(invalid(validateMcpSchemas(tools), 'overview_admin/analytics')).toHaveLength(1);
    mountFails(tools, 'overview_admin/analytics');
  });

  it('SK-77 a dot in a name: an invalid-name issue, and the mount fails', () => {
    const tools = [caseTool('notes.get', z.object({})), ok()];
    expect(invalid(validateMcpSchemas(tools), 'notes.get')).toHaveLength(1);
    mountFails(tools, 'notes.get');
  });

  it('SK-78 a 65-character name is an issue; a 64-character name passes and is served', async () => {
    const long = 'n'.repeat(65);
    expect(invalid(validateMcpSchemas([caseTool(long, z.object({}))]), long)).toHaveLength(1);
    mountFails([caseTool(long, z.object({})), ok()], long);
    expect(validateMcpSchemas([caseTool('n'.repeat(64), z.object({}))]).issues).toEqual([]);
    await names.each(async (c) => {
      expect(names.listed(c).has('n'.repeat(64))).toBe(true);
    });
  });

  it('SK-79 empty or unusable names: an invalid-name issue for each, nothing crashes', () => {
    for (const name of ['', '///', 'поиск']) {
      let report: ReturnType<typeof validateMcpSchemas> | undefined;
      expect(() => {
        report = validateMcpSchemas([caseTool(name, z.object({})), ok()]);
      }).not.toThrow();
      expect(invalid(report!, name), JSON.stringify(name)).toHaveLength(1);
      expect(() => createMcpHandler([caseTool(name, z.object({})), ok()])).toThrow(McpMountSchemaError);
    }
  });

  it('SK-80 and SK-81 names are served exactly as given, hyphen included', async () => {
    expect(
      validateMcpSchemas([caseTool('get_bot_status', z.object({})), caseTool('get-user_note', z.object({}))]).issues,
    ).toEqual([]);
    await names.each(async (c) => {
      expect([...names.listed(c).keys()]).toEqual(['get_bot_status', 'get-user_note', 'n'.repeat(64)]);
      await expectHandlerGets(c, 'get-user_note', {}, { input: {} });
    });
  });

  it('SK-82 duplicate names: an issue naming the duplicate, and the mount fails', () => {
    const tools = [caseTool('list_items', z.object({})), caseTool('list_items', z.object({ q: z.string() }))];
    const report = validateMcpSchemas(tools);
    expect(report.issues.filter((i) => i.tool === 'list_items' && i.code === 'duplicate-tool-name')).toHaveLength(1);
    mountFails(tools, 'list_items');
  });

  it('SK-83 every bad name is reported at once: ok:false, one issue per offender; throw lists them all', () => {
    const tools = [
      caseTool('bad name', z.object({})),
      caseTool('twin', z.object({})),
      caseTool('twin', z.object({})),
      ok(),
    ];
    let report: ReturnType<typeof validateMcpSchemas> | undefined;
    expect(() => {
      report = validateMcpSchemas(tools);
    }).not.toThrow();
    expect(report!.ok).toBe(false);
    const byName = report!.issues.filter((i) => i.side === 'name').map((i) => `${i.tool}:${i.code}`);
    expect(byName.sort()).toEqual(['bad name:invalid-tool-name', 'twin:duplicate-tool-name']);
    let thrown: unknown;
    try {
      createMcpHandler(tools);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(McpMountSchemaError);
    for (const text of ['bad name', 'twin', 'invalid-tool-name', 'duplicate-tool-name'])
      expect(String(thrown)).toContain(text);
  });
});

// Cases whose assertions fail against the current sources; see the report for root causes. They are kept as
// normal tests (not it.fails) so they turn green when the fix lands.
describe('probe.md BR-64: nullable arrays are served with their items in place', () => {
  it('BR-64 gemini and nullable nested arrays: issues at /properties/formulas and /properties/formulas/items', () => {
    const paths = pathsOf(gemini, 'br_64', 'gemini');
    expect(paths).toEqual(expect.arrayContaining(['/properties/formulas', '/properties/formulas/items']));
  });
});
