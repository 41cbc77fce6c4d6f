/**
 * The projections keep what they do not change and flatten a repeated combinator once per document, and
 * once per mount where documents without definitions repeat it (docs/design/flatten.md, Cost). None of that may show in a result: every place gets what it would get on
 * its own, in its own key order and with its own values, and nothing served shares a node with the input.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createMcpFetchHandler } from '../../../src/adapter.js';
import { mapSubschemasShared } from '../../../src/core/json-schema/keywords.js';
import type { JsonSchema } from '../../../src/core/json-schema/types.js';
import { flattenAcrossDocuments, flattenShared, flattenWithReport } from '../../../src/core/projection/flatten.js';
import { inlineRefs, relaxIntersections } from '../../../src/core/projection/index.js';

/** A tagged union of two objects; `extra` goes onto `v.x` of the first variant (below the flattened key). */
function union(extra: JsonSchema = {}): JsonSchema {
  return {
    oneOf: [
      {
        type: 'object',
        properties: {
          t: { type: 'string', const: 'a' },
          v: { type: 'object', properties: { x: { type: 'string', ...extra } } },
          w: { type: 'boolean' },
        },
        required: ['t'],
      },
      { type: 'object', properties: { t: { type: 'string', const: 'b' }, n: { type: 'number' } }, required: ['t'] },
    ],
  };
}

/** The same union with the first variant's `v` and `w` in the other order (the flat object keeps it). */
function reordered(): JsonSchema {
  const u = union();
  const { t, v, w } = u.oneOf[0].properties;
  u.oneOf[0].properties = { t, w, v };
  return u;
}

/** What `node` flattens to when it is the only property of a document. */
function alone(node: JsonSchema): unknown {
  return flattenWithReport({ type: 'object', properties: { only: node } }).schema.properties.only;
}

describe('a combinator repeated in one document', () => {
  it('is flattened at every place exactly as it is alone, in that place’s own key order', () => {
    const doc = {
      type: 'object',
      properties: { p: union(), q: reordered(), r: union(), s: { type: 'array', items: union() } },
    };
    const out = flattenWithReport(doc).schema;
    expect(JSON.stringify(out.properties.p)).toBe(JSON.stringify(alone(union())));
    expect(JSON.stringify(out.properties.q)).toBe(JSON.stringify(alone(reordered())));
    expect(JSON.stringify(out.properties.q)).not.toBe(JSON.stringify(out.properties.p));
    expect(out.properties.r).toEqual(out.properties.p);
    expect(out.properties.s.items).toEqual(out.properties.p);
    // Served copies: no two places share a node, so freezing or changing one leaves the others alone.
    expect(out.properties.r).not.toBe(out.properties.p);
    expect(out.properties.r.properties.v).not.toBe(out.properties.p.properties.v);
  });

  it('keeps values that JSON text cannot tell apart: NaN and null, 0 and -0', () => {
    const doc = {
      type: 'object',
      properties: {
        a: union({ default: Number.NaN }),
        b: union({ default: null }),
        c: union({ default: -0 }),
        d: union({ default: 0 }),
      },
    };
    const { properties } = flattenWithReport(doc).schema;
    expect(properties.a.properties.v.properties.x.default).toBeNaN();
    expect(properties.b.properties.v.properties.x.default).toBeNull();
    expect(Object.is(properties.c.properties.v.properties.x.default, -0)).toBe(true);
    expect(Object.is(properties.d.properties.v.properties.x.default, 0)).toBe(true);
  });
});

describe('a combinator repeated across the documents of one mount', () => {
  const across = (docs: JsonSchema[]) => {
    const close = flattenAcrossDocuments();
    try {
      return docs.map((d) => flattenShared(d).schema);
    } finally {
      close();
    }
  };
  const inDocument = (node: JsonSchema, extra: JsonSchema = {}): JsonSchema => ({
    type: 'object',
    properties: { only: node },
    ...extra,
  });

  it('is flattened in each document exactly as in that document alone', () => {
    const docs = [
      inDocument(union()),
      inDocument(reordered()),
      inDocument(union()),
      inDocument(union({ default: -0 })),
    ];
    const shared = across(docs);
    expect(shared.map((d) => JSON.stringify(d))).toEqual(docs.map((d) => JSON.stringify(flattenWithReport(d).schema)));
    expect(Object.is(shared[3]!.properties.only.properties.v.properties.x.default, -0)).toBe(true);
  });

  it('is not taken from another document where it names a definition (each resolves its own)', () => {
    const byRef = {
      oneOf: [
        { type: 'object', properties: { t: { const: 'a' }, v: { $ref: '#/$defs/V' } }, required: ['t'] },
        { type: 'object', properties: { t: { const: 'b' }, v: { type: 'string' } }, required: ['t'] },
      ],
    };
    const docs = [
      inDocument(byRef, { $defs: { V: { type: 'object', properties: { x: { type: 'string' } } } } }),
      inDocument(byRef, { $defs: { V: { type: 'number' } } }),
      inDocument(byRef),
    ];
    const shared = across(docs);
    expect(shared.map((d) => JSON.stringify(d))).toEqual(docs.map((d) => JSON.stringify(flattenWithReport(d).schema)));
  });
});

