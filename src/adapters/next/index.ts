/**
 * @module
 * Next.js App Router route handlers for mcp-mount, on the Node.js and Edge runtimes. The route's `context`
 * reaches tools as `ctx.host.context`. Of `next`, only `after` is used (from `next/server`, Next.js 15.1 and
 * later), loaded when the route module loads, to keep a task's run going after the response.
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
 * A task (a tool with `task`, `options.tasks`) runs in the function that accepted its call; its run is handed
 * to Next's `after` (Next.js 15.1 and later; before that, nothing: the run goes on only as long as the
 * process does), so on Vercel it goes on after the response, up to the function's `maxDuration`. A mount
 * with tasks and no `tasks.run` hook warns once, at construction, through `observe.logger`.
 * `protocol.compressList` is always off here: Next drops a route handler's `Content-Encoding` (and
 * `Content-Length`) as it sends the response (its `sendResponse` and Edge sandbox take every body as decoded),
 * so a gzip-encoded list would reach clients as bytes they cannot read; Next compresses responses itself
 * (`compress` in next.config, Vercel's edge).
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
  const handler = createMcpFetchHandler(tools, {
    ...options,
    protocol: { ...options.protocol, compressList: false },
  });
  const tasks = options.tasks !== undefined && tools.some((tool) => tool.task !== undefined);
  if (tasks && options.tasks?.run === undefined) {
    (options.observe?.logger ?? console).warn(TASKS_IN_FUNCTION);
  }
  // Only a mount that can create tasks has a run to keep going.
  const after = tasks ? loadAfter() : undefined;
  const route: RouteHandler<Params> = async (request, context) => {
    const keep = after && (await after);
    return handler.fetch(request, { host: { context }, ...(keep && { waitUntil: keepWith(keep) }) });
  };
  return { GET: route, POST: route, DELETE: route, OPTIONS: route, handler };
}

/** The startup warning of a mount with tasks and no `tasks.run` hook. */
const TASKS_IN_FUNCTION =
  "mcp-mount: tasks run in the function that accepted their call (kept going after the response with Next's " +
  "`after`), so each is bounded by the platform's function duration (Vercel's `maxDuration`); hand longer " +
  'tasks to a queue with `tasks.run`';

/** Next's `after(task)`, typed here so that no version of `next`'s types is needed. */
type After = (task: Promise<unknown>) => void;

/**
 * `after` from `next/server`, or undefined where Next.js has none (before 15.1) or `next` cannot be loaded.
 * `next/server.js`, with its extension: `next` has no `exports` map, so Node's own ESM resolution needs it, and
 * Next's bundlers resolve it as the same file.
 */
function loadAfter(): Promise<After | undefined> {
  return import('next/server.js').then(
    (server: { after?: unknown; default?: { after?: unknown } }) => {
      // Bundlers hand over `module.exports` as the namespace; Node's ESM loader may only as `default`.
      const after = server.after ?? server.default?.after;
      return typeof after === 'function' ? (after as After) : undefined;
    },
    () => undefined,
  );
}

/**
 * A `waitUntil` on `after`. `after` throws outside a request's scope (the route called directly, as a unit
 * test does): the run then goes on on its own, as it does under any Node server.
 */
function keepWith(after: After): (promise: Promise<unknown>) => void {
  return (promise) => {
    try {
      after(promise);
    } catch {
      // Outside a request's scope: nothing keeps the run but the process itself.
    }
  };
}

export type { McpMountOptions } from '../../index.js';
