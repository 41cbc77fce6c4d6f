import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { flattenWithReport } from '../../../src/core/projection/flatten.js';
import { booleanTag, mixedTag, numericTag, optionalTag } from '../../support/unions.js';
import { baseFindings, check, DU, only, pathsOf, toDoc } from './helpers.js';

/** The document flattened as the mount serves it under `flattenUnionInput`. */
const project = (doc: any) => flattenWithReport(doc).schema;

describe('unions that cannot be flattened', () => {
  const cases = [{ label: 'a tag optional in one variant', union: optionalTag, why: /discriminator `k` is optional/ }];

  for (const { label, union, why } of cases) {
    it(`${label}: a root union is an error at "" that says why flattening did not apply`, () => {
      // The flattener leaves these unions as they are, so the served document is Zod's own.
      const issue = only(check(toDoc(union), { flattenRequested: true }), 'root-not-object', '');
      expect(issue.severity).toBe('error');
      expect(issue.message).toMatch(why);
    });

    it(`${label}: the flattener's own reason is quoted when it gives one`, () => {
      const reason = 'tag `k` is optional in one variant';
      const issues = check(toDoc(union), { flattenRequested: true, unflattened: [{ pointer: '', reason }] });
      expect(only(issues, 'root-not-object', '').message).toContain(reason);
    });

    it(`${label}: nested as a field, a field in array items or a record value, it is a non-blocking warning there`, () => {
      const doc = toDoc(
        z.object({ op: union, list: z.array(union), byId: z.record(z.string(), union), other: DU }).partial(),
      );
      const issues = check(doc, { flattenRequested: true });
      expect(pathsOf(issues, 'union-not-flattened')).toEqual([
        '/properties/byId/additionalProperties',
        '/properties/list/items',
        '/properties/op',
        // `other` is the served DU before flattening here; a left tagged union is reported too.
        '/properties/other',
      ]);
      for (const i of issues.filter((i) => i.code === 'union-not-flattened')) expect(i.severity).toBe('warning');
      expect(only(issues, 'union-not-flattened', '/properties/op').message).toMatch(why);
      expect(issues.filter((i) => i.severity === 'error')).toEqual([]);
    });

    it(`${label}: the same nested union is not reported when flattening was not asked for`, () => {
      expect(
        pathsOf(check(toDoc(z.object({ op: union })), { flattenRequested: false }), 'union-not-flattened'),
      ).toEqual([]);
    });
  }

  it('overlapping tag values leave an anyOf that is reported with the reason', () => {
    const doc = toDoc(
      z.object({
        f: z.union([
          z.object({ k: z.literal('a'), x: z.string() }),
          z.object({ k: z.literal('a'), y: z.string() }),
          z.object({ k: z.literal('b'), z: z.string() }),
        ]),
      }),
    );
    const issue = only(check(doc, { flattenRequested: true }), 'union-not-flattened', '/properties/f');
    expect(issue.message).toMatch(/tag values overlap: a\b/);
  });

  it('a string-or-object union is served as intended, even when the flattener lists it as left', () => {
    const doc = toDoc(z.object({ v: z.union([z.object({ a: z.string() }), z.string()]) }));
    const unflattened = [{ pointer: '/properties/v', reason: 'member 1 is not an object' }];
    expect(pathsOf(check(doc, { flattenRequested: true, unflattened }), 'union-not-flattened')).toEqual([]);
  });

  it('scalar unions and nullable wrappers are not flattener targets, so they are not reported', () => {
    const doc = toDoc(z.object({ v: z.union([z.number(), z.string()]), n: z.object({ a: z.string() }).nullable() }));
    expect(pathsOf(check(doc, { flattenRequested: true }), 'union-not-flattened')).toEqual([]);
  });
});

