/**
 * The holes issue 21 found in served documents, each closed in every projection: an integer beyond
 * ±(2^53 - 1), a regex flag, an exhaustive enum-keyed record, `""` and `null` in a Gemini enum. Each case
 * checks every projection's document and what the report says.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { defineTool, validateMcpSchemas } from 'mcp-mount';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { PROJECTION_NAMES } from '../../../src/core/projection/names.js';

const ALL = [...PROJECTION_NAMES];

function probe(input: z.ZodObject) {
  const tool = defineTool({ name: 't', input, handler: () => ({}) });
  return validateMcpSchemas([tool], { projection: { serve: ALL, choose: 'auto' } });
}

/** Each projection's served input document for the one tool. */
function documents(report: ReturnType<typeof probe>): Array<[string, any]> {
  return ALL.map((name) => [name, report.projections[name]!.tools[0]!.inputSchema]);
}

// Ajv reads OpenAPI's `nullable` (Gemini's dialect) as a keyword of its own.
const ajv = new Ajv2020({ strict: false, validateFormats: false });
const accepts = (schema: any, value: unknown) => ajv.validate(schema, value) === true;

/**
 * The value as a strict-mode client or a local grammar sends it: every declared key it lacks sent as null
 * (repair reads it as absent).
 */
function strictSent(schema: any, value: unknown): unknown {
  if (!schema || typeof schema !== 'object' || !value || typeof value !== 'object' || Array.isArray(value))
    return value;
  const props = schema.properties ?? (schema.anyOf ?? schema.oneOf)?.find((b: any) => b.properties)?.properties;
  if (!props) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(props)) out[key] = key in value ? strictSent(props[key], (value as any)[key]) : null;
  for (const key of Object.keys(value)) if (!(key in out)) out[key] = (value as any)[key];
  return out;
}

/** Whether projection `name`'s document takes `value`, sent the way that client sends it. */
const takes = (name: string, doc: any, value: unknown) =>
  accepts(doc, name === 'openai-strict' || name === 'local-grammar' ? strictSent(doc, value) : value);

function unsafeIntegers(value: unknown, at = ''): string[] {
  if (typeof value === 'number') return Number.isSafeInteger(value) || !Number.isInteger(value) ? [] : [at];
  if (Array.isArray(value)) return value.flatMap((v, i) => unsafeIntegers(v, `${at}/${i}`));
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => unsafeIntegers(v, `${at}/${k}`));
  return [];
}

describe('integers beyond the safe range', () => {
  // The int64 limits as an API's documentation gives them; a double holds them as ±2^63.
  const input = z.object({
    micros: z.number().max(Number(9223372036854775807n)),
    floor: z.number().min(Number(-9223372036854775808n)),
    step: z.number().multipleOf(1e20),
    big: z.number().default(2 ** 60),
    sample: z.number().meta({ examples: [1, 2 ** 62] }),
  });

  it('are in no projection, and each one left out is an info issue at its field', () => {
    const report = probe(input);
    for (const [name, doc] of documents(report)) {
      expect(unsafeIntegers(doc), name).toEqual([]);
      expect(takes(name, doc, { micros: 2 ** 60, floor: -(2 ** 60), step: 1e20, sample: 3 }), name).toBe(true);
    }
    const notes = report.issues.filter((i) => i.code === 'unsafe-number');
    expect(notes.map((i) => [i.path, i.severity])).toEqual([
      ['/properties/micros', 'info'],
      ['/properties/floor', 'info'],
      ['/properties/step', 'info'],
      ['/properties/big', 'info'],
      ['/properties/sample', 'info'],
    ]);
    expect(notes[0]!.message).toMatch(/^maximum left out: an integer beyond/);
    expect(report.ok).toBe(true);
  });

  it('keeps the bounds a client can read, and the parse still applies the one it cannot', () => {
    const doc = probe(
      z.object({
        n: z
          .number()
          .min(0)
          .max(2 ** 63),
      }),
    ).projections.flat!.tools[0]!.inputSchema as any;
    expect(doc.properties.n).toEqual({ type: 'number', minimum: 0 });
    expect(
      z
        .number()
        .max(2 ** 63)
        .safeParse(2 ** 64).success,
    ).toBe(false);
  });
});

