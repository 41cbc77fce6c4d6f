/**
 * The flatten cases, one by one, at the JSON Schema level: the served shape at the listed pointers, and the
 * superset invariant on the listed inputs (every input Zod accepts passes Ajv on the served schema;
 * inputs listed as "passes Ajv, but Run rejects" do exactly that). HTTP-level parts live elsewhere.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { media, strictVariantsWithOwnOptionals } from '../../support/unions.js';
import { accepts, at, DU, project, twoVariants, typeSet, unionsIn, zodAcceptedValuesPass } from './helpers.js';

/** Projects, checks the listed inputs both ways, and returns the served document. */
function served(schema: z.ZodType, inputs: { ok?: unknown[]; ajvOnly?: unknown[] } = {}) {
  const { schema: doc, unflattened } = project(schema);
  const ok = inputs.ok ?? [];
  expect(zodAcceptedValuesPass(schema, doc, ok)).toHaveLength(ok.length);
  for (const v of inputs.ajvOnly ?? []) {
    expect(accepts(doc, v), `Ajv should accept ${JSON.stringify(v)}`).toBe(true);
    expect(schema.safeParse(v).success, `Zod should reject ${JSON.stringify(v)}`).toBe(false);
  }
  return { doc: doc as any, unflattened };
}

describe('collisions: object vs array', () => {
  it('an object in one variant and an array in the other: a type list, both forms accepted', () => {
    const { doc } = served(media(z.object({ id: z.string() })), {
      ok: [
        { kind: 'one', media: { id: 'a' } },
        { kind: 'many', media: [{ id: 'a' }] },
      ],
      ajvOnly: [{ kind: 'one', media: [{ id: 'a' }] }],
    });
    expect(unionsIn(doc)).toEqual([]);
    expect(doc.properties.kind).toMatchObject({ type: 'string', enum: ['one', 'many'] });
    expect(typeSet(doc.properties.media)).toEqual(['array', 'object']);
    // Both sides keep their shape: the object's properties and the array's items stand side by side.
    const id = { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] };
    expect(doc.properties.media).toMatchObject({ properties: id.properties, required: ['id'], items: id });
    expect(doc.properties.media.description).toContain('kind = one: { id }; kind = many: array of { id }');
    expect(doc.required).toContain('media');
  });

  it('the object/array collision, optional in one variant: not required, with a hint', () => {
    const { doc } = served(media(z.object({ id: z.string() }).optional()), { ok: [{ kind: 'one' }] });
    expect(doc.required).not.toContain('media');
    expect(doc.properties.media.description).toContain('Required if kind = many');
  });

  it('a string vs an array, both nullable: one type list including null, no anyOf', () => {
    const { doc } = served(twoVariants(z.string().nullable(), z.array(z.string()).nullable(), 'value'), {
      ok: [
        { kind: 'a', value: null },
        { kind: 'b', value: ['x'] },
        { kind: 'a', value: 'x' },
        { kind: 'b', value: null },
      ],
    });
    expect(typeSet(doc.properties.value)).toEqual(['array', 'null', 'string']);
    expect(doc.properties.value.anyOf).toBeUndefined();
    expect(doc.properties.value).toHaveProperty('items');
  });
});

describe('collisions: literals and enums', () => {
  it('a string literal vs a string literal: one enum in variant order, no const', () => {
    const schema = twoVariants(z.literal('fast'), z.literal('slow'), 'mode');
    const { doc } = served(schema, { ok: [{ kind: 'a', mode: 'fast' }], ajvOnly: [{ kind: 'b', mode: 'fast' }] });
    expect(doc.properties.mode).toMatchObject({ type: 'string', enum: ['fast', 'slow'] });
    expect(doc.properties.mode.const).toBeUndefined();
    expect(JSON.stringify(project(schema).schema)).toBe(JSON.stringify(doc));
  });

  it('an enum vs a free string: a free string, no enum', () => {
    const { doc } = served(twoVariants(z.enum(['x', 'y']), z.string(), 'mode'), {
      ok: [{ kind: 'b', mode: 'anything' }],
    });
    expect(doc.properties.mode.type).toBe('string');
    expect(doc.properties.mode.enum).toBeUndefined();
  });

  it('boolean literals: a boolean, nothing pins one value', () => {
    const { doc } = served(twoVariants(z.literal(true), z.literal(false), 'flag'), {
      ok: [{ kind: 'b', flag: false }],
      ajvOnly: [{ kind: 'a', flag: false }],
    });
    expect(doc.properties.flag.type).toBe('boolean');
    expect(doc.properties.flag.const).toBeUndefined();
    expect(doc.properties.flag.enum).toBeUndefined();
  });

  it('a string vs a number: a type list, never {}', () => {
    const { doc } = served(twoVariants(z.string(), z.number(), 'target'), {
      ok: [
        { kind: 'a', target: 'x' },
        { kind: 'b', target: 3 },
      ],
    });
    expect(typeSet(doc.properties.target)).toEqual(['number', 'string']);
  });
});