describe('results share nothing with the input', () => {
  const input = (): JsonSchema => ({
    type: 'object',
    properties: { u: union(), plain: { type: 'object', properties: { x: { type: 'string' } } } },
  });

  it.each([
    ['flattenWithReport', (d: JsonSchema) => flattenWithReport(d).schema],
    ['relaxIntersections', relaxIntersections],
    ['inlineRefs', (d: JsonSchema) => inlineRefs(d).schema],
  ])('%s', (_name, project) => {
    const doc = input();
    const before = JSON.stringify(doc);
    const out = project(doc) as JsonSchema;
    expect(out.properties.plain).toEqual(doc.properties.plain);
    expect(out.properties.plain).not.toBe(doc.properties.plain);
    expect(out.properties.plain.properties.x).not.toBe(doc.properties.plain.properties.x);
    expect(JSON.stringify(doc)).toBe(before);
  });

  it('inlineRefs lists the $refs it left in document order, also without definitions', () => {
    const doc = {
      type: 'object',
      properties: { a: { $ref: '#/$defs/Missing' }, 'b/c': { type: 'array', items: { $ref: 'https://x.test/s' } } },
      anyOf: [{ $ref: '#' }],
    };
    expect(inlineRefs(doc).unresolved).toEqual(['/properties/a', '/properties/b~1c/items', '/anyOf/0']);
  });
});

describe('mapSubschemasShared', () => {
  it('returns the node itself when nothing changes, and copies only the path to a change', () => {
    const node: JsonSchema = {
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'number' } },
      anyOf: [{ required: ['a'] }, { required: ['b'] }],
      enum: [{ x: 1 }],
    };
    expect(mapSubschemasShared(node, (child) => child)).toBe(node);
    const replaced = { type: 'integer' };
    const out = mapSubschemasShared(node, (child, at) =>
      at.keyword === 'properties' && at.key === 'b' ? replaced : child,
    );
    expect(out).not.toBe(node);
    expect(Object.keys(out)).toEqual(Object.keys(node));
    expect(out.properties).not.toBe(node.properties);
    expect(out.properties.a).toBe(node.properties.a);
    expect(out.properties.b).toBe(replaced);
    expect(out.anyOf).toBe(node.anyOf);
    expect(out.enum).toBe(node.enum);
    expect(node.properties.b).toEqual({ type: 'number' });
  });
});

describe("a mount's served documents", () => {
  // The flat family's steps keep what they do not change (prepare/projector.ts) and the converted slices and
  // the mount's `extend` are read by every family and tool: only each served document is a copy of its own.
  it('share no node with one another, across tools, projections and the shared extend, and are frozen', () => {
    const nested = z.discriminatedUnion('t', [
      z.object({ t: z.literal('a'), n: z.number().int().nullable() }),
      z.object({ t: z.literal('b'), s: z.string() }),
    ]);
    const tools = ['one', 'two'].map((name) => ({
      name,
      description: name,
      params: z.object({ chatId: z.string() }),
      input: z.discriminatedUnion('kind', [
        z.object({ kind: z.literal('x'), detail: nested, count: z.number().int() }),
        z.object({ kind: z.literal('y'), detail: nested, note: z.string().optional() }),
      ]),
      handler: () => ({}),
    }));
    const extend = { schema: z.object({ tenant: z.union([z.string(), z.number()]).describe('tenant') }) };
    const handler = createMcpFetchHandler(tools, { projection: 'auto', arguments: { extend } });
    const seen = new Set<object>();
    let documents = 0;
    const visit = (value: unknown) => {
      if (typeof value !== 'object' || value === null) return;
      expect(seen.has(value)).toBe(false);
      expect(Object.isFrozen(value)).toBe(true);
      seen.add(value);
      for (const child of Object.values(value)) visit(child);
    };
    for (const { tools: served } of Object.values(handler.report.projections)) {
      for (const tool of served) {
        documents++;
        visit(tool.inputSchema);
      }
    }
    expect(documents).toBeGreaterThanOrEqual(2 * 5);
  });
});
