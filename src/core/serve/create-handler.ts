/**
 * The web-standard core every adapter wraps: settles the options and prepares the tools once per mount, then
 * serves them (handler.ts).
 */
import type { z } from 'zod';
import { preparationFromDocuments } from '../documents/preparation.js';
import type { AnyZodObject, MountableTool } from '../model/tool.js';
import { lateIssues } from '../prepare/policy.js';
import { prepareTools } from '../prepare/prepare.js';
import { documentsSetup, prepareSetup, settleOptions } from './config.js';
import { type McpFetchHandler, serveMount } from './handler.js';
import type { McpMountOptions, MountExtend } from './options.js';

/**
 * Builds the MCP endpoint for `tools`. All schema work happens here, once (the default projection's; the
 * others' on first use, `projection.prepare`), or not at all for tools served build-time `documents`; a
 * request only registers precomputed carriers and parses its arguments.
 *
 * @throws TypeError when an option's value cannot mean anything (see `settleOptions`).
 * @throws McpMountSchemaError when a tool name is invalid or duplicated, a key is claimed by two slices, or,
 *   under `schemaValidation.policy: 'throw'` (the default), the probe reports any error-level issue; with
 *   `documents`, when they no longer describe a tool (`stale-documents`, unless `documents.stale: 'prepare'`).
 *
 * @example
 * ```ts
 * import { createMcpFetchHandler } from 'mcp-mount/adapter';
 *
 * const mcp = createMcpFetchHandler([searchNotes], { flattenUnionInput: true });
 * const response = await mcp.fetch(request); // a web Request in, a Response out, on any fetch runtime
 * ```
 */
export function createMcpFetchHandler<Host = unknown, S extends AnyZodObject = never, R = z.output<S>>(
  tools: readonly MountableTool<Host, NoInfer<MountExtend<S, R>>>[],
  options: McpMountOptions<S, R> = {},
): McpFetchHandler<Host> {
  const config = settleOptions(options);
  const setup = prepareSetup(config);
  const mode = {
    eager: config.prepare.projection.prepare === 'at-startup',
    onLate: lateIssues(config.prepare, config.observe),
  };
  // The stale tools of build-time documents are prepared without the features hook: the documents' path
  // runs it once, for the whole mount.
  const preparation = config.documents
    ? preparationFromDocuments(tools, documentsSetup(config), config.documents, (some) =>
        prepareTools(some, setup, { ...mode, hook: false }),
      )
    : prepareTools(tools, setup, mode);
  return serveMount(config, preparation);
}