describe('collisions: object shapes', () => {
  it('two object shapes: an open object that keeps both shapes, none required', () => {
    const { doc } = served(twoVariants(z.object({ x: z.string() }), z.object({ y: z.number() }), 'cfg'), {
      ok: [{ kind: 'a', cfg: { x: '1' } }],
      ajvOnly: [{ kind: 'a', cfg: { y: 1 } }],
    });
    expect(doc.properties.cfg.type).toBe('object');
    expect(doc.properties.cfg.required).toBeUndefined();
    expect(doc.properties.cfg.additionalProperties).toBeUndefined();
    expect(doc.properties.cfg.properties).toEqual({ x: { type: 'string' }, y: { type: 'number' } });
    expect(doc.properties.cfg.description).toContain('kind = a: { x }; kind = b: { y }');
  });

  it('plain object unions in both variants: an open object, no anyOf left', () => {
    const { doc } = served(
      twoVariants(
        z.union([z.object({ a: z.string() }), z.object({ b: z.string() })]),
        z.union([z.object({ c: z.string() }), z.object({ d: z.string() })]),
        'value',
      ),
      { ok: [{ kind: 'b', value: { d: '1' } }] },
    );
    expect(doc.properties.value.type).toBe('object');
    expect(doc.properties.value.required).toBeUndefined();
    const string = { type: 'string' };
    expect(doc.properties.value.properties).toMatchObject({ a: string, b: string, c: string, d: string });
    expect(unionsIn(doc)).toEqual([]);
  });
});

describe('defaults', () => {
  it('a different default in each variant: no default advertised, not required', () => {
    const { doc } = served(twoVariants(z.number().default(10), z.number().default(50), 'limit'), {
      ok: [{ kind: 'a' }, { kind: 'b' }],
    });
    expect(doc.properties.limit.type).toBe('number');
    expect(doc.properties.limit).not.toHaveProperty('default');
    expect(doc.required).not.toContain('limit');
  });

  it('a default in one strict variant only: strict flat object, no default', () => {
    const { doc } = served(
      z.discriminatedUnion('kind', [
        z.object({ kind: z.literal('a'), x: z.string() }).strict(),
        z.object({ kind: z.literal('b'), y: z.string().default('z') }).strict(),
      ]),
      { ok: [{ kind: 'a', x: '1' }] },
    );
    expect(doc.additionalProperties).toBe(false);
    expect(doc.properties.y).not.toHaveProperty('default');
  });
});

describe('nesting', () => {
  it('an array of a union inside an object: one item object with hints', () => {
    const schema = z.object({
      content: z.object({
        parts: z.array(
          z.discriminatedUnion('type', [
            z.object({ type: z.literal('text'), text: z.string() }),
            z.object({ type: z.literal('image'), url: z.url() }),
          ]),
        ),
      }),
    });
    const { doc } = served(schema, {
      ok: [
        { content: { parts: [{ type: 'text', text: 'hi' }] } },
        {
          content: {
            parts: [
              { type: 'text', text: 'hi' },
              { type: 'image', url: 'https://example.com/a.png' },
            ],
          },
        },
      ],
    });
    const items = at(doc, '/properties/content/properties/parts/items');
    expect(items.type).toBe('object');
    expect(items.properties.type.enum).toEqual(['text', 'image']);
    expect(items.required).toEqual(['type']);
    expect(items.properties.text.description).toContain('Required if type = text');
    expect(items.properties.url.description).toContain('Required if type = image');
    expect(unionsIn(doc)).toEqual([]);
  });
});

