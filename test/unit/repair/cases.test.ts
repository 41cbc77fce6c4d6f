/**
 * Every repair case at unit level: repair, then the single Zod parse. The HTTP versions are in
 * test/cases/repair.test.ts; here each listed input is checked exactly as the case states.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ParentRequest } from '../../support/models.js';
import { call, names, wire } from './helpers.js';

describe('repair: structures', () => {
  it('an array field sent as text is parsed', () => {
    const r = call(z.object({ tags: z.array(z.string()) }), wire('{"tags":"[\\"a\\",\\"b\\"]"}'));
    expect(r.data).toEqual({ tags: ['a', 'b'] });
    expect(r.repair.repairs).toEqual([{ path: 'tags', from: 'json-string' }]);
  });

  it('an object field sent as text is parsed', () => {
    const r = call(z.object({ meta: z.object({ x: z.number() }) }), wire('{"meta":"{\\"x\\":42}"}'));
    expect(r.data).toEqual({ meta: { x: 42 } });
  });

  it('text that is not JSON is left as sent and refused by path', () => {
    const sent = wire('{"tags":"not-json"}');
    const r = call(z.object({ tags: z.array(z.string()) }), sent);
    expect(r.repair.value).toBe(sent);
    expect(r.ok).toBe(false);
    expect(names(r.lines, 'tags')).toBe(true);
  });

  it('an array sent as text at depth, and inside an array that was itself sent as text', () => {
    const schema = z.object({ rows: z.array(z.object({ tags: z.array(z.string()) })) });
    expect(call(schema, wire('{"rows":[{"tags":"[\\"a\\"]"}]}')).data).toEqual({ rows: [{ tags: ['a'] }] });
    const second = call(schema, wire('{"rows":"[{\\"tags\\":\\"[\\\\\\"a\\\\\\"]\\"}]"}'));
    expect(second.data).toEqual({ rows: [{ tags: ['a'] }] });
    // rows is parsed first, then the walk continues into the parsed value.
    expect(second.repair.repairs.map((x) => x.path)).toEqual(['rows', 'rows[0].tags']);
  });

  describe('repair inside the variant the tag selects', () => {
    const schema = z.discriminatedUnion('k', [
      z.object({ k: z.literal('a'), ids: z.array(z.number()) }),
      z.object({ k: z.literal('b'), name: z.string() }),
    ]);
    it('a known tag', () => {
      expect(call(schema, wire('{"k":"a","ids":"[1,2]"}')).data).toEqual({ k: 'a', ids: [1, 2] });
    });
    it('an unknown tag is left untouched and refused naming k', () => {
      const sent = wire('{"k":"z","ids":"[1,2]"}');
      const r = call(schema, sent);
      expect(r.repair.value).toBe(sent);
      expect(r.repair.repairs).toEqual([]);
      expect(names(r.lines, 'k')).toBe(true);
    });
    it('multi-value literal tags select their variant', () => {
      const multi = z.discriminatedUnion('k', [
        z.object({ k: z.literal(['a', 'aa']), ids: z.array(z.number()) }),
        z.object({ k: z.literal('b'), name: z.string() }),
      ]);
      expect(call(multi, { k: 'aa', ids: '[3]' }).data).toEqual({ k: 'aa', ids: [3] });
    });
    it('z.enum tags select their variant', () => {
      const en = z.discriminatedUnion('k', [
        z.object({ k: z.enum(['a', 'c']), ids: z.array(z.number()) }),
        z.object({ k: z.literal('b'), ids: z.string() }),
      ]);
      expect(call(en, { k: 'c', ids: '[3]' }).data).toEqual({ k: 'c', ids: [3] });
      // In variant b the same field is a string: the text stays.
      expect(call(en, { k: 'b', ids: '[3]' }).data).toEqual({ k: 'b', ids: '[3]' });
    });
  });

  it('a union with a plain string member keeps the string', () => {
    const r = call(z.object({ target: z.union([z.string().min(2), z.number()]) }), wire('{"target":"123"}'));
    expect(r.data).toEqual({ target: '123' });
    expect(r.repair.repairs).toEqual([]);
  });

  it('a union with no string member parses the text', () => {
    const schema = z.object({ target: z.union([z.array(z.string()), z.object({ a: z.string() })]) });
    expect(call(schema, wire('{"target":"[\\"a\\",\\"b\\"]"}')).data).toEqual({ target: ['a', 'b'] });
    expect(call(schema, wire('{"target":"{\\"a\\":\\"x\\"}"}')).data).toEqual({ target: { a: 'x' } });
  });

  it('records sent as text, and the values inside them', () => {
    const schema = z.object({
      data: z.record(z.string(), z.unknown()),
      opt: z.record(z.string(), z.unknown()).nullable().optional(),
      lists: z.record(z.string(), z.array(z.number())).optional(),
    });
    const r = call(schema, wire('{"data":"{\\"k\\":1}","opt":"{\\"m\\":2}","lists":{"x":"[1,2]"}}'));
    expect(r.data).toEqual({ data: { k: 1 }, opt: { m: 2 }, lists: { x: [1, 2] } });
  });

  it('tuples sent as text, and the items inside them', () => {
    const schema = z.object({ pair: z.tuple([z.string(), z.object({ n: z.number() })]) });
    expect(call(schema, wire('{"pair":"[\\"a\\",{\\"n\\":1}]"}')).data).toEqual({ pair: ['a', { n: 1 }] });
    expect(call(schema, wire('{"pair":["a","{\\"n\\":1}"]}')).data).toEqual({ pair: ['a', { n: 1 }] });
  });

  it('lazy, piped and transformed fields sent as text: judged by the input side, transforms run once in the parse', () => {
    let noteRuns = 0;
    let objRuns = 0;
    const schema = z.object({
      tree: z.lazy(() => z.object({ a: z.number() })),
      note: z.string().transform((s) => {
        noteRuns++;
        return s.toUpperCase();
      }),
      obj: z.object({ a: z.number() }).transform((o) => {
        objRuns++;
        return o.a;
      }),
    });
    const r = call(schema, wire('{"tree":"{\\"a\\":1}","note":"{\\"a\\":1}","obj":"{\\"a\\":1}"}'));
    expect(r.data).toEqual({ tree: { a: 1 }, note: '{"A":1}', obj: 1 });
    expect(noteRuns).toBe(1);
    expect(objRuns).toBe(1);
  });

  it('with JSON repair off, an array sent as text is refused naming tags', () => {
    const r = call(z.object({ tags: z.array(z.string()) }), wire('{"tags":"[\\"a\\"]"}'), { json: false });
    expect(r.ok).toBe(false);
    expect(names(r.lines, 'tags')).toBe(true);
  });

  it('a record sent as text is parsed', () => {
    const r = call(
      z.object({ patch_content: z.record(z.string(), z.unknown()) }),
      wire('{"patch_content":"{\\"key\\": \\"value\\"}"}'),
    );
    expect(r.data).toEqual({ patch_content: { key: 'value' } });
  });

  it('an array of records sent as text is parsed; the string id is untouched', () => {
    const schema = z.object({ siteId: z.string(), actions: z.array(z.record(z.string(), z.unknown())) });
    const r = call(schema, wire('{"siteId":"site-1","actions":"[{\\"get_all_elements\\":{\\"query\\":\\"all\\"}}]"}'));
    expect(r.data).toEqual({ siteId: 'site-1', actions: [{ get_all_elements: { query: 'all' } }] });
  });

  it('a field with a registered id ($ref when served) is repaired like any object', () => {
    const schema = z.object({ parent: ParentRequest, properties: z.record(z.string(), z.unknown()) });
    const sent = wire('{"parent":"{\\"data_source_id\\":\\"ds-1\\"}","properties":{"Name":{"title":[]}}}') as any;
    const r = call(schema, sent);
    expect(r.data).toEqual({ parent: { data_source_id: 'ds-1' }, properties: { Name: { title: [] } } });
    expect((r.repair.value as any).properties).toBe(sent.properties);
  });

  it('a plain union of objects sent as text: no member accepts a string, so the text is parsed', () => {
    const schema = z.object({
      parent: z.union([z.object({ page_id: z.string() }), z.object({ database_id: z.string() })]),
    });
    expect(call(schema, wire('{"parent":"{\\"database_id\\":\\"db-1\\"}"}')).data).toEqual({
      parent: { database_id: 'db-1' },
    });
  });

  it('arrays as well as objects; loose items keep their extra keys', () => {
    const schema = z.object({ block_id: z.string(), children: z.array(z.looseObject({ type: z.string() })) });
    const r = call(
      schema,
      wire('{"block_id":"b-1","children":"[{\\"type\\":\\"paragraph\\",\\"paragraph\\":{\\"rich_text\\":[]}}]"}'),
    );
    expect(r.data).toEqual({ block_id: 'b-1', children: [{ type: 'paragraph', paragraph: { rich_text: [] } }] });
    // The same kind with an object in place of the array.
    const obj = z.object({ child: z.looseObject({ type: z.string() }) });
    expect(call(obj, { child: '{"type":"p","extra":1}' }).data).toEqual({ child: { type: 'p', extra: 1 } });
  });

  it('an object sent as text whose fields are JSON text themselves', () => {
    const schema = z.object({
      workflow: z.object({
        nodes: z.array(z.looseObject({ name: z.string() })),
        connections: z.record(z.string(), z.unknown()),
      }),
    });
    const r = call(
      schema,
      wire('{"workflow":"{\\"nodes\\":\\"[{\\\\\\"name\\\\\\":\\\\\\"Start\\\\\\"}]\\",\\"connections\\":\\"{}\\"}"}'),
    );
    expect(r.data).toEqual({ workflow: { nodes: [{ name: 'Start' }], connections: {} } });
  });

  it('an ordinary input key named params, sent as text, is parsed', () => {
    const schema = z.object({
      params: z.object({ model: z.string(), prompt: z.string(), aspect_ratio: z.string().optional() }),
    });
    const r = call(
      schema,
      wire('{"params":"{\\"model\\":\\"m1\\",\\"prompt\\":\\"a cat\\",\\"aspect_ratio\\":\\"4:5\\"}"}'),
    );
    expect(r.data).toEqual({ params: { model: 'm1', prompt: 'a cat', aspect_ratio: '4:5' } });
  });

  it('an array sent as text beside a string field: the array is parsed, the string untouched', () => {
    const r = call(
      z.object({ path: z.string(), target: z.array(z.string()) }),
      wire('{"path":"note.txt","target":"[\\"Purpose\\"]"}'),
    );
    expect(r.data).toEqual({ path: 'note.txt', target: ['Purpose'] });
  });

  it('pretty-printed JSON text is parsed', () => {
    const schema = z.object({
      tasks: z.array(z.object({ content: z.string(), projectId: z.string(), priority: z.number().int() })),
    });
    const sent = {
      tasks: '[\n  {\n    "content": "Task A",\n    "projectId": "p1",\n    "priority": 3\n  }\n]',
    };
    expect(call(schema, sent).data).toEqual({ tasks: [{ content: 'Task A', projectId: 'p1', priority: 3 }] });
  });

  it('an object sent as text beside id-like string fields: only the object is parsed', () => {
    const schema = z.object({
      issueIdOrKey: z.string(),
      cloudId: z.string(),
      fields: z.record(z.string(), z.unknown()),
    });
    const r = call(schema, wire('{"issueIdOrKey":"PROJ-1","cloudId":"c-1","fields":"{\\"description\\":\\"text\\"}"}'));
    expect(r.data).toEqual({ issueIdOrKey: 'PROJ-1', cloudId: 'c-1', fields: { description: 'text' } });
  });

  describe('long markdown inside a record, and bad text refused by path', () => {
    const schema = z.object({ tool: z.string(), arguments: z.record(z.string(), z.unknown()) });
    it('keeps newlines and indentation', () => {
      const r = call(
        schema,
        wire(
          '{"tool":"create_session","arguments":"{\\"boardId\\":\\"b-1\\",\\"initialPrompt\\":\\"# Title\\\\n\\\\n    code block\\\\n- item\\"}"}',
        ),
      );
      expect(r.data).toEqual({
        tool: 'create_session',
        arguments: { boardId: 'b-1', initialPrompt: '# Title\n\n    code block\n- item' },
      });
    });
    it('JSON of the wrong kind', () => {
      const r = call(schema, wire('{"tool":"t","arguments":"[1,2]"}'));
      expect(r.ok).toBe(false);
      expect(names(r.lines, 'arguments')).toBe(true);
    });
    it('text that is not JSON', () => {
      const r = call(schema, wire('{"tool":"t","arguments":"{\\"a\\":"}'));
      expect(r.ok).toBe(false);
      expect(names(r.lines, 'arguments')).toBe(true);
    });
  });

  it('an array of union items sent as text, and scalar repair inside the chosen variant', () => {
    const schema = z.object({
      reminders: z.array(
        z.discriminatedUnion('kind', [
          z.object({ kind: z.literal('relative'), minutes: z.number() }),
          z.object({ kind: z.literal('absolute'), at: z.string() }),
          z.object({ kind: z.literal('location'), place: z.string() }),
        ]),
      ),
    });
    const want = { reminders: [{ kind: 'relative', minutes: 10 }] };
    expect(call(schema, wire('{"reminders":"[{\\"kind\\":\\"relative\\",\\"minutes\\":10}]"}')).data).toEqual(want);
    expect(call(schema, wire('{"reminders":[{"kind":"relative","minutes":"10"}]}')).data).toEqual(want);
  });

  it('a string never reaches an array argument of the handler', () => {
    const schema = z.object({ tags: z.array(z.string()) });
    expect(call(schema, wire('{"tags":"[\\"customer\\",\\"vip\\"]"}')).data).toEqual({ tags: ['customer', 'vip'] });
    const r = call(schema, wire('{"tags":"customer"}'));
    expect(r.ok).toBe(false);
    expect(names(r.lines, 'tags')).toBe(true);
    // Never wrapped into ["customer"].
    expect(r.repair.value).toEqual({ tags: 'customer' });
  });

  it('untyped fields are never touched', () => {
    const schema = z.object({
      a: z.number().int(),
      b: z.unknown(),
      f: z.object({ database_id: z.string() }),
      g: z.unknown(),
    });
    const r = call(schema, wire('{"a":8,"b":"8","f":{"database_id":"abc123"},"g":"{\\"database_id\\":\\"abc123\\"}"}'));
    expect(r.data).toEqual({ a: 8, b: '8', f: { database_id: 'abc123' }, g: '{"database_id":"abc123"}' });
  });
});

describe('repair: scalars', () => {
  it('a number sent as text is repaired, and refused with scalar repair off', () => {
    const schema = z.object({ n: z.number() });
    expect(call(schema, wire('{"n":"1"}')).data).toEqual({ n: 1 });
    const off = call(schema, wire('{"n":"1"}'), { scalars: false });
    expect(off.ok).toBe(false);
    expect(names(off.lines, 'n')).toBe(true);
  });

  describe('numeric strings, for number fields only', () => {
    const schema = z.object({
      owner: z.string(),
      repo: z.string(),
      pullNumber: z.number().int(),
      method: z.enum(['get', 'diff']),
    });
    it('converts a canonical integer', () => {
      expect(call(schema, wire('{"owner":"o","repo":"r","pullNumber":"5812","method":"get"}')).data).toEqual({
        owner: 'o',
        repo: 'r',
        pullNumber: 5812,
        method: 'get',
      });
    });
    it.each(['58x', '', ' 7', '0x10', '1e400', '5.5', '12abc'])('refuses %j naming pullNumber', (bad) => {
      const r = call(schema, { owner: 'o', repo: 'r', pullNumber: bad, method: 'get' });
      expect(r.ok).toBe(false);
      expect(names(r.lines, 'pullNumber')).toBe(true);
      expect((r.repair.value as any).pullNumber).toBe(bad);
    });
    it('string fields stay strings even when they look numeric', () => {
      expect(call(schema, { owner: '123', repo: '456', pullNumber: 1, method: 'get' }).data).toEqual({
        owner: '123',
        repo: '456',
        pullNumber: 1,
        method: 'get',
      });
    });
  });

  it.each(['9007199254740993', '0.12345678901234567890123', '123456789012345678901234567890'])(
    'a number that would lose digits, %j, is left as text and refused by path',
    (text) => {
      const r = call(z.object({ id: z.number() }), { id: text });
      expect(r.repair.repairs).toEqual([]);
      expect((r.repair.value as any).id).toBe(text);
      expect(r.ok).toBe(false);
      expect(r.lines).toEqual(['id: expected number, received string']);
    },
  );

  it('a number the double holds exactly as written still converts', () => {
    const schema = z.object({ id: z.number(), x: z.number() });
    expect(call(schema, { id: '9007199254740992', x: '0.30000000000000004' }).data).toEqual({
      id: 9007199254740992,
      x: 0.30000000000000004,
    });
  });

  it('a numeric id sent as text, integer and negative decimal', () => {
    const schema = z.object({ project: z.string(), pullRequestId: z.number() });
    expect(call(schema, wire('{"project":"P","pullRequestId":"12345"}')).data).toEqual({
      project: 'P',
      pullRequestId: 12345,
    });
    expect(call(schema, wire('{"project":"P","pullRequestId":"-3.5"}')).data).toEqual({
      project: 'P',
      pullRequestId: -3.5,
    });
  });

  describe('a boolean sent as text', () => {
    const schema = z.object({ task_gid: z.string(), completed: z.boolean().optional() });
    it('exact spellings only', () => {
      expect(call(schema, wire('{"task_gid":"t-1","completed":"true"}')).data).toEqual({
        task_gid: 't-1',
        completed: true,
      });
      expect(call(schema, wire('{"task_gid":"t-1","completed":"false"}')).data).toEqual({
        task_gid: 't-1',
        completed: false,
      });
    });
    it.each(['TRUE', ' true', '1', 'yes'])('refuses %j naming completed', (bad) => {
      const r = call(schema, { task_gid: 't-1', completed: bad });
      expect(r.ok).toBe(false);
      expect(names(r.lines, 'completed')).toBe(true);
    });
  });

  it('a boolean inside a nullable default', () => {
    const schema = z.object({ include_entity_id: z.boolean().nullable().default(null) });
    expect(call(schema, wire('{"include_entity_id":"true"}')).data).toEqual({ include_entity_id: true });
    expect(call(schema, wire('{"include_entity_id":"null"}')).data).toEqual({ include_entity_id: null });
    expect(call(schema, wire('{}')).data).toEqual({ include_entity_id: null });
  });

  it('several numbers as text in one call, and only the bad one named', () => {
    const schema = z.object({ path: z.string(), line_number: z.number(), lines_after: z.number() });
    expect(call(schema, wire('{"path":"/w/a.js","line_number":"540","lines_after":"40"}')).data).toEqual({
      path: '/w/a.js',
      line_number: 540,
      lines_after: 40,
    });
    const r = call(schema, wire('{"path":"/w/a.js","line_number":"540","lines_after":"40x"}'));
    expect(r.ok).toBe(false);
    expect(names(r.lines, 'lines_after')).toBe(true);
    expect(names(r.lines, 'line_number')).toBe(false);
  });

  it('two numbers sent as text are both repaired', () => {
    expect(call(z.object({ a: z.number(), b: z.number() }), wire('{"a":"1","b":"9"}')).data).toEqual({ a: 1, b: 9 });
  });

  it('a one-member union is repaired like its member', () => {
    expect(call(z.object({ width: z.union([z.number()]) }), wire('{"width":"640"}')).data).toEqual({ width: 640 });
  });

  it('a number sent for a string field is never stringified', () => {
    const schema = z.object({ file: z.string(), sheet_name: z.string() });
    const r = call(schema, wire('{"file":"a.xlsx","sheet_name":1}'));
    expect(r.ok).toBe(false);
    expect(names(r.lines, 'sheet_name')).toBe(true);
    expect(call(schema, wire('{"file":"a.xlsx","sheet_name":"1"}')).data).toEqual({ file: 'a.xlsx', sheet_name: '1' });
  });
});

describe('repair: envelope and key policy (repair adds nothing of its own)', () => {
  it('repair leaves absent or null arguments as they are (the envelope maps them to {})', () => {
    const schema = z.object({ limit: z.number().optional() });
    expect(call(schema, {}).data).toEqual({});
    expect(call(z.object({}), {}).data).toEqual({});
    const q = call(z.object({ q: z.string() }), {});
    expect(names(q.lines, 'q')).toBe(true);
  });

  it('injected keys against a strict schema are named, not dropped', () => {
    const r = call(
      z.object({ guid: z.string() }).strict(),
      wire('{"guid":"G-1","tool":"Fulltext","toolCallId":"call_1"}'),
    );
    expect(r.ok).toBe(false);
    expect(names(r.lines, 'tool')).toBe(true);
    expect(names(r.lines, 'toolCallId')).toBe(true);
    expect(r.repair.repairs).toEqual([]);
  });

  it('an underscore key: strict refuses it by name, loose keeps it', () => {
    const strict = call(z.strictObject({ query: z.string() }), wire('{"query":"q","_as_extra":{}}'));
    expect(names(strict.lines, '_as_extra')).toBe(true);
    expect(call(z.looseObject({ query: z.string() }), wire('{"query":"q","_as_extra":{}}')).data).toEqual({
      query: 'q',
      _as_extra: {},
    });
  });

  it("unknown keys follow the original's key policy", () => {
    const sent = wire('{"id":7,"interval":30,"active":false}');
    expect(call(z.object({ id: z.number(), interval: z.number().optional() }), sent).data).toEqual({
      id: 7,
      interval: 30,
    });
    const strict = call(z.object({ id: z.number(), interval: z.number().optional() }).strict(), sent);
    expect(names(strict.lines, 'active')).toBe(true);
  });

  it('a ZodObject input reaches the handler whole', () => {
    expect(call(z.object({ message: z.string() }), wire('{"message":"A"}')).data).toEqual({ message: 'A' });
  });

  it('a nullable list with default null: text, "null" and absent', () => {
    const schema = z.object({ labels: z.array(z.string()).nullable().default(null) });
    expect(call(schema, wire('{"labels":"[\\"a\\",\\"b\\"]"}')).data).toEqual({ labels: ['a', 'b'] });
    expect(call(schema, wire('{"labels":"null"}')).data).toEqual({ labels: null });
    expect(call(schema, wire('{}')).data).toEqual({ labels: null });
  });
});