describe('roots', () => {
  const actions = z.discriminatedUnion('action', [
    z.object({ action: z.literal('create'), name: z.string() }),
    z.object({ action: z.literal('delete'), id: z.string() }),
  ]);

  it('a union root without flattening is an error that suggests flattenUnionInput', () => {
    const issue = only(check(toDoc(actions)), 'root-not-object', '');
    expect(issue.severity).toBe('error');
    expect(issue.message).toContain('flattenUnionInput');
    expect(issue.message).toContain('`action`');
  });

  for (const [label, union] of [
    ['numbers', numericTag],
    ['booleans', booleanTag],
    ['a string, null and a number', mixedTag],
  ] as const) {
    it(`a root union tagged by ${label}: without flattening the error offers it, naming the tag; flattened, no issue`, () => {
      const issue = only(check(toDoc(union)), 'root-not-object', '');
      expect(issue.message).toContain(
        "its variants share the tag `k`, so `flattenUnionInput: true` (`projection: 'flat'`",
      );
      const doc = toDoc(union);
      expect(baseFindings(check(project(doc), { flattenRequested: true }))).toEqual([]);
    });
  }

  it('the flattened root has no root issue', () => {
    const flat = {
      type: 'object',
      properties: {
        action: { type: 'string', enum: ['create', 'delete'] },
        name: { type: 'string', description: 'Required if action = create' },
        id: { type: 'string', description: 'Required if action = delete' },
      },
      required: ['action'],
    };
    expect(baseFindings(check(flat, { flattenRequested: true, zodShapeKeys: ['action', 'name', 'id'] }))).toEqual([]);
  });

  it('a root with no type, `{}`, is an error', () => {
    const issue = only(check({}), 'root-not-object', '');
    expect(issue.severity).toBe('error');
    expect(issue.message).toMatch(/no `type:"object"`/);
  });

  it('served keys must match the Zod keys; empty properties for a non-empty shape is an error', () => {
    const zodShapeKeys = ['operation', 'path', 'content'];
    const flat = {
      type: 'object',
      properties: {
        operation: { type: 'string', enum: ['append', 'delete'] },
        path: { type: 'string' },
        content: { type: 'string', description: 'Required if operation = append' },
      },
      required: ['operation', 'path'],
    };
    expect(baseFindings(check(flat, { flattenRequested: true, zodShapeKeys }))).toEqual([]);

    const empty = only(check({ type: 'object', properties: {} }, { zodShapeKeys }), 'zod-keys-missing', '/properties');
    expect(empty.severity).toBe('error');
    expect(empty.message).toContain('`operation`');
    only(check({ type: 'object' }, { zodShapeKeys }), 'zod-keys-missing', '');

    const partial = { ...flat, properties: { operation: flat.properties.operation, path: flat.properties.path } };
    expect(only(check(partial, { zodShapeKeys }), 'zod-keys-missing', '/properties').message).toContain('`content`');
  });

  it('an empty shape served as properties:{} is fine', () => {
    expect(baseFindings(check(toDoc(z.object({})), { zodShapeKeys: [] }))).toEqual([]);
  });

  it('an untagged object union served as Zod writes it is an error whose message offers flattening', () => {
    const doc = toDoc(z.union([z.object({ id: z.string() }), z.object({ slug: z.string() })]));
    const issue = only(check(doc), 'root-not-object', '');
    expect(issue.severity).toBe('error');
    expect(issue.message).toContain(
      "its variants are objects, so `flattenUnionInput: true` (`projection: 'flat'` or 'auto') serves it as one object",
    );
    // Flattened, it is one object: no root issue at all.
    expect(baseFindings(check(project(doc), { flattenRequested: true }))).toEqual([]);
  });

  it('a root union of an object and a string is an error with or without flattening, advising a wrapper', () => {
    const doc = toDoc(z.union([z.string(), DU]));
    const flat = project(doc);
    const issue = only(
      check(flat, { flattenRequested: true, unflattened: flattenWithReport(doc).unflattened }),
      'root-not-object',
      '',
    );
    expect(issue.message).toContain('mixes objects with string');
    expect(issue.message).toContain('z.object({ value: <the union> })');
    expect(only(check(doc), 'root-not-object', '').message).toContain('z.object({ value: <the union> })');
  });

  it('a merged root intersection has no issue', () => {
    const doc = toDoc(z.object({ name: z.string() }).and(z.object({ dataType: z.enum(['NUMERIC', 'CATEGORICAL']) })));
    expect(check(doc)).toEqual([]);
  });

  it('a root union of three untagged shapes is an error unflattened (offering flattening or tags), none flattened', () => {
    const doc = toDoc(
      z.union([
        z.object({ content: z.string(), filename: z.string() }),
        z.object({ source_url: z.url() }),
        z.object({ source_file_id: z.string() }),
      ]),
    );
    const issue = only(check(doc), 'root-not-object', '');
    expect(issue.message).toMatch(/flattenUnionInput: true/);
    expect(issue.message).toMatch(/tag/);
    expect(baseFindings(check(project(doc), { flattenRequested: true }))).toEqual([]);
  });

  it('a refined object root has no issue', () => {
    const doc = toDoc(
      z.object({ mode: z.enum(['small', 'large']), size: z.number() }).superRefine((v, ctx) => {
        if (v.mode === 'small' && v.size > 10) ctx.addIssue({ code: 'custom', path: ['size'], message: 'too big' });
      }),
    );
    expect(check(doc)).toEqual([]);
  });

  it('an array root is an error that suggests wrapping it', () => {
    const issue = only(check(toDoc(z.array(z.object({ id: z.string(), title: z.string() })))), 'root-not-object', '');
    expect(issue.severity).toBe('error');
    expect(issue.message).toContain('z.object({ items: z.array(...) })');
  });

  it('a root allOf or a root oneOf beside type:"object" is an error', () => {
    const allOf = { type: 'object', allOf: [{ type: 'object', properties: { a: { type: 'string' } } }] };
    expect(only(check(allOf), 'root-not-object', '').message).toMatch(/intersection/);
    const mixed = {
      type: 'object',
      properties: { botId: { type: 'string' } },
      oneOf: [{ type: 'object', properties: { other: { type: 'string' } } }],
    };
    only(check(mixed), 'root-not-object', '');
  });

  it('a root oneOf that only asserts about the declared keys is no root error', () => {
    const asserting = { type: 'object', properties: { botId: { type: 'string' } }, oneOf: [{ required: ['botId'] }] };
    expect(check(asserting).filter((i) => i.code === 'root-not-object')).toEqual([]);
  });

  it('scalar roots and non-objects are errors, and never throw', () => {
    expect(only(check(toDoc(z.string())), 'root-not-object', '').message).toMatch(/type string/);
    for (const doc of [null, true, 'x', [] as unknown]) {
      expect(only(check(doc as any), 'root-not-object', '').severity).toBe('error');
    }
  });

  it('output side: the root must be an object too, and the message says "output"', () => {
    const issue = only(check(toDoc(z.array(z.string())), { side: 'output' }), 'root-not-object', '');
    expect(issue.side).toBe('output');
    expect(issue.message).toMatch(/^Output schema:/);
    expect(issue.message).toContain('structured content');
    const union = only(check(toDoc(DU), { side: 'output' }), 'root-not-object', '');
    expect(union.message).not.toContain('flattenUnionInput');
  });
});
