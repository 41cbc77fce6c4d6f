/**
 * Each profile projection's rewrites, before and after, on small documents shaped like the served flat
 * document, plus the contract every projection keeps (pure, never throws, same input → same output) and
 * the profile's own checks before and after on Zod schemas. The property suite is
 * profile-projections.property.test.ts; the rules are docs/design/projections.md.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { JsonSchema } from '../../../src/core/json-schema/types.js';
import { checkDocument } from '../../../src/core/probe/index.js';
import { collapseNullable } from '../../../src/core/projection/index.js';
import { PROFILE_PROJECTION_NAMES, type ProfileProjection } from '../../../src/core/projection/names.js';
import { projectForProfile } from '../../../src/core/projection/profiles/index.js';
import { accepts, project } from './helpers.js';

const obj = (properties: JsonSchema, required?: string[], extra: JsonSchema = {}): JsonSchema => ({
  type: 'object',
  properties,
  ...(required ? { required } : {}),
  ...extra,
});

const profileErrors = (doc: JsonSchema, name: ProfileProjection) =>
  checkDocument(doc, { tool: 't', side: 'input', flattenRequested: true, options: { profiles: [name] } }).filter(
    (i) => i.profile === name && i.severity === 'error',
  );

/** The served flat document of a Zod input, as prepare computes it (one slice, root already an object). */
function flatOf(schema: z.ZodType): JsonSchema {
  const { $schema: _d, ...doc } = project(schema).schema;
  return collapseNullable(doc) as JsonSchema;
}

describe('profile projections: the contract', () => {
  const flat = flatOf(
    z.object({
      a: z.string().nullable().optional(),
      b: z.union([z.string(), z.object({ x: z.number() })]),
      c: z.discriminatedUnion('k', [z.object({ k: z.literal(1), p: z.string() }), z.object({ k: z.literal(2) })]),
      d: z.record(z.string(), z.number()),
    }),
  );

  it('never mutates its input (a deep-frozen document is projected), and the result shares nothing with it', () => {
    const frozen = structuredClone(flat);
    const deepFreeze = (v: any): any => {
      if (v && typeof v === 'object') {
        Object.freeze(v);
        for (const x of Object.values(v)) deepFreeze(x);
      }
      return v;
    };
    deepFreeze(frozen);
    for (const name of PROFILE_PROJECTION_NAMES) {
      const { schema } = projectForProfile(name, frozen);
      expect(frozen).toEqual(flat);
      expect(Object.isFrozen(schema)).toBe(false);
      (schema as any).mutated = true;
      expect(frozen).not.toHaveProperty('mutated');
    }
  });

  it('gives the same output for the same input', () => {
    for (const name of PROFILE_PROJECTION_NAMES) {
      expect(JSON.stringify(projectForProfile(name, flat))).toBe(JSON.stringify(projectForProfile(name, flat)));
    }
  });

  it('never throws: malformed documents and unknown names come back as copies', () => {
    const odd: unknown[] = [{ type: 'object', properties: 5 }, { anyOf: 'x' }, { allOf: [] }, { $ref: '#/nowhere' }];
    for (const name of PROFILE_PROJECTION_NAMES) {
      for (const doc of odd) expect(() => projectForProfile(name, doc as JsonSchema)).not.toThrow();
    }
    expect(projectForProfile('nope' as ProfileProjection, flat)).toEqual({ schema: flat, narrowed: [] });
  });

  it("clears its profile's errors on a schema each client can take (errors on flat -> projection)", () => {
    const counts = PROFILE_PROJECTION_NAMES.map((name) => [
      name,
      profileErrors(flat, name).length,
      profileErrors(projectForProfile(name, flat).schema, name).map((i) => i.code),
    ]);
    expect(counts).toEqual([
      ['anthropic', 0, []],
      ['openai-strict', 6, ['open-record']], // `d` is a z.record: strict mode has no free-form keys
      ['gemini', 5, ['untyped']], // `b` is a string or an object: Gemini has no way to say both
      ['cursor', 2, []], // `a`'s and `b`'s type lists (`c`, tagged by numbers, is flattened into one object)
      ['local-grammar', 3, []], // `a` and `c`'s `p` are optional, and `b`'s type list holds object
    ]);
  });
});

