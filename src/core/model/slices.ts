/** Where a tool's arguments go: the slices (`params`, `input`, the mount's `extend`) and the keys each owns. */
import * as z from 'zod';
import { shapeKeys } from '../zod/shape-keys.js';
import type { ExtendOption } from './extend.js';
import type { AnyTool } from './tool.js';

/** One argument slice a tool parses on its own: the keys it owns and its original Zod schema. */
interface Slice {
  keys: ReadonlySet<string>;
  schema: z.ZodType;
}

/** A tool's slices, as the call path splits its arguments. */
export interface ToolSlices {
  params?: Slice;
  extend?: Slice & { resolve?: ExtendOption['resolve'] };
  /** The input slice gets every key that `params` and `extend` do not own. */
  input: z.ZodType;
  /** Every top-level key any slice declares (every variant's, for a union input). */
  argumentKeys: readonly string[];
}

const EMPTY_INPUT = z.object({});

/** Where a tool's arguments go: the keys each slice owns, and every key any of them declares. */
export function slicesOf(tool: AnyTool, extend: ExtendOption | undefined): ToolSlices {
  const input = (tool.input as z.ZodType | undefined) ?? EMPTY_INPUT;
  const useExtend = extend !== undefined && (extend.filter?.(tool) ?? true);
  const extendKeys = useExtend ? Object.keys(extend.schema.shape) : [];
  const argumentKeys = [
    ...new Set([...(tool.params ? shapeKeys(tool.params) : []), ...shapeKeys(input), ...extendKeys]),
  ];
  return {
    input,
    argumentKeys,
    ...(tool.params && { params: { keys: new Set(shapeKeys(tool.params)), schema: tool.params } }),
    ...(useExtend && { extend: { keys: new Set(extendKeys), schema: extend.schema, resolve: extend.resolve } }),
  };
}