describe('discriminators', () => {
  it('a multi-value literal tag', () => {
    const { doc } = served(
      z.discriminatedUnion('k', [
        z.object({ k: z.literal(['a', 'b']), x: z.string() }),
        z.object({ k: z.literal('c'), y: z.string() }),
      ]),
      { ok: [{ k: 'b', x: '1' }] },
    );
    expect(doc.properties.k).toMatchObject({ type: 'string', enum: ['a', 'b', 'c'] });
    expect(doc.required).toContain('k');
    expect(doc.properties.x.description).toContain('Required if k = a | b');
  });

  it('a z.enum tag', () => {
    const { doc } = served(
      z.discriminatedUnion('k', [
        z.object({ k: z.enum(['x', 'y']), p: z.string() }),
        z.object({ k: z.literal('z'), q: z.string() }),
      ]),
      { ok: [{ k: 'y', p: '1' }] },
    );
    expect(doc.properties.k.enum).toEqual(['x', 'y', 'z']);
  });

  it('a boolean tag (the Result shape) is one object: `ok` a required boolean enum, each side hinted `ok = true`/`ok = false`', () => {
    const result = z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), data: z.string() }),
      z.object({ ok: z.literal(false), error: z.string() }),
    ]);
    const { doc, unflattened } = served(z.object({ op: result, other: DU }), {
      ok: [
        { op: { ok: true, data: 'd' }, other: { kind: 'a', x: '1' } },
        { op: { ok: false, error: 'e' }, other: { kind: 'b', y: 2 } },
      ],
      ajvOnly: [{ op: { ok: true }, other: { kind: 'a', x: '1' } }],
    });
    expect(unflattened).toEqual([]);
    expect(unionsIn(doc)).toEqual([]);
    const op = doc.properties.op;
    expect(op.type).toBe('object');
    expect(op.required).toEqual(['ok']);
    expect(op.properties.ok).toMatchObject({ type: 'boolean', enum: [true, false] });
    expect(op.properties.ok.description).toBe('Selects the variant: true | false.');
    expect(op.properties.data.description).toBe('Required if ok = true.');
    expect(op.properties.error.description).toBe('Required if ok = false.');
    expect(accepts(doc, { op: { ok: 'true', data: 'd' }, other: { kind: 'a', x: '1' } })).toBe(false);
  });

  it('numbered versions (`v: 1 | 2 | 3`) are one object: `v` an integer enum in variant order, hints `v = 1`', () => {
    const { doc, unflattened } = served(
      z.discriminatedUnion('v', [
        z.object({ v: z.literal(3), c: z.string() }),
        z.object({ v: z.literal(1), a: z.string() }),
        z.object({ v: z.literal(2), a: z.string(), b: z.number().optional() }),
      ]),
      {
        ok: [
          { v: 1, a: 'x' },
          { v: 2, a: 'x', b: 1 },
          { v: 3, c: 'x' },
        ],
      },
    );
    expect(unflattened).toEqual([]);
    expect(doc.properties.v).toMatchObject({ type: 'integer', enum: [3, 1, 2] });
    expect(doc.properties.a.description).toBe('Required if v = 1 | 2.');
    expect(doc.properties.b.description).toBe('Only for v = 2.');
    expect(doc.properties.c.description).toBe('Required if v = 3.');
  });

  it('a fractional number beside integers types the tag `number`, which takes both', () => {
    const { doc } = served(
      z.discriminatedUnion('v', [z.object({ v: z.literal(1) }), z.object({ v: z.literal(1.5), x: z.string() })]),
      { ok: [{ v: 1 }, { v: 1.5, x: 'a' }] },
    );
    expect(doc.properties.v).toMatchObject({ type: 'number', enum: [1, 1.5] });
  });

  it("null beside strings: a type list of the values' types, `kind = null` in the hints", () => {
    const { doc } = served(
      z.discriminatedUnion('kind', [
        z.object({ kind: z.literal('file'), path: z.string() }),
        z.object({ kind: z.null(), reason: z.string() }),
      ]),
      {
        ok: [
          { kind: 'file', path: 'p' },
          { kind: null, reason: 'r' },
        ],
      },
    );
    expect(doc.properties.kind).toMatchObject({ type: ['string', 'null'], enum: ['file', null] });
    expect(doc.properties.reason.description).toBe('Required if kind = null.');
    expect(doc.properties.kind.description).toBe('Selects the variant: file | null.');
  });

  it('the string "1" and the number 1 as tags read differently: `k = "1"` and `k = 1`', () => {
    const { doc } = served(
      z.discriminatedUnion('k', [
        z.object({ k: z.literal('1'), s: z.string() }),
        z.object({ k: z.literal(1), n: z.number() }),
        z.object({ k: z.literal('true'), t: z.string() }),
        z.object({ k: z.literal(true), b: z.boolean() }),
      ]),
      {
        ok: [
          { k: '1', s: 'a' },
          { k: 1, n: 1 },
          { k: 'true', t: 'a' },
          { k: true, b: false },
        ],
      },
    );
    expect(doc.properties.k).toMatchObject({ type: ['string', 'integer', 'boolean'], enum: ['1', 1, 'true', true] });
    expect(doc.properties.s.description).toBe('Required if k = "1".');
    expect(doc.properties.n.description).toBe('Required if k = 1.');
    expect(doc.properties.t.description).toBe('Required if k = "true".');
    expect(doc.properties.b.description).toBe('Required if k = true.');
    expect(doc.properties.k.description).toBe('Selects the variant: "1" | 1 | "true" | true.');
  });

  it("the members' own descriptions are labelled with the tag value as the hints write it", () => {
    const { doc } = served(
      z.discriminatedUnion('v', [
        z.object({ v: z.literal(1).describe('the first'), a: z.string() }).describe('old form'),
        z.object({ v: z.literal(2).describe('the second'), a: z.number() }).describe('new form'),
      ]),
      {
        ok: [
          { v: 1, a: 'x' },
          { v: 2, a: 2 },
        ],
      },
    );
    expect(doc.description).toBe('v = 1: old form; v = 2: new form');
    expect(doc.properties.v.description).toBe('v = 1: the first; v = 2: the second. Selects the variant: 1 | 2.');
    expect(doc.properties.a.description).toBe('v = 1: string; v = 2: number.');
  });

  it('a tag optional in one variant: the oneOf stays and the input passes', () => {
    const { doc, unflattened } = served(
      z.object({
        op: z.discriminatedUnion('k', [
          z.object({ k: z.literal('a').optional(), x: z.string() }),
          z.object({ k: z.literal('b'), y: z.string() }),
        ]),
      }),
      { ok: [{ op: { x: '1' } }] },
    );
    expect(doc.properties.op.oneOf).toHaveLength(2);
    expect(unflattened).toEqual([
      { pointer: '/properties/op', reason: expect.stringContaining('`k` is optional in variant 0') },
    ]);
  });

  it('overlapping tag values: the anyOf stays', () => {
    const { doc, unflattened } = served(
      z.object({
        f: z.union([
          z.object({ k: z.literal('a'), x: z.string() }),
          z.object({ k: z.literal('a'), y: z.string() }),
          z.object({ k: z.literal('b'), z: z.string() }),
        ]),
      }),
      { ok: [{ f: { k: 'a', y: '1' } }] },
    );
    expect(doc.properties.f.anyOf).toHaveLength(3);
    expect(unflattened[0]).toEqual({
      pointer: '/properties/f',
      reason: expect.stringContaining('tag values overlap: a'),
    });
  });

  it('a plain z.union of tagged objects is flattened like a discriminated union', () => {
    const { doc } = served(
      z.union([z.object({ kind: z.literal('a'), x: z.string() }), z.object({ kind: z.literal('b'), y: z.number() })]),
      { ok: [{ kind: 'b', y: 2 }] },
    );
    expect(doc.type).toBe('object');
    expect(doc.properties.kind.enum).toEqual(['a', 'b']);
    expect(doc.required).toEqual(['kind']);
    expect(doc.properties.x.description).toContain('Required if kind = a');
    expect(doc.properties.y.description).toContain('Required if kind = b');
    expect(unionsIn(doc)).toEqual([]);
  });
});

