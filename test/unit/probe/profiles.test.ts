import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { LOCAL_GRAMMAR_LIMITS } from '../../../src/core/json-schema/client-limits.js';
import { PROFILES } from '../../../src/core/probe/index.js';
import { check, only, pathsOf, toDoc, withCode } from './helpers.js';

const withProfile = (profile: string) => ({ options: { profiles: [profile] } });

describe('profiles as data', () => {
  it('every rule has an id and a one-line reason', () => {
    for (const profile of Object.values(PROFILES)) {
      expect(profile.rules.length).toBeGreaterThan(0);
      for (const rule of profile.rules) {
        expect(rule.id).toMatch(/^[a-z-]+$/);
        expect(rule.reason.length).toBeGreaterThan(10);
        expect(rule.reason).not.toContain('\n');
      }
    }
    expect(Object.keys(PROFILES).sort()).toEqual(['anthropic', 'cursor', 'gemini', 'local-grammar', 'openai-strict']);
  });

  it('an unknown profile name is an error that lists the known names', () => {
    const issue = only(check(toDoc(z.object({})), withProfile('gpt5')), 'unknown-profile', '');
    expect(issue.severity).toBe('error');
    expect(issue.message).toContain('"gpt5"');
    for (const name of Object.keys(PROFILES)) expect(issue.message).toContain(name);
  });

  it('profiles report on the input side only, and tag each issue with the profile', () => {
    const doc = toDoc(z.object({ a: z.string().nullable().optional() }));
    expect(check(doc, { side: 'output', options: { profiles: ['gemini', 'cursor', 'nope'] } })).toEqual([]);
    const issue = only(check(doc, withProfile('cursor')), 'nullable-type-list', '/properties/a', 'cursor');
    expect(issue.profile).toBe('cursor');
  });

  it('a profile never rewrites the document: a nullable field keeps accepting null', () => {
    const doc = toDoc(z.object({ field1: z.string(), field2: z.string().nullable().default(null) }));
    const before = structuredClone(doc);
    check(doc, { options: { profiles: Object.keys(PROFILES) } });
    expect(doc).toEqual(before);
    expect(doc.properties.field2.type).toEqual(['string', 'null']);
  });
});

describe('anthropic', () => {
  const union = z.discriminatedUnion('action', [
    z.object({ action: z.literal('prepare'), plan: z.string() }),
    z.object({ action: z.literal('execute'), token: z.string() }),
  ]);

  it('a root oneOf is flagged; the flattened root is not', () => {
    only(check(toDoc(union), withProfile('anthropic')), 'root-combinator', '', 'anthropic');
    const flat = {
      type: 'object',
      properties: {
        action: { type: 'string', enum: ['prepare', 'execute'] },
        plan: { type: 'string' },
        token: { type: 'string' },
      },
      required: ['action'],
    };
    expect(
      withCode(check(flat, { flattenRequested: true, ...withProfile('anthropic') }), 'root-combinator', 'anthropic'),
    ).toEqual([]);
  });

  it('anthropic and openai-strict flag the root anyOf; nested unions are fine for anthropic', () => {
    const doc = toDoc(
      z.union([
        z.object({ content: z.string(), filename: z.string() }),
        z.object({ source_url: z.url() }),
        z.object({ source_file_id: z.string() }),
      ]),
    );
    const issues = check(doc, { options: { profiles: ['anthropic', 'openai-strict'] } });
    only(issues, 'root-combinator', '', 'anthropic');
    only(issues, 'root-combinator', '', 'openai-strict');
    const nested = check(toDoc(z.object({ u: union })), withProfile('anthropic'));
    expect(nested.filter((i) => i.profile)).toEqual([]);
  });
});

