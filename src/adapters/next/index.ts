/**
 * @module
 * Next.js App Router route handlers for mcp-mount, on the Node.js and Edge runtimes. Nothing of `next` is
 * imported; the route's `context` reaches tools as `ctx.host.context`.
 */
import type { z } from 'zod';
import { createMcpFetchHandler, type McpFetchHandler } from '../../adapter.js';
import type { AnyZodObject, McpMountOptions, MountableTool, MountExtend } from '../../index.js';

/**
 * The second argument Next.js passes a route handler, typed here so that nothing of `next` is imported:
 * `{ params }`, a promise since Next.js 15 and a plain object before (`await` reads both).
 */
export interface RouteContext<Params = unknown> {
  params: Promise<Params> | Params;
}

/**
 * What a tool sees as `ctx.host` under Next.js: the route's context. A tool opts in with
 * `defineTool.for<{ host: NextHost<{ slug: string }> }>()`.
 */
export interface NextHost<Params = unknown> {
  context: RouteContext<Params>;
}

/** A Next.js App Router route handler: `(request, context) => Response`, nothing Next-specific imported. */
export type RouteHandler<Params = unknown> = (request: Request, context: RouteContext<Params>) => Promise<Response>;

/** What `mcp` returns: the route module's exports, and the core handler. */
export interface McpRouteHandlers<Params = unknown> {
  GET: RouteHandler<Params>;
  POST: RouteHandler<Params>;
  DELETE: RouteHandler<Params>;
  /** CORS preflights, answered by the core when `access.cors` is on (export it, or Next.js answers them itself). */
  OPTIONS: RouteHandler<Params>;
  handler: McpFetchHandler<NextHost<Params>>;
}

/**
 * Route handlers serving `tools` as an MCP endpoint from `app/mcp/route.ts`:
 * `export const { GET, POST, DELETE, OPTIONS } = mcp(tools, options)`.
 * Preparation and the startup probe run once per server process (or Edge isolate), when the route module
 * loads (`next build` loads it too, so a bad schema under `policy: 'throw'` fails the build). Works on the
 * Node.js and Edge runtimes: `NextRequest` is a web `Request`, handed to the core as is. A wrapper that reads
 * the body first must hand on an unread request (read a `request.clone()`): a used body gets a JSON-RPC 500
 * saying so.
 * The route's `context` (`{ params }`) reaches tools as `ctx.host.context`. `Params` is taken from tools
 * that declare a `NextHost<Params>`.
 *
 * @throws McpMountSchemaError at construction, as `createMcpFetchHandler` does.
 *
 * @example
 * ```ts
 * // app/mcp/route.ts
 * import { mcp } from 'mcp-mount/next';
 *
 * export const { GET, POST, DELETE } = mcp([searchNotes], { name: 'notes' });
 * ```
 */
export function mcp<Params = unknown, S extends AnyZodObject = never, R = z.output<S>>(
  tools: readonly MountableTool<NextHost<Params>, NoInfer<MountExtend<S, R>>>[],
  options: McpMountOptions<S, R> = {},
): McpRouteHandlers<Params> {
  const handler = createMcpFetchHandler(tools, options);
  const route: RouteHandler<Params> = (request, context) => handler.fetch(request, { host: { context } });
  return { GET: route, POST: route, DELETE: route, OPTIONS: route, handler };
}

export type { McpMountOptions } from '../../index.js';
