/**
 * Each kind of fault must be repaired or refused the same at any depth, whichever client or proxy
 * produced it. This sweep sends each kind of fault, over real HTTP, at every position a
 * value can sit in the arguments (including the `params` slice and a parent that itself arrived as JSON
 * text), and checks what the handler gets, or that the isError text names the moved path. Positions
 * alternate between the two official clients.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { call, caseTool, mountGroup, namesPath } from '../support/cases.js';

interface Fault {
  schema: z.ZodType;
  sent: unknown;
  /** What the handler gets at the position; absent when the call must be refused. */
  gets?: unknown;
}

const FAULTS: Record<string, Fault> = {
  'array as text': { schema: z.array(z.number()), sent: '[1,2]', gets: [1, 2] },
  'object as text': { schema: z.object({ a: z.number() }), sent: '{"a":1}', gets: { a: 1 } },
  'record as text': { schema: z.record(z.string(), z.number()), sent: '{"k":1}', gets: { k: 1 } },
  'pretty-printed text': {
    schema: z.array(z.object({ n: z.number() })),
    sent: '[\n  { "n": 3 }\n]',
    gets: [{ n: 3 }],
  },
  'text holding text': {
    schema: z.object({ list: z.array(z.string()) }),
    sent: '{"list":"[\\"x\\"]"}',
    gets: { list: ['x'] },
  },
  'number as text': { schema: z.number(), sent: '-3.5', gets: -3.5 },
  'integer as text': { schema: z.number().int(), sent: '5812', gets: 5812 },
  'boolean as text': { schema: z.boolean(), sent: 'false', gets: false },
  '"null" where null is accepted': { schema: z.array(z.string()).nullable(), sent: 'null', gets: null },
  'a string member keeps the string': { schema: z.union([z.string(), z.number()]), sent: '12', gets: '12' },
  'untyped keeps the string': { schema: z.unknown(), sent: '{"a":1}', gets: '{"a":1}' },
  'text that is not JSON is refused': { schema: z.array(z.string()), sent: 'not-json' },
  'a scalar is never wrapped': { schema: z.array(z.string()), sent: 'customer' },
  'JSON of the wrong kind is refused': { schema: z.record(z.string(), z.unknown()), sent: '[1,2]' },
  'a non-canonical number is refused': { schema: z.number(), sent: ' 7' },
  'a case-variant boolean is refused': { schema: z.boolean(), sent: 'TRUE' },
  'a number for a string is refused': { schema: z.string(), sent: 1 },
};

interface Position {
  id: string;
  input(s: z.ZodType): z.ZodType;
  params?(s: z.ZodType): z.ZodObject<z.ZodRawShape>;
  /** The arguments that carry `v` at this position. */
  args(v: unknown): unknown;
  /** What the handler gets (input, or params for the params slice) when the value there is `v`. */
  expected(v: unknown): { input?: unknown; params?: unknown };
  path: string;
}

const POSITIONS: Position[] = [
  {
    id: 'field',
    input: (s) => z.object({ f: s }),
    args: (v) => ({ f: v }),
    expected: (v) => ({ input: { f: v } }),
    path: 'f',
  },
  {
    id: 'deep',
    input: (s) => z.object({ a: z.object({ b: z.object({ f: s }) }) }),
    args: (v) => ({ a: { b: { f: v } } }),
    expected: (v) => ({ input: { a: { b: { f: v } } } }),
    path: 'a.b.f',
  },
  {
    id: 'item',
    input: (s) => z.object({ list: z.array(z.object({ f: s.optional() })) }),
    args: (v) => ({ list: [{}, { f: v }] }),
    expected: (v) => ({ input: { list: [{}, { f: v }] } }),
    path: 'list[1].f',
  },
  {
    id: 'record',
    input: (s) => z.object({ r: z.record(z.string(), z.object({ f: s })) }),
    args: (v) => ({ r: { k: { f: v } } }),
    expected: (v) => ({ input: { r: { k: { f: v } } } }),
    path: 'r.k.f',
  },
  {
    id: 'tuple',
    input: (s) => z.object({ t: z.tuple([z.string(), s]) }),
    args: (v) => ({ t: ['x', v] }),
    expected: (v) => ({ input: { t: ['x', v] } }),
    path: 't[1]',
  },
  {
    id: 'optional_nullable',
    input: (s) => z.object({ f: s.nullable().optional() }),
    args: (v) => ({ f: v }),
    expected: (v) => ({ input: { f: v } }),
    path: 'f',
  },
  {
    id: 'variant',
    input: (s) =>
      z.object({
        u: z.discriminatedUnion('kind', [
          z.object({ kind: z.literal('a'), f: s }),
          z.object({ kind: z.literal('b'), g: z.string() }),
        ]),
      }),
    args: (v) => ({ u: { kind: 'a', f: v } }),
    expected: (v) => ({ input: { u: { kind: 'a', f: v } } }),
    path: 'u.f',
  },
  {
    id: 'in_text_parent',
    input: (s) => z.object({ o: z.object({ f: s }) }),
    args: (v) => ({ o: JSON.stringify({ f: v }) }),
    expected: (v) => ({ input: { o: { f: v } } }),
    path: 'o.f',
  },
  {
    id: 'params',
    input: () => z.object({ q: z.string() }),
    params: (s) => z.object({ f: s }),
    args: (v) => ({ f: v, q: 'q' }),
    expected: (v) => ({ params: { f: v }, input: { q: 'q' } }),
    path: 'f',
  },
];

const slug = (label: string) => label.replace(/\W+/g, '_').replace(/^_|_$/g, '').slice(0, 40);
const toolName = (fault: string, position: string) => `${slug(fault)}_${position}`.slice(0, 64);

const tools = Object.entries(FAULTS).flatMap(([label, f]) =>
  POSITIONS.map((p) => caseTool(toolName(label, p.id), p.input(f.schema), p.params?.(f.schema))),
);
const g = mountGroup(tools, { schemaValidation: { policy: 'warn' } });

describe('repair fault kinds in every position, over HTTP', () => {
  for (const [label, fault] of Object.entries(FAULTS)) {
    it(`${label}: at a field, deep field, array item, record value, tuple slot, nullable, tag-selected variant, inside a parent sent as text, and in params`, async () => {
      for (const [i, p] of POSITIONS.entries()) {
        const name = toolName(label, p.id);
        const client = g.clients[i % g.clients.length]!;
        const where = `${name} (${client.label})`;
        expect(
          g.report.issues.filter((x) => x.tool === name && x.severity === 'error').map((x) => x.code),
          where,
        ).toEqual([]);
        const out = await call(client, name, p.args(fault.sent));
        if ('gets' in fault) {
          expect(out.isError, `${where}: ${out.text}`).toBe(false);
          const want = p.expected(fault.gets);
          if (want.input !== undefined) expect(out.received!.input, where).toEqual(want.input);
          if (want.params !== undefined) expect(out.received!.params, where).toEqual(want.params);
        } else {
          expect(out.isError, `${where}: should be refused, got ${out.text}`).toBe(true);
          expect(namesPath(out.text, p.path), `${where}: should name ${p.path}: ${out.text}`).toBe(true);
        }
      }
    });
  }
});
