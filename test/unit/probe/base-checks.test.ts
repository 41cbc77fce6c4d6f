import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PROFILES } from '../../../src/core/probe/index.js';
import { flattenWithReport } from '../../../src/core/projection/flatten.js';
import { collapseNullable } from '../../../src/core/projection/index.js';
import { Screen } from '../../support/models.js';
import { baseFindings, check, only, pathsOf, toDoc } from './helpers.js';

const obj = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: 'object',
  properties,
  ...extra,
});

describe('required keys', () => {
  it('a required key with no property is an error at its place in `required`, at any depth', () => {
    const bad = obj({ a: { type: 'string' } }, { required: ['a', 'b'] });
    const doc = obj({
      top: bad,
      list: { type: 'array', items: bad },
      byId: { type: 'object', additionalProperties: bad },
    });
    const issues = check({ ...doc, required: ['top', 'ghost'] });
    expect(pathsOf(issues, 'required-not-in-properties')).toEqual([
      '/properties/byId/additionalProperties/required/1',
      '/properties/list/items/required/1',
      '/properties/top/required/1',
      '/required/1',
    ]);
    expect(only(issues, 'required-not-in-properties', '/required/1').message).toContain('`ghost`');
  });

  it('a malformed `required` is an error, not an exception', () => {
    only(check(obj({ a: { type: 'string' } }, { required: 'a' })), 'required-not-in-properties', '/required');
  });
});

describe('enum', () => {
  it('an empty enum is an error at the node; a duplicate value is an error at the repeat', () => {
    const doc = obj({
      e: { type: 'string', enum: [] },
      d: { type: 'string', enum: ['x', 'y', 'x'] },
      nested: { type: 'array', items: { type: 'object', additionalProperties: { enum: [{ a: 1 }, { a: 1 }] } } },
    });
    const issues = check(doc);
    expect(pathsOf(issues, 'invalid-enum')).toEqual([
      '/properties/d/enum/2',
      '/properties/e',
      '/properties/nested/items/additionalProperties/enum/1',
    ]);
    for (const i of issues) expect(i.severity).toBe('error');
    expect(only(issues, 'invalid-enum', '/properties/d/enum/2').message).toContain('"x"');
  });

  it('Zod enums pass', () => {
    expect(baseFindings(check(toDoc(z.object({ e: z.enum(['a', 'b']), n: z.literal([1, 2]) }))))).toEqual([]);
  });
});

describe('non-JSON values', () => {
  it('NaN, Infinity, undefined, functions, bigint, class instances and cycles are errors at their pointer', () => {
    const cyclic: Record<string, unknown> = { type: 'object' };
    cyclic.self = cyclic;
    const doc = obj({
      nan: { type: 'number', default: Number.NaN },
      inf: { type: 'number', maximum: Number.POSITIVE_INFINITY },
      undef: { type: 'string', description: undefined },
      fn: { type: 'string', default: () => 'x' },
      big: { type: 'integer', default: 10n },
      date: { type: 'string', default: new Date(0) },
      list: { type: 'array', items: { type: 'number', enum: [1, Number.NEGATIVE_INFINITY] } },
      loop: cyclic,
    });
    const issues = check(doc);
    expect(pathsOf(issues, 'non-json-value')).toEqual([
      '/properties/big/default',
      '/properties/date/default',
      '/properties/fn/default',
      '/properties/inf/maximum',
      '/properties/list/items/enum/1',
      '/properties/loop/self',
      '/properties/nan/default',
      '/properties/undef/description',
    ]);
    expect(only(issues, 'non-json-value', '/properties/nan/default').message).toMatch(/NaN/);
    expect(only(issues, 'non-json-value', '/properties/big/default').message).toMatch(/bigint/);
    expect(only(issues, 'non-json-value', '/properties/loop/self').message).toMatch(/circular/);
  });

  it('on the output side the message says so', () => {
    const issue = only(
      check(obj({ n: { type: 'number', default: Number.NaN } }), { side: 'output' }),
      'non-json-value',
      '/properties/n/default',
    );
    expect(issue.side).toBe('output');
    expect(issue.message).toMatch(/^Output schema:/);
  });
});

