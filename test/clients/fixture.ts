/**
 * The tools the client-library run serves: a recursive tree, a `string | string[]` field, and the kinds that
 * profile projections cannot all type (a record, `z.any()`, a union root), with the values each library's
 * conversion must keep accepting and refusing. Every handler records the parse it was given.
 */
import { defineTool } from 'mcp-mount';
import { z } from 'zod';

interface TreeNode {
  name: string;
  children: TreeNode[];
}
const TreeNode: z.ZodType<TreeNode> = z.lazy(() => z.object({ name: z.string(), children: z.array(TreeNode) }));

/** What the handlers were called with, in order. */
export const received: unknown[] = [];

const record = <T>({ input }: { input: T }) => {
  received.push(input);
  return { received: input };
};

export const tools = [
  defineTool({
    name: 'tree',
    description: 'Stores a tree of named nodes',
    input: z.object({ root: TreeNode }),
    handler: record,
  }),
  defineTool({
    name: 'tags',
    description: 'Tags an item with one tag or several',
    input: z.object({ tag: z.union([z.string(), z.array(z.string())]), note: z.string().optional() }),
    handler: record,
  }),
];

/** Tools `flat` serves and some profile projections cannot type: what `'auto'` must still start on. */
export const awkwardTools = [
  defineTool({
    name: 'labels',
    description: 'Sets free-form labels',
    input: z.object({ labels: z.record(z.string(), z.string()), extra: z.any() }),
    handler: record,
  }),
  defineTool({
    name: 'shape',
    description: 'Draws a shape',
    input: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('circle'), radius: z.number() }),
      z.object({ kind: z.literal('square'), side: z.number() }),
    ]),
    handler: record,
  }),
];

/** A node at `depth` levels below the root, named `leaf`, with `name` replaced by `name` there. */
function chain(depth: number, name: unknown): unknown {
  let node: unknown = { name, children: [] };
  for (let level = depth; level > 0; level--) node = { name: `level-${level - 1}`, children: [node] };
  return node;
}

/** Deep enough to pass any bounded unrolling: a library must still accept it. */
export const DEEP_TREE = { root: chain(6, 'leaf') };

/** A wrongly typed `name` at each depth: a schema that still types depth `d` refuses `wrongNameAt(d)`. */
export const wrongNameAt = (depth: number) => ({ root: chain(depth, 7) });

export const TAG_VALUES = [{ tag: 'red' }, { tag: ['red', 'blue'] }] as const;
export const WRONG_TAG = { tag: 7 };

/**
 * Tools with the kinds a local grammar engine must keep whole beside the ones above: optional, nullable and
 * defaulted keys, formats, bounds, a nested discriminated union, a string-or-object field, a loose object, a
 * catch-all, a record, a partial record, a tuple, a strict object, an unknown value, numeric literals.
 */
export const grammarTools = [
  defineTool({
    name: 'profile',
    description: 'Saves a profile',
    input: z.object({
      name: z.string().min(1).max(40),
      age: z.number().int().min(0).optional(),
      email: z.email().optional(),
      role: z.enum(['admin', 'user']).default('user'),
      nickname: z.string().nullable().optional(),
      address: z.object({ city: z.string(), zip: z.string().optional() }).nullable().optional(),
      born: z.iso.date().optional(),
      seen: z.iso.datetime().optional(),
      at: z.iso.time().optional(),
    }),
    handler: record,
  }),
  defineTool({
    name: 'search',
    description: 'Searches with filters',
    input: z.object({
      query: z.union([z.string(), z.object({ field: z.string(), value: z.string() })]),
      filters: z
        .array(
          z.discriminatedUnion('type', [
            z.object({ type: z.literal('range'), min: z.number(), max: z.number().optional() }),
            z.object({ type: z.literal('term'), term: z.string() }),
          ]),
        )
        .optional(),
      limit: z.number().int().min(1).max(100).optional(),
      id: z.uuid().optional(),
    }),
    handler: record,
  }),
  defineTool({
    name: 'settings',
    description: 'Changes settings',
    input: z.object({
      flags: z.looseObject({ beta: z.boolean().optional() }),
      weights: z.record(z.string(), z.number()).optional(),
      limits: z.object({ soft: z.number() }).catchall(z.number()),
      scores: z.partialRecord(z.enum(['a', 'b']), z.number()).optional(),
      point: z.tuple([z.number(), z.number()]),
      options: z.strictObject({ verbose: z.boolean().optional() }),
      meta: z.unknown().optional(),
      level: z.literal([1, 2, 3]).optional(),
    }),
    handler: record,
  }),
];

