/**
 * @module
 * Hono middleware for mcp-mount: serves Zod-defined MCP tools at a route of an existing Hono app, on any
 * runtime Hono runs on. The raw request goes to the shared core; `c.env` and `c` reach tools as `ctx.host`.
 */
import type { Context, Env, MiddlewareHandler } from 'hono';
import type { z } from 'zod';
import type { AnyZodObject, McpFetchHandler, McpMountOptions, MountableTool, MountExtend } from '../../index.js';
import { createMcpFetchHandler } from '../../index.js';

/**
 * What a tool sees as `ctx.host` under Hono: the app's bindings (`c.env`: Worker bindings, Node's incoming
 * request) and the request's Hono context (its variables, e.g. `context.get('user')`). A tool opts in with
 * `defineTool.for<{ host: HonoHost<AppEnv> }>()`.
 */
export interface HonoHost<E extends Env = any> {
  env: Context<E>['env'];
  context: Context<E>;
}

/**
 * Hono middleware serving `tools` as an MCP endpoint: `app.use('/mcp', mcp(tools, options))` or
 * `app.all('/mcp', mcp(tools, options))`. The raw request goes to the core; `c.env` and `c` reach tools as
 * `ctx.host.env` and `ctx.host.context`, `c.get('authInfo')` as `ctx.authInfo`. Preparation and the
 * startup probe run here, once. `E` is taken from tools that declare a `HonoHost<E>` (the middleware is
 * then a `MiddlewareHandler<E>`).
 *
 * @throws McpMountSchemaError at construction, as `createMcpFetchHandler` does.
 *
 * @example
 * ```ts
 * import { Hono } from 'hono';
 * import { mcp } from 'mcp-mount/hono';
 *
 * const app = new Hono();
 * app.all('/mcp', mcp([searchNotes], { name: 'notes' }));
 * ```
 */
export function mcp<E extends Env = any, S extends AnyZodObject = never, R = z.output<S>>(
  tools: readonly MountableTool<HonoHost<E>, NoInfer<MountExtend<S, R>>>[],
  options: McpMountOptions<S, R> = {},
): MiddlewareHandler<E> & { handler: McpFetchHandler<HonoHost<E>> } {
  const handler = createMcpFetchHandler(tools, options);
  const middleware: MiddlewareHandler<E> = (c) =>
    handler.fetch(c.req.raw, { host: { env: c.env, context: c }, authInfo: c.get('authInfo' as never) });
  return Object.assign(middleware, { handler });
}

export type { McpMountOptions } from '../../index.js';
