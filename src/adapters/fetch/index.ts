/**
 * @module
 * The fetch-handler entry of mcp-mount, for Cloudflare Workers, Bun and Deno: a module-worker default export.
 * It loads nothing Node-only. A Worker's `env` and `ctx` reach tools as `ctx.host`.
 */
import type { z } from 'zod';
import { createMcpFetchHandler, type McpFetchHandler } from '../../adapter.js';
import type { AnyZodObject, McpMountOptions, MountableTool, MountExtend } from '../../index.js';

/** Options of the fetch adapter: the core's, plus the path to serve. */
export interface FetchAdapterOptions<S extends AnyZodObject = AnyZodObject, R = unknown> extends McpMountOptions<S, R> {
  /** Serve only this pathname (e.g. `'/mcp'`); other paths get a plain 404. Default: every path. */
  path?: string;
}

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

/**
 * A fetch handler serving `tools`: `export default mcp(tools, options)` in a Cloudflare Worker, Bun or Deno.
 * Preparation and the startup probe run when this is called, i.e. once per isolate when called at module
 * scope. A Worker's `env` and `ctx` reach tools as `ctx.host.env` and `ctx.host.ctx`. `Env` is taken from
 * tools that declare a `FetchHost<Env>`.
 *
 * @throws McpMountSchemaError at construction, as `createMcpFetchHandler` does.
 *
 * @example
 * ```ts
 * // src/index.ts of a Cloudflare Worker (or `deno serve`, Bun)
 * import { mcp } from 'mcp-mount/fetch';
 *
 * export default mcp([searchNotes], { path: '/mcp' });
 * ```
 */
export function mcp<Env = unknown, S extends AnyZodObject = never, R = z.output<S>>(
  tools: readonly MountableTool<FetchHost<Env>, NoInfer<MountExtend<S, R>>>[],
  options: FetchAdapterOptions<S, R> = {},
): McpExportedHandler<Env> {
  const { path, ...core } = options;
  const handler = createMcpFetchHandler(tools, core);
  // `fetch` takes what every runtime passes; `FetchArgs` only narrows what callers may pass (an `env` once a
  // tool declares one), so the `env` handed on is the one the tools declared.
  const fetch = async (request: Request, env?: Env, ctx?: ExecutionContextLike) => {
    if (path !== undefined && new URL(request.url).pathname !== path) return new Response('Not Found', { status: 404 });
    return handler.fetch(request, { host: { env: env as Env, ctx } });
  };
  const exported = Object.defineProperty({ fetch }, 'handler', { value: handler, enumerable: false });
  return exported as unknown as McpExportedHandler<Env>;
}

export type { McpMountOptions } from '../../index.js';