describe('openai-strict', () => {
  const strict = withProfile('openai-strict');
  const p = 'openai-strict';

  it('the format, each key missing from required, and the root additionalProperties', () => {
    const doc = toDoc(
      z.object({
        url: z.url(),
        max_length: z.number().int().default(5000),
        start_index: z.number().int().min(0).default(0),
      }),
    );
    const issues = check(doc, strict);
    expect(only(issues, 'unsupported-format', '/properties/url', p).message).toContain('"uri"');
    expect(pathsOf(issues, 'optional-key', p)).toEqual(['/properties/max_length', '/properties/start_index']);
    expect(only(issues, 'optional-key', '/properties/max_length', p).message).toContain('`max_length`');
    only(issues, 'additional-properties-not-false', '', p);
  });

  it('nested objects in array items need additionalProperties:false too; optional `filters` is flagged', () => {
    const doc = toDoc(
      z.object({
        query: z.string(),
        filters: z.array(z.looseObject({ key: z.string(), value: z.string() })).optional(),
      }),
    );
    const issues = check(doc, strict);
    expect(pathsOf(issues, 'additional-properties-not-false', p)).toEqual(['', '/properties/filters/items']);
    expect(pathsOf(issues, 'optional-key', p)).toEqual(['/properties/filters']);
  });

  it('an optional open record is flagged as not required and as an open record, both naming it', () => {
    const doc = toDoc(
      z.object({ function_name: z.string(), function_arguments: z.record(z.string(), z.unknown()).optional() }),
    );
    const issues = check(doc, strict);
    expect(only(issues, 'optional-key', '/properties/function_arguments', p).message).toContain('function_arguments');
    expect(only(issues, 'open-record', '/properties/function_arguments', p).message).toContain('function_arguments');
    // A record is reported as a record, not also as a missing additionalProperties:false.
    expect(pathsOf(issues, 'additional-properties-not-false', p)).toEqual(['']);
  });

  it('a nested anyOf is flagged (in items too); a nullable wrapper is not', () => {
    const doc = toDoc(
      z.object({
        value: z.union([z.number().int(), z.string()]),
        list: z.array(z.union([z.number(), z.strictObject({ a: z.string() })])),
        maybe: z.string().nullable(),
        obj: z.object({ a: z.string() }).strict().nullable(),
      }),
    );
    expect(pathsOf(check(doc, strict), 'nested-union', p)).toEqual(['/properties/list/items', '/properties/value']);
  });

  it('defaulted keys are flagged as optional, at the root and inside array items', () => {
    const doc = toDoc(
      z.object({
        topics: z.array(z.object({ name: z.string(), start: z.enum(['earliest', 'latest']).default('latest') })),
        maxMessages: z.number().default(10),
        timeoutMs: z.number().default(10000),
      }),
    );
    expect(pathsOf(check(doc, strict), 'optional-key', p)).toEqual([
      '/properties/maxMessages',
      '/properties/timeoutMs',
      '/properties/topics/items/properties/start',
    ]);
  });

  it('a strict-compatible document has no issue', () => {
    const doc = toDoc(
      z.strictObject({
        q: z.string(),
        when: z.iso.datetime(),
        maybe: z.string().nullable(),
        nested: z.array(z.strictObject({ a: z.number() })),
      }),
    );
    expect(check(doc, strict).filter((i) => i.profile)).toEqual([]);
  });
});