describe('$ref', () => {
  it('a non-recursive $ref left in place is an error at each pointer', () => {
    const issues = check(toDoc(z.object({ screens: z.array(Screen), primary: Screen })));
    expect(pathsOf(issues, 'ref-not-inlined')).toEqual(['/properties/primary', '/properties/screens/items']);
    for (const i of issues) expect(i.severity).toBe('error');
  });

  it('the inlined document has no issue', () => {
    const screen = obj({ id: { type: 'string' } }, { required: ['id'] });
    const doc = obj(
      { screens: { type: 'array', items: screen }, primary: screen },
      { required: ['screens', 'primary'] },
    );
    expect(check(doc)).toEqual([]);
  });

  it('the inlined QueryModel has no issue', () => {
    const doc = obj(
      {
        query_model: obj({
          query: { type: 'string' },
          team_ids: { type: 'array', items: { type: 'string' } },
          limit: { default: 20, type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 },
        }),
      },
      { required: ['query_model'] },
    );
    expect(check(doc, { zodShapeKeys: ['query_model'] })).toEqual([]);
  });

  it('a recursive z.lazy $ref is not an error in the base checks', () => {
    const Node: z.ZodType = z.object({
      name: z.string(),
      get children() {
        return z.array(Node);
      },
    });
    expect(baseFindings(check(toDoc(z.object({ tree: Node, list: z.array(Node) }))))).toEqual([]);
  });

  it('mutual recursion and root recursion (`#`) count as recursive; a ref into a recursive def from outside does too', () => {
    const doc = {
      type: 'object',
      properties: { a: { $ref: '#/$defs/A' }, self: { $ref: '#' } },
      $defs: {
        A: obj({ b: { $ref: '#/$defs/B' } }),
        B: obj({ a: { $ref: '#/$defs/A' } }),
      },
    };
    expect(pathsOf(check(doc), 'ref-not-inlined')).toEqual([]);
  });

  it('a non-recursive def that contains a recursive ref is still reported where it is referenced', () => {
    const doc = {
      type: 'object',
      properties: { s: { $ref: '#/$defs/Screen' } },
      $defs: {
        Screen: obj({ tree: { $ref: '#/$defs/Tree' } }),
        Tree: obj({ kids: { type: 'array', items: { $ref: '#/$defs/Tree' } } }),
      },
    };
    expect(pathsOf(check(doc), 'ref-not-inlined')).toEqual(['/properties/s']);
  });

  it('a dangling or external $ref is an error', () => {
    const issues = check(obj({ a: { $ref: '#/$defs/Nope' }, b: { $ref: 'https://example.com/s.json' } }));
    expect(pathsOf(issues, 'ref-not-inlined')).toEqual(['/properties/a', '/properties/b']);
    expect(only(issues, 'ref-not-inlined', '/properties/a').message).toMatch(/points to nothing/);
  });

  it('escaped and percent-encoded pointers resolve', () => {
    const doc = {
      type: 'object',
      properties: { a: { $ref: '#/$defs/a~1b%20c' } },
      $defs: { 'a/b c': obj({ x: { $ref: '#/$defs/a~1b%20c' } }) },
    };
    expect(pathsOf(check(doc), 'ref-not-inlined')).toEqual([]);
  });
});

describe('unsatisfiable schemas', () => {
  it('a contradictory intersection is an error at the field saying no value can pass', () => {
    const issue = only(
      check(toDoc(z.object({ a: z.string() }).and(z.object({ a: z.number() })))),
      'unsatisfiable',
      '/properties/a',
    );
    expect(issue.severity).toBe('error');
    expect(issue.message).toMatch(/no value can pass/);
  });

  it('in array items and record values too', () => {
    const never = z.string().and(z.number());
    const doc = toDoc(z.object({ list: z.array(never), byId: z.record(z.string(), never) }));
    expect(pathsOf(check(doc), 'unsatisfiable')).toEqual([
      '/properties/byId/additionalProperties',
      '/properties/list/items',
    ]);
  });

  it('const and enum conflicts, and `false` branches, are found; satisfiable intersections are not', () => {
    const doc = obj({
      constVsType: { type: 'string', const: 1 },
      enums: { allOf: [{ enum: ['a', 'b'] }, { enum: ['c'] }] },
      falseBranch: { allOf: [{ type: 'string' }, false] },
      nested: { allOf: [{ type: 'string' }, { allOf: [{ type: 'boolean' }] }] },
      intNumber: { allOf: [{ type: 'integer' }, { type: 'number', minimum: 0 }] },
      intConst: { type: 'integer', const: 3 },
      fraction: { type: 'integer', enum: [1.5] },
      overlap: { allOf: [{ enum: ['a', 'b'] }, { const: 'b' }] },
    });
    expect(pathsOf(check(doc), 'unsatisfiable')).toEqual([
      '/properties/constVsType',
      '/properties/enums',
      '/properties/falseBranch',
      '/properties/fraction',
      '/properties/nested',
    ]);
  });
});

