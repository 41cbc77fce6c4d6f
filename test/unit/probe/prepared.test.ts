import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { JsonSchema } from '../../../src/core/json-schema/types.js';
import { flattenWithReport } from '../../../src/core/projection/flatten.js';
import { inlineRefs } from '../../../src/core/projection/index.js';
import { QueryModel, Screen } from '../../support/models.js';
import { check, DU, only, pathsOf, toDoc } from './helpers.js';

// The checks run on what the preparation serves. These cases run the real `$ref` inlining and
// flattening from core/schema, so the checks and the projection are held to one contract:
// flattened documents raise nothing, and what the flattener leaves is reported with its reason.

function prepared(schema: z.ZodType, flatten = true) {
  const { $schema: _dialect, ...doc } = toDoc(schema);
  const inlined = inlineRefs(doc).schema;
  const { schema: served, unflattened } = flatten ? flattenWithReport(inlined) : { schema: inlined, unflattened: [] };
  const run = (options = {}) =>
    check(served as JsonSchema, { flattenRequested: flatten, unflattened, zodShapeKeys: shapeKeys(schema), options });
  return { served: served as JsonSchema, run };
}

/** Top-level keys of an object or of every union variant, as the mount passes them. */
function shapeKeys(schema: z.ZodType): string[] {
  const def = (schema as any)._zod.def;
  if (def.type === 'object') return Object.keys(def.shape);
  if (def.type === 'union') return [...new Set((def.options as z.ZodType[]).flatMap(shapeKeys))];
  return [];
}

describe('checks on prepared documents', () => {
  it('a flattened tagged root has no issue', () => {
    const { served, run } = prepared(
      z.discriminatedUnion('operation', [
        z.object({ operation: z.literal('append'), path: z.string(), content: z.string() }),
        z.object({ operation: z.literal('delete'), path: z.string() }),
      ]),
    );
    expect(Object.keys(served.properties)).toEqual(['operation', 'path', 'content']);
    expect(run()).toEqual([]);
  });

  it('a root union tagged by numbers is flattened into one object: no issue', () => {
    const { served, run } = prepared(
      z.discriminatedUnion('k', [
        z.object({ k: z.literal(1), x: z.string() }),
        z.object({ k: z.literal(2), y: z.string() }),
      ]),
    );
    expect(served.type).toBe('object');
    expect(served.properties.k).toMatchObject({ type: 'integer', enum: [1, 2] });
    expect(run()).toEqual([]);
  });

  it('a tag optional in one variant at the root: the error quotes the reason the flattener gives', () => {
    const { run } = prepared(
      z.discriminatedUnion('k', [
        z.object({ k: z.literal(1).optional(), x: z.string() }),
        z.object({ k: z.literal(2), y: z.string() }),
      ]),
    );
    expect(only(run(), 'root-not-object', '').message).toMatch(/`k` is optional in variant 0/);
  });

  it('boolean, null and mixed tags nested: each is one object and raises nothing', () => {
    const result = z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), data: z.string() }),
      z.object({ ok: z.literal(false), error: z.string() }),
    ]);
    const mixed = z.discriminatedUnion('k', [
      z.object({ k: z.literal('a'), x: z.string() }),
      z.object({ k: z.null(), y: z.string() }),
      z.object({ k: z.literal(2), z: z.string() }),
    ]);
    const { served, run } = prepared(z.object({ op: result, list: z.array(mixed), other: DU }));
    expect(served.properties.op.type).toBe('object');
    expect(served.properties.list.items.type).toBe('object');
    expect(run()).toEqual([]);
  });

  it('the flattened nested union has type:"object" beside its properties, and gemini is satisfied there', () => {
    const { served, run } = prepared(
      z.object({
        data: z.discriminatedUnion('kind', [
          z.object({ kind: z.literal('page'), page_id: z.string() }),
          z.object({ kind: z.literal('database'), database_id: z.string() }),
        ]),
      }),
    );
    expect(served.properties.data.type).toBe('object');
    expect(run({ profiles: ['gemini'] })).toEqual([]);
  });

  it('the widened `tags` keeps items, so no array issue', () => {
    const { run } = prepared(
      z.discriminatedUnion('k', [
        z.object({ k: z.literal('a'), tags: z.array(z.string()) }),
        z.object({ k: z.literal('b'), tags: z.array(z.number()) }),
      ]),
    );
    expect(pathsOf(run(), 'array-without-items')).toEqual([]);
  });

  it('inlined refs raise nothing; a recursive ref stays and only gemini flags it', () => {
    expect(prepared(z.object({ screens: z.array(Screen), primary: Screen }), false).run()).toEqual([]);
    expect(prepared(z.object({ query_model: QueryModel }), false).run()).toEqual([]);

    const Node: z.ZodType = z.object({
      name: z.string(),
      get children() {
        return z.array(Node);
      },
    });
    const lazy = prepared(z.object({ tree: Node }), false);
    expect(lazy.run()).toEqual([]);
    expect(pathsOf(lazy.run({ profiles: ['gemini'] }), 'ref', 'gemini')).toContain('/properties/tree');
  });

  it('widened fields are typed for requireTypedProperties', () => {
    const media = prepared(
      z.discriminatedUnion('kind', [
        z.object({ kind: z.literal('one'), media: z.object({ id: z.string() }) }),
        z.object({ kind: z.literal('many'), media: z.array(z.object({ id: z.string() })) }),
      ]),
    );
    expect(media.run({ requireTypedProperties: true })).toEqual([]);
    const target = prepared(
      z.discriminatedUnion('kind', [
        z.object({ kind: z.literal('a'), target: z.string() }),
        z.object({ kind: z.literal('b'), target: z.number() }),
      ]),
    );
    expect(target.run({ requireTypedProperties: true })).toEqual([]);
  });

  it('anthropic finds nothing once the root is flattened', () => {
    const { run } = prepared(
      z.discriminatedUnion('action', [
        z.object({ action: z.literal('prepare'), plan: z.string() }).strict(),
        z.object({ action: z.literal('execute'), token: z.string() }).strict(),
      ]),
    );
    expect(run({ profiles: ['anthropic'] })).toEqual([]);
  });
});
