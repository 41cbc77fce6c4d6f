/**
 * Hostile argument shapes at a chosen size, as values and as JSON text, and the tools that read them at
 * each position a value can sit: the input's root, a union variant, `params`, `extend`. Built iteratively:
 * a value nested 100,000 deep must not overflow the builder (`JSON.stringify` itself would).
 */
import { defineTool } from 'mcp-mount';
import { z } from 'zod';
import type { PreparedTool } from '../../src/core/model/prepared.js';
import { prepareTools } from '../../src/core/prepare/prepare.js';
import { callPolicy, prepareSetup, settleOptions } from '../../src/core/serve/config.js';
import type { McpMountOptions } from '../../src/core/serve/options.js';

/** A JSON tree every walk follows: arrays, objects (a strip object: undeclared keys are ignored), scalars. */
export type Node = number | string | boolean | null | Node[] | { v?: number; next?: Node };
export const Node: z.ZodType<Node> = z.lazy(() =>
  z.union([
    z.number(),
    z.string(),
    z.boolean(),
    z.null(),
    z.array(Node),
    z.object({ v: z.number().optional(), next: Node.optional() }),
  ]),
);

/** The slot every position carries: a list where no string is accepted, so JSON text there is parsed. */
const items = z.array(Node);

/** A hostile value for the `items` slot at size `n`, and its JSON text. */
export interface Shape {
  /** The value for `items` (or, for `wide-root`, the extra root keys). */
  value(n: number): unknown;
  text(n: number): string;
}

function nest(n: number, wrap: (inner: unknown) => unknown, leaf: unknown): unknown {
  let v = leaf;
  for (let i = 0; i < n; i++) v = wrap(v);
  return v;
}

function keys(n: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (let i = 0; i < n; i++) out[`k${i}`] = 0;
  return out;
}

const list = (n: number, item: string) => new Array(n).fill(item).join(',');
const wideText = (n: number) => Array.from({ length: n }, (_, i) => `"k${i}":0`).join(',');

/** The shapes the issue names, each at a size `n` (its depth, key count, length, …). */
export const SHAPES: Record<string, Shape> = {
  'deep arrays': {
    value: (n) => [nest(n, (v) => [v], 1)],
    text: (n) => `[${'['.repeat(n)}1${']'.repeat(n)}]`,
  },
  'deep objects': {
    value: (n) => [nest(n, (v) => ({ next: v }), 1)],
    text: (n) => `[${'{"next":'.repeat(n)}1${'}'.repeat(n)}]`,
  },
  'wide objects': {
    value: (n) => [{ v: 1, ...keys(n) }],
    text: (n) => `[{"v":1,${wideText(n)}}]`,
  },
  'long arrays': {
    value: (n) => new Array(n).fill(1),
    text: (n) => `[${list(n, '1')}]`,
  },
  'long strings': {
    value: (n) => ['x'.repeat(n)],
    text: (n) => `["${'x'.repeat(n)}"]`,
  },
  'many short strings': {
    value: (n) => new Array(n).fill('ab'),
    text: (n) => `[${list(n, '"ab"')}]`,
  },
  'deep JSON text': {
    value: (n) => `[${'['.repeat(n)}1${']'.repeat(n)}]`,
    text: (n) => JSON.stringify(`[${'['.repeat(n)}1${']'.repeat(n)}]`),
  },
};

/** Where the slot sits, as a tool of its own; `args` puts a value there. */
export interface Position {
  tool: ReturnType<typeof defineTool>;
  options: McpMountOptions;
  args(items: unknown): Record<string, unknown>;
  /** The same arguments as JSON text, around `itemsText`. */
  argsText(itemsText: string): string;
}

export const POSITIONS: Record<string, Position> = {
  'the input root': {
    tool: defineTool({ name: 'at_root', input: z.object({ items }), handler: () => ({ ok: true }) }),
    options: {},
    args: (v) => ({ items: v }),
    argsText: (t) => `{"items":${t}}`,
  },
  'a union variant': {
    tool: defineTool({
      name: 'in_variant',
      input: z.discriminatedUnion('kind', [
        z.object({ kind: z.literal('list'), items }),
        z.object({ kind: z.literal('name'), name: z.string() }),
      ]),
      handler: () => ({ ok: true }),
    }),
    options: { flattenUnionInput: true },
    args: (v) => ({ kind: 'list', items: v }),
    argsText: (t) => `{"kind":"list","items":${t}}`,
  },
  params: {
    tool: defineTool({ name: 'in_params', params: z.object({ items }), handler: () => ({ ok: true }) }),
    options: {},
    args: (v) => ({ items: v }),
    argsText: (t) => `{"items":${t}}`,
  },
  extend: {
    tool: defineTool({
      name: 'in_extend',
      input: z.object({ q: z.string().optional() }),
      handler: () => ({ ok: true }),
    }),
    options: { arguments: { extend: { schema: z.object({ items }) } } },
    args: (v) => ({ items: v }),
    argsText: (t) => `{"items":${t}}`,
  },
};

/** The argument caps raised far out of the way, so the walks behind them are measured on their own. */
export const UNCAPPED = { limits: { maxArgumentDepth: 10_000_000, maxArgumentValues: 100_000_000 } };

/** One position's tool prepared as a mount prepares it, with the settled options `checkCall` reads. */
export function preparedAt(position: Position, options: McpMountOptions = {}) {
  const config = settleOptions({ ...position.options, ...options });
  const tool = prepareTools([position.tool as never], prepareSetup(config)).tools[0] as PreparedTool;
  return { tool, config: callPolicy(config) };
}

/**
 * The smallest of `runs` timings of `fn`, in ms: other load only ever adds time. Each run starts on a
 * collected heap where the process allows it (`--expose-gc`).
 */
export async function fastest(fn: () => unknown, runs = 3): Promise<number> {
  const collect = (globalThis as { gc?: () => void }).gc;
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < runs; i++) {
    collect?.();
    const started = performance.now();
    await fn();
    best = Math.min(best, performance.now() - started);
  }
  return best;
}