describe('regex flags', () => {
  const input = z.object({
    code: z.string().regex(/^[a-z]{2}-\d{4}$/i),
    line: z.string().regex(/^a.b$/s),
    multi: z.string().regex(/^end$/m),
  });

  it('serve a flag-free equivalent where there is one, so no projection refuses what the parse accepts', () => {
    const report = probe(input);
    const value = { code: 'DE-1234', line: 'a\nb', multi: 'x\nend' };
    expect(input.safeParse(value).success).toBe(true);
    for (const [name, doc] of documents(report)) {
      expect(takes(name, doc, value), name).toBe(true);
      expect(takes(name, doc, { ...value, code: 'DE-12x4' }), name).toBe(false);
    }
    expect((report.projections.flat!.tools[0]!.inputSchema as any).properties.code.pattern).toBe(
      '^[a-zA-Z]{2}-\\d{4}$',
    );
  });

  it('leave out a pattern with no flag-free equivalent, with an info issue naming it', () => {
    const report = probe(input);
    for (const [name, doc] of documents(report)) expect((doc as any).properties.multi.pattern, name).toBeUndefined();
    const [note] = report.issues.filter((i) => i.code === 'pattern-flags');
    expect(note).toMatchObject({ path: '/properties/multi', severity: 'info', tool: 't' });
    expect(note!.message).toContain('/^end$/m');
  });
});

describe('regex flags on classes and Unicode case folding', () => {
  const served = (re: RegExp) =>
    (probe(z.object({ v: z.string().regex(re) })).projections.flat!.tools[0]!.inputSchema as any).properties.v
      .pattern as string | undefined;

  it('read [] and [^] as whole classes, so the rest of the pattern is not swallowed', () => {
    const cases: Array<[string, string]> = [
      ['^id:[^]*$', 'i'],
      ['^[^]{1,3}x$', 'i'],
      ['^(?:[]|b)$', 'i'],
      ['^a[^].$', 's'],
      ['x[^]$', 'm'],
    ];
    for (const re of cases.map(([source, flags]) => new RegExp(source, flags))) {
      const p = served(re);
      if (p === undefined) continue;
      const plain = new RegExp(p, 'u');
      for (const s of ['id:\nzz', 'ID:', '\nX', 'ab', 'B', 'b', 'a\n\n', 'ax\n', 'x\n', 'X'])
        expect(plain.test(s), `${re} as ${p} on ${JSON.stringify(s)}`).toBe(re.test(s));
    }
    expect(served(new RegExp(cases[0]![0], 'i'))).toBe('^[iI][dD]:[^]*$');
    expect(served(new RegExp(cases[4]![0], 'm'))).toBeUndefined();
  });

  it('keep a class that ends in a literal - a literal -, not the start of a range to the appended letters', () => {
    for (const re of [/^[a-]$/i, /^[a-z-]$/iu, /^[-a]$/i, /^[\\-]$/i]) {
      const p = served(re)!;
      const plain = new RegExp(p, 'u');
      for (const s of ['a', 'A', '-', '\\', 'b', 'Z', '\u212A'])
        expect(plain.test(s), `${re} as ${p} on ${JSON.stringify(s)}`).toBe(re.test(s));
    }
  });

  it('take the Kelvin sign and long s under iu and iv, and not under i alone', () => {
    // `v` as a string: the compiler targets ES2022, which has no `v` literal.
    const iv = 'iv';
    for (const re of [/^k$/iu, /^[a-z]+$/iu, /^[^s]$/iu, /^[j-l]$/iu, new RegExp('^sk$', iv), /^k$/i, /^[s]$/i]) {
      const p = served(re)!;
      const plain = new RegExp(p, 'u');
      for (const s of ['\u212A', '\u017F', 'k', 'K', 'S', 's', 'sK', '\u017F\u212A'])
        expect(plain.test(s), `${re} as ${p} on ${JSON.stringify(s)}`).toBe(re.test(s));
    }
  });
});

