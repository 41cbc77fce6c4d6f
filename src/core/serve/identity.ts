/** The `server` options: the server's identity and the `features` hook, settled once per mount. */
import type { ServerHook } from '../model/features.js';
import { hookOption, optionKeys } from '../settle/checks.js';

/** The `server` options: the server's identity, and the rest of the server beside the tools. */
export interface MountServerOptions {
  /** Server name in `initialize` / `server/discover`. Default `'mcp-mount'`. */
  name?: string;
  /** Server version. Default `'0.0.0'`. */
  version?: string;
  /**
   * A display name for people, beside `name` (the MCP `Implementation.title`, since 2025-06-18; clients show
   * it in place of `name`). Default: none sent.
   */
  title?: string;
  /** Server instructions sent to clients. */
  instructions?: string;
  /**
   * Registers the rest of the server beside the tools (what MCP calls the server's features): resources,
   * resource templates, prompts, completions (and any capability they need), with the SDK's own `McpServer`
   * API, on each per-request server. Not run for `tools/call` and `tools/list`, which only tools answer;
   * run once at construction on a throwaway server so the probe sees what it registers (`ctx.request` is
   * then undefined). Tools are not registered here: give them to the mount (a `registerTool` in the hook
   * fails the mount). See docs/decisions/0013-the-rest-of-the-server.md.
   */
  features?: ServerHook;
}

/** The keys `server` takes: one list, tied to `MountServerOptions` by the compiler. */
export const SERVER_KEYS = optionKeys<MountServerOptions>()(['name', 'version', 'title', 'instructions', 'features']);

/** `server`, defaulted. Frozen. */
export interface ServerPolicy {
  /** Prefixes the rate windows' keys. */
  readonly name: string;
  /**
   * The `serverInfo` of `initialize` / `server/discover` (the MCP `Implementation`): what the identity options
   * send, so that a new one is settled here and no other file changes.
   */
  readonly implementation: Readonly<{ name: string; version: string; title?: string }>;
  readonly instructions?: string;
  /** Registers resources, prompts and the like on each per-request server. */
  readonly features?: ServerHook;
}

/**
 * Settles `server`: `name` `'mcp-mount'` and `version` `'0.0.0'` by default.
 * @throws TypeError for a `name`, `version`, `title` or `instructions` that is not a string, or a `features` that is not
 *   a function.
 * @example `settleServer({ name: 'notes', version: '1.2.0' })`
 */
export function settleServer(server: MountServerOptions): ServerPolicy {
  for (const key of ['name', 'version', 'title', 'instructions'] as const) {
    if (server[key] !== undefined && typeof server[key] !== 'string') {
      throw new TypeError(`mcp-mount: server.${key} must be a string, got ${String(server[key])}`);
    }
  }
  hookOption('server.features', server.features);
  const name = server.name ?? 'mcp-mount';
  return Object.freeze({
    name,
    implementation: Object.freeze({
      name,
      version: server.version ?? '0.0.0',
      ...(server.title !== undefined && { title: server.title }),
    }),
    ...(server.instructions !== undefined && { instructions: server.instructions }),
    ...(server.features && { features: server.features }),
  });
}
