/**
 * The startup schema probe over real HTTP: the issues `validateMcpSchemas` reports (kind, JSON Pointer, severity) for each
 * case tool, and what a mount with the same options does with them: tools/list serves exactly
 * `report.tools`, 'throw' fails with one error listing every error-level issue, 'warn' logs, leaves out
 * what cannot be served and serves the rest. One server per options-group (policy 'warn', so that the
 * served documents of every tool can be compared); issue codes are the probe's own (src/core/probe).
 */
import {
  type AnyTool,
  type McpMountOptions,
  McpMountSchemaError,
  type SchemaIssue,
  validateMcpSchemas,
} from 'mcp-mount';
import { createMcpFetchHandler } from 'mcp-mount/adapter';
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

const createOrDelete = z.discriminatedUnion('action', [
  z.object({ action: z.literal('create'), name: z.string() }),
  z.object({ action: z.literal('delete'), id: z.string() }),
]);
const createOrUpdate = z.discriminatedUnion('action', [
  z.object({ action: z.literal('create'), title: z.string() }),
  z.object({ action: z.literal('update'), id: z.string() }),
]);
const prepareOrExecute = z.discriminatedUnion('action', [
  z.object({ action: z.literal('prepare'), plan: z.string() }),
  z.object({ action: z.literal('execute'), token: z.string() }),
]);
const untaggedOfThree = z.union([
  z.object({ content: z.string(), filename: z.string() }),
  z.object({ source_url: z.url() }),
  z.object({ source_file_id: z.string() }),
]);
const urlWithDefaults = z.object({
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
  untyped_params: z.object({
    a: z.number().int(),
    b: z.unknown(),
    f: z.object({ database_id: z.string() }),
    g: z.unknown(),
  }),
  append_or_delete: z.discriminatedUnion('operation', [
    z.object({ operation: z.literal('append'), path: z.string(), content: z.string() }),
    z.object({ operation: z.literal('delete'), path: z.string() }),
  ]),
  untagged_object_union_root: z.union([z.object({ id: z.string() }), z.object({ slug: z.string() })]),
  object_intersection: z.object({ name: z.string() }).and(z.object({ dataType: z.enum(['NUMERIC', 'CATEGORICAL']) })),
  unsatisfiable_intersection: z.object({ a: z.string() }).and(z.object({ a: z.number() })),
  cross_field_refinement: z.object({ mode: z.enum(['small', 'large']), size: z.number() }).superRefine((v, ctx) => {
    if (v.mode === 'small' && v.size > 10) ctx.addIssue({ code: 'custom', path: ['size'], message: 'too big' });
  }),
  array_root: z.array(z.object({ id: z.string(), title: z.string() })),
  descriptions_and_bounds: z.object({ name: z.string().describe('A name'), count: z.number().min(1).max(10) }),
  transformed_field: z.object({ field: z.string().transform((v) => v.toLowerCase()) }),
  custom_field: z.object({ field: z.custom<string>(() => true) }),
  defaulted_fields: z.object({
    topics: z.array(z.object({ name: z.string(), start: z.enum(['earliest', 'latest']).default('latest') })),
    maxMessages: z.number().default(10),
    timeoutMs: z.number().default(10000),
  }),
  url_with_defaults: urlWithDefaults,
  nested_loose_objects: z.object({
    query: z.string(),
    filters: z.array(z.looseObject({ key: z.string(), value: z.string() })).optional(),
  }),
  optional_open_record: z.object({
    function_name: z.string(),
    function_arguments: z.record(z.string(), z.unknown()).optional(),
  }),
  int_or_string: z.object({ value: z.union([z.number().int(), z.string()]) }),
  const_nullable_union: z.object({
    op: z.literal('insert_text'),
    calendar_id: z.string().nullable().optional(),
    target: z.union([z.object({ index: z.number() }), z.object({ segment: z.string() })]),
  }),
  nullable_nested_arrays: z.object({ formulas: z.array(z.array(z.string()).nullable()).nullable().optional() }),
  nullable_optional_string: z.object({ requiredParam: z.string(), optionalStr: z.string().nullable().optional() }),
  string_or_object_with_true: z.object({
    opts: z.union([z.string(), z.object({ a: z.string(), b: z.string(), c: z.literal(true) })]),
  }),
  loose_object_field: z.object({ record: z.looseObject({ id: z.string() }) }),
  arguments_record: z.object({ arguments: z.record(z.string(), z.unknown()) }),
  union_field_data: z.object({
    data: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('page'), page_id: z.string() }),
      z.object({ kind: z.literal('database'), database_id: z.string() }),
    ]),
  }),
  widened_tags_array: z.discriminatedUnion('k', [
    z.object({ k: z.literal('a'), tags: z.array(z.string()) }),
    z.object({ k: z.literal('b'), tags: z.array(z.number()) }),
  ]),
  reused_schema: z.object({ screens: z.array(Screen), primary: Screen }),
  recursive_schema: z.object({ tree: TreeSchema }),
  ref_required_object: z.object({ query_model: QueryModel }),
  untyped_extra: z.object({ thought: z.string(), tags: z.array(z.string()).nullable().optional(), extra: z.unknown() }),
  untyped_in_array_items: z.object({
    where: z.array(
      z.object({
        column: z.string(),
        operator: z.enum(['eq', 'neq', 'gt']),
        value: z.unknown().describe('Value to compare'),
      }),
    ),
  }),
  nullable_list_default: z.object({ labels: z.array(z.string()).nullable().default(null) }),
  nullable_default_string: z.object({ field1: z.string(), field2: z.string().nullable().default(null) }),
  long_max_length: z.object({ files: z.array(z.object({ path: z.string(), content: z.string().max(5000) })) }),
  max_length_2000: z.object({ text: z.string().max(2000) }),
  max_length_1999: z.object({ text: z.string().max(1999) }),
  long_pattern: z.object({ code: z.string().regex(new RegExp(`^(?:${'[a-z]{1,3}-'.repeat(25)})$`)) }),
  deep_nesting: z.object({
    a: z.object({ b: z.object({ c: z.object({ d: z.object({ e: z.object({ f: z.object({ g: z.string() }) }) }) }) }) }),
  }),
  numeric_tag: numericTag,
  numeric_tag_nested: z.object({ op: numericTag }),
  boolean_tag: booleanTag,
  boolean_tag_nested: z.object({ op: booleanTag }),
  optional_tag: optionalTag,
  optional_tag_nested: z.object({ op: optionalTag }),
  date_field: z.object({ when: z.date() }),
  unconvertible_bigint: z.object({ n: z.bigint() }),
  unconvertible_map: z.object({ m: z.map(z.string(), z.string()) }),
  unconvertible_set: z.object({ s: z.set(z.string()) }),
  unconvertible_custom: z.object({ c: z.custom(() => true) }),
  non_portable_format: z.object({ payload: z.cuid2() }),
  description_only: z.object({ operations: z.object({ payload: z.unknown().describe('blob') }) }),
  description_and_type: z.object({ operations: z.object({ payload: z.string().describe('blob') }) }),
} satisfies Record<string, z.ZodType>;