describe('non-object members', () => {
  it('a string or a union: one node with a type list, its object side the flat union', () => {
    const { doc, unflattened } = served(z.object({ spec: z.union([z.string(), DU]) }), {
      ok: [{ spec: 'text' }, { spec: { kind: 'b', y: 2 } }],
      ajvOnly: [{ spec: { kind: 'b' } }],
    });
    const spec = doc.properties.spec;
    expect(typeSet(spec)).toEqual(['object', 'string']);
    expect(unionsIn(spec)).toEqual([]);
    expect(spec.properties.kind).toMatchObject({ type: 'string', enum: ['a', 'b'] });
    expect(spec.properties.x.type).toBe('string');
    expect(spec.properties.y.type).toBe('number');
    expect(spec.required).toEqual(['kind']);
    expect(unflattened).toEqual([]);
  });

  it('a string or a union as the whole input: the root is still not an object, reported at ""', () => {
    const { doc, unflattened } = served(z.union([z.string(), DU]));
    expect(doc.type).toBeUndefined();
    expect(unflattened).toEqual([{ pointer: '', reason: expect.stringContaining('mixes objects with string') }]);
  });
});

describe('positions', () => {
  it('an optional union field', () => {
    const { doc } = served(z.object({ op: DU.optional() }), { ok: [{}, { op: { kind: 'a', x: '1' } }] });
    expect(doc.properties.op.type).toBe('object');
    expect(doc.properties.op.oneOf).toBeUndefined();
    expect(doc.required ?? []).not.toContain('op');
  });

  it('a union field with a default keeps that default', () => {
    const { doc } = served(z.object({ op: DU.default({ kind: 'a', x: '1' }) }), { ok: [{}] });
    expect(doc.properties.op.type).toBe('object');
    expect(doc.required ?? []).not.toContain('op');
    if ('default' in doc.properties.op) expect(doc.properties.op.default).toEqual({ kind: 'a', x: '1' });
  });

  it('a union inside a tuple', () => {
    const { doc } = served(z.object({ pair: z.tuple([DU, z.string()]) }), {
      ok: [{ pair: [{ kind: 'b', y: 2 }, 's'] }],
    });
    expect(at(doc, '/properties/pair/prefixItems/0/properties/kind/enum')).toEqual(['a', 'b']);
    expect(unionsIn(doc)).toEqual([]);
  });

  it('the intersection of an object and a union: one flat object', () => {
    const { doc } = served(z.intersection(z.object({ a: z.string() }), DU), { ok: [{ a: '1', kind: 'b', y: 2 }] });
    expect(doc.type).toBe('object');
    expect(Object.keys(doc.properties).sort()).toEqual(['a', 'kind', 'x', 'y']);
    expect(doc.required).toEqual(expect.arrayContaining(['a', 'kind']));
    expect(doc.allOf).toBeUndefined();
    expect(unionsIn(doc)).toEqual([]);
  });

  it('an allOf of two unions (which Zod does not merge itself) becomes one object', () => {
    const other = z.discriminatedUnion('m', [
      z.object({ m: z.literal('c'), p: z.string() }),
      z.object({ m: z.literal('d'), q: z.number() }),
    ]);
    const { doc } = served(DU.and(other), {
      ok: [
        { kind: 'a', x: '1', m: 'd', q: 2 },
        { kind: 'b', y: 1, m: 'c', p: 'z' },
      ],
    });
    expect(doc.type).toBe('object');
    expect(doc.allOf).toBeUndefined();
    expect(doc.required).toEqual(['kind', 'm']);
    expect(unionsIn(doc)).toEqual([]);
  });
});