describe('object and array keywords', () => {
  it('properties or required without type:"object" is an error at that node, at any depth', () => {
    const untypedObject = { properties: { a: { type: 'string' } } };
    const doc = obj({
      data: untypedObject,
      list: { type: 'array', items: { required: ['a'] } },
      byId: { type: 'object', additionalProperties: { type: 'string', properties: {} } },
      ok: { type: ['object', 'null'], properties: { a: { type: 'string' } } },
    });
    const issues = check(doc);
    expect(pathsOf(issues, 'properties-without-object-type')).toEqual([
      '/properties/byId/additionalProperties',
      '/properties/data',
      '/properties/list/items',
    ]);
    expect(only(issues, 'properties-without-object-type', '/properties/byId/additionalProperties').message).toMatch(
      /type string/,
    );
  });

  it('the flattened `data` union, served with type:"object", has no issue', () => {
    const doc = obj(
      {
        data: obj(
          {
            kind: { type: 'string', enum: ['page', 'database'] },
            page_id: { type: 'string', description: 'Required if kind = page' },
            database_id: { type: 'string', description: 'Required if kind = database' },
          },
          { required: ['kind'] },
        ),
      },
      { required: ['data'] },
    );
    expect(check(doc, { flattenRequested: true })).toEqual([]);
  });

  it('type:"array" with neither items nor prefixItems is an error at that node, at any depth', () => {
    const doc = obj({
      tags: { type: 'array' },
      nested: { type: 'array', items: { type: 'array' } },
      byId: { type: 'object', additionalProperties: { type: ['array', 'null'] } },
      tuple: toDoc(z.tuple([z.string(), z.number()])),
      ok: { type: 'array', items: { type: ['string', 'number'] } },
    });
    expect(pathsOf(check(doc), 'array-without-items')).toEqual([
      '/properties/byId/additionalProperties',
      '/properties/nested/items',
      '/properties/tags',
    ]);
  });
});