const tool = (name: keyof typeof S | string, input?: z.ZodType) => caseTool(name, input ?? S[name as keyof typeof S]);
const named = (...names: Array<keyof typeof S>) => names.map((n) => tool(n));

/** A good tool that every group also serves, to show that one bad tool never breaks the listing. */
const good = () => caseTool('good', z.object({ q: z.string() }));

const unconvertibleOutput = caseTool('unconvertible_output', z.object({}));
(unconvertibleOutput as { output?: z.ZodType }).output = z.object({ at: z.date() });
const zod3Tool = caseTool('zod3_schema', z3.object({ query: z3.string() }) as unknown as z.ZodType);

const WARN = { policy: 'warn' } as const;
const flat = { flattenUnionInput: true } as const;

// --- groups: one server per exact option set (policy 'warn' for serving; the probe ignores policy) ---

const base = mountGroup(
  [
    tool('create_or_delete_root', createOrDelete),
    tool('create_or_update_root', createOrUpdate),
    tool('prepare_or_execute', prepareOrExecute),
    tool('untagged_union_of_three', untaggedOfThree),
    ...named(
      'untagged_object_union_root',
      'object_intersection',
      'unsatisfiable_intersection',
      'cross_field_refinement',
      'array_root',
      'descriptions_and_bounds',
      'transformed_field',
      'custom_field',
      'defaulted_fields',
      'reused_schema',
      'recursive_schema',
      'ref_required_object',
      'nullable_default_string',
    ),
    ...named('date_field', 'unconvertible_bigint', 'unconvertible_map', 'unconvertible_set', 'unconvertible_custom'),
    unconvertibleOutput,
    zod3Tool,
    good(),
  ],
  { schemaValidation: WARN },
);
const flattened = mountGroup(
  [
    tool('create_or_delete_root', createOrDelete),
    tool('untagged_union_of_three', untaggedOfThree),
    ...named(
      'append_or_delete',
      'untagged_object_union_root',
      'widened_tags_array',
      'numeric_tag',
      'numeric_tag_nested',
      'boolean_tag',
      'boolean_tag_nested',
      'optional_tag',
      'optional_tag_nested',
    ),
    good(),
  ],
  { ...flat, schemaValidation: WARN },
);
const typed = mountGroup(
  named('description_only', 'description_and_type', 'untyped_params', 'untyped_extra', 'untyped_in_array_items'),
  {
    schemaValidation: { ...WARN, requireTypedProperties: true },
  },
);
const ALLOW_UNTYPED = ['description_only:/properties/operations/properties/payload'];
const typedAllowed = mountGroup(named('description_only'), {
  schemaValidation: { ...WARN, requireTypedProperties: true, allowUntyped: ALLOW_UNTYPED },
});
const portable = mountGroup(named('non_portable_format'), {
  schemaValidation: { ...WARN, requirePortableFormats: true },
});
const portableAllowed = mountGroup(named('non_portable_format'), {
  schemaValidation: { ...WARN, requirePortableFormats: true, allowFormats: ['cuid2'] },
});
const gemini = mountGroup(
  [
    ...named(
      'url_with_defaults',
      'const_nullable_union',
      'nullable_nested_arrays',
      'string_or_object_with_true',
      'loose_object_field',
      'arguments_record',
      'recursive_schema',
      'untyped_extra',
      'nullable_list_default',
      'nullable_default_string',
    ),
    good(),
  ],
  // The projection that inlines `$ref`s and serves nullables with their type in place, as Gemini needs.
  { ...flat, schemaValidation: { ...WARN, profiles: ['gemini'] } },
);
// The same `$ref` cases as served by default to capable clients: the faithful 2020-12 document.
const faithful = mountGroup(named('reused_schema', 'ref_required_object'), { schemaValidation: WARN });
const inlined = mountGroup(named('reused_schema', 'recursive_schema', 'ref_required_object'), {
  ...flat,
  schemaValidation: WARN,
});
const geminiFlat = mountGroup(named('union_field_data'), {
  ...flat,
  schemaValidation: { ...WARN, profiles: ['gemini'] },
});
const openai = mountGroup(
  [
    ...named('defaulted_fields', 'url_with_defaults', 'nested_loose_objects', 'optional_open_record', 'int_or_string'),
    tool('untagged_union_of_three', untaggedOfThree),
  ],
  {
    schemaValidation: { ...WARN, profiles: ['openai-strict'] },
  },
);
const openaiFlat = mountGroup([tool('untagged_union_of_three', untaggedOfThree)], {
  ...flat,
  schemaValidation: { ...WARN, profiles: ['openai-strict'] },
});
const cursor = mountGroup(named('nullable_optional_string', 'nullable_default_string'), {
  schemaValidation: { ...WARN, profiles: ['cursor'] },
});
const anthropic = mountGroup(
  [tool('prepare_or_execute', prepareOrExecute), tool('untagged_union_of_three', untaggedOfThree), good()],
  {
    schemaValidation: { ...WARN, profiles: ['anthropic'] },
  },
);
const anthropicFlat = mountGroup(
  [tool('prepare_or_execute', prepareOrExecute), tool('untagged_union_of_three', untaggedOfThree), good()],
  {
    ...flat,
    schemaValidation: { ...WARN, profiles: ['anthropic'] },
  },
);
const local = mountGroup(
  named('long_max_length', 'max_length_2000', 'max_length_1999', 'long_pattern', 'deep_nesting'),
  {
    schemaValidation: { ...WARN, profiles: ['local-grammar'] },
  },
);
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
    createMcpFetchHandler(tools, { ...options, schemaValidation: { ...options.schemaValidation, policy: 'throw' } });
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
          () => createMcpFetchHandler(g.tools, { ...options, observe: { logger: { warn: vi.fn(), error: vi.fn() } } }),
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
  it('a tag optional in one variant: an error at "" saying why; throw names the tool, warn leaves it out; nested: an issue at /properties/op, still served', async () => {
    const id = 'optional_tag';
    const [root] = find(flattened, id, { code: 'root-not-object', path: '', severity: 'error' });
    expect(root!.message).toMatch(/optional/);
    expect(root!.message).toMatch(/\bk\b/);
    expectThrowListingAll([tool(id), good()], flat, [id]);
    await expectLeftOut(flattened, id);
    const nested = `${id}_nested`;
    find(flattened, nested, { code: 'union-not-flattened', path: '/properties/op' });
    expect(flattened.report.tools.map((t) => t.name)).toContain(nested);
    await flattened.each(async (c) => {
      expect(flattened.listed(c).has(nested)).toBe(true);
    });
  });
});