describe('hidden checks are served from the input side, untouched', () => {
  it.each([
    [
      'a refine on one variant',
      z.discriminatedUnion('k', [
        z.object({ k: z.literal('a'), v: z.string().refine((s) => s.length > 2) }),
        z.object({ k: z.literal('b'), v: z.string() }),
      ]),
      '/properties/v',
      { type: 'string' },
    ],
    ['a transform', z.object({ text: z.string().transform((s) => `${s}!`) }), '/properties/text', { type: 'string' }],
    ['a pipe', z.object({ s: z.string().pipe(z.string().min(3)) }), '/properties/s', { type: 'string' }],
    ['z.coerce', z.object({ n: z.coerce.number() }), '/properties/n', { type: 'number' }],
    [
      '.catch()',
      z.object({ r: z.string().catch('fallback') }),
      '/properties/r',
      { type: 'string', default: 'fallback' },
    ],
    ['.trim()', z.object({ t: z.string().trim() }), '/properties/t', { type: 'string' }],
  ] as const)('%s', (_name, schema, ptr, expected) => {
    const { doc } = served(schema as z.ZodType);
    expect(at(doc, ptr)).toEqual(expected);
  });

  it('the refined field is required and typed in both variants', () => {
    const schema = z.discriminatedUnion('k', [
      z.object({ k: z.literal('a'), v: z.string().refine((s) => s.length > 2) }),
      z.object({ k: z.literal('b'), v: z.string() }),
    ]);
    const { doc } = served(schema, { ok: [{ k: 'b', v: 'x' }], ajvOnly: [{ k: 'a', v: 'x' }] });
    expect(doc.required).toContain('v');
  });
});