/**
 * Values each tool's Zod schema accepts (every optional key present and left out, every union branch, deep
 * recursion, strings a grammar counts differently from JavaScript) and values it refuses, by tool name.
 */
export const GRAMMAR_VALUES: Record<string, { valid: unknown[]; invalid: unknown[] }> = {
  tree: { valid: [DEEP_TREE, { root: { name: '', children: [] } }], invalid: [wrongNameAt(2), { root: null }] },
  tags: {
    valid: [...TAG_VALUES, { tag: [], note: 'n' }, { tag: 'x', note: 'ünïcödé 😀 \u007f "q" \\ \n' }],
    invalid: [WRONG_TAG, { tag: [1] }],
  },
  labels: {
    valid: [
      { labels: {}, extra: null },
      { labels: { a: 'x', 'b c': 'y' }, extra: { deep: [1, 'two', { three: true }] } },
      { labels: { a: 'x' }, extra: [null, 2.5e-7, -3] },
    ],
    invalid: [{ labels: { a: 1 }, extra: 1 }],
  },
  shape: {
    valid: [
      { kind: 'circle', radius: 2.5 },
      { kind: 'square', side: 1e21 },
    ],
    invalid: [
      { kind: 'circle', radius: 'big' },
      { kind: 'triangle', side: 1 },
    ],
  },
  profile: {
    valid: [
      { name: 'A' },
      {
        name: 'x'.repeat(40),
        age: 0,
        email: 'a@b.co',
        role: 'admin',
        nickname: null,
        address: { city: 'Oslo' },
        born: '2024-02-29',
        seen: '2026-12-04T10:00:00Z',
        at: '10:00',
      },
      { name: '😀', nickname: 'n', address: null, seen: '2026-12-04T10:00:00.123456Z', at: '23:59:59.5' },
      { name: 'B', address: { city: 'Rome', zip: '00100' }, age: 9_007_199_254_740_991 },
    ],
    invalid: [{ name: '' }, { name: 'A', age: -1 }, { name: 'A', email: 'nope' }, { name: 'A', born: '2023-02-29' }],
  },
  search: {
    valid: [
      { query: 'q' },
      { query: { field: 'f', value: 'v' }, filters: [] },
      {
        query: 'q',
        filters: [
          { type: 'range', min: 0.30000000000000004 },
          { type: 'range', min: -1, max: 1.2345678901234567e19 },
          { type: 'term', term: 't' },
        ],
        limit: 100,
        id: '123e4567-e89b-12d3-a456-426614174000',
      },
    ],
    invalid: [
      { query: 'q', limit: 0 },
      { query: 'q', filters: [{ type: 'term' }] },
      { query: 'q', id: 'x' },
    ],
  },
  settings: {
    valid: [
      { flags: {}, limits: { soft: 1 }, point: [0, 1], options: {} },
      {
        flags: { beta: true, other: 'kept' },
        weights: { a: 1.5 },
        limits: { soft: 1, hard: 2 },
        scores: { a: 1 },
        point: [-1.5, 1e-7],
        options: { verbose: false },
        meta: { any: ['thing', null] },
        level: 2,
      },
      {
        flags: { beta: false },
        weights: {},
        limits: { soft: 0 },
        scores: {},
        point: [1, 2],
        options: {},
        meta: 'text',
      },
    ],
    invalid: [
      { flags: {}, limits: { soft: 1 }, point: [0], options: {} },
      { flags: {}, limits: { soft: 1 }, point: [0, 1], options: { loud: true } },
      { flags: {}, limits: { soft: 1, hard: 'x' }, point: [0, 1], options: {} },
      { flags: {}, limits: { soft: 1 }, point: [0, 1], options: {}, level: 4 },
    ],
  },
};