describe('unions tagged by numbers or booleans', () => {
  for (const id of ['numeric_tag', 'boolean_tag'] as const) {
    const label = id === 'numeric_tag' ? 'a numeric tag' : 'a boolean tag';
    it(`${label}: flattened at the root and nested, no issue at all; the default 'throw' mount serves both`, async () => {
      const nested = `${id}_nested`;
      none(flattened, id);
      none(flattened, nested);
      expect(() => createMcpFetchHandler([tool(id), tool(nested), good()], flat)).not.toThrow();
      await flattened.each(async (c) => {
        expect(flattened.listed(c).has(id)).toBe(true);
        expect(flattened.listed(c).has(nested)).toBe(true);
        expect(flattened.listed(c).get(id)!.inputSchema.type).toBe('object');
        expect(pointersWith(flattened.listed(c).get(nested)!.inputSchema, 'oneOf')).toEqual([]);
      });
    });
  }
});

describe('schemas that cannot be converted', () => {
  it('a date: a conversion error at /properties/when suggesting z.iso.datetime(); throw fails, warn leaves it out', async () => {
    const [issue] = find(base, 'date_field', {
      code: 'conversion-failed',
      path: '/properties/when',
      severity: 'error',
    });
    expect(issue!.message).toContain('z.iso.datetime()');
    expectThrowListingAll([tool('date_field'), good()], {}, ['date_field']);
    await expectLeftOut(base, 'date_field');
  });

  for (const [id, field] of [
    ['unconvertible_bigint', 'n'],
    ['unconvertible_map', 'm'],
    ['unconvertible_set', 's'],
    ['unconvertible_custom', 'c'],
  ] as const) {
    it(`a ${id.slice('unconvertible_'.length)} field: a conversion error at the field, throw fails, warn leaves it out; never served as {}`, async () => {
      find(base, id, { code: 'conversion-failed', path: `/properties/${field}`, severity: 'error' });
      expectThrowListingAll([tool(id), good()], {}, [id]);
      await expectLeftOut(base, id);
      for (const t of base.report.tools) expect(at(t.inputSchema, `/properties/${field}`)).not.toEqual({});
    });
  }

  it('metadata or an override that holds a cycle: a conversion error for the tool, never a stack overflow', () => {
    const meta: Record<string, unknown> = { title: 'loops' };
    meta.self = meta;
    const looping = z.string();
    (looping as unknown as { _zod: { toJSONSchema: () => unknown } })._zod.toJSONSchema = () => {
      const doc: Record<string, unknown> = { type: 'string' };
      doc.not = doc;
      return doc;
    };
    for (const [name, input] of [
      ['cyclic_meta', z.object({ q: z.string().meta(meta) })],
      ['cyclic_override', z.object({ q: looping })],
    ] as const) {
      const cyclic: AnyTool = { name, input, handler: () => ({ content: [] }) };
      const issues = validateMcpSchemas([cyclic]).issues;
      expect(issues, name).toContainEqual(
        expect.objectContaining({ tool: name, code: 'conversion-failed', severity: 'error' }),
      );
      expect(() => createMcpFetchHandler([cyclic]), name).toThrow(McpMountSchemaError);
    }
  });

  it('an output schema that cannot be converted: an output-side error; never served with a wrong outputSchema', async () => {
    const [issue] = find(base, 'unconvertible_output', { severity: 'error', side: 'output' });
    expect(`${issue!.code} ${issue!.message}`).toMatch(/output/i);
    expectThrowListingAll([unconvertibleOutput, good()], {}, ['unconvertible_output']);
    await expectLeftOut(base, 'unconvertible_output');
  });
});

