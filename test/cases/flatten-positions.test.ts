/**
 * A flattened union must behave the same at any depth and in any position (field, array item, record value,
 * tuple slot, `$defs`). This sweep takes the flatten cases whose schema is a union and whose expectations
 * are about calls, puts the schema in each position, and checks
 * over real HTTP that the wrapped union is still flattened (no `oneOf`/`anyOf` at its pointer) and that
 * every listed input is accepted or refused exactly as at the root, with the path moved accordingly.
 * Positions alternate between the two official clients to keep the suite fast.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { at, caseTool, expectAccepted, expectRefused, mountGroup, unionsIn } from '../support/cases.js';
import { media, strictVariantsWithOwnOptionals, two } from '../support/unions.js';

interface Case {
  schema: z.ZodType;
  /** [sent, what the handler gets (defaults to sent)] */
  accepted?: Array<[unknown, unknown?]>;
  /** [sent, paths the isError text names, whether Ajv accepts it ("passes Ajv, but Run rejects it")] */
  refused?: Array<[unknown, string[], boolean]>;
}

const CASES: Record<string, Case> = {
  object_or_array: {
    schema: media(z.object({ id: z.string() })),
    accepted: [[{ kind: 'one', media: { id: 'a' } }], [{ kind: 'many', media: [{ id: 'a' }] }]],
    refused: [[{ kind: 'one', media: [{ id: 'a' }] }, ['media'], true]],
  },
  object_or_array_optional: { schema: media(z.object({ id: z.string() }).optional()), accepted: [[{ kind: 'one' }]] },
  string_or_array_nullable: {
    schema: two('value', z.string().nullable(), z.array(z.string()).nullable()),
    accepted: [[{ kind: 'a', value: null }], [{ kind: 'b', value: ['x'] }], [{ kind: 'a', value: 'x' }]],
  },
  string_literals: {
    schema: two('mode', z.literal('fast'), z.literal('slow')),
    refused: [[{ kind: 'b', mode: 'fast' }, ['mode'], true]],
  },
  enum_or_string: {
    schema: two('mode', z.enum(['x', 'y']), z.string()),
    accepted: [[{ kind: 'b', mode: 'anything' }]],
  },
  boolean_literals: {
    schema: two('flag', z.literal(true), z.literal(false)),
    accepted: [[{ kind: 'b', flag: false }]],
    refused: [[{ kind: 'a', flag: false }, ['flag'], true]],
  },
  string_or_number: {
    schema: two('target', z.string(), z.number()),
    accepted: [[{ kind: 'a', target: 'x' }], [{ kind: 'b', target: 3 }]],
  },
  two_object_shapes: {
    schema: two('cfg', z.object({ x: z.string() }), z.object({ y: z.number() })),
    refused: [[{ kind: 'a', cfg: { y: 1 } }, ['cfg'], true]],
  },
  object_unions_in_both: {
    schema: two(
      'value',
      z.union([z.object({ a: z.string() }), z.object({ b: z.string() })]),
      z.union([z.object({ c: z.string() }), z.object({ d: z.string() })]),
    ),
    accepted: [[{ kind: 'b', value: { d: '1' } }]],
  },
  default_per_variant: {
    schema: two('limit', z.number().default(10), z.number().default(50)),
    accepted: [
      [{ kind: 'a' }, { kind: 'a', limit: 10 }],
      [{ kind: 'b' }, { kind: 'b', limit: 50 }],
    ],
  },
  default_in_strict_variant: {
    schema: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('a'), x: z.string() }).strict(),
      z.object({ kind: z.literal('b'), y: z.string().default('z') }).strict(),
    ]),
    accepted: [[{ kind: 'a', x: '1' }]],
  },
  multi_value_tag: {
    schema: z.discriminatedUnion('k', [
      z.object({ k: z.literal(['a', 'b']), x: z.string() }),
      z.object({ k: z.literal('c'), y: z.string() }),
    ]),
    accepted: [[{ k: 'b', x: '1' }]],
  },
  enum_tag: {
    schema: z.discriminatedUnion('k', [
      z.object({ k: z.enum(['x', 'y']), p: z.string() }),
      z.object({ k: z.literal('z'), q: z.string() }),
    ]),
    accepted: [[{ k: 'y', p: '1' }]],
  },
  plain_union_of_tagged: {
    schema: z.union([
      z.object({ kind: z.literal('a'), x: z.string() }),
      z.object({ kind: z.literal('b'), y: z.number() }),
    ]),
    accepted: [[{ kind: 'b', y: 2 }]],
  },
  refined_variant: {
    schema: z.discriminatedUnion('k', [
      z.object({ k: z.literal('a'), v: z.string().refine((s) => s.length > 2) }),
      z.object({ k: z.literal('b'), v: z.string() }),
    ]),
    accepted: [[{ k: 'b', v: 'x' }]],
    refused: [[{ k: 'a', v: 'x' }, ['v'], true]],
  },
  strict_variants: {
    schema: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('a'), a: z.string() }).strict(),
      z.object({ kind: z.literal('b'), b: z.string() }).strict(),
    ]),
    refused: [[{ kind: 'a', a: 'x', extra: 1 }, ['extra'], false]],
  },
  strict_object_in_variant: {
    schema: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('a'), cfg: z.object({ x: z.string() }).strict() }),
      z.object({ kind: z.literal('b'), y: z.string() }),
    ]),
    refused: [[{ kind: 'a', cfg: { x: '1', extra: 1 } }, ['cfg.extra'], false]],
  },
  same_integer_field: {
    schema: two('partIndex', z.number().int().min(0), z.number().int().min(0)),
    accepted: [[{ kind: 'a', partIndex: 1 }]],
  },
  int_or_number: { schema: two('n', z.number().int(), z.number()), accepted: [[{ kind: 'b', n: 1.5 }]] },
  different_bounds: {
    schema: two('n', z.number().min(0), z.number().max(5)),
    refused: [[{ kind: 'a', n: -1 }, ['n'], true]],
  },
  nullable_in_both: {
    schema: two('v', z.number().nullable(), z.number().nullable()),
    accepted: [[{ kind: 'a', v: null }]],
  },
  create_or_delete: {
    schema: z.discriminatedUnion('action', [
      z.object({ action: z.literal('create'), name: z.string() }),
      z.object({ action: z.literal('delete'), id: z.string() }),
    ]),
    refused: [[{ action: 'create' }, ['name'], true]],
  },
  four_variants_shared_fields: {
    schema: z.discriminatedUnion('operation', [
      z.object({ operation: z.literal('append'), path: z.string(), content: z.string() }),
      z.object({ operation: z.literal('prepend'), path: z.string(), content: z.string() }),
      z.object({ operation: z.literal('replace'), path: z.string(), content: z.string() }),
      z.object({ operation: z.literal('delete'), path: z.string() }),
    ]),
    accepted: [[{ operation: 'delete', path: 'notes.txt' }]],
    refused: [[{ operation: 'append', path: 'notes.txt' }, ['content'], true]],
  },
  strict_prepare_or_execute: {
    schema: z.discriminatedUnion('action', [
      z.object({ action: z.literal('prepare'), plan: z.string() }).strict(),
      z.object({ action: z.literal('execute'), token: z.string() }).strict(),
    ]),
    refused: [[{ action: 'execute', token: 't', plan: 'p' }, ['plan'], true]],
  },
  other_variant_fields: {
    schema: strictVariantsWithOwnOptionals,
    refused: [[{ type: 'send', title: 'weather', input: 'echo hi', cwd: '~' }, ['cwd'], true]],
  },
  search_or_get: {
    schema: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('search'), q: z.string() }),
      z.object({ kind: z.literal('get'), id: z.string() }),
    ]),
    refused: [[{ kind: 'get', q: 'x' }, ['id'], true]],
  },
  bounds_and_enums_per_variant: {
    schema: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('a'), mode: z.enum(['a', 'b']), count: z.number().int().min(1) }),
      z.object({ kind: z.literal('b'), mode: z.enum(['c']), count: z.number().int().max(5) }),
    ]),
    refused: [[{ kind: 'a', mode: 'c', count: 0 }, ['mode', 'count'], true]],
  },
};

