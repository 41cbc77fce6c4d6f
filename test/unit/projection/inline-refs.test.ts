/**
 * `inlineRefs`: non-recursive local definitions are written out at each use (a reused object, a required
 * object with defaults inside, a `$ref` with siblings), recursive ones keep their `$ref` and `$defs` entry,
 * unused entries are dropped.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { inlineRefs } from '../../../src/core/projection/index.js';
import { ParentRequest, QueryModel, Screen } from '../../support/models.js';
import { pointersWith, toJson, zodAcceptedValuesPass } from './helpers.js';

describe('inlineRefs', () => {
  it('a definition with an $anchor nothing refers to is inlined, without the anchor; one a $ref names stays', () => {
    const address = { type: 'object', properties: { city: { type: 'string' } }, $anchor: 'addr' };
    const unnamed = inlineRefs({
      type: 'object',
      properties: { home: { $ref: '#/$defs/address' }, work: { $ref: '#/$defs/address' } },
      $defs: { address },
    });
    expect(unnamed.schema).toEqual({
      type: 'object',
      properties: {
        home: { type: 'object', properties: { city: { type: 'string' } } },
        work: { type: 'object', properties: { city: { type: 'string' } } },
      },
    });
    const named = inlineRefs({
      type: 'object',
      properties: { home: { $ref: '#/$defs/address' }, work: { $ref: '#addr' } },
      $defs: { address },
    });
    expect(named.schema.$defs).toEqual({ address });
    expect(named.unresolved).toEqual(['/properties/home', '/properties/work']);
  });

  it('a reused non-recursive definition is inlined at every use and its entry dropped', () => {
    const schema = z.object({ screens: z.array(Screen), primary: Screen });
    const { schema: doc, unresolved } = inlineRefs(toJson(schema));
    const screen = { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] };
    expect(doc.properties.primary).toEqual(screen);
    expect(doc.properties.screens.items).toEqual(screen);
    expect(doc.$defs).toBeUndefined();
    expect(unresolved).toEqual([]);
    expect(pointersWith(doc, '$ref')).toEqual([]);
    zodAcceptedValuesPass(schema, doc, [{ screens: [{ id: 'a' }], primary: { id: 'b' } }]);
  });

  it('a required $ref object with defaults inside', () => {
    const { schema: doc } = inlineRefs(toJson(z.object({ query_model: QueryModel })));
    expect(doc.required).toEqual(['query_model']);
    expect(doc.properties.query_model.type).toBe('object');
    expect(doc.properties.query_model.required).toBeUndefined();
    expect(doc.properties.query_model.properties.team_ids.items).toEqual({ type: 'string' });
  });

  it('keeps the siblings of a $ref (description, default, nullable wrapper)', () => {
    const { schema: doc } = inlineRefs(
      toJson(
        z.object({
          parent: ParentRequest.describe('where to create it'),
          fallback: ParentRequest.default({ data_source_id: 'x' }),
          maybe: ParentRequest.nullable(),
        }),
      ),
    );
    expect(doc.properties.parent).toMatchObject({ type: 'object', description: 'where to create it' });
    expect(doc.properties.fallback).toMatchObject({ type: 'object', default: { data_source_id: 'x' } });
    expect(doc.properties.maybe.anyOf[0].type).toBe('object');
    expect(doc.$defs).toBeUndefined();
  });

  it('a root with an id is written out at the root', () => {
    const { schema: doc } = inlineRefs(toJson(z.object({ x: z.string() }).meta({ id: 'Root' })));
    expect(doc).toMatchObject({ type: 'object', properties: { x: { type: 'string' } } });
    expect(doc.$ref).toBeUndefined();
    expect(doc.$defs).toBeUndefined();
  });

  it('a recursive z.lazy keeps its $ref and its $defs entry; the refs left are reported', () => {
    const Tree: z.ZodType = z.lazy(() => z.object({ v: z.string(), children: z.array(Tree) }));
    const schema = z.object({ tree: Tree });
    const { schema: doc, unresolved } = inlineRefs(toJson(schema));
    const ref = doc.properties.tree.$ref as string;
    expect(ref).toMatch(/^#\/\$defs\//);
    const name = ref.split('/').pop()!;
    expect(doc.$defs[name].properties.children.items.$ref).toBe(ref);
    expect(unresolved).toEqual(['/properties/tree', `/$defs/${name}/properties/children/items`]);
    zodAcceptedValuesPass(schema, doc, [{ tree: { v: 'a', children: [{ v: 'b', children: [] }] } }]);
  });

  it('root recursion (#) is left as it is', () => {
    const Node: z.ZodType = z.lazy(() => z.object({ v: z.string(), next: Node.optional() }));
    const { schema: doc, unresolved } = inlineRefs(toJson(Node));
    expect(doc.properties.next.$ref).toBe('#');
    expect(unresolved).toEqual(['/properties/next']);
  });

  it('a non-recursive definition used inside a recursive one is inlined there too', () => {
    const Label = z.object({ text: z.string() }).meta({ id: 'Label' });
    const Tree: z.ZodType = z.lazy(() => z.object({ label: Label, children: z.array(Tree) }));
    const { schema: doc } = inlineRefs(toJson(z.object({ tree: Tree, label: Label })));
    expect(Object.keys(doc.$defs)).toHaveLength(1);
    const def = Object.values(doc.$defs)[0] as any;
    expect(def.properties.label.type).toBe('object');
    expect(doc.properties.label.type).toBe('object');
  });

  it('a definition that leads to a recursive one is inlined, and the recursive one is kept', () => {
    const doc = {
      type: 'object',
      properties: { a: { $ref: '#/$defs/A' } },
      $defs: {
        A: { type: 'object', properties: { b: { $ref: '#/$defs/B' } } },
        B: { type: 'object', properties: { again: { $ref: '#/$defs/B' } } },
        Unused: { type: 'string' },
      },
    };
    const { schema: out, unresolved } = inlineRefs(doc);
    expect(out.properties.a.properties.b).toEqual({ $ref: '#/$defs/B' });
    expect(Object.keys(out.$defs)).toEqual(['B']);
    expect(unresolved).toEqual(['/properties/a/properties/b', '/$defs/B/properties/again']);
  });

  it('handles `definitions`, escaped names, unknown and remote refs', () => {
    const doc = {
      type: 'object',
      properties: {
        a: { $ref: '#/definitions/a~1b' },
        gone: { $ref: '#/$defs/Missing' },
        remote: { $ref: 'https://example.com/schema.json' },
      },
      definitions: { 'a/b': { type: 'integer' } },
    };
    const { schema: out, unresolved } = inlineRefs(doc);
    expect(out.properties.a).toEqual({ type: 'integer' });
    expect(out.definitions).toBeUndefined();
    expect(unresolved).toEqual(['/properties/gone', '/properties/remote']);
  });

  it('a $ref whose siblings constrain the same keyword keeps both under allOf', () => {
    const doc = {
      properties: { a: { $ref: '#/$defs/A', required: ['y'] } },
      $defs: { A: { type: 'object', required: ['x'] } },
    };
    expect(inlineRefs(doc).schema.properties.a).toEqual({
      allOf: [{ type: 'object', required: ['x'] }, { required: ['y'] }],
    });
  });

  it('never mutates its input and never throws', () => {
    const input = toJson(z.object({ a: z.object({ id: z.string() }).meta({ id: 'Frozen' }) }));
    const before = JSON.stringify(input);
    deepFreeze(input);
    inlineRefs(input);
    expect(JSON.stringify(input)).toBe(before);
    const cyclic: any = { type: 'object', properties: {} };
    cyclic.properties.self = cyclic;
    for (const bad of [null, 1, 'x', [], { $defs: 5, $ref: 7 }, { $ref: '#/$defs/%zz' }, cyclic] as any[]) {
      expect(() => inlineRefs(bad)).not.toThrow();
    }
  });
});

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