describe('formats and untyped properties', () => {
  it('a format that is not portable: an issue naming cuid2; allowFormats silences it and keeps format and pattern', async () => {
    const [issue] = find(portable, 'non_portable_format', { code: 'non-portable-format', path: '/properties/payload' });
    expect(issue!.message).toContain('cuid2');
    none(portableAllowed, 'non_portable_format');
    const zod = z.toJSONSchema(S.non_portable_format, { target: 'draft-2020-12', io: 'input' }) as any;
    await portableAllowed.each(async (c) => {
      const payload = at(portableAllowed.schema(c, 'non_portable_format'), '/properties/payload');
      expect(payload.format).toBe('cuid2');
      expect(payload.pattern).toBe(zod.properties.payload.pattern);
    });
  });

  it('a property with only a description: an issue quoting "blob"; allowUntyped or a type clears it', () => {
    const [issue] = find(typed, 'description_only', {
      code: 'untyped-property',
      path: '/properties/operations/properties/payload',
    });
    expect(issue!.message).toMatch(/only a description/);
    expect(issue!.message).toContain('"blob"');
    none(typedAllowed, 'description_only');
    none(typed, 'description_and_type');
  });

  it('untyped parameters: issues at /properties/b and /properties/g only, recommending a typed schema', () => {
    expect(pathsOf(typed, 'untyped_params', null).sort()).toEqual(['/properties/b', '/properties/g']);
    for (const i of find(typed, 'untyped_params', { code: 'untyped-property' }))
      expect(i.message).toMatch(/typed schema/);
  });

  it('an untyped value inside array items', () => {
    const [issue] = find(typed, 'untyped_in_array_items', {
      code: 'untyped-property',
      path: '/properties/where/items/properties/value',
    });
    expect(issue!.message).toMatch(/only a description/);
  });

  it('untyped parameters: gemini flags extra (and tags when served as anyOf with null); requireTypedProperties flags extra', async () => {
    find(gemini, 'untyped_extra', { path: '/properties/extra', profile: 'gemini' });
    await gemini.each(async (c) => {
      const tags = at(gemini.schema(c, 'untyped_extra'), '/properties/tags');
      if (Array.isArray(tags.anyOf) && !('type' in tags))
        find(gemini, 'untyped_extra', { path: '/properties/tags', profile: 'gemini' });
    });
    find(typed, 'untyped_extra', { code: 'untyped-property', path: '/properties/extra' });
  });
});