interface Position {
  id: string;
  wrap(s: z.ZodType, id: string): z.ZodType;
  value(v: unknown): unknown;
  path(p: string): string;
  /** Where the union sits in the served document. */
  pointer: string;
}

const POSITIONS: Position[] = [
  {
    id: 'field',
    wrap: (s) => z.object({ w: s }),
    value: (v) => ({ w: v }),
    path: (p) => `w.${p}`,
    pointer: '/properties/w',
  },
  {
    id: 'deep',
    wrap: (s) => z.object({ o: z.object({ p: z.object({ w: s }) }) }),
    value: (v) => ({ o: { p: { w: v } } }),
    path: (p) => `o.p.w.${p}`,
    pointer: '/properties/o/properties/p/properties/w',
  },
  {
    id: 'item',
    wrap: (s) => z.object({ w: z.array(s) }),
    value: (v) => ({ w: [v] }),
    path: (p) => `w[0].${p}`,
    pointer: '/properties/w/items',
  },
  {
    id: 'record',
    wrap: (s) => z.object({ w: z.record(z.string(), s) }),
    value: (v) => ({ w: { k: v } }),
    path: (p) => `w.k.${p}`,
    pointer: '/properties/w/additionalProperties',
  },
  {
    id: 'tuple',
    wrap: (s) => z.object({ w: z.tuple([z.string(), s]) }),
    value: (v) => ({ w: ['s', v] }),
    path: (p) => `w[1].${p}`,
    pointer: '/properties/w/prefixItems/1',
  },
  {
    id: 'defs',
    wrap: (s, id) => {
      const reused = s.meta({ id: `Reused_${id}` });
      return z.object({ w: reused, again: z.array(reused).optional() });
    },
    value: (v) => ({ w: v }),
    path: (p) => `w.${p}`,
    pointer: '/properties/w',
  },
  {
    id: 'optional',
    wrap: (s) => z.object({ w: s.optional() }),
    value: (v) => ({ w: v }),
    path: (p) => `w.${p}`,
    pointer: '/properties/w',
  },
];

