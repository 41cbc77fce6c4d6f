/**
 * repair.md over real HTTP: each case is a tool named after its id, mounted with the others in one server
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
  sk_55: tags,
  sk_56: z.object({ meta: z.object({ x: z.number() }) }),
  sk_57: tags,
  sk_58: z.object({ rows: z.array(z.object({ tags: z.array(z.string()) })) }),
  sk_61: z.object({ target: z.union([z.string().min(2), z.number()]) }),
  sk_62: z.object({ target: z.union([z.array(z.string()), z.object({ a: z.string() })]) }),
  sk_66: z.object({
    data: z.record(z.string(), z.unknown()),
    opt: z.record(z.string(), z.unknown()).nullable().optional(),
    lists: z.record(z.string(), z.array(z.number())).optional(),
  }),
  sk_67: z.object({ pair: z.tuple([z.string(), z.object({ n: z.number() })]) }),
  sk_68: z.object({
    tree: z.lazy(() => z.object({ a: z.number() })),
    note: z.string().transform((s) => s.toUpperCase()),
    obj: z.object({ a: z.number() }).transform((o) => o.a),
  }),
  sk_69: z.object({ n: z.number() }),
  br_1: z.object({ patch_content: z.record(z.string(), z.unknown()) }),
  br_2: z.object({ siteId: z.string(), actions: z.array(z.record(z.string(), z.unknown())) }),
  br_3: z.object({
    parent: ParentRequest,
    properties: z.record(z.string(), z.unknown()),
  }),
  br_4: z.object({ parent: z.union([z.object({ page_id: z.string() }), z.object({ database_id: z.string() })]) }),
  br_5: z.object({ block_id: z.string(), children: z.array(z.looseObject({ type: z.string() })) }),
  br_7: z.object({
    workflow: z.object({
      nodes: z.array(z.looseObject({ name: z.string() })),
      connections: z.record(z.string(), z.unknown()),
    }),
  }),
  br_8: z.object({ params: z.object({ model: z.string(), prompt: z.string(), aspect_ratio: z.string().optional() }) }),
  br_9: z.object({ path: z.string(), target: z.array(z.string()) }),
  br_11: z.object({
    tasks: z.array(z.object({ content: z.string(), projectId: z.string(), priority: z.number().int() })),
  }),
  br_14: z.object({ issueIdOrKey: z.string(), cloudId: z.string(), fields: z.record(z.string(), z.unknown()) }),
  br_16: z.object({ tool: z.string(), arguments: z.record(z.string(), z.unknown()) }),
  br_17: z.object({
    reminders: z.array(
      z.discriminatedUnion('kind', [
        z.object({ kind: z.literal('relative'), minutes: z.number() }),
        z.object({ kind: z.literal('absolute'), at: z.string() }),
        z.object({ kind: z.literal('location'), place: z.string() }),
      ]),
    ),
  }),
  br_18: tags,
  br_20: z.object({ a: z.number().int(), b: z.unknown(), f: z.object({ database_id: z.string() }), g: z.unknown() }),
  br_21: z.object({
    owner: z.string(),
    repo: z.string(),
    pullNumber: z.number().int(),
    method: z.enum(['get', 'diff']),
  }),
  br_22: z.object({ project: z.string(), pullRequestId: z.number() }),
  br_23: z.object({ task_gid: z.string(), completed: z.boolean().optional() }),
  br_24: z.object({ include_entity_id: z.boolean().nullable().default(null) }),
  br_26: z.object({ path: z.string(), line_number: z.number(), lines_after: z.number() }),
  br_27: z.object({ a: z.number(), b: z.number() }),
  br_28: z.object({ width: z.union([z.number()]) }),
  br_30: z.object({ file: z.string(), sheet_name: z.string() }),
  br_32: z.object({ limit: z.number().optional() }),
  br_32_q: z.object({ q: z.string() }),
  br_33: z.object({}),
  br_34: z.object({ guid: z.string() }).strict(),
  br_35: z.strictObject({ query: z.string() }),
  br_35_loose: z.looseObject({ query: z.string() }),
  br_37: z.object({ id: z.number(), interval: z.number().optional() }),
  br_37_strict: z.object({ id: z.number(), interval: z.number().optional() }).strict(),
  br_38: z.object({ message: z.string() }),
  br_78: z.object({ labels: z.array(z.string()).nullable().default(null) }),
} satisfies Record<string, z.ZodType>;

const tools = Object.entries(S).map(([name, input]) => caseTool(name, input));

// The case defaults (coerceJsonArgs and coerceScalarArgs on), with policy 'warn' so that one failing
// case cannot take the others down; each case checks that it has no error-level issue.
const g = mountGroup(tools, { schemaValidation: { policy: 'warn' } });

// SK-59 needs a union root, which is served only with flattenUnionInput.
const tagged = (k: z.ZodType) =>
  z.discriminatedUnion('k', [
    z.object({ k, ids: z.array(z.number()) }),
    z.object({ k: z.literal('b'), name: z.string() }),
  ]);
const flat = mountGroup(
  [
    caseTool('sk_59', tagged(z.literal('a'))),
    caseTool('sk_59_multi', tagged(z.literal(['a', 'c']))),
    caseTool('sk_59_enum', tagged(z.enum(['a', 'c']))),
  ],
  { flattenUnionInput: true, schemaValidation: { policy: 'warn' } },
);
const jsonOff = mountGroup([caseTool('sk_70', tags)], { coerceJsonArgs: false });
const scalarsOff = mountGroup([caseTool('sk_69', S.sk_69)], { coerceScalarArgs: false });

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
  it('SK-55 a top-level array sent as text', () =>
    g.each(async (c) => {
      await gets(c, 'sk_55', { tags: '["a","b"]' }, { tags: ['a', 'b'] });
    }));

  it('SK-56 an object field sent as text', () =>
    g.each(async (c) => {
      await gets(c, 'sk_56', { meta: '{"x":42}' }, { meta: { x: 42 } });
    }));

  it('SK-57 text that is not JSON is left as sent and refused naming tags', () =>
    g.each(async (c) => {
      servable('sk_57');
      const text = await expectRefused(g, c, 'sk_57', { tags: 'not-json' }, ['tags']);
      expect(text).toMatch(/string/);
    }));

  it('SK-58 depth, and JSON text inside parsed JSON', () =>
    g.each(async (c) => {
      await gets(c, 'sk_58', { rows: [{ tags: '["a"]' }] }, { rows: [{ tags: ['a'] }] });
      await gets(c, 'sk_58', { rows: '[{"tags":"[\\"a\\"]"}]' }, { rows: [{ tags: ['a'] }] });
    }));

  it('SK-59 repair inside the variant the tag selects; an unknown tag is left untouched', () =>
    flat.each(async (c) => {
      for (const name of ['sk_59', 'sk_59_multi', 'sk_59_enum']) {
        expect(errorsOf(flat.report, name), name).toEqual([]);
        await expectHandlerGets(c, name, { k: 'a', ids: '[1,2]' }, { input: { k: 'a', ids: [1, 2] } });
      }
      await expectHandlerGets(c, 'sk_59_multi', { k: 'c', ids: '[1,2]' }, { input: { k: 'c', ids: [1, 2] } });
      await expectHandlerGets(c, 'sk_59_enum', { k: 'c', ids: '[1,2]' }, { input: { k: 'c', ids: [1, 2] } });
      flat.onCall.mockClear();
      await expectRefused(flat, c, 'sk_59', { k: 'z', ids: '[1,2]' }, ['k']);
      const events = flat.onCall.mock.calls.map(([e]) => e);
      expect(events).toHaveLength(1);
      expect(events[0].repairs, 'nothing repaired under an unknown tag').toEqual([]);
    }));

  it('SK-61 a union with a plain string member keeps the string', () =>
    g.each(async (c) => {
      await gets(c, 'sk_61', { target: '123' }, { target: '123' });
    }));

  it('SK-62 a union with no string member parses the text', () =>
    g.each(async (c) => {
      await gets(c, 'sk_62', { target: '["a","b"]' }, { target: ['a', 'b'] });
      await gets(c, 'sk_62', { target: '{"a":"x"}' }, { target: { a: 'x' } });
    }));

  it('SK-66 records, and the values inside them', () =>
    g.each(async (c) => {
      await gets(
        c,
        'sk_66',
        { data: '{"k":1}', opt: '{"m":2}', lists: { x: '[1,2]' } },
        { data: { k: 1 }, opt: { m: 2 }, lists: { x: [1, 2] } },
      );
    }));

  it('SK-67 tuples, and the items inside them', () =>
    g.each(async (c) => {
      await gets(c, 'sk_67', { pair: '["a",{"n":1}]' }, { pair: ['a', { n: 1 }] });
      await gets(c, 'sk_67', { pair: ['a', '{"n":1}'] }, { pair: ['a', { n: 1 }] });
    }));

  it('SK-68 lazy, pipe and transform: judged by the input side, transforms run once', () =>
    g.each(async (c) => {
      await gets(
        c,
        'sk_68',
        { tree: '{"a":1}', note: '{"a":1}', obj: '{"a":1}' },
        { tree: { a: 1 }, note: '{"A":1}', obj: 1 },
      );
    }));

  it('SK-70 repair switched off: the text is refused naming tags', () =>
    jsonOff.each(async (c) => {
      expect(errorsOf(jsonOff.report, 'sk_70')).toEqual([]);
      await expectRefused(jsonOff, c, 'sk_70', { tags: '["a"]' }, ['tags']);
    }));

  it('BR-1 a record sent as text', () =>
    g.each(async (c) => {
      await gets(c, 'br_1', { patch_content: '{"key": "value"}' }, { patch_content: { key: 'value' } });
    }));

  it('BR-2 an array of records sent as text; siteId untouched', () =>
    g.each(async (c) => {
      await gets(
        c,
        'br_2',
        { siteId: 'site-1', actions: '[{"get_all_elements":{"query":"all"}}]' },
        { siteId: 'site-1', actions: [{ get_all_elements: { query: 'all' } }] },
      );
    }));

  it('BR-3 a field served as $ref is repaired; properties pass through', () =>
    g.each(async (c) => {
      await gets(
        c,
        'br_3',
        { parent: '{"data_source_id":"ds-1"}', properties: { Name: { title: [] } } },
        { parent: { data_source_id: 'ds-1' }, properties: { Name: { title: [] } } },
      );
    }));

  it('BR-4 a plain union of objects: no member accepts a string, so the text is parsed', () =>
    g.each(async (c) => {
      await gets(c, 'br_4', { parent: '{"database_id":"db-1"}' }, { parent: { database_id: 'db-1' } });
    }));

  it('BR-5 arrays as well as objects: loose items keep their extra keys', () =>
    g.each(async (c) => {
      await gets(
        c,
        'br_5',
        { block_id: 'b-1', children: '[{"type":"paragraph","paragraph":{"rich_text":[]}}]' },
        { block_id: 'b-1', children: [{ type: 'paragraph', paragraph: { rich_text: [] } }] },
      );
    }));

  it('BR-7 parsed JSON that holds more JSON text', () =>
    g.each(async (c) => {
      await gets(
        c,
        'br_7',
        { workflow: '{"nodes":"[{\\"name\\":\\"Start\\"}]","connections":"{}"}' },
        { workflow: { nodes: [{ name: 'Start' }], connections: {} } },
      );
    }));

  it('BR-8 a single object argument named params, stringified', () =>
    g.each(async (c) => {
      const received = await gets(
        c,
        'br_8',
        { params: '{"model":"m1","prompt":"a cat","aspect_ratio":"4:5"}' },
        { params: { model: 'm1', prompt: 'a cat', aspect_ratio: '4:5' } },
      );
      expect(received.params, 'the params slice stays empty').toEqual({});
    }));

  it('BR-9 text introduced by a proxy hop; path untouched', () =>
    g.each(async (c) => {
      await gets(c, 'br_9', { path: 'note.md', target: '["Purpose"]' }, { path: 'note.md', target: ['Purpose'] });
    }));

  it('BR-11 pretty-printed JSON text', () =>
    g.each(async (c) => {
      await gets(
        c,
        'br_11',
        { tasks: '[\n  {\n    "content": "Task A",\n    "projectId": "p1",\n    "priority": 3\n  }\n]' },
        { tasks: [{ content: 'Task A', projectId: 'p1', priority: 3 }] },
      );
    }));

  it('BR-14 the same fault from another model family; string fields untouched', () =>
    g.each(async (c) => {
      await gets(
        c,
        'br_14',
        { issueIdOrKey: 'PROJ-1', cloudId: 'c-1', fields: '{"description":"text"}' },
        { issueIdOrKey: 'PROJ-1', cloudId: 'c-1', fields: { description: 'text' } },
      );
    }));

  it('BR-16 long markdown inside a record keeps its whitespace; bad text is refused by path', () =>
    g.each(async (c) => {
      const prompt = '# Title\n\n    code block\n- item';
      await gets(
        c,
        'br_16',
        { tool: 'create_session', arguments: JSON.stringify({ boardId: 'b-1', initialPrompt: prompt }) },
        { tool: 'create_session', arguments: { boardId: 'b-1', initialPrompt: prompt } },
      );
      await expectRefused(g, c, 'br_16', { tool: 't', arguments: '[1,2]' }, ['arguments']);
      await expectRefused(g, c, 'br_16', { tool: 't', arguments: '{"a":' }, ['arguments']);
    }));

  it('BR-17 an array of union items sent as text; scalar repair inside the selected variant', () =>
    g.each(async (c) => {
      const want = { reminders: [{ kind: 'relative', minutes: 10 }] };
      await gets(c, 'br_17', { reminders: '[{"kind":"relative","minutes":10}]' }, want);
      await gets(c, 'br_17', { reminders: [{ kind: 'relative', minutes: '10' }] }, want);
    }));

  it('BR-18 a string never reaches an array argument', () =>
    g.each(async (c) => {
      await gets(c, 'br_18', { tags: '["customer","vip"]' }, { tags: ['customer', 'vip'] });
      await expectRefused(g, c, 'br_18', { tags: 'customer' }, ['tags']);
    }));

  it('BR-20 untyped fields are never touched', () =>
    g.each(async (c) => {
      const args = { a: 8, b: '8', f: { database_id: 'abc123' }, g: '{"database_id":"abc123"}' };
      await gets(c, 'br_20', args, args);
    }));
});

describe('scalars', () => {
  it('SK-69 a number sent as text is repaired; with coerceScalarArgs:false it is refused', async () => {
    await g.each(async (c) => {
      await gets(c, 'sk_69', { n: '1' }, { n: 1 });
    });
    await scalarsOff.each(async (c) => {
      expect(errorsOf(scalarsOff.report, 'sk_69')).toEqual([]);
      await expectRefused(scalarsOff, c, 'sk_69', { n: '1' }, ['n']);
    });
  });

  it('BR-21 numeric strings for number fields only; non-canonical numbers refused', () =>
    g.each(async (c) => {
      await gets(
        c,
        'br_21',
        { owner: 'o', repo: 'r', pullNumber: '5812', method: 'get' },
        { owner: 'o', repo: 'r', pullNumber: 5812, method: 'get' },
      );
      for (const bad of ['58x', '', ' 7', '0x10', '1e400', '5.5', '12abc']) {
        await expectRefused(g, c, 'br_21', { owner: 'o', repo: 'r', pullNumber: bad, method: 'get' }, ['pullNumber']);
      }
      await gets(
        c,
        'br_21',
        { owner: '123', repo: '456', pullNumber: 1, method: 'diff' },
        { owner: '123', repo: '456', pullNumber: 1, method: 'diff' },
      );
    }));

  it('BR-22 a numeric id sent as text, negative and fractional too', () =>
    g.each(async (c) => {
      await gets(c, 'br_22', { project: 'P', pullRequestId: '12345' }, { project: 'P', pullRequestId: 12345 });
      await gets(c, 'br_22', { project: 'P', pullRequestId: '-3.5' }, { project: 'P', pullRequestId: -3.5 });
    }));

  it('BR-23 exactly "true"/"false" become booleans; other spellings are refused', () =>
    g.each(async (c) => {
      await gets(c, 'br_23', { task_gid: 't-1', completed: 'true' }, { task_gid: 't-1', completed: true });
      await gets(c, 'br_23', { task_gid: 't-1', completed: 'false' }, { task_gid: 't-1', completed: false });
      for (const bad of ['TRUE', ' true', '1', 'yes']) {
        await expectRefused(g, c, 'br_23', { task_gid: 't-1', completed: bad }, ['completed']);
      }
    }));

  it('BR-24 a boolean inside a nullable default: "true", "null", absent; the served field accepts null', () =>
    g.each(async (c) => {
      await gets(c, 'br_24', { include_entity_id: 'true' }, { include_entity_id: true });
      await gets(c, 'br_24', { include_entity_id: 'null' }, { include_entity_id: null });
      await gets(c, 'br_24', {}, { include_entity_id: null });
      const verdict = ajvCheck(g.schema(c, 'br_24'), { include_entity_id: null });
      expect(verdict.ok, verdict.errors).toBe(true);
    }));

  it('BR-26 several numbers as text; a bad one is refused by its own path only', () =>
    g.each(async (c) => {
      await gets(
        c,
        'br_26',
        { path: '/w/a.js', line_number: '540', lines_after: '40' },
        { path: '/w/a.js', line_number: 540, lines_after: 40 },
      );
      await expectRefused(g, c, 'br_26', { path: '/w/a.js', line_number: '540', lines_after: '40x' }, ['lines_after'], {
        notPaths: ['line_number'],
      });
    }));

  it('BR-27 numbers from a small local model', () =>
    g.each(async (c) => {
      await gets(c, 'br_27', { a: '1', b: '9' }, { a: 1, b: 9 });
    }));

  it('BR-28 a one-member union: repaired, and served as {type:number}', () =>
    g.each(async (c) => {
      await gets(c, 'br_28', { width: '640' }, { width: 640 });
      expect(bare(at(g.schema(c, 'br_28'), '/properties/width'))).toEqual({ type: 'number' });
    }));

  it('BR-30 a number for a string field is refused; "1" stays a string', () =>
    g.each(async (c) => {
      servable('br_30');
      await expectRefused(g, c, 'br_30', { file: 'a.xlsx', sheet_name: 1 }, ['sheet_name']);
      await gets(c, 'br_30', { file: 'a.xlsx', sheet_name: '1' }, { file: 'a.xlsx', sheet_name: '1' });
    }));
});

describe('envelope and key policy', () => {
  it('BR-32 no arguments member, or arguments:null, is {}', async () => {
    servable('br_32');
    for (const args of [NO_ARGUMENTS, null]) {
      const ok = await rawOutcome(g.url, 'br_32', args);
      expect(ok.isError, ok.text).toBe(false);
      expect(ok.received!.input).toEqual({});
      const refused = await rawOutcome(g.url, 'br_32_q', args);
      expect(refused.isError, refused.text).toBe(true);
      expect(refused.text).toMatch(/(?:^|[\s,;])q:/);
    }
    await g.each(async (c) => {
      await expectHandlerGets(c, 'br_32', undefined, { input: {} });
      await expectRefused(g, c, 'br_32_q', undefined, ['q']);
    });
  });

  it('BR-33 a tool with no parameters, called without arguments', async () => {
    servable('br_33');
    const out = await rawOutcome(g.url, 'br_33', NO_ARGUMENTS);
    expect(out.isError, out.text).toBe(false);
    expect(out.received!.input).toEqual({});
    await g.each(async (c) => {
      await expectHandlerGets(c, 'br_33', undefined, { input: {} });
    });
  });

  it('BR-34 keys injected by the client against a strict schema are refused, nothing dropped; _meta goes in params', async () => {
    await g.each(async (c) => {
      servable('br_34');
      await expectRefused(g, c, 'br_34', { guid: 'G-1', tool: 'Fulltext', toolCallId: 'call_1' }, [
        'tool',
        'toolCallId',
      ]);
    });
    const out = await rawOutcome(g.url, 'br_34', { guid: 'G-1' }, { _meta: { toolCallId: 'call_1' } });
    expect(out.isError, out.text).toBe(false);
    expect(out.received!.input).toEqual({ guid: 'G-1' });
  });

  it('BR-35 an underscore key against a strict object is refused; a loose object keeps it', () =>
    g.each(async (c) => {
      servable('br_35');
      await expectRefused(g, c, 'br_35', { query: 'q', _as_extra: {} }, ['_as_extra']);
      await gets(c, 'br_35_loose', { query: 'q', _as_extra: {} }, { query: 'q', _as_extra: {} });
    }));

  it("BR-37 unknown keys follow the original's key policy: stripped and open, or refused and closed", () =>
    g.each(async (c) => {
      await gets(c, 'br_37', { id: 7, interval: 30, active: false }, { id: 7, interval: 30 });
      expect(g.schema(c, 'br_37').additionalProperties).not.toBe(false);
      servable('br_37_strict');
      await expectRefused(g, c, 'br_37_strict', { id: 7, interval: 30, active: false }, ['active']);
      expect(g.schema(c, 'br_37_strict').additionalProperties).toBe(false);
    }));

  it('BR-38 a ZodObject input reaches the handler whole', () =>
    g.each(async (c) => {
      await gets(c, 'br_38', { message: 'A' }, { message: 'A' });
      const s = g.schema(c, 'br_38');
      expect(bare(at(s, '/properties/message'))).toEqual({ type: 'string' });
      expect(s.required).toEqual(['message']);
    }));

  it('BR-78 a nullable list with default null: text, "null", absent; the served field accepts null', () =>
    g.each(async (c) => {
      await gets(c, 'br_78', { labels: '["a","b"]' }, { labels: ['a', 'b'] });
      await gets(c, 'br_78', { labels: 'null' }, { labels: null });
      await gets(c, 'br_78', {}, { labels: null });
      const verdict = ajvCheck(g.schema(c, 'br_78'), { labels: null });
      expect(verdict.ok, verdict.errors).toBe(true);
    }));
});

describe('the prototype keys of parsed JSON', () => {
  it('__proto__, constructor and prototype are dropped from parsed JSON', () =>
    g.each(async (c) => {
      const out = await call(c, 'br_1', {
        patch_content: '{"__proto__":{"polluted":1},"constructor":{"x":1},"prototype":2,"key":"value"}',
      });
      expect(out.isError, out.text).toBe(false);
      expect(out.received!.input).toEqual({ patch_content: { key: 'value' } });
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    }));
});
