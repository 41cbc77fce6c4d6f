import type { MiddlewareHandler } from 'hono';
import type { McpMountOptions } from '../../core/mount/options.js';
import type { AnyTool, AnyZodObject } from '../../core/mount/tool.js';
import { createMcpFetchHandler, type McpFetchHandler } from '../../core/serve/handler.js';

/**
 * Hono middleware serving `tools` as an MCP endpoint: `app.use('/mcp', mcp(tools, options))` or
 * `app.all('/mcp', mcp(tools, options))`. The raw request goes to the core; the Hono env (`c.env`, e.g.
 * Worker bindings) reaches tools as `ctx.host.env`. Preparation and the startup probe run here, once.
 *
 * @throws McpMountSchemaError at construction, as `createMcpFetchHandler` does.
 */
export function mcp<S extends AnyZodObject = AnyZodObject>(
  tools: readonly AnyTool[],
  options: McpMountOptions<S> = {},
): MiddlewareHandler & { handler: McpFetchHandler } {
  const handler = createMcpFetchHandler(tools, options);
  const middleware: MiddlewareHandler = (c) =>
    handler.fetch(c.req.raw, { host: { env: c.env }, authInfo: c.get('authInfo' as never) });
  return Object.assign(middleware, { handler });
}

export type { McpMountOptions } from '../../core/mount/options.js';
