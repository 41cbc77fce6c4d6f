import type { McpMountOptions } from '../../core/mount/options.js';
import type { AnyTool } from '../../core/mount/tool.js';
import { createMcpFetchHandler, type McpFetchHandler } from '../../core/serve/handler.js';

/** A Next.js App Router route handler: `(request, context) => Response`, nothing Next-specific imported. */
export type RouteHandler = (request: Request, context?: unknown) => Promise<Response>;

/**
 * Route handlers serving `tools` as an MCP endpoint from `app/mcp/route.ts`:
 * `export const { GET, POST, DELETE } = mcp(tools, options)`.
 * Preparation and the startup probe run once per server process (or Edge isolate), when the route module
 * loads (`next build` loads it too, so a bad schema under `policy: 'throw'` fails the build). Works on the
 * Node.js and Edge runtimes: `NextRequest` is a web `Request`, handed to the core as is.
 * The route's `context` (`{ params }`) reaches tools as `ctx.host.context`.
 *
 * @throws McpMountSchemaError at construction, as `createMcpFetchHandler` does.
 */
export function mcp(
  tools: readonly AnyTool[],
  options: McpMountOptions = {},
): { GET: RouteHandler; POST: RouteHandler; DELETE: RouteHandler; handler: McpFetchHandler } {
  const handler = createMcpFetchHandler(tools, options);
  const route: RouteHandler = (request, context) => handler.fetch(request, { host: { context } });
  return { GET: route, POST: route, DELETE: route, handler };
}

export type { McpMountOptions } from '../../core/mount/options.js';
