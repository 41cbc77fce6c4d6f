/**
 * The `features` option: the rest of the MCP server (resources, resource templates, prompts, completions),
 * registered by the user with the SDK's own `McpServer` API on each per-request server; and what its run at
 * construction found (serve/sdk/features-probe.ts runs it). See docs/decisions/0013-the-rest-of-the-server.md.
 */
import type { AuthInfo, McpServer } from '@modelcontextprotocol/server';
import type { SchemaIssue } from '../probe/issue.js';

/** What the `features` hook is told about the request whose server it fills. */
export interface ServerHookContext {
  /** `'modern'` for a 2026-07-28 request, `'legacy'` for a 2025-era one (the SDK's `McpRequestContext.era`). */
  era: 'legacy' | 'modern';
  /** The JSON-RPC method of the request (e.g. `'prompts/get'`), when the body is one JSON-RPC message. */
  method?: string;
  /** Validated auth info the adapter handed over, as tools see it in `ctx.authInfo`. */
  authInfo?: AuthInfo;
  /** The HTTP request being served; undefined in the run at construction. */
  request?: Request;
  /** What the adapter hands over (`ctx.host` of tools); undefined in the run at construction. */
  host: unknown;
  /** True in the one run at construction, on a server that serves nothing. */
  probe: boolean;
}

/**
 * Registers resources, resource templates, prompts and completions on `server` with the SDK's own API
 * (`registerResource`, `registerPrompt`, `completable`, `server.server.registerCapabilities`). It must be
 * synchronous and register the same things for every request: it runs once at construction for the probe,
 * then on the per-request server of every request but `tools/call` and `tools/list`.
 *
 * @example
 * ```ts
 * mcp(tools, {
 *   features(server) {
 *     server.registerResource('readme', 'docs://readme', { mimeType: 'text/markdown' }, (uri) => ({
 *       contents: [{ uri: uri.href, text: '# Notes' }],
 *     }));
 *     server.registerPrompt('summarize', { argsSchema: z.object({ topic: z.string() }) }, ({ topic }) => ({
 *       messages: [{ role: 'user', content: { type: 'text', text: `Summarize ${topic}` } }],
 *     }));
 *   },
 * });
 * ```
 */
export type ServerHook = (server: McpServer, ctx: ServerHookContext) => void;

/** What the hook registered in the run at construction. */
export interface ServerSurface {
  prompts: readonly string[];
  resources: readonly string[];
  /** Each static resource's URI, with the MIME type it was registered with (an MCP Apps view's, say). */
  resourceUris: ReadonlyMap<string, { mimeType?: string }>;
}

/** The `features` hook's run at construction: what it registered, and what the probe found in that. */
export interface FeatureProbe {
  surface: ServerSurface;
  issues: SchemaIssue[];
}

/** The probe of a mount without a `features` hook. */
export const NO_FEATURES: FeatureProbe = Object.freeze({
  surface: Object.freeze({ prompts: Object.freeze([]), resources: Object.freeze([]), resourceUris: new Map() }),
  issues: [],
}) as FeatureProbe;
