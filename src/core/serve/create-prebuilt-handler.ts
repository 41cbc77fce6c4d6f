/**
 * The core for a mount that serves build-time documents only (docs/decisions/0024-build-time-documents.md):
 * the same serving as `createMcpFetchHandler`, without the conversion, projection and probe in its import
 * graph, so a Worker bundling it carries none of them.
 */
import type { z } from 'zod';
import { preparationFromDocuments } from '../documents/preparation.js';
import type { AnyZodObject, MountableTool } from '../model/tool.js';
import { documentsSetup, settleOptions } from './config.js';
import { type McpFetchHandler, serveMount } from './handler.js';
import type { McpMountOptions, MountExtend } from './options.js';

/** The options of a prebuilt mount: the core's, with `documents` required. */
export type PrebuiltOptions<S extends AnyZodObject = AnyZodObject, R = unknown> = McpMountOptions<S, R> & {
  documents: unknown;
};

/**
 * Builds the MCP endpoint for `tools` from their build-time `documents` (the default export of the module
 * `mcp-mount check <module> --emit <file>` wrote): at startup only a stamp of each tool's top-level keys,
 * compared with the documents'; per request, what `createMcpFetchHandler` does.
 *
 * @throws TypeError for an option that cannot mean anything, for `documents` missing, and for
 *   `documents.stale: 'prepare'` (this core cannot prepare; use `createMcpFetchHandler` for that).
 * @throws McpMountSchemaError when the documents no longer describe a tool (`stale-documents`, naming what
 *   changed and the command to run), and for what fails a mount under every policy (an invalid tool name).
 *
 * @example
 * ```ts
 * import { createPrebuiltMcpFetchHandler } from 'mcp-mount/adapter';
 * import documents from './mcp-documents.js'; // written by `mcp-mount check src/tools.ts --emit src/mcp-documents.js`
 *
 * const mcp = createPrebuiltMcpFetchHandler(tools, { documents });
 * ```
 */
export function createPrebuiltMcpFetchHandler<Host = unknown, S extends AnyZodObject = never, R = z.output<S>>(
  tools: readonly MountableTool<Host, NoInfer<MountExtend<S, R>>>[],
  options: PrebuiltOptions<S, R>,
): McpFetchHandler<Host> {
  const config = settleOptions(options);
  if (!config.documents) {
    throw new TypeError(
      'mcp-mount: this mount serves build-time documents only: pass documents (the default export of the module `mcp-mount check <module> --emit <file>` writes), or use createMcpFetchHandler',
    );
  }
  if (config.documents.stale === 'prepare') {
    throw new TypeError(
      "mcp-mount: documents.stale: 'prepare' needs the preparation, which this mount leaves out; use createMcpFetchHandler (mcp-mount/fetch) for it",
    );
  }
  return serveMount(config, preparationFromDocuments(tools, documentsSetup(config), config.documents));
}
