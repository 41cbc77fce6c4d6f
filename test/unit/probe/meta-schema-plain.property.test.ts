/**
 * The quick meta-schema proof (`plainlyValid`, ADR 0027) never vouches for a document Ajv's validator for the
 * 2020-12 meta-schema refuses: over random documents built from the meta-schema's keywords, each value
 * usually of the type its keyword needs and sometimes not, and over what Zod's conversion writes for random
 * schemas. It also vouches for what Zod writes, or it would save nothing.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { plainlyValid } from '../../../src/core/probe/meta-schema/plainly-valid.js';
import { validate } from '../../../src/core/probe/meta-schema/validate-2020-12.js';
import { propertyRuns } from '../../support/property-runs.js';
import { rootArb } from '../projection/arbitraries.js';

const ajv = validate as unknown as (doc: unknown) => boolean;
const SIMPLE = ['array', 'boolean', 'integer', 'null', 'number', 'object', 'string'] as const;

/** Any JSON-ish value, including the ones a validator treats specially (NaN, -0, huge numbers). */
const anything: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, -0, 1.5, -1, 2 ** 60, undefined, '', '#', 'a#b', '9x', 'A-b.c'),
);
const words = fc.constantFrom('a', 'b', 'c', '__proto__', 'constructor', 'a/b');

const { schema } = fc.letrec<{ schema: unknown }>((tie) => {
  const sub = tie('schema');
  const nonEmpty = fc.array(sub, { minLength: 1, maxLength: 3 });
  const map = fc.dictionary(words, sub, { maxKeys: 3 });
  const count = fc.oneof(fc.nat(4), fc.constantFrom(-1, 0.5, '1'));
  const number = fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true, min: -10, max: 10 }), fc.constant('1'));
  const strings = fc.array(words, { maxLength: 3 });
  // Each keyword's value: right most of the time (so both verdicts occur), anything now and then.
  const right: Record<string, fc.Arbitrary<unknown>> = {
    $id: fc.constantFrom('a', 'http://x/y', 'x#', 'x#y'),
    $schema: fc.constantFrom('https://json-schema.org/draft/2020-12/schema', 'x'),
    $ref: fc.constantFrom('#', '#/$defs/a', 'other.json'),
    $anchor: fc.constantFrom('a', 'A-b.c', '9x', ''),
    $dynamicRef: fc.constant('#meta'),
    $dynamicAnchor: fc.constantFrom('meta', '-x'),
    $comment: fc.string(),
    $defs: map,
    definitions: map,
    $vocabulary: fc.dictionary(words, fc.boolean(), { maxKeys: 2 }),
    dependencies: fc.dictionary(words, fc.oneof(sub, strings), { maxKeys: 2 }),
    $recursiveAnchor: fc.constantFrom('a', '9'),
    $recursiveRef: fc.constant('#'),
    prefixItems: fc.oneof(nonEmpty, fc.constant([])),
    items: sub,
    contains: sub,
    additionalProperties: sub,
    properties: map,
    patternProperties: fc.dictionary(fc.constantFrom('^a', '(', '.*'), sub, { maxKeys: 2 }),
    dependentSchemas: map,
    propertyNames: sub,
    if: sub,
    // biome-ignore lint/suspicious/noThenProperty: `then` is the JSON Schema keyword under test.
    then: sub,
    else: sub,
    allOf: fc.oneof(nonEmpty, fc.constant([])),
    anyOf: nonEmpty,
    oneOf: nonEmpty,
    not: sub,
    unevaluatedItems: sub,
    unevaluatedProperties: sub,
    type: fc.oneof(fc.constantFrom(...SIMPLE, 'strin'), fc.array(fc.constantFrom(...SIMPLE), { maxLength: 3 })),
    const: anything,
    enum: fc.array(anything, { maxLength: 3 }),
    multipleOf: fc.oneof(number, fc.constant(0)),
    maximum: number,
    exclusiveMaximum: number,
    minimum: number,
    exclusiveMinimum: number,
    maxLength: count,
    minLength: count,
    pattern: fc.constantFrom('^a$', '('),
    maxItems: count,
    minItems: count,
    uniqueItems: fc.boolean(),
    maxContains: count,
    minContains: count,
    maxProperties: count,
    minProperties: count,
    required: strings,
    dependentRequired: fc.dictionary(words, strings, { maxKeys: 2 }),
    title: fc.string(),
    description: fc.string(),
    default: anything,
    deprecated: fc.boolean(),
    readOnly: fc.boolean(),
    writeOnly: fc.boolean(),
    examples: fc.array(anything, { maxLength: 2 }),
    format: fc.constantFrom('uri', 'no-such-format'),
    contentEncoding: fc.constant('base64'),
    contentMediaType: fc.constant('application/json'),
    contentSchema: sub,
    nullable: fc.boolean(),
    'x-extension': anything,
  };
  const entry = fc
    .constantFrom(...Object.keys(right))
    .chain((k) =>
      fc.tuple(fc.constant(k), fc.oneof({ weight: 6, arbitrary: right[k]! }, { weight: 1, arbitrary: anything })),
    );
  return {
    schema: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      { weight: 1, arbitrary: fc.boolean() },
      { weight: 4, arbitrary: fc.array(entry, { maxLength: 4 }).map((entries) => Object.fromEntries(entries)) },
      { weight: 1, arbitrary: anything },
    ),
  };
});

describe('plainlyValid', () => {
  it('never vouches for a document Ajv refuses, and vouches for many it accepts', () => {
    let vouched = 0;
    let accepted = 0;
    fc.assert(
      fc.property(schema, (doc) => {
        const plain = plainlyValid(doc);
        const valid = ajv(doc);
        if (plain) expect(valid).toBe(true);
        vouched += plain ? 1 : 0;
        accepted += valid ? 1 : 0;
      }),
      { seed: 20261202, numRuns: propertyRuns(20_000, 2_000) },
    );
    expect(vouched).toBeGreaterThan(accepted / 2);
  });

  it("vouches for what Zod's conversion writes, and Ajv agrees", () => {
    fc.assert(
      fc.property(rootArb(3), (gen) => {
        const doc = z.toJSONSchema(gen.schema, { io: 'input', unrepresentable: 'any' });
        expect(ajv(doc)).toBe(true);
        expect(plainlyValid(doc)).toBe(true);
      }),
      { seed: 20261202, numRuns: propertyRuns(500, 100) },
    );
  });

  it('leaves to Ajv each keyword whose value has the wrong type, and every keyword it does not read', () => {
    const wrong: Array<Record<string, unknown>> = [
      { deprecated: 'yes' },
      { type: 'strin' },
      { type: ['string', 'string'] },
      { type: [] },
      { required: ['a', 'a'] },
      { minLength: -1 },
      { maxItems: 1.5 },
      { multipleOf: 0 },
      { minimum: Number.NaN },
      { anyOf: [] },
      { properties: { a: 3 } },
      { properties: [] },
      { items: [{}] },
      { $anchor: '9x' },
      { $id: 'a#b' },
      { examples: 'no' },
      { enum: 'x' },
      { title: undefined },
      { $vocabulary: {} },
      { dependencies: {} },
      { properties: { a: { $defs: { b: { readOnly: 1 } } } } },
    ];
    for (const doc of wrong) expect(plainlyValid(doc), JSON.stringify(doc)).toBe(false);
    expect(plainlyValid(Object.assign(Object.create(null), { type: 'object' }))).toBe(false);
    expect(plainlyValid({ type: 'object', 'x-any': [1], nullable: true, format: 'weird' })).toBe(true);
  });
});
