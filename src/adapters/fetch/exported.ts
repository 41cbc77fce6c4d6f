/** The module-worker shape both fetch entries (`mcp-mount/fetch`, `mcp-mount/fetch/prebuilt`) export. */
import { connectionAddress, type McpFetchHandler } from '../../adapter.js';

/** The part of a Worker's `ExecutionContext` tools may use; typed here so no Workers types are needed. */
export interface ExecutionContextLike {
  waitUntil(promise: Promise<unknown>): void;
  passThroughOnException(): void;
}

/**
 * What a tool sees as `ctx.host` under the fetch adapter: the runtime's second and third arguments. On
 * Workers `env` is the bindings and `ctx` the `ExecutionContext`; Bun passes its server and Deno its
 * connection info as `env`, and no `ctx`. A tool opts in with `defineTool.for<{ host: FetchHost<Env> }>()`.
 */
export interface FetchHost<Env = unknown> {
  env: Env;
  ctx: ExecutionContextLike | undefined;
}

/** `fetch`'s arguments after the request: `env` is required once a tool declares what it must be. */
type FetchArgs<Env> = unknown extends Env
  ? [env?: unknown, ctx?: ExecutionContextLike]
  : [env: Env, ctx?: ExecutionContextLike];

/**
 * The module-worker shape Cloudflare Workers, Bun and Deno (`deno serve`) take as a default export
 * (assignable to Cloudflare's `ExportedHandler<Env>`).
 */
export interface McpExportedHandler<Env = unknown> {
  fetch(request: Request, ...args: FetchArgs<Env>): Promise<Response>;
  /** The core handler (its `report`, `close`). Not enumerable, so runtimes only see `fetch`. */
  readonly handler: McpFetchHandler<FetchHost<Env>>;
}

/** The module-worker shape around a core handler: `fetch` on `path` only, the handler not enumerable. */
export function exportedHandler<Env>(handler: McpFetchHandler<FetchHost<Env>>, path?: string): McpExportedHandler<Env> {
  // `fetch` takes what every runtime passes; `FetchArgs` only narrows what callers may pass (an `env` once a
  // tool declares one), so the `env` handed on is the one the tools declared.
  const fetch = async (request: Request, env?: Env, ctx?: ExecutionContextLike) => {
    if (path !== undefined && new URL(request.url).pathname !== path) return new Response('Not Found', { status: 404 });
    // Bun's server and Deno's handler info carry the connection's address; a Worker's bindings do not.
    // A Worker's `waitUntil` keeps a task's run going after the response that answered its creation.
    return handler.fetch(request, {
      host: { env: env as Env, ctx },
      remoteAddress: connectionAddress(env, request),
      ...(typeof ctx?.waitUntil === 'function' && { waitUntil: (promise: Promise<unknown>) => ctx.waitUntil(promise) }),
    });
  };
  const exported = Object.defineProperty({ fetch }, 'handler', { value: handler, enumerable: false });
  return exported as unknown as McpExportedHandler<Env>;
}
