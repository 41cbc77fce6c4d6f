/**
 * @module
 * The fetch-handler entry of mcp-mount, for Cloudflare Workers, Bun and Deno: a module-worker default export.
 * It loads nothing Node-only. A Worker's `env` and `ctx` reach tools as `ctx.host`.
 */
import type { z } from 'zod';
import { createMcpFetchHandler } from '../../adapter.js';
import type { AnyZodObject, McpMountOptions, MountableTool, MountExtend } from '../../index.js';
import { exportedHandler, type FetchHost, type McpExportedHandler } from './exported.js';

export type { ExecutionContextLike, FetchHost, McpExportedHandler } from './exported.js';

/** Options of the fetch adapter: the core's, plus the path to serve. */
export interface FetchAdapterOptions<S extends AnyZodObject = AnyZodObject, R = unknown> extends McpMountOptions<S, R> {
  /** Serve only this pathname (e.g. `'/mcp'`); other paths get a plain 404. Default: every path. */
  path?: string;
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
  return exportedHandler<Env>(createMcpFetchHandler(tools, core), path);
}

export type { McpMountOptions } from '../../index.js';
