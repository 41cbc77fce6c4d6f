/** The `documents` option: build-time documents, and what a mount does when they no longer describe a tool. */

/**
 * The default export of the module `mcp-mount check <module> --emit <file>` wrote for these tools and options
 * (docs/decisions/0024-build-time-documents.md), or `{ module, stale }` to say what happens when it no longer
 * describes a tool.
 */
export type DocumentsOption = unknown | DocumentsOptions;

/** `documents` in full. */
export interface DocumentsOptions {
  /** The default export of the documents module. */
  module: unknown;
  /**
   * What a mount does when the documents no longer describe a tool (changed, added or removed since they were
   * written, as far as the startup check can tell; or written for other options, another mcp-mount or Zod):
   * - `'fail'` (default): construction throws `McpMountSchemaError`, one `stale-documents` issue per tool,
   *   each naming what changed and the command to run; on Workers, the deploy fails;
   * - `'prepare'`: those tools are prepared at startup as without documents, with one warning logged (for
   *   `wrangler dev` between builds). Not in `mcp-mount/fetch/prebuilt`, which cannot prepare.
   * A tool the documents hold but the mount does not is a warning either way.
   */
  stale?: 'fail' | 'prepare';
}
