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