describe('gemini', () => {
  const gemini = withProfile('gemini');
  const g = 'gemini';

  it('format "uri" is flagged; the message suggests the description and keeping the check in Zod', () => {
    const doc = toDoc(
      z.object({
        url: z.url(),
        max_length: z.number().int().default(5000),
        start_index: z.number().int().min(0).default(0),
      }),
    );
    const issue = only(check(doc, gemini), 'unsupported-format', '/properties/url', g);
    expect(issue.message).toContain('"uri"');
    expect(issue.message).toMatch(/description/);
    expect(issue.message).toMatch(/check in Zod/);
    // date-time is one of the few formats Gemini takes.
    expect(withCode(check(toDoc(z.object({ at: z.iso.datetime() })), gemini), 'unsupported-format', g)).toEqual([]);
  });

  it('const, a nullable type list, and a nested union', () => {
    const doc = toDoc(
      z.object({
        op: z.literal('insert_text'),
        calendar_id: z.string().nullable().optional(),
        target: z.union([z.object({ index: z.number() }), z.object({ segment: z.string() })]),
      }),
    );
    const issues = check(doc, gemini);
    only(issues, 'const', '/properties/op', g);
    expect(only(issues, 'type-list', '/properties/calendar_id', g).message).toMatch(/null/);
    only(issues, 'union', '/properties/target', g);
    expect(doc.properties.calendar_id.type).toContain('null');
  });

  it('null branches at the field and in its items, served as anyOf or as a type list', () => {
    const doc = toDoc(z.object({ formulas: z.array(z.array(z.string()).nullable()).nullable().optional() }));
    expect(pathsOf(check(doc, gemini), 'null-branch', g)).toEqual([
      '/properties/formulas',
      '/properties/formulas/anyOf/0/items',
    ]);
    const typeList = {
      type: 'object',
      properties: {
        formulas: { type: ['array', 'null'], items: { type: ['array', 'null'], items: { type: 'string' } } },
      },
    };
    expect(pathsOf(check(typeList, gemini), 'type-list', g)).toEqual([
      '/properties/formulas',
      '/properties/formulas/items',
    ]);
  });

  it('a boolean const under the union field is flagged, naming `c`', () => {
    const doc = toDoc(
      z.object({ opts: z.union([z.string(), z.object({ a: z.string(), b: z.string(), c: z.literal(true) })]) }),
    );
    const issue = only(check(doc, gemini), 'const', '/properties/opts/anyOf/1/properties/c', g);
    expect(issue.message).toContain('`c`');
    expect(issue.message).toMatch(/boolean/);
  });

  it('non-string enums are flagged, including boolean and numeric literals', () => {
    const doc = toDoc(z.object({ flag: z.literal([true, false]), n: z.enum({ A: 1, B: 2 }), s: z.enum(['x', 'y']) }));
    expect(pathsOf(check(doc, gemini), 'non-string-enum', g)).toEqual(['/properties/flag', '/properties/n']);
  });

  it('additionalProperties and propertyNames, in nested positions too', () => {
    const loose = toDoc(z.object({ record: z.looseObject({ id: z.string() }) }));
    only(check(loose, gemini), 'record-keyword', '/properties/record', g);
    const record = toDoc(z.object({ arguments: z.record(z.string(), z.unknown()) }));
    const issues = check(record, gemini);
    const messages = withCode(issues, 'record-keyword', g)
      .filter((i) => i.path === '/properties/arguments')
      .map((i) => i.message);
    expect(messages.some((m) => m.includes('propertyNames'))).toBe(true);
    expect(messages.some((m) => m.includes('additionalProperties'))).toBe(true);
    const nested = toDoc(z.object({ list: z.array(z.strictObject({ a: z.string() })) }));
    expect(only(check(nested, gemini), 'record-keyword', '/properties/list/items', g).message).toMatch(/strict/);
  });

  it('the flattened `data` with type:"object" raises no object-keyword issue', () => {
    const doc = {
      type: 'object',
      properties: {
        data: {
          type: 'object',
          properties: {
            kind: { type: 'string', enum: ['page', 'database'] },
            page_id: { type: 'string' },
            database_id: { type: 'string' },
          },
          required: ['kind'],
        },
      },
      required: ['data'],
    };
    expect(check(doc, { flattenRequested: true, ...gemini })).toEqual([]);
  });

  it('a recursive $ref is flagged by gemini (and not by the base checks)', () => {
    const Node: z.ZodType = z.object({
      name: z.string(),
      get children() {
        return z.array(Node);
      },
    });
    const issues = check(toDoc(z.object({ tree: Node })), gemini);
    expect(pathsOf(issues, 'ref', g)).toEqual(['/$defs/__schema0/properties/children/items', '/properties/tree']);
    expect(only(issues, 'ref', '/properties/tree', g).message).toMatch(/recursive/);
    expect(issues.filter((i) => !i.profile)).toEqual([]);
  });

  it('the untyped `extra` and the null-branch `tags`', () => {
    const doc = toDoc(
      z.object({ thought: z.string(), tags: z.array(z.string()).nullable().optional(), extra: z.unknown() }),
    );
    const issues = check(doc, gemini);
    only(issues, 'untyped', '/properties/extra', g);
    only(issues, 'null-branch', '/properties/tags', g);
    // A nullable wrapper is one null-branch issue, not also a union issue.
    expect(withCode(issues, 'union', g)).toEqual([]);
  });

  it('nullable fields with default null', () => {
    const labels = toDoc(z.object({ labels: z.array(z.string()).nullable().default(null) }));
    only(check(labels, gemini), 'null-branch', '/properties/labels', g);
    const field2 = toDoc(z.object({ field1: z.string(), field2: z.string().nullable().default(null) }));
    only(check(field2, gemini), 'type-list', '/properties/field2', g);
  });
});

describe('cursor', () => {
  const cursor = withProfile('cursor');

  it('a nullable type list is flagged with advice to make it optional', () => {
    const doc = toDoc(z.object({ requiredParam: z.string(), optionalStr: z.string().nullable().optional() }));
    const issues = check(doc, cursor);
    expect(only(issues, 'nullable-type-list', '/properties/optionalStr', 'cursor').message).toMatch(/optional/);
    expect(issues.filter((i) => i.profile)).toHaveLength(1);
  });

  it('field2 with default null, and the same in array items', () => {
    const doc = toDoc(
      z.object({
        field1: z.string(),
        field2: z.string().nullable().default(null),
        list: z.array(z.number().nullable()),
      }),
    );
    expect(pathsOf(check(doc, cursor), 'nullable-type-list', 'cursor')).toEqual([
      '/properties/field2',
      '/properties/list/items',
    ]);
  });

  it('property names outside [A-Za-z0-9_.-] are flagged, at any depth', () => {
    const doc = toDoc(
      z.object({
        'ok_name.v-1': z.string(),
        'has space': z.string(),
        nested: z.object({ 'a/b': z.string(), ключ: z.string() }),
      }),
    );
    expect(pathsOf(check(doc, cursor), 'property-name', 'cursor')).toEqual([
      '/properties/has space',
      '/properties/nested/properties/a~1b',
      '/properties/nested/properties/ключ',
    ]);
  });
});