describe('anthropic', () => {
  it('a root union becomes the typed join of its members; nested unions stay', () => {
    const nested = { anyOf: [{ type: 'string' }, { type: 'number' }] };
    const doc = {
      anyOf: [obj({ a: { type: 'string' }, n: nested }, ['a']), obj({ b: { type: 'number' } }, ['b'])],
    };
    expect(projectForProfile('anthropic', doc)).toEqual({
      schema: obj({ a: { type: 'string' }, n: nested, b: { type: 'number' } }),
      narrowed: [],
    });
  });

  it('a root intersection becomes one object with every member key and required key', () => {
    const doc = { allOf: [obj({ a: { type: 'string' } }, ['a']), obj({ b: { type: 'number' } }, ['b'])] };
    expect(projectForProfile('anthropic', doc).schema).toEqual(
      obj({ a: { type: 'string' }, b: { type: 'number' } }, ['a', 'b']),
    );
  });

  it('the served flat document is already a plain object root, so nothing changes', () => {
    const flat = flatOf(z.object({ a: z.union([z.string(), z.number()]).nullable() }));
    expect(projectForProfile('anthropic', flat).schema).toEqual(flat);
  });
});

describe('openai-strict', () => {
  it('an optional key is listed in required and made nullable, reported as a narrowing at the key', () => {
    const doc = obj({ a: { type: 'string' }, b: { type: 'number' } }, ['b']);
    expect(projectForProfile('openai-strict', doc)).toEqual({
      schema: obj({ a: { type: ['string', 'null'] }, b: { type: 'number' } }, ['b', 'a'], {
        additionalProperties: false,
      }),
      narrowed: [
        {
          pointer: '/properties/a',
          reason:
            '`a` is listed in required and served nullable, as OpenAI strict mode requires; null sent for it is read as leaving it out',
        },
      ],
    });
  });

  it('nullable in every spelling: a const becomes an enum with null, an enum gains null, a $ref is wrapped', () => {
    const doc = obj(
      {
        c: { const: 'x' },
        e: { type: 'string', enum: ['p', 'q'] },
        r: { $ref: '#/$defs/T' },
        n: { type: ['string', 'null'] },
      },
      [],
      { $defs: { T: obj({ v: { type: 'number' } }, ['v']) } },
    );
    const { properties, required } = projectForProfile('openai-strict', doc).schema;
    expect(properties).toEqual({
      c: { enum: ['x', null] },
      e: { type: ['string', 'null'], enum: ['p', 'q', null] },
      r: { anyOf: [{ $ref: '#/$defs/T' }, { type: 'null' }] },
      n: { type: ['string', 'null'] },
    });
    expect(required).toEqual(['c', 'e', 'r', 'n']);
  });

  it('every object is closed; closing one that let undeclared keys through is reported, a strip one is not', () => {
    const doc = obj({ loose: obj({ x: { type: 'number' } }, ['x'], { additionalProperties: {} }) }, ['loose']);
    const { schema, narrowed } = projectForProfile('openai-strict', doc);
    expect(schema).toEqual(
      obj({ loose: obj({ x: { type: 'number' } }, ['x'], { additionalProperties: false }) }, ['loose'], {
        additionalProperties: false,
      }),
    );
    expect(narrowed.map((n) => n.pointer)).toEqual(['/properties/loose']);
  });

  it('objects inside $defs are made strict too', () => {
    const doc = obj({ t: { $ref: '#/$defs/T' } }, ['t'], {
      $defs: { T: obj({ v: { type: 'number' }, t: { $ref: '#/$defs/T' } }, ['v']) },
    });
    expect(projectForProfile('openai-strict', doc).schema.$defs.T).toEqual(
      obj({ v: { type: 'number' }, t: { anyOf: [{ $ref: '#/$defs/T' }, { type: 'null' }] } }, ['v', 't'], {
        additionalProperties: false,
      }),
    );
  });

  it('an open record is left as it is: strict mode cannot say free-form keys', () => {
    const rec = { type: 'object', propertyNames: { type: 'string' }, additionalProperties: { type: 'number' } };
    const doc = obj({ rec }, ['rec']);
    const projected = projectForProfile('openai-strict', doc).schema;
    expect(projected.properties.rec).toEqual(rec);
    expect(profileErrors(projected, 'openai-strict').map((i) => i.code)).toEqual(['open-record']);
  });

  it('a nested union is joined (nullable wrappers stay); formats strict mode lacks are dropped', () => {
    const doc = obj(
      {
        u: { anyOf: [{ type: 'string' }, obj({ k: { type: 'string' } }, ['k'])] },
        w: { anyOf: [{ $ref: '#/$defs/T' }, { type: 'null' }] },
        f: { type: 'string', format: 'uri' },
        g: { type: 'string', format: 'date-time' },
      },
      ['u', 'w', 'f', 'g'],
      { $defs: { T: obj({}, [], { additionalProperties: false }) } },
    );
    const { properties } = projectForProfile('openai-strict', doc).schema;
    expect(properties.u).toEqual({
      type: ['string', 'object'],
      properties: { k: { type: 'string' } },
      required: ['k'],
      additionalProperties: false,
    });
    expect(properties.w).toEqual(doc.properties.w);
    expect(properties.f).toEqual({ type: 'string' });
    expect(properties.g).toEqual({ type: 'string', format: 'date-time' });
  });
});

