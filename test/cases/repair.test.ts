/**
 * Argument repair over real HTTP: each case is a tool named after what it checks, mounted with the others in one server
 * per options-group, called by both official clients (and by hand for envelopes the clients never send).
 * "Handler gets" is the parsed input, deep-equal, with `undefined` made visible; "isError naming p" is an
 * isError result whose text names p.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ajvCheck,
  at,
  bare,
  call,
  caseTool,
  errorsOf,
  expectHandlerGets,
  expectListMatchesReport,
  expectRefused,
  mountGroup,
  NO_ARGUMENTS,
  rawOutcome,
} from '../support/cases.js';
import { ParentRequest } from '../support/models.js';

const tags = z.object({ tags: z.array(z.string()) });

const S = {
  array_as_text: tags,
  object_as_text: z.object({ meta: z.object({ x: z.number() }) }),
  text_not_json: tags,
  array_text_at_depth: z.object({ rows: z.array(z.object({ tags: z.array(z.string()) })) }),
  string_member_kept: z.object({ target: z.union([z.string().min(2), z.number()]) }),
  no_string_member: z.object({ target: z.union([z.array(z.string()), z.object({ a: z.string() })]) }),
  records_as_text: z.object({
    data: z.record(z.string(), z.unknown()),
    opt: z.record(z.string(), z.unknown()).nullable().optional(),
    lists: z.record(z.string(), z.array(z.number())).optional(),
  }),
  tuple_as_text: z.object({ pair: z.tuple([z.string(), z.object({ n: z.number() })]) }),
  lazy_and_transforms: z.object({
    tree: z.lazy(() => z.object({ a: z.number() })),
    note: z.string().transform((s) => s.toUpperCase()),
    obj: z.object({ a: z.number() }).transform((o) => o.a),
  }),
  number_as_text: z.object({ n: z.number() }),
  record_as_text: z.object({ patch_content: z.record(z.string(), z.unknown()) }),
  records_array_as_text: z.object({ siteId: z.string(), actions: z.array(z.record(z.string(), z.unknown())) }),
  ref_field_as_text: z.object({
    parent: ParentRequest,
    properties: z.record(z.string(), z.unknown()),
  }),
  object_union_as_text: z.object({
    parent: z.union([z.object({ page_id: z.string() }), z.object({ database_id: z.string() })]),
  }),
  loose_items_as_text: z.object({ block_id: z.string(), children: z.array(z.looseObject({ type: z.string() })) }),
  nested_json_text: z.object({
    workflow: z.object({
      nodes: z.array(z.looseObject({ name: z.string() })),
      connections: z.record(z.string(), z.unknown()),
    }),
  }),
  params_field_as_text: z.object({
    params: z.object({ model: z.string(), prompt: z.string(), aspect_ratio: z.string().optional() }),
  }),
  array_beside_string: z.object({ path: z.string(), target: z.array(z.string()) }),
  pretty_printed_json: z.object({
    tasks: z.array(z.object({ content: z.string(), projectId: z.string(), priority: z.number().int() })),
  }),
  object_beside_id_strings: z.object({
    issueIdOrKey: z.string(),
    cloudId: z.string(),
    fields: z.record(z.string(), z.unknown()),
  }),
  markdown_in_record: z.object({ tool: z.string(), arguments: z.record(z.string(), z.unknown()) }),
  union_items_as_text: z.object({
    reminders: z.array(
      z.discriminatedUnion('kind', [
        z.object({ kind: z.literal('relative'), minutes: z.number() }),
        z.object({ kind: z.literal('absolute'), at: z.string() }),
        z.object({ kind: z.literal('location'), place: z.string() }),
      ]),
    ),
  }),
  plain_string_for_array: tags,
  untyped_fields: z.object({
    a: z.number().int(),
    b: z.unknown(),
    f: z.object({ database_id: z.string() }),
    g: z.unknown(),
  }),
  numeric_strings: z.object({
    owner: z.string(),
    repo: z.string(),
    pullNumber: z.number().int(),
    method: z.enum(['get', 'diff']),
  }),
  numeric_id_as_text: z.object({ project: z.string(), pullRequestId: z.number() }),
  boolean_strings: z.object({ task_gid: z.string(), completed: z.boolean().optional() }),
  nullable_boolean_default: z.object({ include_entity_id: z.boolean().nullable().default(null) }),
  several_numbers: z.object({ path: z.string(), line_number: z.number(), lines_after: z.number() }),
  two_numbers: z.object({ a: z.number(), b: z.number() }),
  one_member_union: z.object({ width: z.union([z.number()]) }),
  number_for_string: z.object({ file: z.string(), sheet_name: z.string() }),
  optional_only: z.object({ limit: z.number().optional() }),
  one_required: z.object({ q: z.string() }),
  no_parameters: z.object({}),
  strict_injected_keys: z.object({ guid: z.string() }).strict(),
  strict_underscore_key: z.strictObject({ query: z.string() }),
  loose_underscore_key: z.looseObject({ query: z.string() }),
  unknown_keys_stripped: z.object({ id: z.number(), interval: z.number().optional() }),
  unknown_keys_strict: z.object({ id: z.number(), interval: z.number().optional() }).strict(),
  plain_object_input: z.object({ message: z.string() }),
  nullable_list_default: z.object({ labels: z.array(z.string()).nullable().default(null) }),
} satisfies Record<string, z.ZodType>;

const tools = Object.entries(S).map(([name, input]) => caseTool(name, input));

// The case defaults (coerceJsonArgs and coerceScalarArgs on), with policy 'warn' so that one failing
// case cannot take the others down; each case checks that it has no error-level issue.
const g = mountGroup(tools, { schemaValidation: { policy: 'warn' } });

// Repair by tag needs a union root, which is served only with flattenUnionInput.
const tagged = (k: z.ZodType) =>
  z.discriminatedUnion('k', [
    z.object({ k, ids: z.array(z.number()) }),
    z.object({ k: z.literal('b'), name: z.string() }),
  ]);
const flat = mountGroup(
  [
    caseTool('tag_selects_variant', tagged(z.literal('a'))),
    caseTool('tag_selects_variant_multi', tagged(z.literal(['a', 'c']))),
    caseTool('tag_selects_variant_enum', tagged(z.enum(['a', 'c']))),
  ],
  { flattenUnionInput: true, schemaValidation: { policy: 'warn' } },
);
const jsonOff = mountGroup([caseTool('json_repair_off', tags)], { arguments: { json: false } });
const scalarsOff = mountGroup([caseTool('number_as_text', S.number_as_text)], { arguments: { scalars: false } });

const servable = (name: string) => expect(errorsOf(g.report, name), `${name} error issues`).toEqual([]);
/** Shorthand: the handler gets `input` for `args`. */
const gets = (c: Parameters<Parameters<typeof g.each>[0]>[0], name: string, args: unknown, input: unknown) => {
  servable(name);
  return expectHandlerGets(c, name, args, { input });
};