describe('warnings that do not block serving', () => {
  it('a union of a string and an object warns at the field', () => {
    const doc = toDoc(z.object({ opts: z.union([z.string(), z.object({ a: z.string(), c: z.literal(true) })]) }));
    const issue = only(check(doc), 'ambiguous-string-union', '/properties/opts');
    expect(issue.severity).toBe('warning');
    expect(issue.message).toMatch(/repair cannot tell/);
  });

  it('a mixed union warns also for a string or array in array items, and a type list in a record value', () => {
    const doc = toDoc(
      z.object({
        list: z.array(z.union([z.string(), z.array(z.string())])),
        byId: z.record(z.string(), z.union([z.string(), z.object({ a: z.string() })])),
      }),
    );
    const flat = obj({ v: { type: ['string', 'array', 'null'], items: { type: 'string' } } });
    expect(pathsOf(check(doc), 'ambiguous-string-union')).toEqual([
      '/properties/byId/additionalProperties',
      '/properties/list/items',
    ]);
    only(check(flat), 'ambiguous-string-union', '/properties/v');
  });

  it('nullable strings and number-or-string unions are not ambiguous', () => {
    const doc = toDoc(z.object({ s: z.string().nullable(), v: z.union([z.number(), z.string()]) }));
    expect(pathsOf(check(doc), 'ambiguous-string-union')).toEqual([]);
  });

  it('a required nullable field warns (prefer optional); optional or defaulted nullable fields do not', () => {
    const doc = toDoc(
      z.object({
        req: z.string().nullable(),
        obj: z.object({ inner: z.array(z.string()).nullable() }),
        opt: z.string().nullable().optional(),
        def: z.string().nullable().default(null),
        onlyNull: z.null(),
      }),
    );
    const issues = check(doc);
    expect(pathsOf(issues, 'required-nullable')).toEqual(['/properties/obj/properties/inner', '/properties/req']);
    expect(only(issues, 'required-nullable', '/properties/req').severity).toBe('warning');
    expect(only(issues, 'required-nullable', '/properties/req').message).toContain('.optional()');
  });

  it('a flattened union tag that lists null is not a required nullable field: null selects a variant there', () => {
    const union = z.discriminatedUnion('k', [
      z.object({ k: z.literal('a'), x: z.string() }),
      z.object({ k: z.null(), y: z.string() }),
    ]);
    const flat = collapseNullable(
      flattenWithReport(toDoc(z.object({ op: union, req: z.enum(['p', 'q']).nullable() }))).schema,
    ) as any;
    expect(flat.properties.op.properties.k.type).toEqual(['string', 'null']);
    // A nullable enum the author wrote is still reported, in the same collapsed spelling.
    expect(flat.properties.req.type).toEqual(['string', 'null']);
    expect(pathsOf(check(flat, { flattenRequested: true }), 'required-nullable')).toEqual(['/properties/req']);
  });

  it('input-only warnings are not raised on the output side', () => {
    const doc = toDoc(z.object({ req: z.string().nullable(), u: z.union([z.string(), z.object({})]) }));
    expect(check(doc, { side: 'output' })).toEqual([]);
  });
});

describe('no issue for well-formed documents', () => {
  it('descriptions and bounds', () => {
    const doc = toDoc(z.object({ name: z.string().describe('A name'), count: z.number().min(1).max(10) }));
    expect(check(doc, { zodShapeKeys: ['name', 'count'] })).toEqual([]);
  });

  it('a transform served from its input side', () => {
    expect(check(toDoc(z.object({ field: z.string().transform((v) => v.toLowerCase()) })))).toEqual([]);
  });

  it('defaulted fields', () => {
    const doc = toDoc(
      z.object({
        topics: z.array(z.object({ name: z.string(), start: z.enum(['earliest', 'latest']).default('latest') })),
        maxMessages: z.number().default(10),
        timeoutMs: z.number().default(10000),
      }),
    );
    expect(check(doc)).toEqual([]);
  });

  it('a nested scalar union', () => {
    expect(
      check(toDoc(z.object({ value: z.union([z.number().int(), z.string()]) })), { flattenRequested: true }),
    ).toEqual([]);
  });

  it('output side: a plain object output has no issue', () => {
    expect(check(toDoc(z.object({ at: z.iso.datetime(), n: z.number() })), { side: 'output' })).toEqual([]);
  });
});

describe('robustness', () => {
  it('malformed keyword values give issues or nothing, never an exception', () => {
    const doc = {
      type: 'object',
      properties: {
        a: { type: 5, enum: 'x', required: 'nope', properties: [] },
        b: { anyOf: 'x', allOf: [null, 1], items: [true, { type: 'array' }] },
        c: { $ref: 42 },
        d: true,
        e: null,
      },
      required: [1],
    };
    expect(() =>
      check(doc, {
        flattenRequested: true,
        options: {
          requireTypedProperties: true,
          requirePortableFormats: true,
          profiles: ['gemini', 'openai-strict', 'cursor', 'local-grammar', 'anthropic'],
        },
      }),
    ).not.toThrow();
    const all = check(doc, {
      flattenRequested: true,
      options: { requireTypedProperties: true, requirePortableFormats: true, profiles: Object.keys(PROFILES) },
    });
    expect(all.filter((i) => i.message.includes('could not read'))).toEqual([]);
  });

  it('never changes the document', () => {
    const doc = toDoc(
      z.object({ a: z.string().nullable(), b: z.union([z.string(), z.object({ c: z.literal(true) })]) }),
    );
    const before = structuredClone(doc);
    check(doc, { options: { requireTypedProperties: true, profiles: ['gemini', 'openai-strict', 'cursor'] } });
    expect(doc).toEqual(before);
  });
});