describe('roots', () => {
  it('a union input without flattening: an error at ""; with flattening, an object with action, name, id', async () => {
    find(base, 'create_or_delete_root', { code: 'root-not-object', path: '', severity: 'error' });
    none(flattened, 'create_or_delete_root', (i) => i.path === '');
    await flattened.each(async (c) => {
      const s = flattened.schema(c, 'create_or_delete_root');
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

  it('a bad root never ships silently: error at "", throw fails; never served as {}; the listing holds', async () => {
    find(base, 'create_or_update_root', { code: 'root-not-object', path: '', severity: 'error' });
    expectThrowListingAll([tool('create_or_update_root', createOrUpdate), good()], {}, ['create_or_update_root']);
    await expectLeftOut(base, 'create_or_update_root');
    for (const t of base.report.tools) expect(t.inputSchema.type, t.name).toBe('object');
  });

  it('served keys match the Zod keys: no issue, properties exactly operation, path, content', async () => {
    none(flattened, 'append_or_delete');
    await flattened.each(async (c) => {
      expect(Object.keys(flattened.schema(c, 'append_or_delete').properties).sort()).toEqual([
        'content',
        'operation',
        'path',
      ]);
    });
  });

  it('an untagged object union at the root: served as one object with flattening; without it, an error at "" and left out', async () => {
    none(flattened, 'untagged_object_union_root');
    await flattened.each(async (c) => {
      const s = flattened.schema(c, 'untagged_object_union_root');
      expect(s.type).toBe('object');
      expect(Object.keys(s.properties)).toEqual(['id', 'slug']);
    });
    const [issue] = find(base, 'untagged_object_union_root', { code: 'root-not-object', path: '', severity: 'error' });
    expect(issue!.message).toContain('flattenUnionInput: true');
    await expectLeftOut(base, 'untagged_object_union_root');
  });

  it('a root intersection: no issue, one object; an unsatisfiable one: an error at /properties/a', async () => {
    none(base, 'object_intersection');
    await base.each(async (c) => {
      const s = base.schema(c, 'object_intersection');
      expect(s.type).toBe('object');
      expect(s).not.toHaveProperty('allOf');
    });
    const [issue] = find(base, 'unsatisfiable_intersection', { path: '/properties/a', severity: 'error' });
    expect(issue!.message).toMatch(/no value can pass/);
  });

  it('anthropic and root combinators: an issue at "" when not flattened, none when flattened', () => {
    find(anthropic, 'prepare_or_execute', { path: '', profile: 'anthropic' });
    none(anthropicFlat, 'prepare_or_execute', (i) => i.profile === 'anthropic');
  });

  it('a root union of three untagged shapes: an error at "" unflattened (root anyOf flagged by anthropic and openai-strict); served flattened', async () => {
    const [issue] = find(base, 'untagged_union_of_three', { code: 'root-not-object', path: '', severity: 'error' });
    // The advice to authors: flatten it, or tag each branch.
    expect(issue!.message).toMatch(/flattenUnionInput: true/);
    expect(issue!.message).toMatch(/tag/);
    find(anthropic, 'untagged_union_of_three', { code: 'root-combinator', path: '', profile: 'anthropic' });
    find(openai, 'untagged_union_of_three', { code: 'root-combinator', path: '', profile: 'openai-strict' });
    none(anthropicFlat, 'untagged_union_of_three', (i) => i.profile === 'anthropic');
    none(openaiFlat, 'untagged_union_of_three', (i) => i.code === 'root-combinator');
    none(flattened, 'untagged_union_of_three', (i) => i.severity === 'error');
    await expectLeftOut(base, 'untagged_union_of_three');
    await flattened.each(async (c) => {
      expect(Object.keys(flattened.schema(c, 'untagged_union_of_three').properties)).toEqual([
        'content',
        'filename',
        'source_url',
        'source_file_id',
      ]);
    });
  });

  it('no conditionals at the root, and no error for the tool', async () => {
    none(base, 'cross_field_refinement', (i) => i.severity === 'error');
    await base.each(async (c) => {
      const s = base.schema(c, 'cross_field_refinement');
      for (const k of ['allOf', 'if', 'then', 'else']) expect(s).not.toHaveProperty(k);
    });
  });

  it('an array root: an error at "" suggesting a wrapping object; never skipped silently', async () => {
    const [issue] = find(base, 'array_root', { code: 'root-not-object', path: '', severity: 'error' });
    expect(issue!.message).toContain('z.object({ items:');
    await expectLeftOut(base, 'array_root');
  });
});

describe('conversion', () => {
  it('a Zod 3 schema: served correctly and validated, or a conversion error naming the tool; never properties:{}', async () => {
    const served = base.report.tools.find((t) => t.name === 'zod3_schema');
    if (served) {
      expect(served.inputSchema.properties).toHaveProperty('query');
      await base.each(async (c) => {
        await expectHandlerGets(c, 'zod3_schema', { query: 'q' }, { input: { query: 'q' } });
        await expectRefused(base, c, 'zod3_schema', { query: 1 }, ['query']);
      });
    } else {
      const [issue] = find(base, 'zod3_schema', { severity: 'error' });
      expect(issue!.code).toMatch(/conversion/);
      expectThrowListingAll([zod3Tool], {}, ['zod3_schema']);
      await expectLeftOut(base, 'zod3_schema');
    }
  });

  it('descriptions and bounds survive, with no issue', async () => {
    none(base, 'descriptions_and_bounds');
    await base.each(async (c) => {
      const s = base.schema(c, 'descriptions_and_bounds');
      expect(at(s, '/properties/name/description')).toBe('A name');
      expect(at(s, '/properties/count/minimum')).toBe(1);
      expect(at(s, '/properties/count/maximum')).toBe(10);
    });
  });

  it('a transform converts from its input side and runs once; z.custom is a conversion error naming the field', async () => {
    none(base, 'transformed_field');
    await base.each(async (c) => {
      expect(at(base.schema(c, 'transformed_field'), '/properties/field')).toEqual({ type: 'string' });
      await expectAccepted(base, c, 'transformed_field', { field: 'ABC' }, { input: { field: 'abc' } });
    });
    const [issue] = find(base, 'custom_field', { path: '/properties/field', severity: 'error' });
    expect(issue!.tool).toBe('custom_field');
  });

  it('defaulted fields are optional, defaults served and applied; openai-strict flags them', async () => {
    await base.each(async (c) => {
      const s = base.schema(c, 'defaulted_fields');
      expect(s.required).toEqual(['topics']);
      expect(at(s, '/properties/topics/items/required')).toEqual(['name']);
      expect(at(s, '/properties/topics/items/properties/start/default')).toBe('latest');
      expect(at(s, '/properties/maxMessages/default')).toBe(10);
      expect(at(s, '/properties/timeoutMs/default')).toBe(10000);
      await expectAccepted(
        base,
        c,
        'defaulted_fields',
        { topics: [{ name: 'orders' }] },
        { input: { topics: [{ name: 'orders', start: 'latest' }], maxMessages: 10, timeoutMs: 10000 } },
      );
    });
    const flagged = find(openai, 'defaulted_fields', { code: 'optional-key', profile: 'openai-strict' }).map(
      (i) => i.path,
    );
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
  it('gemini and format "uri": an issue at /properties/url naming uri, with advice', () => {
    const [issue] = find(gemini, 'url_with_defaults', { path: '/properties/url', profile: 'gemini' });
    expect(issue!.message).toContain('uri');
    expect(issue!.message).toMatch(/description/);
    expect(issue!.message).toMatch(/Zod/);
  });

  it('openai-strict on a url with defaults: the format, the two optional keys, and additionalProperties at ""', () => {
    find(openai, 'url_with_defaults', { path: '/properties/url', profile: 'openai-strict' });
    find(openai, 'url_with_defaults', {
      code: 'optional-key',
      path: '/properties/max_length',
      profile: 'openai-strict',
    });
    find(openai, 'url_with_defaults', {
      code: 'optional-key',
      path: '/properties/start_index',
      profile: 'openai-strict',
    });
    find(openai, 'url_with_defaults', { code: 'additional-properties-not-false', path: '', profile: 'openai-strict' });
  });

  it('openai-strict and nested objects: items and root additionalProperties, filters optional', () => {
    find(openai, 'nested_loose_objects', {
      code: 'additional-properties-not-false',
      path: '/properties/filters/items',
      profile: 'openai-strict',
    });
    find(openai, 'nested_loose_objects', {
      code: 'additional-properties-not-false',
      path: '',
      profile: 'openai-strict',
    });
    find(openai, 'nested_loose_objects', {
      code: 'optional-key',
      path: '/properties/filters',
      profile: 'openai-strict',
    });
  });

  it('openai-strict requires every key: function_arguments is optional and an open record', () => {
    find(openai, 'optional_open_record', {
      code: 'optional-key',
      path: '/properties/function_arguments',
      profile: 'openai-strict',
    });
    find(openai, 'optional_open_record', {
      code: 'open-record',
      path: '/properties/function_arguments',
      profile: 'openai-strict',
    });
  });

  it('openai-strict and a nested union: an issue at /properties/value; the base check reports nothing', () => {
    find(openai, 'int_or_string', { code: 'nested-union', path: '/properties/value', profile: 'openai-strict' });
    none(openai, 'int_or_string', (i) => i.profile === undefined);
  });

  it('gemini: const and a nullable type list; the nested union is flattened; calendar_id keeps accepting null', async () => {
    find(gemini, 'const_nullable_union', { code: 'const', path: '/properties/op', profile: 'gemini' });
    find(gemini, 'const_nullable_union', { code: 'type-list', path: '/properties/calendar_id', profile: 'gemini' });
    none(gemini, 'const_nullable_union', (i) => i.code === 'union');
    await gemini.each(async (c) => {
      const s = gemini.schema(c, 'const_nullable_union');
      const ok = ajvCheck(s, { op: 'insert_text', calendar_id: null, target: { index: 1 } });
      expect(ok.ok, ok.errors).toBe(true);
    });
  });

  it('cursor and type ["string","null"]: an issue at /properties/optionalStr suggesting optional', () => {
    const [issue] = find(cursor, 'nullable_optional_string', { path: '/properties/optionalStr', profile: 'cursor' });
    expect(issue!.message).toMatch(/optional/);
  });

  it('gemini and a boolean literal: an issue under /properties/opts naming c; a base warning at /properties/opts', () => {
    const flagged = find(gemini, 'string_or_object_with_true', { profile: 'gemini' }).filter(
      (i) =>
        i.path.startsWith('/properties/opts') &&
        (i.path.endsWith('/c') || /\bc\b/.test(i.message)) &&
        /true|boolean/.test(i.message),
    );
    expect(flagged.length, JSON.stringify(show(issuesOf(gemini.report, 'string_or_object_with_true')))).toBeGreaterThan(
      0,
    );
    find(gemini, 'string_or_object_with_true', { path: '/properties/opts', severity: 'warning', profile: null });
  });

  it('gemini and additionalProperties: an issue at /properties/record', () => {
    find(gemini, 'loose_object_field', { code: 'record-keyword', path: '/properties/record', profile: 'gemini' });
  });

  it('gemini and a record: propertyNames and additionalProperties at /properties/arguments', () => {
    const messages = find(gemini, 'arguments_record', { path: '/properties/arguments', profile: 'gemini' })
      .map((i) => i.message)
      .join('\n');
    expect(messages).toContain('propertyNames');
    expect(messages).toContain('additionalProperties');
  });

  it('properties only on object nodes: /properties/data is type object; no node has properties without it', async () => {
    await geminiFlat.each(async (c) => {
      const s = geminiFlat.schema(c, 'union_field_data');
      expect(at(s, '/properties/data/type')).toBe('object');
      expect(at(s, '/properties/data/properties')).toBeDefined();
      for (const ptr of [...pointersWith(s, 'properties'), ...pointersWith(s, 'required')]) {
        expect(at(s, ptr).type, ptr).toBe('object');
      }
    });
    none(geminiFlat, 'union_field_data', (i) => i.code === 'properties-without-object-type');
  });

  it('every array has items: the widened /properties/tags keeps type array and an items key', async () => {
    await flattened.each(async (c) => {
      const tags = at(flattened.schema(c, 'widened_tags_array'), '/properties/tags');
      expect(tags.type).toBe('array');
      expect(tags).toHaveProperty('items');
    });
    none(flattened, 'widened_tags_array', (i) => i.code === 'array-without-items');
  });

  it('reused schemas are inlined when flat; a recursive z.lazy is unrolled there (ADR 0018), so gemini finds no $ref', async () => {
    none(inlined, 'reused_schema');
    await inlined.each(async (c) => {
      const s = inlined.schema(c, 'reused_schema');
      expect(pointersWith(s, '$ref')).toEqual([]);
      for (const ptr of ['/properties/primary', '/properties/screens/items']) {
        expect(at(s, ptr).type, ptr).toBe('object');
        expect(at(s, `${ptr}/properties/id`), ptr).toBeDefined();
      }
      expect(pointersWith(inlined.schema(c, 'recursive_schema'), '$ref')).toEqual([]);
    });
    none(inlined, 'recursive_schema', (i) => i.severity === 'error');
    none(gemini, 'recursive_schema', (i) => i.code === 'ref');
  });

  it('reused schemas keep their $ref and $defs in the faithful document, with no issue', async () => {
    none(faithful, 'reused_schema');
    none(faithful, 'ref_required_object');
    await faithful.each(async (c) => {
      const s = faithful.schema(c, 'reused_schema');
      expect(s.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
      expect(pointersWith(s, '$ref').length).toBeGreaterThan(0);
      expect(Object.keys(s.$defs ?? {}).length).toBeGreaterThan(0);
    });
  });

  it("a $ref'd required object: inline, required [query_model], nothing required inside, items kept, no issue", async () => {
    none(inlined, 'ref_required_object');
    await inlined.each(async (c) => {
      const s = inlined.schema(c, 'ref_required_object');
      const qm = at(s, '/properties/query_model');
      expect(qm.type).toBe('object');
      expect(qm).not.toHaveProperty('$ref');
      expect(s.required).toEqual(['query_model']);
      expect(qm.required ?? []).toEqual([]);
      expect(at(qm, '/properties/team_ids')).toHaveProperty('items');
    });
  });

  it('gemini and a nullable list with default null: an issue at /properties/labels; null still accepted', async () => {
    find(gemini, 'nullable_list_default', { path: '/properties/labels', profile: 'gemini' });
    await gemini.each(async (c) => {
      const ok = ajvCheck(gemini.schema(c, 'nullable_list_default'), { labels: null });
      expect(ok.ok, ok.errors).toBe(true);
    });
  });

  it('cursor and gemini flag /properties/field2; {} is isError naming field1', async () => {
    find(cursor, 'nullable_default_string', { path: '/properties/field2', profile: 'cursor' });
    find(gemini, 'nullable_default_string', { path: '/properties/field2', profile: 'gemini' });
    await base.each(async (c) => {
      await expectRefused(base, c, 'nullable_default_string', {}, ['field1']);
    });
  });

  it('local-grammar: warnings for maxLength 5000, a long pattern and deep nesting; the Zod check stays', async () => {
    find(local, 'long_max_length', {
      code: 'large-bound',
      path: '/properties/files/items/properties/content',
      severity: 'warning',
      profile: 'local-grammar',
    });
    find(local, 'max_length_2000', {
      code: 'large-bound',
      path: '/properties/text',
      severity: 'warning',
      profile: 'local-grammar',
    });
    none(local, 'max_length_1999');
    find(local, 'long_pattern', { code: 'long-pattern', severity: 'warning', profile: 'local-grammar' });
    find(local, 'deep_nesting', { code: 'deep-nesting', severity: 'warning', profile: 'local-grammar' });
    await local.each(async (c) => {
      expect(at(local.schema(c, 'long_max_length'), '/properties/files/items/properties/content/maxLength')).toBe(5000);
      await expectRefused(local, c, 'long_max_length', { files: [{ path: 'a', content: 'x'.repeat(5001) }] }, [
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
        createMcpFetchHandler(tools, {
          schemaValidation: { policy },
          observe: { logger: { warn: vi.fn(), error: vi.fn() } },
        });
      } catch (e) {
        thrown = e;
      }
      expect(thrown, policy).toBeInstanceOf(McpMountSchemaError);
      expect(String(thrown), policy).toContain(name);
    }
  }

  it('a slash in a name: an invalid-name issue, and the mount fails', () => {
    const tools = [caseTool('overview_admin/analytics', z.object({})), ok()];
    expect(invalid(validateMcpSchemas(tools), 'overview_admin/analytics')).toHaveLength(1);
    mountFails(tools, 'overview_admin/analytics');
  });

  it('a dot in a name: an invalid-name issue, and the mount fails', () => {
    const tools = [caseTool('notes.get', z.object({})), ok()];
    expect(invalid(validateMcpSchemas(tools), 'notes.get')).toHaveLength(1);
    mountFails(tools, 'notes.get');
  });

  it('a 65-character name is an issue; a 64-character name passes and is served', async () => {
    const long = 'n'.repeat(65);
    expect(invalid(validateMcpSchemas([caseTool(long, z.object({}))]), long)).toHaveLength(1);
    mountFails([caseTool(long, z.object({})), ok()], long);
    expect(validateMcpSchemas([caseTool('n'.repeat(64), z.object({}))]).issues).toEqual([]);
    await names.each(async (c) => {
      expect(names.listed(c).has('n'.repeat(64))).toBe(true);
    });
  });

  it('empty or unusable names: an invalid-name issue for each, nothing crashes', () => {
    for (const name of ['', '///', 'поиск']) {
      let report: ReturnType<typeof validateMcpSchemas> | undefined;
      expect(() => {
        report = validateMcpSchemas([caseTool(name, z.object({})), ok()]);
      }).not.toThrow();
      expect(invalid(report!, name), JSON.stringify(name)).toHaveLength(1);
      expect(() => createMcpFetchHandler([caseTool(name, z.object({})), ok()])).toThrow(McpMountSchemaError);
    }
  });

  it('names are served exactly as given, hyphen included', async () => {
    expect(
      validateMcpSchemas([caseTool('get_bot_status', z.object({})), caseTool('get-user_note', z.object({}))]).issues,
    ).toEqual([]);
    await names.each(async (c) => {
      expect([...names.listed(c).keys()]).toEqual(['get_bot_status', 'get-user_note', 'n'.repeat(64)]);
      await expectHandlerGets(c, 'get-user_note', {}, { input: {} });
    });
  });

  it('duplicate names: an issue naming the duplicate, and the mount fails', () => {
    const tools = [caseTool('list_items', z.object({})), caseTool('list_items', z.object({ q: z.string() }))];
    const report = validateMcpSchemas(tools);
    expect(report.issues.filter((i) => i.tool === 'list_items' && i.code === 'duplicate-tool-name')).toHaveLength(1);
    mountFails(tools, 'list_items');
  });

  it('every bad name is reported at once: ok:false, one issue per offender; throw lists them all', () => {
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
      createMcpFetchHandler(tools);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(McpMountSchemaError);
    for (const text of ['bad name', 'twin', 'invalid-tool-name', 'duplicate-tool-name'])
      expect(String(thrown)).toContain(text);
  });
});

describe('nullable arrays are served with their items in place', () => {
  it('gemini and nullable nested arrays: issues at /properties/formulas and /properties/formulas/items', () => {
    const paths = pathsOf(gemini, 'nullable_nested_arrays', 'gemini');
    expect(paths).toEqual(expect.arrayContaining(['/properties/formulas', '/properties/formulas/items']));
  });
});