describe('gemini', () => {
  it('null is said with nullable: true (exact for Gemini, so not a narrowing)', () => {
    const doc = obj({
      a: { type: ['string', 'null'] },
      w: { anyOf: [obj({ x: { type: 'number' } }), { type: 'null' }] },
    });
    expect(projectForProfile('gemini', doc)).toEqual({
      schema: obj({
        a: { type: 'string', nullable: true },
        w: obj({ x: { type: 'number' } }, undefined, { nullable: true }),
      }),
      narrowed: [],
    });
    expect(accepts(projectForProfile('gemini', doc).schema, { a: null, w: null })).toBe(true);
  });

  it('a nullable enum loses its null (Gemini takes string enums only), reported as a narrowing', () => {
    const doc = obj({ e: { type: ['string', 'null'], enum: ['p', null] } });
    const { schema, narrowed } = projectForProfile('gemini', doc);
    expect(schema.properties.e).toEqual({ type: 'string', enum: ['p'], nullable: true });
    expect(narrowed.map((n) => n.pointer)).toEqual(['/properties/e']);
  });

  it('an enum of booleans or numbers with null (a flattened tag) becomes its nullable type: nothing lost, nothing reported', () => {
    const doc = obj({
      ok: { type: ['boolean', 'null'], enum: [true, false, null] },
      v: { type: ['integer', 'null'], enum: [1, 2, null] },
    });
    const { schema, narrowed } = projectForProfile('gemini', doc);
    expect(schema.properties).toEqual({
      ok: { type: 'boolean', nullable: true },
      v: { type: 'integer', nullable: true },
    });
    expect(narrowed).toEqual([]);
    expect(accepts(schema, { ok: null, v: null })).toBe(true);
  });

  it('flattened tags of numbers and booleans pass Gemini as their type; a string tag beside null keeps its enum', () => {
    const flat = flatOf(
      z.object({
        result: z.discriminatedUnion('ok', [
          z.object({ ok: z.literal(true), data: z.string() }),
          z.object({ ok: z.literal(false), error: z.string() }),
        ]),
        version: z.discriminatedUnion('v', [
          z.object({ v: z.literal(1) }),
          z.object({ v: z.literal(2), x: z.string() }),
        ]),
        file: z.discriminatedUnion('kind', [
          z.object({ kind: z.literal('file'), path: z.string() }),
          z.object({ kind: z.null(), reason: z.string() }),
        ]),
      }),
    );
    expect(profileErrors(flat, 'gemini').map((i) => `${i.code}@${i.path}`)).toEqual([
      'non-string-enum@/properties/result/properties/ok',
      'non-string-enum@/properties/version/properties/v',
      'type-list@/properties/file/properties/kind',
      'non-string-enum@/properties/file/properties/kind',
    ]);
    const { schema, narrowed } = projectForProfile('gemini', flat);
    expect(profileErrors(schema, 'gemini')).toEqual([]);
    expect(schema.properties.result.properties.ok).toMatchObject({ type: 'boolean' });
    expect(schema.properties.version.properties.v).toMatchObject({ type: 'integer' });
    // Gemini takes no null in an enum: the null variant's tag is left out, and said so.
    expect(schema.properties.file.properties.kind).toMatchObject({ type: 'string', enum: ['file'], nullable: true });
    expect(narrowed.map((n) => n.pointer)).toEqual(['/properties/file/properties/kind']);
  });

  it('const and non-string enums: a string const becomes a one-value enum, others their type', () => {
    const doc = obj({
      s: { type: 'string', const: 'x' },
      n: { type: 'number', const: 7 },
      b: { const: true },
      i: { type: 'integer', enum: [1, 2] },
      m: { enum: [1, 2.5] },
    });
    expect(projectForProfile('gemini', doc).schema.properties).toEqual({
      s: { type: 'string', enum: ['x'] },
      n: { type: 'number' },
      b: { type: 'boolean' },
      i: { type: 'integer' },
      m: { type: 'number' },
    });
  });

  it('record keywords and formats Gemini lacks are dropped', () => {
    const doc = obj({
      rec: { type: 'object', propertyNames: { pattern: '^a' }, additionalProperties: { type: 'number' } },
      strict: obj({ x: { type: 'number' } }, ['x'], { additionalProperties: false }),
      e: { type: 'string', format: 'email' },
      d: { type: 'string', format: 'date-time' },
    });
    expect(projectForProfile('gemini', doc).schema.properties).toEqual({
      rec: { type: 'object' },
      strict: obj({ x: { type: 'number' } }, ['x']),
      e: { type: 'string' },
      d: { type: 'string', format: 'date-time' },
    });
  });

  it('a recursive $ref is expanded three times, then stops at its type; $defs go', () => {
    const doc = obj({ t: { $ref: '#/$defs/T' } }, ['t'], {
      $defs: { T: obj({ v: { type: 'number' }, kids: { type: 'array', items: { $ref: '#/$defs/T' } } }, ['v']) },
    });
    const level = (inner: JsonSchema) => obj({ v: { type: 'number' }, kids: { type: 'array', items: inner } }, ['v']);
    expect(projectForProfile('gemini', doc).schema).toEqual(obj({ t: level(level(level({ type: 'object' }))) }, ['t']));
  });

  it('a field of several types keeps no type and says what it expects; the untyped finding stays', () => {
    const doc = obj({ m: { type: ['string', 'object'], properties: { x: { type: 'number' } } } });
    const projected = projectForProfile('gemini', doc).schema;
    expect(projected.properties.m).toEqual({ description: 'Expects: string | { x }.' });
    expect(profileErrors(projected, 'gemini').map((i) => i.code)).toEqual(['untyped']);
  });
});