describe('mounts', () => {
  it('tools/list serves exactly what validateMcpSchemas reports, for every group', async () => {
    await expectListMatchesReport(g, flat, jsonOff, scalarsOff);
  });
});

describe('structures', () => {
  it('an array field sent as text is parsed', () =>
    g.each(async (c) => {
      await gets(c, 'array_as_text', { tags: '["a","b"]' }, { tags: ['a', 'b'] });
    }));

  it('an object field sent as text is parsed', () =>
    g.each(async (c) => {
      await gets(c, 'object_as_text', { meta: '{"x":42}' }, { meta: { x: 42 } });
    }));

  it('text that is not JSON is left as sent and refused naming tags', () =>
    g.each(async (c) => {
      servable('text_not_json');
      const text = await expectRefused(g, c, 'text_not_json', { tags: 'not-json' }, ['tags']);
      expect(text).toMatch(/string/);
    }));

  it('an array sent as text at depth, and inside an array that was itself sent as text', () =>
    g.each(async (c) => {
      await gets(c, 'array_text_at_depth', { rows: [{ tags: '["a"]' }] }, { rows: [{ tags: ['a'] }] });
      await gets(c, 'array_text_at_depth', { rows: '[{"tags":"[\\"a\\"]"}]' }, { rows: [{ tags: ['a'] }] });
    }));

  it('repair inside the variant the tag selects; an unknown tag is left untouched', () =>
    flat.each(async (c) => {
      for (const name of ['tag_selects_variant', 'tag_selects_variant_multi', 'tag_selects_variant_enum']) {
        expect(errorsOf(flat.report, name), name).toEqual([]);
        await expectHandlerGets(c, name, { k: 'a', ids: '[1,2]' }, { input: { k: 'a', ids: [1, 2] } });
      }
      await expectHandlerGets(
        c,
        'tag_selects_variant_multi',
        { k: 'c', ids: '[1,2]' },
        { input: { k: 'c', ids: [1, 2] } },
      );
      await expectHandlerGets(
        c,
        'tag_selects_variant_enum',
        { k: 'c', ids: '[1,2]' },
        { input: { k: 'c', ids: [1, 2] } },
      );
      flat.onCall.mockClear();
      await expectRefused(flat, c, 'tag_selects_variant', { k: 'z', ids: '[1,2]' }, ['k']);
      const events = flat.onCall.mock.calls.map(([e]) => e);
      expect(events).toHaveLength(1);
      expect(events[0].repairs, 'nothing repaired under an unknown tag').toEqual([]);
    }));

  it('a union with a plain string member keeps the string', () =>
    g.each(async (c) => {
      await gets(c, 'string_member_kept', { target: '123' }, { target: '123' });
    }));

  it('a union with no string member parses the text', () =>
    g.each(async (c) => {
      await gets(c, 'no_string_member', { target: '["a","b"]' }, { target: ['a', 'b'] });
      await gets(c, 'no_string_member', { target: '{"a":"x"}' }, { target: { a: 'x' } });
    }));

  it('records sent as text, and the values inside them', () =>
    g.each(async (c) => {
      await gets(
        c,
        'records_as_text',
        { data: '{"k":1}', opt: '{"m":2}', lists: { x: '[1,2]' } },
        { data: { k: 1 }, opt: { m: 2 }, lists: { x: [1, 2] } },
      );
    }));

  it('tuples sent as text, and the items inside them', () =>
    g.each(async (c) => {
      await gets(c, 'tuple_as_text', { pair: '["a",{"n":1}]' }, { pair: ['a', { n: 1 }] });
      await gets(c, 'tuple_as_text', { pair: ['a', '{"n":1}'] }, { pair: ['a', { n: 1 }] });
    }));

  it('lazy and transformed fields sent as text: judged by the input side, transforms run once', () =>
    g.each(async (c) => {
      await gets(
        c,
        'lazy_and_transforms',
        { tree: '{"a":1}', note: '{"a":1}', obj: '{"a":1}' },
        { tree: { a: 1 }, note: '{"A":1}', obj: 1 },
      );
    }));

  it('with repair.json: false an array sent as text is refused naming tags', () =>
    jsonOff.each(async (c) => {
      expect(errorsOf(jsonOff.report, 'json_repair_off')).toEqual([]);
      await expectRefused(jsonOff, c, 'json_repair_off', { tags: '["a"]' }, ['tags']);
    }));

  it('a record sent as text is parsed', () =>
    g.each(async (c) => {
      await gets(c, 'record_as_text', { patch_content: '{"key": "value"}' }, { patch_content: { key: 'value' } });
    }));

  it('an array of records sent as text is parsed; the string siteId is untouched', () =>
    g.each(async (c) => {
      await gets(
        c,
        'records_array_as_text',
        { siteId: 'site-1', actions: '[{"get_all_elements":{"query":"all"}}]' },
        { siteId: 'site-1', actions: [{ get_all_elements: { query: 'all' } }] },
      );
    }));

  it('a field served as $ref is repaired like any object; properties pass through', () =>
    g.each(async (c) => {
      await gets(
        c,
        'ref_field_as_text',
        { parent: '{"data_source_id":"ds-1"}', properties: { Name: { title: [] } } },
        { parent: { data_source_id: 'ds-1' }, properties: { Name: { title: [] } } },
      );
    }));

  it('a plain union of objects: no member accepts a string, so the text is parsed', () =>
    g.each(async (c) => {
      await gets(c, 'object_union_as_text', { parent: '{"database_id":"db-1"}' }, { parent: { database_id: 'db-1' } });
    }));

  it('arrays as well as objects: loose items keep their extra keys', () =>
    g.each(async (c) => {
      await gets(
        c,
        'loose_items_as_text',
        { block_id: 'b-1', children: '[{"type":"paragraph","paragraph":{"rich_text":[]}}]' },
        { block_id: 'b-1', children: [{ type: 'paragraph', paragraph: { rich_text: [] } }] },
      );
    }));

  it('an object sent as text whose fields are JSON text themselves', () =>
    g.each(async (c) => {
      await gets(
        c,
        'nested_json_text',
        { workflow: '{"nodes":"[{\\"name\\":\\"Start\\"}]","connections":"{}"}' },
        { workflow: { nodes: [{ name: 'Start' }], connections: {} } },
      );
    }));

  it('a single object argument named params, sent as text, is parsed into the input', () =>
    g.each(async (c) => {
      const received = await gets(
        c,
        'params_field_as_text',
        { params: '{"model":"m1","prompt":"a cat","aspect_ratio":"4:5"}' },
        { params: { model: 'm1', prompt: 'a cat', aspect_ratio: '4:5' } },
      );
      expect(received.params, 'the params slice stays empty').toEqual({});
    }));

  it('an array sent as text beside a string field: the array is parsed, the string untouched', () =>
    g.each(async (c) => {
      await gets(
        c,
        'array_beside_string',
        { path: 'note.txt', target: '["Purpose"]' },
        { path: 'note.txt', target: ['Purpose'] },
      );
    }));

  it('pretty-printed JSON text is parsed', () =>
    g.each(async (c) => {
      await gets(
        c,
        'pretty_printed_json',
        { tasks: '[\n  {\n    "content": "Task A",\n    "projectId": "p1",\n    "priority": 3\n  }\n]' },
        { tasks: [{ content: 'Task A', projectId: 'p1', priority: 3 }] },
      );
    }));

  it('an object sent as text beside id-like string fields: only the object is parsed', () =>
    g.each(async (c) => {
      await gets(
        c,
        'object_beside_id_strings',
        { issueIdOrKey: 'PROJ-1', cloudId: 'c-1', fields: '{"description":"text"}' },
        { issueIdOrKey: 'PROJ-1', cloudId: 'c-1', fields: { description: 'text' } },
      );
    }));

  it('long markdown inside a record sent as text keeps its whitespace; a wrong shape or broken JSON is refused by path', () =>
    g.each(async (c) => {
      const prompt = '# Title\n\n    code block\n- item';
      await gets(
        c,
        'markdown_in_record',
        { tool: 'create_session', arguments: JSON.stringify({ boardId: 'b-1', initialPrompt: prompt }) },
        { tool: 'create_session', arguments: { boardId: 'b-1', initialPrompt: prompt } },
      );
      await expectRefused(g, c, 'markdown_in_record', { tool: 't', arguments: '[1,2]' }, ['arguments']);
      await expectRefused(g, c, 'markdown_in_record', { tool: 't', arguments: '{"a":' }, ['arguments']);
    }));

  it('an array of union items sent as text; scalar repair inside the selected variant', () =>
    g.each(async (c) => {
      const want = { reminders: [{ kind: 'relative', minutes: 10 }] };
      await gets(c, 'union_items_as_text', { reminders: '[{"kind":"relative","minutes":10}]' }, want);
      await gets(c, 'union_items_as_text', { reminders: [{ kind: 'relative', minutes: '10' }] }, want);
    }));

  it('a string never reaches an array argument: JSON text is parsed, plain text refused', () =>
    g.each(async (c) => {
      await gets(c, 'plain_string_for_array', { tags: '["customer","vip"]' }, { tags: ['customer', 'vip'] });
      await expectRefused(g, c, 'plain_string_for_array', { tags: 'customer' }, ['tags']);
    }));

  it('untyped fields are never touched', () =>
    g.each(async (c) => {
      const args = { a: 8, b: '8', f: { database_id: 'abc123' }, g: '{"database_id":"abc123"}' };
      await gets(c, 'untyped_fields', args, args);
    }));
});

