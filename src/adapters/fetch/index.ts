import type { McpMountOptions } from '../../core/mount/options.js';
import type { AnyTool } from '../../core/mount/tool.js';
import { createMcpFetchHandler, type McpFetchHandler } from '../../core/serve/handler.js';

/** Options of the fetch adapter: the core's, plus the path to serve. */
export interface FetchAdapterOptions extends McpMountOptions {
  /** Serve only this pathname (e.g. `'/mcp'`); other paths get a plain 404. Default: every path. */
  path?: string;
}

/** The module-worker shape Cloudflare Workers, Bun and Deno (`deno serve`) take as a default export. */
export interface McpExportedHandler {
  fetch(request: Request, env?: unknown, ctx?: unknown): Promise<Response>;
  /** The core handler (its `report`, `close`). Not enumerable, so runtimes only see `fetch`. */
  readonly handler: McpFetchHandler;
}

/**
 * A fetch handler serving `tools`: `export default mcp(tools, options)` in a Cloudflare Worker, Bun or Deno.
 * Preparation and the startup probe run when this is called, i.e. once per isolate when called at module
 * scope. A Worker's `env` and `ctx` reach tools as `ctx.host.env` and `ctx.host.ctx`.
 *
 * @throws McpMountSchemaError at construction, as `createMcpFetchHandler` does.
 */
export function mcp(tools: readonly AnyTool[], options: FetchAdapterOptions = {}): McpExportedHandler {
  const { path, ...core } = options;
  const handler = createMcpFetchHandler(tools, core);
  const fetch = async (request: Request, env?: unknown, ctx?: unknown) => {
    if (path !== undefined && new URL(request.url).pathname !== path) return new Response('Not Found', { status: 404 });
    return handler.fetch(request, { host: { env, ctx } });
  };
  return Object.defineProperty({ fetch }, 'handler', { value: handler, enumerable: false }) as McpExportedHandler;
}

export type { McpMountOptions } from '../../core/mount/options.js';