describe('local-grammar', () => {
  const local = withProfile('local-grammar');
  const l = 'local-grammar';

  it('a maxLength of 2000 or more is a warning at the field', () => {
    const doc = toDoc(z.object({ files: z.array(z.object({ path: z.string(), content: z.string().max(5000) })) }));
    const issue = only(check(doc, local), 'large-bound', '/properties/files/items/properties/content', l);
    expect(issue.severity).toBe('warning');
    expect(issue.message).toContain('5000');
    const bounds = toDoc(
      z.object({
        a: z.string().max(1999),
        b: z.array(z.string()).max(2000),
        c: z.record(z.string(), z.string().min(3000)),
      }),
    );
    expect(pathsOf(check(bounds, local), 'large-bound', l)).toEqual([
      '/properties/b',
      '/properties/c/additionalProperties',
    ]);
  });

  it('long patterns are warnings; short ones are not', () => {
    const long = `^${'a?'.repeat(LOCAL_GRAMMAR_LIMITS.patternLength)}$`;
    const doc = toDoc(z.object({ code: z.string().regex(new RegExp(long)), short: z.string().regex(/^[a-z]+$/) }));
    const issue = only(check(doc, local), 'long-pattern', '/properties/code', l);
    expect(issue.severity).toBe('warning');
  });

  it('an untyped array item or tuple item is a warning at its pointer; typed items are not', () => {
    const doc = toDoc(
      z.object({
        any: z.array(z.any()),
        pair: z.tuple([z.unknown(), z.string()]),
        typed: z.array(z.object({ v: z.unknown() })),
      }),
    );
    expect(pathsOf(check(doc, local), 'untyped-item', l)).toEqual([
      '/properties/any/items',
      '/properties/pair/prefixItems/0',
    ]);
    expect(only(check(doc, local), 'untyped-item', '/properties/any/items', l).severity).toBe('warning');
  });

  it('nesting deeper than the limit is one warning where the branch crosses it', () => {
    let schema: z.ZodType = z.string();
    for (let i = 0; i < LOCAL_GRAMMAR_LIMITS.depth + 2; i++) schema = z.object({ d: schema });
    const doc = toDoc(
      z.object({ deep: schema, list: z.array(z.array(z.array(z.array(z.array(z.array(z.array(z.string()))))))) }),
    );
    const issues = withCode(check(doc, local), 'deep-nesting', l);
    // `/properties/deep` is depth 1; each `d` adds one, so the node at depth limit + 1 is the first too deep.
    const deepPath = `/properties/deep${'/properties/d'.repeat(LOCAL_GRAMMAR_LIMITS.depth)}`;
    expect(issues.map((i) => i.path).sort()).toEqual([deepPath, `/properties/list${'/items'.repeat(6)}`]);
    for (const i of issues) expect(i.severity).toBe('warning');
  });
});