describe('scalars', () => {
  it('a number sent as text is repaired; with repair.scalars: false it is refused', async () => {
    await g.each(async (c) => {
      await gets(c, 'number_as_text', { n: '1' }, { n: 1 });
    });
    await scalarsOff.each(async (c) => {
      expect(errorsOf(scalarsOff.report, 'number_as_text')).toEqual([]);
      await expectRefused(scalarsOff, c, 'number_as_text', { n: '1' }, ['n']);
    });
  });

  it('numeric strings for number fields only; non-canonical numbers refused', () =>
    g.each(async (c) => {
      await gets(
        c,
        'numeric_strings',
        { owner: 'o', repo: 'r', pullNumber: '5812', method: 'get' },
        { owner: 'o', repo: 'r', pullNumber: 5812, method: 'get' },
      );
      for (const bad of ['58x', '', ' 7', '0x10', '1e400', '5.5', '12abc']) {
        await expectRefused(g, c, 'numeric_strings', { owner: 'o', repo: 'r', pullNumber: bad, method: 'get' }, [
          'pullNumber',
        ]);
      }
      await gets(
        c,
        'numeric_strings',
        { owner: '123', repo: '456', pullNumber: 1, method: 'diff' },
        { owner: '123', repo: '456', pullNumber: 1, method: 'diff' },
      );
    }));

  it('a numeric id sent as text, negative and fractional too', () =>
    g.each(async (c) => {
      await gets(
        c,
        'numeric_id_as_text',
        { project: 'P', pullRequestId: '12345' },
        { project: 'P', pullRequestId: 12345 },
      );
      await gets(
        c,
        'numeric_id_as_text',
        { project: 'P', pullRequestId: '-3.5' },
        { project: 'P', pullRequestId: -3.5 },
      );
    }));

  it('exactly "true"/"false" become booleans; other spellings are refused', () =>
    g.each(async (c) => {
      await gets(c, 'boolean_strings', { task_gid: 't-1', completed: 'true' }, { task_gid: 't-1', completed: true });
      await gets(c, 'boolean_strings', { task_gid: 't-1', completed: 'false' }, { task_gid: 't-1', completed: false });
      for (const bad of ['TRUE', ' true', '1', 'yes']) {
        await expectRefused(g, c, 'boolean_strings', { task_gid: 't-1', completed: bad }, ['completed']);
      }
    }));

  it('a boolean inside a nullable default: "true", "null", absent; the served field accepts null', () =>
    g.each(async (c) => {
      await gets(c, 'nullable_boolean_default', { include_entity_id: 'true' }, { include_entity_id: true });
      await gets(c, 'nullable_boolean_default', { include_entity_id: 'null' }, { include_entity_id: null });
      await gets(c, 'nullable_boolean_default', {}, { include_entity_id: null });
      const verdict = ajvCheck(g.schema(c, 'nullable_boolean_default'), { include_entity_id: null });
      expect(verdict.ok, verdict.errors).toBe(true);
    }));

  it('several numbers as text; a bad one is refused by its own path only', () =>
    g.each(async (c) => {
      await gets(
        c,
        'several_numbers',
        { path: '/w/a.js', line_number: '540', lines_after: '40' },
        { path: '/w/a.js', line_number: 540, lines_after: 40 },
      );
      await expectRefused(
        g,
        c,
        'several_numbers',
        { path: '/w/a.js', line_number: '540', lines_after: '40x' },
        ['lines_after'],
        {
          notPaths: ['line_number'],
        },
      );
    }));

  it('two numbers sent as text are both repaired', () =>
    g.each(async (c) => {
      await gets(c, 'two_numbers', { a: '1', b: '9' }, { a: 1, b: 9 });
    }));

  it('a one-member union: repaired, and served as {type:number}', () =>
    g.each(async (c) => {
      await gets(c, 'one_member_union', { width: '640' }, { width: 640 });
      expect(bare(at(g.schema(c, 'one_member_union'), '/properties/width'))).toEqual({ type: 'number' });
    }));

  it('a number for a string field is refused; "1" stays a string', () =>
    g.each(async (c) => {
      servable('number_for_string');
      await expectRefused(g, c, 'number_for_string', { file: 'a.xlsx', sheet_name: 1 }, ['sheet_name']);
      await gets(c, 'number_for_string', { file: 'a.xlsx', sheet_name: '1' }, { file: 'a.xlsx', sheet_name: '1' });
    }));
});