describe('key policy', () => {
  const strictPair = z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('a'), a: z.string() }).strict(),
    z.object({ kind: z.literal('b'), b: z.string() }).strict(),
  ]);

  it('every variant strict: the flat object is strict', () => {
    expect(served(strictPair, { ok: [{ kind: 'a', a: 'x' }] }).doc.additionalProperties).toBe(false);
  });

  it('a loose input stays open', () => {
    const { doc } = served(z.looseObject({ a: z.string() }), { ok: [{ a: 'x', extra: 1 }] });
    expect(doc.additionalProperties).not.toBe(false);
  });

  it('a loose variant beside a strict one: the flat object is open, and its undeclared keys stay acceptable', () => {
    const schema = z.discriminatedUnion('k', [
      z.looseObject({ k: z.literal('a') }),
      z.object({ k: z.literal('b'), y: z.number() }).strict(),
    ]);
    const { doc } = served(schema, {
      ok: [
        { k: 'a', y: 'passes through variant a' },
        { k: 'b', y: 1 },
      ],
    });
    // Open, and explicitly so: undeclared keys reach the handler through variant a.
    expect(doc.additionalProperties).toEqual({});
    expect(doc.properties.y.type).toBeUndefined();
    expect(doc.properties.y.description).toContain('Required if k = b');
  });

  it('a strict object nested in a variant keeps additionalProperties:false', () => {
    const { doc } = served(
      z.discriminatedUnion('kind', [
        z.object({ kind: z.literal('a'), cfg: z.object({ x: z.string() }).strict() }),
        z.object({ kind: z.literal('b'), y: z.string() }),
      ]),
      { ok: [{ kind: 'a', cfg: { x: '1' } }] },
    );
    expect(at(doc, '/properties/cfg/additionalProperties')).toBe(false);
    expect(doc.additionalProperties).toBeUndefined();
  });
});

describe('integer, number, null', () => {
  it('an identical integer field in both variants keeps its type and bounds and is required', () => {
    const n = z.number().int().min(0);
    const { doc } = served(twoVariants(n, n, 'partIndex'), { ok: [{ kind: 'a', partIndex: 1 }] });
    expect(doc.properties.partIndex).toMatchObject({ type: 'integer', minimum: 0 });
    expect(doc.required).toContain('partIndex');
  });

  it('an int vs a number: number', () => {
    const { doc } = served(twoVariants(z.number().int(), z.number(), 'n'), { ok: [{ kind: 'b', n: 1.5 }] });
    expect(doc.properties.n.type).toBe('number');
    expect(doc.properties.n.minimum).toBeUndefined();
  });

  it('different bounds per variant: the bare type, whichever variant comes first', () => {
    const ab = served(twoVariants(z.number().min(0), z.number().max(5), 'n'), { ajvOnly: [{ kind: 'a', n: -1 }] }).doc;
    const ba = served(twoVariants(z.number().max(5), z.number().min(0), 'n')).doc;
    for (const doc of [ab, ba]) {
      expect(doc.properties.n.type).toBe('number');
      expect(doc.properties.n).not.toHaveProperty('minimum');
      expect(doc.properties.n).not.toHaveProperty('maximum');
    }
  });

  it('nullable in both variants: number or null, no anyOf', () => {
    const v = z.number().nullable();
    const { doc } = served(twoVariants(v, v, 'v'), { ok: [{ kind: 'a', v: null }] });
    expect(typeSet(doc.properties.v)).toEqual(['null', 'number']);
    expect(doc.properties.v.anyOf).toBeUndefined();
  });

  it('nullable objects that differ become one type list with null (no anyOf inside the flat object)', () => {
    const { doc } = served(twoVariants(z.object({ p: z.string() }).nullable(), z.object({ q: z.string() }), 'o'), {
      ok: [
        { kind: 'a', o: null },
        { kind: 'b', o: { q: '1' } },
      ],
    });
    expect(typeSet(doc.properties.o)).toEqual(['null', 'object']);
    expect(unionsIn(doc)).toEqual([]);
  });
});