const tools = Object.entries(CASES).flatMap(([id, c]) =>
  POSITIONS.map((p) => caseTool(`${id}_${p.id}`, p.wrap(c.schema, id))),
);
const g = mountGroup(tools, { flattenUnionInput: true, schemaValidation: { policy: 'warn' } });

describe('flatten cases in every position, over HTTP', () => {
  for (const [id, c] of Object.entries(CASES)) {
    it(`${id.replaceAll('_', ' ')} behaves as at the root as a field, deep field, array item, record value, tuple slot, $defs entry and optional field`, async () => {
      for (const [i, p] of POSITIONS.entries()) {
        const name = `${id}_${p.id}`;
        const client = g.clients[i % g.clients.length]!;
        const where = `${name} (${client.label})`;
        expect(
          g.report.issues.filter((x) => x.tool === name && x.severity === 'error').map((x) => `${x.code}@${x.path}`),
          where,
        ).toEqual([]);
        const union = at(g.schema(client, name), p.pointer);
        expect(union?.type, `${where}: type at ${p.pointer}`).toBe('object');
        expect(unionsIn(union), `${where}: unions left at ${p.pointer}`).toEqual([]);
        for (const [sent, gets] of c.accepted ?? []) {
          await expectAccepted(g, client, name, p.value(sent), { input: p.value(gets ?? sent) });
        }
        for (const [sent, paths, ajv] of c.refused ?? []) {
          await expectRefused(g, client, name, p.value(sent), paths.map(p.path), { ajv });
        }
      }
    });
  }
});
