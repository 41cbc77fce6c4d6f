/** The mount's `extend`: keys every tool it applies to takes, parsed apart and resolved into `ctx.extend`. */
import type { z } from 'zod';
import type { AnyTool, AnyZodObject, ToolContext } from './tool.js';

/**
 * Keys added to every tool it applies to (e.g. a `tenantId`).
 * At call time the extend keys are parsed once with `schema`, handed to `resolve`, then removed
 * before the tool's own parse.
 */
export interface ExtendOption<S extends AnyZodObject = AnyZodObject, R = unknown> {
  schema: S;
  /**
   * Turns the parsed extend values into `ctx.extend`. Default: the parsed values themselves. Throw a
   * `ToolError` to refuse the call with a message the model sees; any other throw is masked like a
   * handler's.
   */
  resolve?: (values: z.output<S>, ctx: Omit<ToolContext, 'extend'>) => R | Promise<R>;
  /**
   * Which tools get the extra keys. Default: all. A tool left out sees `ctx.extend` as `undefined`, which
   * its type cannot know: a tool that declares an `extend` need must be one the filter keeps.
   */
  filter?: (tool: AnyTool) => boolean;
}

/**
 * What tools see as `ctx.extend` on a mount whose `extend` has schema `S` and `resolve` result `R`:
 * `undefined` when the mount has no `extend` (`S` is then inferred as `never`).
 */
export type MountExtend<S extends AnyZodObject, R> = [S] extends [never] ? undefined : Awaited<R>;