describe('cursor', () => {
  it('a nullable optional field is served optional without null, reported with "leave it out"', () => {
    const doc = obj({ a: { type: ['string', 'null'], description: 'Note' } });
    const { schema, narrowed } = projectForProfile('cursor', doc);
    expect(schema).toEqual(obj({ a: { type: 'string', description: 'Note' } }));
    expect(narrowed).toEqual([
      {
        pointer: '/properties/a',
        reason:
          'null is not served, since Cursor rejects a type list with null and any anyOf/oneOf; the key is optional: leave it out for none',
      },
    ]);
  });

  it('a required nullable field loses null too, and its description says null is accepted', () => {
    const doc = obj({ b: { type: ['integer', 'null'] }, e: { type: ['string', 'null'], enum: ['p', null] } }, [
      'b',
      'e',
    ]);
    const { schema, narrowed } = projectForProfile('cursor', doc);
    expect(schema.properties).toEqual({
      b: { type: 'integer', description: 'May be null.' },
      e: { type: 'string', enum: ['p'], description: 'May be null.' },
    });
    expect(narrowed.map((n) => n.reason)).toEqual([
      expect.stringMatching(/the description says null is accepted$/),
      expect.stringMatching(/the description says null is accepted$/),
    ]);
  });

  it('no combinator and no type list anywhere: wrappers unwrap, unions join, intersections merge', () => {
    const doc = obj(
      {
        w: { anyOf: [{ $ref: '#/$defs/T' }, { type: 'null' }] },
        u: { anyOf: [{ type: 'string' }, obj({ k: { type: 'string' } }, ['k'])] },
        n: { oneOf: [{ type: 'string' }, { type: 'number' }] },
        i: { allOf: [obj({ a: { type: 'string' } }), obj({ b: { type: 'string' } }, ['b'])] },
      },
      [],
      { $defs: { T: obj({ v: { type: 'number' } }) } },
    );
    const { schema } = projectForProfile('cursor', doc);
    expect(schema.properties).toEqual({
      w: { $ref: '#/$defs/T' },
      u: { description: 'Expects: string | { k }.' },
      n: { description: 'Expects: string | number.' },
      i: obj({ a: { type: 'string' }, b: { type: 'string' } }, ['b']),
    });
  });

  it('a nullable object keeps its shape: only null goes', () => {
    const flat = flatOf(z.object({ filter: z.object({ q: z.string(), limit: z.number().optional() }).nullable() }));
    expect(projectForProfile('cursor', flat).schema.properties.filter).toEqual({
      type: 'object',
      properties: { q: { type: 'string' }, limit: { type: 'number' } },
      required: ['q'],
      description: 'May be null.',
    });
  });
});