describe('records keyed by a finite set', () => {
  const input = z.object({
    scores: z.record(z.enum(['a', 'b']), z.number()),
    some: z.partialRecord(z.enum(['a', 'b']), z.number()),
    pair: z.record(z.union([z.literal('x'), z.literal('y')]), z.string()),
    loose: z.looseRecord(z.enum(['k']), z.number()),
  });

  it('are served as objects with those properties, required as Zod requires them, and the probe passes', () => {
    const report = probe(input);
    expect(report.issues.filter((i) => i.severity === 'error').map((i) => i.code)).not.toContain(
      'required-not-in-properties',
    );
    const flat = report.projections.flat!.tools[0]!.inputSchema as any;
    expect(flat.properties.scores).toEqual({
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
      additionalProperties: false,
    });
    expect(flat.properties.some.required).toBeUndefined();
    expect(Object.keys(flat.properties.pair.properties)).toEqual(['x', 'y']);
    expect(flat.properties.loose.additionalProperties).toEqual({});
    const value = { scores: { a: 1, b: 2 }, some: { b: 1 }, pair: { x: 'p', y: 'q' }, loose: { k: 1, other: 'kept' } };
    expect(input.safeParse(value).success).toBe(true);
    for (const [name, doc] of documents(report)) {
      // Strict mode closes every object: a narrowing it reports where the object let other keys through.
      const sent = name === 'openai-strict' ? { ...value, loose: { k: 1 } } : value;
      expect(takes(name, doc, sent), name).toBe(true);
      expect((doc as any).properties.scores.properties, name).toBeDefined();
    }
    const closed = report.issues.filter((i) => i.code === 'narrowed' && i.projection === 'openai-strict');
    expect(closed.map((i) => i.path)).toContain('/properties/loose');
  });

  it('keyed by number literals are served with the keys as strings, as Zod parses them', () => {
    const numeric = z.object({
      one: z.record(z.literal(1), z.string()),
      two: z.record(z.enum({ A: 1, B: 2 }), z.number()),
    });
    const value = { one: { '1': 'x' }, two: { '1': 1, '2': 2 } };
    expect(numeric.safeParse(value).success).toBe(true);
    const report = probe(numeric);
    expect(report.issues.filter((i) => i.severity === 'error')).toEqual([]);
    for (const [name, doc] of documents(report)) {
      expect(takes(name, doc, value), name).toBe(true);
      expect(Object.keys((doc as any).properties.two.properties), name).toEqual(['1', '2']);
    }
  });

  it('let a mount start under the default policy', async () => {
    const { mcp } = await import('mcp-mount/fetch');
    expect(() => mcp([defineTool({ name: 't', input, handler: () => ({}) })])).not.toThrow();
  });
});

describe('"" and null in an enum', () => {
  const input = z.object({
    sort: z.enum(['', 'asc', 'desc']),
    maybe: z.enum(['', 'x']).nullable().optional(),
    either: z.literal(['', null]).optional(),
    tagged: z.literal([null, 'x']),
  });

  it('reach no Gemini enum, and Gemini is served a superset with the values in the description', () => {
    const report = probe(input);
    const gemini = report.projections.gemini!.tools[0]!.inputSchema as any;
    const enums = JSON.stringify(gemini).match(/"enum":\[[^\]]*\]/g) ?? [];
    expect(enums.filter((e) => e.includes('""') || e.includes('null'))).toEqual([]);
    expect(gemini.properties.sort).toEqual({ type: 'string', description: 'One of: "", "asc", "desc".' });
    expect(report.issues.filter((i) => i.projection === 'gemini' && i.severity === 'error')).toEqual([]);
    for (const value of [
      { sort: '', tagged: null },
      { sort: 'asc', maybe: null, either: null, tagged: 'x' },
    ]) {
      expect(input.safeParse(value).success).toBe(true);
      for (const [name, doc] of documents(report)) {
        // Cursor takes null out, a narrowing it reports at each key (below).
        if (name !== 'cursor' || !Object.values(value).includes(null)) expect(takes(name, doc, value), name).toBe(true);
      }
    }
    const cursor = report.issues.filter((i) => i.code === 'narrowed' && i.projection === 'cursor');
    expect(cursor.map((i) => i.path)).toContain('/properties/tagged');
  });
});