describe('envelope and key policy', () => {
  it('no arguments member, or arguments:null, is {}', async () => {
    servable('optional_only');
    for (const args of [NO_ARGUMENTS, null]) {
      const ok = await rawOutcome(g.url, 'optional_only', args);
      expect(ok.isError, ok.text).toBe(false);
      expect(ok.received!.input).toEqual({});
      const refused = await rawOutcome(g.url, 'one_required', args);
      expect(refused.isError, refused.text).toBe(true);
      expect(refused.text).toMatch(/(?:^|[\s,;])q:/);
    }
    await g.each(async (c) => {
      await expectHandlerGets(c, 'optional_only', undefined, { input: {} });
      await expectRefused(g, c, 'one_required', undefined, ['q']);
    });
  });

  it('a tool with no parameters, called without arguments', async () => {
    servable('no_parameters');
    const out = await rawOutcome(g.url, 'no_parameters', NO_ARGUMENTS);
    expect(out.isError, out.text).toBe(false);
    expect(out.received!.input).toEqual({});
    await g.each(async (c) => {
      await expectHandlerGets(c, 'no_parameters', undefined, { input: {} });
    });
  });

  it('keys injected by the client against a strict schema are refused, nothing dropped; _meta goes in params', async () => {
    await g.each(async (c) => {
      servable('strict_injected_keys');
      await expectRefused(g, c, 'strict_injected_keys', { guid: 'G-1', tool: 'Fulltext', toolCallId: 'call_1' }, [
        'tool',
        'toolCallId',
      ]);
    });
    const out = await rawOutcome(g.url, 'strict_injected_keys', { guid: 'G-1' }, { _meta: { toolCallId: 'call_1' } });
    expect(out.isError, out.text).toBe(false);
    expect(out.received!.input).toEqual({ guid: 'G-1' });
  });

  it('an underscore key against a strict object is refused; a loose object keeps it', () =>
    g.each(async (c) => {
      servable('strict_underscore_key');
      await expectRefused(g, c, 'strict_underscore_key', { query: 'q', _as_extra: {} }, ['_as_extra']);
      await gets(c, 'loose_underscore_key', { query: 'q', _as_extra: {} }, { query: 'q', _as_extra: {} });
    }));

  it("unknown keys follow the original's key policy: stripped and open, or refused and closed", () =>
    g.each(async (c) => {
      await gets(c, 'unknown_keys_stripped', { id: 7, interval: 30, active: false }, { id: 7, interval: 30 });
      expect(g.schema(c, 'unknown_keys_stripped').additionalProperties).not.toBe(false);
      servable('unknown_keys_strict');
      await expectRefused(g, c, 'unknown_keys_strict', { id: 7, interval: 30, active: false }, ['active']);
      expect(g.schema(c, 'unknown_keys_strict').additionalProperties).toBe(false);
    }));

  it('a ZodObject input reaches the handler whole', () =>
    g.each(async (c) => {
      await gets(c, 'plain_object_input', { message: 'A' }, { message: 'A' });
      const s = g.schema(c, 'plain_object_input');
      expect(bare(at(s, '/properties/message'))).toEqual({ type: 'string' });
      expect(s.required).toEqual(['message']);
    }));

  it('a nullable list with default null: text, "null", absent; the served field accepts null', () =>
    g.each(async (c) => {
      await gets(c, 'nullable_list_default', { labels: '["a","b"]' }, { labels: ['a', 'b'] });
      await gets(c, 'nullable_list_default', { labels: 'null' }, { labels: null });
      await gets(c, 'nullable_list_default', {}, { labels: null });
      const verdict = ajvCheck(g.schema(c, 'nullable_list_default'), { labels: null });
      expect(verdict.ok, verdict.errors).toBe(true);
    }));
});

describe('the prototype keys of parsed JSON', () => {
  it('__proto__, constructor and prototype are dropped from parsed JSON', () =>
    g.each(async (c) => {
      const out = await call(c, 'record_as_text', {
        patch_content: '{"__proto__":{"polluted":1},"constructor":{"x":1},"prototype":2,"key":"value"}',
      });
      expect(out.isError, out.text).toBe(false);
      expect(out.received!.input).toEqual({ patch_content: { key: 'value' } });
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    }));
});