describe('shapes from real tools', () => {
  it('array items that are a three-way union', () => {
    const { doc } = served(
      z.object({
        reminders: z.array(
          z.discriminatedUnion('kind', [
            z.object({ kind: z.literal('relative'), minutes: z.number() }),
            z.object({ kind: z.literal('absolute'), at: z.string() }),
            z.object({ kind: z.literal('location'), place: z.string() }),
          ]),
        ),
      }),
      {
        ok: [
          {
            reminders: [
              { kind: 'relative', minutes: 5 },
              { kind: 'location', place: 'home' },
            ],
          },
        ],
      },
    );
    const items = doc.properties.reminders.items;
    expect(items.properties.kind.enum).toEqual(['relative', 'absolute', 'location']);
    expect(items.required).toEqual(['kind']);
    expect(items.properties.minutes.description).toContain('Required if kind = relative');
    expect(items.properties.at.description).toContain('Required if kind = absolute');
    expect(items.properties.place.description).toContain('Required if kind = location');
    expect(unionsIn(doc)).toEqual([]);
  });

  it('a union root: a typed, non-empty, open root object', () => {
    const schema = z.discriminatedUnion('action', [
      z.object({ action: z.literal('create'), name: z.string() }),
      z.object({ action: z.literal('delete'), id: z.string() }),
    ]);
    const { doc } = served(schema, { ok: [{ action: 'create', name: 'n' }], ajvOnly: [{ action: 'create' }] });
    expect(doc.type).toBe('object');
    expect(doc.properties.action).toMatchObject({ type: 'string', enum: ['create', 'delete'] });
    expect(doc.properties.name.type).toBe('string');
    expect(doc.properties.id.type).toBe('string');
    expect(doc.required).toEqual(['action']);
    expect(doc.additionalProperties).toBeUndefined();
  });

  it('four variants sharing some fields', () => {
    const schema = z.discriminatedUnion('operation', [
      z.object({ operation: z.literal('append'), path: z.string(), content: z.string() }),
      z.object({ operation: z.literal('prepend'), path: z.string(), content: z.string() }),
      z.object({ operation: z.literal('replace'), path: z.string(), content: z.string() }),
      z.object({ operation: z.literal('delete'), path: z.string() }),
    ]);
    const { doc } = served(schema, {
      ok: [{ operation: 'delete', path: 'notes.txt' }],
      ajvOnly: [{ operation: 'append', path: 'notes.txt' }],
    });
    expect(Object.keys(doc.properties)).toEqual(['operation', 'path', 'content']);
    expect(doc.properties.operation.enum).toEqual(['append', 'prepend', 'replace', 'delete']);
    expect(doc.required).toEqual(['operation', 'path']);
    expect(doc.properties.content.description).toContain('Required if operation = append | prepend | replace');
  });

  it('an untagged object union: one object, every key typed and optional, the alternatives named', () => {
    const schema = z.union([z.object({ id: z.string() }), z.object({ slug: z.string() })]);
    const { doc, unflattened } = served(schema, { ok: [{ id: 'a' }, { slug: 'b' }], ajvOnly: [{}] });
    expect(doc.type).toBe('object');
    expect(unionsIn(doc)).toEqual([]);
    expect(doc.properties).toEqual({ id: { type: 'string' }, slug: { type: 'string' } });
    expect(doc.required).toBeUndefined();
    expect(doc.description).toBe('Give one of: id | slug.');
    expect(unflattened).toEqual([]);
  });

  it('three untagged shapes: one object with every key, none required, no combinator', () => {
    const schema = z.union([
      z.object({ content: z.string(), filename: z.string() }),
      z.object({ source_url: z.url() }),
      z.object({ source_file_id: z.string() }),
    ]);
    const { doc } = served(schema, { ok: [{ source_url: 'https://e.x/a' }], ajvOnly: [{ content: 'x' }] });
    expect(Object.keys(doc.properties)).toEqual(['content', 'filename', 'source_url', 'source_file_id']);
    for (const key of Object.keys(doc.properties)) expect(doc.properties[key].type).toBe('string');
    expect(doc.required).toBeUndefined();
    expect(unionsIn(doc)).toEqual([]);
    expect(doc.description).toBe('Give one of: content + filename | source_url | source_file_id.');
  });

  it('an intersection of two objects: one root object, no allOf', () => {
    const { doc } = served(
      z.object({ name: z.string() }).and(z.object({ dataType: z.enum(['NUMERIC', 'CATEGORICAL']) })),
      {
        ok: [{ name: 'n', dataType: 'NUMERIC' }],
      },
    );
    expect(doc.type).toBe('object');
    expect(doc.required).toEqual(['name', 'dataType']);
    expect(doc.allOf).toBeUndefined();
  });

  it('an unsatisfiable intersection keeps its allOf at the field (for the probe to report)', () => {
    const { doc } = served(z.object({ a: z.string() }).and(z.object({ a: z.number() })));
    expect(doc.properties.a.allOf).toEqual([{ type: 'string' }, { type: 'number' }]);
  });

  it('strict variants: a plain strict root', () => {
    const { doc } = served(
      z.discriminatedUnion('action', [
        z.object({ action: z.literal('prepare'), plan: z.string() }).strict(),
        z.object({ action: z.literal('execute'), token: z.string() }).strict(),
      ]),
      { ajvOnly: [{ action: 'execute', token: 't', plan: 'p' }] },
    );
    expect(doc.additionalProperties).toBe(false);
    expect(unionsIn(doc)).toEqual([]);
  });

  it('a refined object: the root stays a plain object', () => {
    const { doc } = served(
      z.object({ mode: z.enum(['small', 'large']), size: z.number() }).superRefine(() => {}),
      { ok: [{ mode: 'small', size: 2 }] },
    );
    expect(Object.keys(doc).filter((k) => ['allOf', 'if', 'then', 'else'].includes(k))).toEqual([]);
  });

  it('an array root is neither touched nor wrapped', () => {
    const schema = z.array(z.object({ id: z.string(), title: z.string() }));
    expect(project(schema).schema).toEqual(project(schema).schema);
    expect(served(schema).doc.type).toBe('array');
  });

  it('fields of other variants are marked', () => {
    const { doc } = served(strictVariantsWithOwnOptionals, {
      ajvOnly: [{ type: 'send', title: 'weather', input: 'echo hi', cwd: '~' }],
    });
    expect(doc.required).toEqual(['type', 'title']);
    expect(doc.properties.input.description).toContain('Required if type = send');
    expect(doc.properties.target.description).toContain('Required if type = open');
    expect(doc.properties.cwd.description).toContain('Only for type = open');
    expect(doc.properties.direction.description).toContain('Only for type = open');
  });

  it('enums and bounds that differ per variant: the served schema is wider than the parser', () => {
    const { doc } = served(
      z.discriminatedUnion('kind', [
        z.object({ kind: z.literal('a'), mode: z.enum(['a', 'b']), count: z.number().int().min(1) }),
        z.object({ kind: z.literal('b'), mode: z.enum(['c']), count: z.number().int().max(5) }),
      ]),
      { ajvOnly: [{ kind: 'a', mode: 'c', count: 0 }] },
    );
    expect(doc.properties.mode.enum).toEqual(['a', 'b', 'c']);
    expect(doc.properties.count.type).toBe('integer');
    expect(doc.properties.count).not.toHaveProperty('minimum');
    expect(doc.properties.count).not.toHaveProperty('maximum');
  });

  it('every node with properties or required is typed object', () => {
    const { doc } = served(
      z.object({
        data: z.discriminatedUnion('kind', [
          z.object({ kind: z.literal('page'), page_id: z.string() }),
          z.object({ kind: z.literal('database'), database_id: z.string() }),
        ]),
      }),
    );
    expect(doc.properties.data.type).toBe('object');
  });

  it('a widened array keeps an items key', () => {
    const { doc } = served(
      z.discriminatedUnion('k', [
        z.object({ k: z.literal('a'), tags: z.array(z.string()) }),
        z.object({ k: z.literal('b'), tags: z.array(z.number()) }),
      ]),
      {
        ok: [
          { k: 'a', tags: ['x'] },
          { k: 'b', tags: [1] },
        ],
      },
    );
    expect(doc.properties.tags).toMatchObject({ type: 'array', items: {} });
  });
});