describe('local-grammar', () => {
  const grammar = (doc: JsonSchema) => projectForProfile('local-grammar', doc);

  it('large bounds and long patterns are not advertised; small ones stay', () => {
    const doc = obj(
      {
        s: { type: 'string', maxLength: 5000, minLength: 1 },
        t: { type: 'string', maxLength: 10 },
        p: { type: 'string', pattern: `^${'a?'.repeat(150)}$` },
        q: { type: 'string', pattern: '^[a-z]+$' },
        l: { type: 'array', items: { type: 'string' }, maxItems: 2000 },
      },
      ['s', 't', 'p', 'q', 'l'],
      { additionalProperties: false },
    );
    expect(grammar(doc)).toEqual({
      schema: obj(
        {
          s: { type: 'string', minLength: 1 },
          t: { type: 'string', maxLength: 10 },
          p: { type: 'string' },
          q: { type: 'string', pattern: '^[a-z]+$' },
          l: { type: 'array', items: { type: 'string' } },
        },
        ['s', 't', 'p', 'q', 'l'],
        { additionalProperties: false },
      ),
      narrowed: [],
    });
  });

  it('every listed key is required: an optional one is served nullable, reported as a narrowing at the key', () => {
    const doc = obj({ a: { type: 'string' }, b: { type: 'number' }, c: { const: 'x' } }, ['b']);
    expect(grammar(doc)).toEqual({
      schema: obj(
        { a: { type: ['string', 'null'] }, b: { type: 'number' }, c: { enum: ['x', null] } },
        ['b', 'a', 'c'],
        { additionalProperties: false },
      ),
      narrowed: ['a', 'c'].map((key) => ({
        pointer: `/properties/${key}`,
        reason: `\`${key}\` is listed in required and served nullable, since a local grammar writes every key it lists; null sent for it is read as leaving it out`,
      })),
    });
  });

  it('an optional key that takes null already keeps it, and the narrowing says the tool receives null', () => {
    const { schema, narrowed } = grammar(obj({ n: { type: ['string', 'null'] } }));
    expect(schema.properties.n).toEqual({ type: ['string', 'null'] });
    expect(narrowed[0]!.reason).toMatch(/it is nullable, so a model sends null for none, and the tool receives null$/);
  });

  it('a type list holding object or array becomes oneOf: one member per container type, one for the scalars, each with its own keywords', () => {
    const node = {
      type: ['string', 'null', 'object', 'array'],
      description: 'd',
      minLength: 2,
      properties: { k: { type: 'string' } },
      required: ['k'],
      items: { type: 'number' },
      maxItems: 3,
    };
    expect(grammar(obj({ v: node }, ['v'])).schema.properties.v).toEqual({
      description: 'd',
      oneOf: [
        { type: ['string', 'null'], minLength: 2 },
        obj({ k: { type: 'string' } }, ['k'], { additionalProperties: false }),
        { type: 'array', items: { type: 'number' }, maxItems: 3 },
      ],
    });
  });

  it('a one-type list becomes that type; a scalar type list stays, which the engines read', () => {
    const { properties } = grammar(
      obj({ o: { type: ['object'], properties: {} }, s: { type: ['string', 'integer', 'null'] } }, ['o', 's']),
    ).schema;
    expect(properties.o).toEqual({ type: 'object', properties: {}, additionalProperties: false });
    expect(properties.s).toEqual({ type: ['string', 'integer', 'null'] });
  });

  it('a union of disjoint types becomes oneOf, exact; one whose members overlap becomes their typed join', () => {
    const { properties } = grammar(
      obj(
        {
          tag: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
          num: {
            anyOf: [
              { type: 'integer', minimum: 0 },
              { type: 'number', maximum: 5 },
            ],
          },
        },
        ['tag', 'num'],
      ),
    ).schema;
    expect(properties.tag).toEqual({ oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] });
    expect(properties.num.anyOf ?? properties.num.oneOf).toBeUndefined();
    expect(properties.num.type).toBe('number');
  });

  it('a nullable $ref becomes oneOf with null; a wrapper whose member takes null already becomes that member', () => {
    const doc = obj(
      {
        r: { anyOf: [{ $ref: '#/$defs/T' }, { type: 'null' }] },
        m: { anyOf: [{ $ref: '#/$defs/M' }, { type: 'null' }] },
      },
      ['r', 'm'],
      { $defs: { T: obj({ v: { type: 'number' } }, ['v']), M: { type: ['number', 'null'] } } },
    );
    const { properties, $defs } = grammar(doc).schema;
    expect(properties.r).toEqual({ oneOf: [{ $ref: '#/$defs/T' }, { type: 'null' }] });
    expect(properties.m).toEqual({ $ref: '#/$defs/M' });
    expect($defs.T).toEqual(obj({ v: { type: 'number' } }, ['v'], { additionalProperties: false }));
  });

  it('an untyped position refers to any JSON value, defined once in $defs as three oneOf members', () => {
    const doc = obj({ a: { description: 'anything' }, l: { type: 'array', items: {} } }, ['a', 'l']);
    const { schema } = grammar(doc);
    expect(schema.properties).toEqual({
      a: { $ref: '#/$defs/JsonValue', description: 'anything' },
      l: { type: 'array', items: { $ref: '#/$defs/JsonValue' } },
    });
    expect(schema.$defs).toEqual({
      JsonValue: {
        oneOf: [
          { type: ['string', 'number', 'boolean', 'null'] },
          { type: 'array', items: { $ref: '#/$defs/JsonValue' } },
          { type: 'object', additionalProperties: true },
        ],
      },
    });
    for (const value of [null, 1, 'x', [[{ k: [true] }]], { k: { j: [] } }]) {
      expect(accepts(schema, { a: value, l: [value] }), JSON.stringify(value)).toBe(true);
    }
  });

  it("any JSON value takes a numbered name when the document's $defs has JsonValue; a document with no untyped position gets none", () => {
    const doc = obj({ a: {} }, ['a'], { $defs: { JsonValue: { type: 'string' } } });
    const { schema } = grammar(doc);
    expect(schema.properties.a).toEqual({ $ref: '#/$defs/JsonValue1' });
    expect(Object.keys(schema.$defs)).toEqual(['JsonValue', 'JsonValue1']);
    expect(grammar(obj({ s: { type: 'string' } }, ['s'])).schema.$defs).toBeUndefined();
  });

  it('true sub-schemas, which node-llama-cpp reads as null, become any JSON value; a key that admits nothing stays', () => {
    const doc = obj({ t: true, n: { not: {} }, p: { type: 'array', items: true } }, ['t', 'n', 'p']);
    const { properties } = grammar(doc).schema;
    expect(properties.t).toEqual({ $ref: '#/$defs/JsonValue' });
    expect(properties.n).toEqual({ not: {} });
    expect(properties.p).toEqual({ type: 'array', items: { $ref: '#/$defs/JsonValue' } });
  });

  it('an object says which other keys it takes: none for a strip object, any for a loose one or one that declares no keys, the patterns joined for pattern keys', () => {
    const doc = obj(
      {
        strip: obj({ x: { type: 'number' } }, ['x']),
        loose: obj({ x: { type: 'number' } }, ['x'], { additionalProperties: {} }),
        catchall: obj({}, [], { additionalProperties: { type: 'number' } }),
        anyObject: { type: 'object' },
        patterned: obj({}, [], { patternProperties: { '^a': { type: 'string' }, '^b': { type: 'number' } } }),
      },
      ['strip', 'loose', 'catchall', 'anyObject', 'patterned'],
      { additionalProperties: false },
    );
    const { schema, narrowed } = grammar(doc);
    const { properties } = schema;
    expect(properties.strip.additionalProperties).toBe(false);
    expect(properties.loose.additionalProperties).toBe(true);
    expect(properties.catchall.additionalProperties).toEqual({ type: 'number' });
    expect(properties.anyObject).toEqual({ type: 'object', additionalProperties: true });
    expect(properties.patterned).toEqual(obj({}, [], { additionalProperties: { type: ['string', 'number'] } }));
    // Zod drops a strip object's undeclared keys before the handler: closing it takes nothing away.
    expect(narrowed).toEqual([]);
  });

  it("a tuple's positions join items, since node-llama-cpp writes every prefix item and llama.cpp mishandles them; its length stays bounded", () => {
    const { properties } = grammar(
      obj(
        {
          optionalTail: {
            type: 'array',
            prefixItems: [{ type: 'string' }, { type: 'number' }],
            items: false,
            minItems: 1,
            maxItems: 2,
          },
          joined: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'boolean' }], items: { type: 'number' } },
          point: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }], items: false, minItems: 2 },
        },
        ['optionalTail', 'joined', 'point'],
      ),
    ).schema;
    expect(properties.optionalTail).toEqual({
      type: 'array',
      items: { type: ['string', 'number'] },
      minItems: 1,
      maxItems: 2,
    });
    expect(properties.joined.prefixItems).toBeUndefined();
    expect(properties.joined.items.type).toEqual(['string', 'boolean', 'number']);
    expect(properties.point).toEqual({ type: 'array', items: { type: 'number' }, minItems: 2, maxItems: 2 });
    const schema = grammar(flatOf(z.object({ pair: z.tuple([z.string(), z.number().optional()]) }))).schema;
    for (const pair of [['a'], ['a', 1]]) expect(accepts(schema, { pair }), JSON.stringify(pair)).toBe(true);
  });

  it('a recursive root is named in $defs, and every # refers to it there', () => {
    const doc = obj({ name: { type: 'string' }, kids: { type: 'array', items: { $ref: '#' } } }, ['name', 'kids']);
    const { schema } = grammar(doc);
    expect(schema.properties.kids.items).toEqual({ $ref: '#/$defs/Root' });
    expect(schema.$defs.Root).toEqual({
      type: 'object',
      properties: { name: { type: 'string' }, kids: { type: 'array', items: { $ref: '#/$defs/Root' } } },
      required: ['name', 'kids'],
      additionalProperties: false,
    });
    expect(JSON.stringify(schema)).not.toContain('"#"');
  });

  it('formats but date are not advertised: node-llama-cpp writes others as "" or more strictly than they mean', () => {
    const doc = obj(
      Object.fromEntries(['date', 'date-time', 'time', 'email', 'uuid'].map((f) => [f, { type: 'string', format: f }])),
      ['date', 'date-time', 'time', 'email', 'uuid'],
    );
    const { properties } = grammar(doc).schema;
    expect(Object.values(properties).map((p: any) => p.format)).toEqual([
      'date',
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it("leaves no anyOf, allOf or container type list, and no profile error, in a Zod schema's document", () => {
    const flat = flatOf(
      z.object({
        a: z.string().nullable().optional(),
        b: z.union([z.string(), z.object({ x: z.number() })]),
        c: z.intersection(z.object({ p: z.string() }), z.object({ q: z.number().optional() })),
        d: z.record(z.string(), z.unknown()),
        e: z.array(z.object({ f: z.string().optional() })).nullable(),
        g: z.discriminatedUnion('k', [z.object({ k: z.literal('x'), v: z.string() }), z.object({ k: z.literal('y') })]),
      }),
    );
    const { schema } = grammar(flat);
    const text = JSON.stringify(schema);
    expect(text).not.toMatch(/"(anyOf|allOf)"/);
    expect(text).not.toMatch(/"type":\[[^\]]*"(object|array)"/);
    expect(profileErrors(flat, 'local-grammar').length).toBeGreaterThan(0);
    expect(profileErrors(schema, 'local-grammar')).toEqual([]);
  });

  it('the warnings that a rewrite can clear are gone; untyped items, written as any JSON value, keep theirs', () => {
    const flat = flatOf(z.object({ body: z.string().max(100_000), any: z.array(z.unknown()) }));
    const warnings = (doc: JsonSchema) =>
      checkDocument(doc, { tool: 't', side: 'input', flattenRequested: true, options: { profiles: ['local-grammar'] } })
        .filter((i) => i.profile === 'local-grammar' && i.severity === 'warning')
        .map((i) => i.code);
    expect(warnings(flat)).toEqual(['large-bound', 'untyped-item']);
    expect(warnings(projectForProfile('local-grammar', flat).schema)).toEqual(['untyped-item']);
  });
});