describe('local-grammar: the subset node-llama-cpp reads', () => {
  const local = withProfile('local-grammar');
  const l = 'local-grammar';
  const errors = (doc: any) =>
    check(doc, local)
      .filter((i) => i.profile === l && i.severity === 'error')
      .map((i) => `${i.code}@${i.path}`)
      .sort();
  const obj = (properties: any, extra: any = {}) => ({
    type: 'object',
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
    ...extra,
  });

  it('a key an object does not require is an error at the key: node-llama-cpp writes every listed key', () => {
    const doc = toDoc(z.object({ a: z.string(), b: z.string().optional(), c: z.number().default(1) }));
    expect(errors(doc)).toEqual(['optional-key@/properties/b', 'optional-key@/properties/c']);
    const issue = only(check(doc, local), 'optional-key', '/properties/b', l);
    expect(issue.message).toContain("projection: 'local-grammar'");
  });

  it('a node with no form node-llama-cpp reads is an error: a bare {}, an anyOf or allOf alone, a true sub-schema', () => {
    const doc = obj({
      any: {},
      either: { anyOf: [{ type: 'string' }, { type: 'number' }] },
      both: { allOf: [{ type: 'string' }, { minLength: 1 }] },
      items: { type: 'array', items: true },
      t: true,
      never: { not: {} },
    });
    expect(errors(doc)).toEqual([
      'untyped@/properties/any',
      'untyped@/properties/both',
      'untyped@/properties/either',
      'untyped@/properties/items/items',
      'untyped@/properties/t',
    ]);
    expect(only(check(doc, local), 'untyped', '/properties/either', l).message).toContain('`anyOf`');
  });

  it('a type list holding object or array is an error; a list of scalars, or one beside an enum, is not', () => {
    const doc = obj({
      o: { type: ['object', 'null'], properties: {}, required: [], additionalProperties: false },
      a: { type: ['array', 'string'], items: { type: 'string' } },
      s: { type: ['string', 'number', 'null'] },
      e: { type: ['object', 'string'], enum: ['x'] },
    });
    expect(errors(doc)).toEqual(['type-list@/properties/a', 'type-list@/properties/o']);
  });

  it('a tuple is an error: node-llama-cpp writes every prefix item, and llama.cpp mishandles them', () => {
    const doc = toDoc(z.object({ opt: z.tuple([z.string(), z.number().optional()]), list: z.array(z.string()) }));
    expect(errors(doc)).toEqual(['prefix-items@/properties/opt']);
    expect(only(check(doc, local), 'prefix-items', '/properties/opt', l).message).toContain('minItems 1');
  });

  it('a format other than date on a string is an error; date is not', () => {
    const doc = obj(
      Object.fromEntries(['date', 'date-time', 'time', 'email'].map((f) => [f, { type: 'string', format: f }])),
    );
    expect(errors(doc)).toEqual([
      'unsupported-format@/properties/date-time',
      'unsupported-format@/properties/email',
      'unsupported-format@/properties/time',
    ]);
    expect(only(check(doc, local), 'unsupported-format', '/properties/time', l).message).toContain('seconds');
  });

  it('a oneOf beside other keywords, pattern keys and an object literal are errors; an unresolved $ref a warning', () => {
    const doc = obj(
      {
        mixed: { type: 'string', oneOf: [{ const: 'a' }, { const: 'b' }] },
        keyed: { type: 'object', patternProperties: { '^x': { type: 'string' } } },
        lit: { const: { a: 1 } },
        self: { $ref: '#' },
      },
      { $defs: {} },
    );
    expect(errors(doc)).toEqual([
      'object-literal@/properties/lit',
      'record-keyword@/properties/keyed',
      'union@/properties/mixed',
    ]);
    expect(only(check(doc, local), 'unresolved-ref', '/properties/self', l).severity).toBe('warning');
  });

  it('nodes node-llama-cpp does not read are not checked: below anyOf, allOf, not, or keywords beside a $ref', () => {
    const doc = obj(
      {
        typed: { type: 'string', anyOf: [{ minLength: 1 }, { maxLength: 0 }] },
        ref: { $ref: '#/$defs/T', properties: { x: {} } },
        neg: { type: 'number', not: { type: 'integer' } },
      },
      { $defs: { T: { type: 'string' } } },
    );
    expect(errors(doc)).toEqual([]);
  });

  it('nodes it reads through oneOf members, items, additionalProperties and $defs are checked', () => {
    const doc = obj(
      {
        u: { oneOf: [{ type: 'object', properties: { k: { type: 'string' } } }, { type: 'null' }] },
        l: { type: 'array', items: { type: ['object', 'null'] } },
        r: { type: 'object', additionalProperties: {} },
        d: { $ref: '#/$defs/D' },
      },
      { $defs: { D: { type: 'string', format: 'uri' } } },
    );
    expect(errors(doc)).toEqual([
      'optional-key@/properties/u/oneOf/0/properties/k',
      'type-list@/properties/l/items',
      'unsupported-format@/$defs/D',
      'untyped@/properties/r/additionalProperties',
    ]);
  });
});

describe('openai-strict and flattenUnionInput', () => {
  it('says a key is optional because of flattening, not advice to change the Zod', async () => {
    const { validateMcpSchemas, defineTool } = await import('mcp-mount');
    const { z } = await import('zod');
    const tool = defineTool({
      name: 'notify',
      input: z.discriminatedUnion('channel', [
        z.object({ channel: z.literal('email'), subject: z.string() }),
        z.object({ channel: z.literal('sms'), phone: z.string() }),
      ]),
      handler: () => 1,
    });
    const report = validateMcpSchemas([tool], {
      flattenUnionInput: true,
      schemaValidation: { profiles: ['openai-strict'] },
    });
    const subject = report.issues.find((i) => i.code === 'optional-key' && i.message.includes('`subject`'));
    expect(subject?.message).toMatch(/flattenUnionInput merged variants/);
  });
});
