/** The options a mount takes: one object per concern, each concern's own type. */
import type { AccessOptions } from '../access/options.js';
import type { ArgumentsOptions } from '../arguments/options.js';
import type { DocumentsOption } from '../documents/options.js';
import type { LimitsOptions } from '../limits/options.js';
import type { IgnoredKey } from '../messages/ignored-keys.js';
import type { AnyZodObject } from '../model/tool.js';
import type { ObserveOptions } from '../observe/options.js';
import type { ProjectionOption, SchemaValidationOptions } from '../prepare/options.js';
import type { TasksOptions } from '../tasks/options.js';
import type { MountServerOptions } from './identity.js';
import type { ProtocolOptions } from './protocol.js';

/**
 * Options of `createMcpFetchHandler`, every adapter and `validateMcpSchemas`: the shorthand for flat unions and
 * one object per concern (docs/decisions/0016-options-grouped-by-concern.md, 0033). Every key and every
 * group's keys are checked at construction: a misspelt or misplaced one is a `TypeError` naming the closest
 * key, never ignored.
 *
 * @example
 * ```ts
 * mcp(tools, { server: { name: 'notes' }, flattenUnionInput: true, access: { auth: { verify } } });
 * ```
 */
export interface McpMountOptions<S extends AnyZodObject = AnyZodObject, R = unknown> {
  /** Identity (`name`, `version`, `instructions`) and `features`: prompts, resources and the like. */
  server?: MountServerOptions;
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
   * - `{ choose: 'auto' | fn, serve, prepare, errors }`: the same choice, among the projections `serve` lists,
   *   prepared on first use or at startup, with what a family whose document fails its check gets.
   *
   * The default projection is computed and probed at construction; the others when a request first needs
   * them (`projection.prepare`). Calls are unaffected: the original Zod schema parses every call, whatever
   * document the client was shown.
   * Default: `'faithful'`, or `'flat'` with `flattenUnionInput: true`.
   * @throws TypeError at construction for a value that names nothing.
   */
  projection?: ProjectionOption;
  /** The startup probe's checks: `policy`, `profiles`, `requireTypedProperties`, `allowUntyped`, `requirePortableFormats`, `allowFormats`. */
  schemaValidation?: SchemaValidationOptions;
  /**
   * Build-time documents: the default export of the module `mcp-mount check <module> --emit <file>` wrote for
   * these tools and options (docs/decisions/0024-build-time-documents.md). Every tool they describe as it is
   * now is served them as they are: no conversion, projection or probe at startup (the probe ran when they were
   * written). At startup each tool's top-level keys and the options are checked against what the documents
   * record, and what no longer matches fails the mount; `mcp-mount check --verify` compares the documents
   * themselves, in CI and in the build (docs/decisions/0032-documents-verified-at-build.md). The Zod schemas
   * still parse every call. `mcp-mount/fetch/prebuilt` serves only these. Pass `{ module, stale: 'prepare' }`
   * to prepare a stale tool at startup instead (see `DocumentsOptions`).
   */
  documents?: DocumentsOption;
  /**
   * How a call's arguments are read: `json`, `scalars`, `nullAsAbsent` (repairs), `unknownKeys`, `injectedKeys`,
   * `hygiene`, and `extend` (keys every tool takes).
   */
  arguments?: ArgumentsOptions<S, R>;
  /** Origin, Host, CORS, auth and visibility: `checkOrigin`, `origins`, `hosts`, `cors`, `auth`, `visibleTools`, `listUnauthorizedTools`, `visibleFeatures`. */
  access?: AccessOptions;
  /**
   * What a request may cost: `maxRequestBodyBytes`, `maxArgumentDepth`, `maxArgumentValues`, `timeoutMs`,
   * `rate`, `concurrency`.
   */
  limits?: LimitsOptions;
  /** Hooks, logs and traces: `onCall`, `onError`, `onRefusal`, `logger`, `redact`, `exposeErrors`, `openTelemetry`. */
  observe?: ObserveOptions;
  /** MCP protocol features: `logging`, `responseMode`, `keepAliveMs`, `requestState`, `compressList`. */
  protocol?: ProtocolOptions;
  /**
   * Long-running calls as tasks (the 2026-07-28 tasks extension) for tools with `task`: `store` (required),
   * `leaseMs`, `maxOpen`, `anonymousOwner` (docs/guide/tasks.md). Default: no tasks.
   */
  tasks?: TasksOptions;
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
export type { ArgumentsOptions } from '../arguments/options.js';
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
  RequestClient,
  TaskEvent,
  TaskEventKind,
} from '../observe/options.js';
export type { ProjectionOption, ProjectionOptions, SchemaValidationOptions } from '../prepare/options.js';
export type { ToolTaskOptions } from '../model/tool.js';
export type { TasksOptions } from '../tasks/options.js';
export type { MountServerOptions } from './identity.js';
export type { ProtocolOptions } from './protocol.js';
export type { IgnoredKey };
