/**
 * @module
 * Hono middleware for mcp-mount: serves Zod-defined MCP tools at a route of an existing Hono app, on any
 * runtime Hono runs on. The raw request goes to the shared core; `c.env` and `c` reach tools as `ctx.host`.
 */
import type { Context, Env, MiddlewareHandler } from 'hono';
import type { z } from 'zod';
import { connectionAddress, createMcpFetchHandler, type McpFetchHandler } from '../../adapter.js';
import type { AnyZodObject, McpMountOptions, MountableTool, MountExtend } from '../../index.js';

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
 * `ctx.host.env` and `ctx.host.context`, `c.get('authInfo')` as `ctx.authInfo`; the connection's address
 * (Node, Bun, Deno: `connectionAddress`) is the audit events' `client.remoteAddress`. Preparation and the
 * startup probe run here, once. A body a middleware before the mount already read through `c.req`
 * (`await c.req.json()`, `text()`) is served from what Hono kept, counted under `limits.maxRequestBodyBytes`; one
 * read around Hono (`c.req.raw.json()`) gets a JSON-RPC 500 saying so. `E` is taken from tools that declare
 * a `HonoHost<E>` (the middleware is then a `MiddlewareHandler<E>`).
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
  const middleware: MiddlewareHandler<E> = async (c) => {
    const waitUntil = executionWaitUntil(c);
    return handler.fetch(await unreadRequest(c), {
      host: { env: c.env, context: c },
      authInfo: c.get('authInfo' as never),
      remoteAddress: connectionAddress(c.env, c.req.raw),
      ...(waitUntil && { waitUntil }),
    });
  };
  return Object.assign(middleware, { handler });
}

/**
 * The runtime's `waitUntil` where Hono has an execution context (Cloudflare Workers; Hono's getter throws
 * elsewhere), so a task's run outlives the response that answered its creation.
 */
function executionWaitUntil(c: Context): ((promise: Promise<unknown>) => void) | undefined {
  try {
    const ctx = c.executionCtx;
    return typeof ctx?.waitUntil === 'function' ? (promise) => ctx.waitUntil(promise) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `c.req.raw`, or, when a middleware before the mount already read its body through `c.req` (`json()`,
 * `text()`, `arrayBuffer()`...), a copy carrying the bytes Hono kept, for the core to count and parse as
 * it would the original.
 */
async function unreadRequest(c: Context): Promise<Request> {
  const raw = c.req.raw;
  if (!raw.bodyUsed) return raw;
  let body: ArrayBuffer;
  try {
    // Hono caches what `c.req` read and answers any other form from that cache.
    body = await c.req.arrayBuffer();
  } catch {
    // Read around Hono (`c.req.raw.json()`): nothing was kept, and the core answers that it was read.
    return raw;
  }
  const headers = new Headers(raw.headers);
  // They described the bytes on the wire, not this copy of them.
  headers.delete('content-length');
  headers.delete('transfer-encoding');
  return new Request(raw.url, { method: raw.method, headers, body, signal: raw.signal });
}

export type { McpMountOptions } from '../../index.js';
