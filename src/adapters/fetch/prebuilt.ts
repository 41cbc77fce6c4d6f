/**
 * @module
 * The fetch-handler entry for a Worker that serves build-time documents (`mcp-mount/fetch/prebuilt`): the
 * same module-worker default export as `mcp-mount/fetch`, with the conversion, projection and probe left out
 * of the bundle. `mcp-mount check <module> --emit <file>` writes the documents in the build
 * (docs/decisions/0024-build-time-documents.md).
 */
import type { z } from 'zod';
import { createPrebuiltMcpFetchHandler } from '../../adapter.js';
import type { AnyZodObject, McpMountOptions, MountableTool, MountExtend } from '../../index.js';
import { exportedHandler, type FetchHost, type McpExportedHandler } from './exported.js';

export type { ExecutionContextLike, FetchHost, McpExportedHandler } from './exported.js';

/** Options of the prebuilt fetch adapter: the core's with `documents` required, plus the path to serve. */
export interface PrebuiltFetchOptions<S extends AnyZodObject = AnyZodObject, R = unknown>
  extends McpMountOptions<S, R> {
  /** The default export of the module `mcp-mount check <module> --emit <file>` wrote for these tools and options. */
  documents: unknown;
  /** Serve only this pathname (e.g. `'/mcp'`); other paths get a plain 404. Default: every path. */
  path?: string;
}

/**
 * A fetch handler serving `tools` from their build-time documents: `export default mcp(tools, { documents })`
 * in a Cloudflare Worker. At startup each tool's top-level keys are compared with the
 * documents; nothing is converted, projected or probed (that ran when the documents were written).
 *
 * @throws McpMountSchemaError at construction when the documents no longer describe a tool (each
 *   `stale-documents` issue names what changed and the command to run): on Workers, the deploy fails.
 * @throws TypeError as `createPrebuiltMcpFetchHandler` does (no `documents`, `documents.stale: 'prepare'`).
 *
 * @example
 * ```ts
 * // src/index.ts of a Worker; the build runs `mcp-mount check src/tools.ts --emit src/mcp-documents.js`
 * import { mcp } from 'mcp-mount/fetch/prebuilt';
 * import documents from './mcp-documents.js';
 * import { tools } from './tools.js';
 *
 * export default mcp(tools, { documents, path: '/mcp' });
 * ```
 */
export function mcp<Env = unknown, S extends AnyZodObject = never, R = z.output<S>>(
  tools: readonly MountableTool<FetchHost<Env>, NoInfer<MountExtend<S, R>>>[],
  options: PrebuiltFetchOptions<S, R>,
): McpExportedHandler<Env> {
  const { path, ...core } = options;
  return exportedHandler<Env>(createPrebuiltMcpFetchHandler(tools, core), path);
}
