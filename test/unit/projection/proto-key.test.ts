/**
 * A property (or `$defs` entry, or keyword) literally named `__proto__` is data like any other key. Plain
 * assignment `obj['__proto__'] = v` sets the prototype instead and loses the key, so every object the
 * projections build from schema keys must define it as an own property.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { cloneJson } from '../../../src/core/json-schema/compare.js';
import type { JsonSchema } from '../../../src/core/json-schema/types.js';
import { flattenUnionsDeep } from '../../../src/core/projection/flatten.js';
import { collapseNullable, inlineRefs, relaxIntersections } from '../../../src/core/projection/index.js';
import { project, toJson } from './helpers.js';

/** A Zod shape with an own `__proto__` key (an object literal `{ __proto__: x }` would set the prototype). */
function shapeWithProto(proto: z.ZodType, rest: Record<string, z.ZodType>): Record<string, z.ZodType> {
  const shape: Record<string, z.ZodType> = {};
  Object.defineProperty(shape, '__proto__', { value: proto, enumerable: true, writable: true, configurable: true });
  return Object.assign(shape, rest);
}

/** The key under test, read through a variable (the linter flags `x.__proto__`, which reads like the accessor). */
const PROTO = '__proto__';

const own = (node: unknown, key: string) => typeof node === 'object' && node !== null && Object.hasOwn(node, key);

/** Served flattened and not flattened, as the mount computes them. */
function bothWays(schema: z.ZodType): Array<[string, any]> {
  return [
    ['flat', collapseNullable(project(schema).schema)],
    ['not flat', collapseNullable(relaxIntersections(inlineRefs(toJson(schema)).schema))],
  ];
}

function expectProtoProperty(node: any, how: string, schema: unknown, required = true) {
  expect(own(node.properties, '__proto__'), `${how}: own properties.__proto__`).toBe(true);
  expect(Object.getPrototypeOf(node.properties), `${how}: prototype untouched`).toBe(Object.prototype);
  expect(node.properties[PROTO], how).toMatchObject(schema as object);
  if (required) expect(node.required, how).toContain('__proto__');
  // What goes over the wire.
  expect(JSON.stringify(node.properties), how).toContain(`"__proto__":${JSON.stringify(node.properties[PROTO])}`);
}

describe('a key named __proto__', () => {
  const schema = z.object(shapeWithProto(z.string(), { a: z.string() }));

  it('Zod serves it (the starting point the projections must keep)', () => {
    expectProtoProperty(toJson(schema), 'zod', { type: 'string' });
  });

  it('is kept in properties and required, flat and not flat', () => {
    for (const [how, doc] of bothWays(schema)) {
      expectProtoProperty(doc, how, { type: 'string' });
      expect(doc.properties.a, how).toEqual({ type: 'string' });
    }
  });

  it('is kept inside a nested object and a nullable one', () => {
    const nested = z.object({ o: schema, n: schema.nullable() });
    for (const [how, doc] of bothWays(nested)) {
      expectProtoProperty(doc.properties.o, how, { type: 'string' });
      expectProtoProperty(doc.properties.n, how, { type: 'string' });
    }
  });

  it('is kept in a flattened union variant: required when every variant requires it, hinted otherwise', () => {
    const union = z.discriminatedUnion('kind', [
      z.object(shapeWithProto(z.string(), { kind: z.literal('a'), only: z.object(shapeWithProto(z.number(), {})) })),
      z.object(shapeWithProto(z.number(), { kind: z.literal('b') })),
    ]);
    const doc = project(union).schema as any;
    expect(doc.oneOf).toBeUndefined();
    expectProtoProperty(doc, 'flat', { type: ['string', 'number'] });
    expect(doc.properties.only.description).toContain('Required if kind = a');
    expectProtoProperty(doc.properties.only, 'flat variant field', { type: 'number' });

    const one = z.discriminatedUnion('kind', [
      z.object(shapeWithProto(z.string(), { kind: z.literal('a') })),
      z.object({ kind: z.literal('b') }),
    ]);
    const flat = project(one).schema as any;
    expectProtoProperty(flat, 'flat, one variant', { type: 'string' }, false);
    expect(flat.required).not.toContain('__proto__');
    expect(flat.properties[PROTO].description).toContain('Required if kind = a');
  });

  it('is kept when an intersection is merged', () => {
    const both = z.object({ i: schema.and(z.record(z.string(), z.string())) });
    for (const [how, doc] of bothWays(both)) {
      const node = doc.properties.i.allOf?.[0] ?? doc.properties.i;
      expectProtoProperty(node, how, { type: 'string' });
    }
  });

  it('is kept as a $defs entry, inlined or kept for a recursive reference', () => {
    const doc: JsonSchema = JSON.parse(
      '{"type":"object","properties":{"t":{"$ref":"#/$defs/__proto__"},"r":{"$ref":"#/$defs/R"}},' +
        '"$defs":{"__proto__":{"type":"string"},"R":{"type":"object","properties":{"next":{"$ref":"#/$defs/R"}}}}}',
    );
    expect(inlineRefs(doc).schema.properties.t).toEqual({ type: 'string' });

    const recursive: JsonSchema = JSON.parse(
      '{"type":"object","properties":{"t":{"$ref":"#/$defs/__proto__"}},' +
        '"$defs":{"__proto__":{"type":"object","properties":{"next":{"$ref":"#/$defs/__proto__"}}}}}',
    );
    for (const out of [inlineRefs(recursive).schema, flattenUnionsDeep(inlineRefs(recursive).schema)]) {
      expect(own(out.$defs, '__proto__')).toBe(true);
      expect(out.$defs[PROTO].properties.next).toEqual({ $ref: '#/$defs/__proto__' });
      expect(out.properties.t).toEqual({ $ref: '#/$defs/__proto__' });
    }
  });

  it('is kept as a keyword and through a one-member union collapse', () => {
    const doc: JsonSchema = JSON.parse(
      '{"anyOf":[{"type":"object","properties":{"__proto__":{"type":"string"}}}],"__proto__":{"x-note":1}}',
    );
    const out = flattenUnionsDeep(doc);
    expect(out.anyOf).toBeUndefined();
    expect(own(out, '__proto__')).toBe(true);
    expect(out[PROTO]).toEqual({ 'x-note': 1 });
    expect(own(out.properties, '__proto__')).toBe(true);
  });

  it('cloneJson copies it as an own key and never sets a prototype', () => {
    const copy: any = cloneJson(JSON.parse('{"a":{"__proto__":{"polluted":true}}}'));
    expect(own(copy.a, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(copy.a)).toBe(Object.prototype);
    expect(copy.a.polluted).toBeUndefined();
    expect(JSON.stringify(copy)).toBe('{"a":{"__proto__":{"polluted":true}}}');
  });
});
