import type { PerRequestResponseMode, ServerOptions } from '@modelcontextprotocol/server';
import type { AccessOptions } from '../access/options.js';
import type { RepairOptions } from '../arguments/options.js';
import type { DocumentsOption } from '../documents/options.js';
import type { LimitsOptions } from '../limits/options.js';
import type { IgnoredKey } from '../messages/ignored-keys.js';
import type { ExtendOption } from '../model/extend.js';
import type { ServerHook } from '../model/features.js';
import type { AnyZodObject } from '../model/tool.js';
import type { ObserveOptions } from '../observe/options.js';
import type { ProjectionOption, SchemaValidationOptions } from '../prepare/options.js';
import type { SchemaIssue } from '../probe/issue.js';

/** Options shared by the probe and every mount: the same options give the same served documents. */
export interface PrepareOptions<S extends AnyZodObject = AnyZodObject, R = unknown> {
  /**
   * Advertise unions as one flat object at every depth (docs/design/flatten.md). Default false.
   * Shorthand for `projection: 'flat'`; give one or the other.
   */
  flattenUnionInput?: boolean;
  /**
   * Which `inputSchema` document each client is served (docs/decisions/0014-per-client-projections.md):
   * - a projection name: every client gets that one (`'faithful'`, `'flat'`, or a client profile's:
   *   `'anthropic'`, `'openai-strict'`, `'gemini'`, `'cursor'`, `'local-grammar'`);
   * - `'auto'`: chosen per `tools/list` by `autoProjection` (client name or User-Agent; unknown clients get
   *   `'flat'`), among `flat` and every `AUTO_PROJECTIONS` target;
   * - a function of the client's identity and the request (`url`, `headers`, the adapter's `host`), run per
   *   `tools/list`, among every projection: route by URL (`/mcp/gemini`), header or query parameter where a
   *   client never names itself; it must return a projection name (anything else, or a throw, answers that
   *   request with a JSON-RPC 500 that `onError` sees);
   * - `{ choose: 'auto' | fn, serve: [...] }`: the same choice, among the projections `serve` lists only.
   *
   * The default projection is computed and probed at construction; the others when a request first needs
   * them (`prepareProjections`). Calls are unaffected: the original Zod schema parses every call, whatever
   * document the client was shown.
   * Default: `'faithful'`, or `'flat'` with `flattenUnionInput: true`.
   * @throws TypeError at construction for a value that names nothing.
   */
  projection?: ProjectionOption;
  /**
   * When the projections other than the default one are computed and probed
   * (docs/decisions/0026-projections-prepared-on-first-use.md):
   * - `'on-first-use'` (default): each when a request first needs it, once per mount (per isolate on a
   *   Worker). Its issues cannot fail the mount then: they are logged once (`observe.logger`; not under
   *   `schemaValidation.policy: 'skip'`), and a tool whose document fails that projection's check is served
   *   the default document or left out for it (`schemaValidation.projectionErrors`). `mcp-mount check` and
   *   `validateMcpSchemas` prepare them all, so CI sees what a deploy would.
   * - `'at-startup'`: all at construction, where the policy applies to them (a long-lived server that wants
   *   every verdict before it serves).
   * The default projection is always prepared at construction. A single-projection mount has no other.
   */
  prepareProjections?: 'on-first-use' | 'at-startup';
  /**
   * Build-time documents: the default export of the module `mcp-mount check <module> --emit <file>` wrote for
   * these tools and options (docs/decisions/0024-build-time-documents.md). Every tool they describe as it is
   * now is served them as they are: no conversion, projection or probe at startup (the probe ran when they were
   * written). At startup each tool's top-level keys and the options are checked against what the documents
   * record, and what no longer matches follows `stale`; `mcp-mount check --verify` compares the documents
   * themselves, in CI and in the build (docs/decisions/0030-documents-verified-at-build.md). The Zod schemas
   * still parse every call. `mcp-mount/fetch/prebuilt` serves only these. Pass `{ module, stale: 'prepare' }`
   * to prepare a stale tool at startup instead of failing (see `DocumentsOptions`).
   */
  documents?: DocumentsOption;
  /** Generic over the extend schema and `resolve`'s result, so that `resolve` and tools see them typed. */
  extend?: ExtendOption<S, R>;
  schemaValidation?: SchemaValidationOptions;
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

/** MCP protocol features the per-request servers declare or pass to the SDK. */
export interface ProtocolOptions {
  /**
   * Declare the `logging` capability: `logging/setLevel` is answered and `ctx.log` sends
   * `notifications/message` (MCP 2025-11-25 server/utilities/logging; in 2026-07-28 only at or above the
   * level a request's `_meta` asks for). Default false: `ctx.log` then sends nothing.
   */
  logging?: boolean;
  /**
   * How a 2026-07-28 exchange is answered (the SDK's `responseMode`): `'auto'` (default) a JSON body unless
   * the handler sends a notification (progress, a log message) before its result, then an event stream;
   * `'sse'` always a stream; `'json'` never a stream, and every notification sent before the result is
   * dropped. 2025-era requests are always answered on a stream.
   * @throws TypeError at construction for any other value.
   */
  responseMode?: PerRequestResponseMode;
  /**
   * Checks a 2026-07-28 multi-round-trip `requestState` echoed by the client, before the handler runs (the
   * SDK's `requestState` option). Throw to refuse: the client gets `-32602` "Invalid or expired
   * requestState". What it resolves with is what `ctx.mcp.mcpReq.requestState()` returns. The SDK's
   * `createRequestStateCodec({ key }).verify` fits here (MCP 2026-07-28 basic/patterns/mrtr: state that
   * steers anything must be integrity-protected). Default: none, the raw string reaches the handler.
   * @throws TypeError at construction without a `verify` function.
   */
  requestState?: ServerOptions['requestState'];
}

/**
 * Options of `createMcpFetchHandler`, every adapter and `validateMcpSchemas`: the server's identity, the
 * projection, and one object per concern (docs/decisions/0016-options-grouped-by-concern.md). The 0.0 flat
 * names (`coerceJsonArgs`, `allowedOrigins`, ...) are refused with a TypeError naming their replacement.
 */
export interface McpMountOptions<S extends AnyZodObject = AnyZodObject, R = unknown> extends PrepareOptions<S, R> {
  /** Server name in `initialize`/`server/discover`. Default `'mcp-mount'`. */
  name?: string;
  /** Server version. Default `'0.0.0'`. */
  version?: string;
  /** Server instructions sent to clients. */
  instructions?: string;
  /** Argument repair and checks: `json`, `scalars`, `nullAsAbsent`, `unknownKeys`, `injectedKeys`, `hygiene`. */
  repair?: RepairOptions;
  /** Origin, Host, CORS, auth and tool visibility: `checkOrigin`, `origins`, `hosts`, `cors`, `auth`, `visibleTools`, `listUnauthorizedTools`. */
  access?: AccessOptions;
  /** Hooks, logs and traces: `onCall`, `onError`, `onRefusal`, `logger`, `redact`, `exposeErrors`, `openTelemetry`. */
  observe?: ObserveOptions;
  /**
   * What a request may cost: `maxRequestBodyBytes`, `maxArgumentDepth`, `maxArgumentValues`, `timeoutMs`,
   * `rate`, `concurrency`.
   */
  limits?: LimitsOptions;
  /** MCP protocol features: `logging`, `responseMode`, `requestState`. */
  protocol?: ProtocolOptions;
}

export type {
  AccessOptions,
  AuthOptions,
  CorsOptions,
  FeatureItem,
  VerifiedToken,
  VisibilityContext,
  VisibleFeatures,
  VisibleTools,
} from '../access/options.js';
export type { RepairOptions } from '../arguments/options.js';
export type { DocumentsOption, DocumentsOptions } from '../documents/options.js';
export type { LimitsOptions, RateLimiter, RateLimitOptions, RateWindow } from '../limits/options.js';
export type { ExtendOption, MountExtend } from '../model/extend.js';
export type {
  CallEvent,
  Caller,
  ErrorInfo,
  ErrorPhase,
  ObserveOptions,
  RefusalEvent,
  RefusalReason,
} from '../observe/options.js';
export type { ProjectionOption, ProjectionOptions, SchemaValidationOptions } from '../prepare/options.js';
export type { IgnoredKey, SchemaIssue };
