/** The `observe` options: what the mount tells its owner, and the events its hooks receive. */
import type { IgnoredKey } from '../messages/ignored-keys.js';
import type { OpenTelemetryApi } from './telemetry-api.js';

/** What the mount tells its owner: hooks and logs that never change a response, and error exposure. */
export interface ObserveOptions {
  /** Observes every finished `tools/call`, successful or not (who called, which request). Never changes a response. */
  onCall?: (event: CallEvent) => void;
  /**
   * The audit trail of refusals: called once for each request or call the mount refused (a missing or invalid
   * token, a missing scope, a foreign `Origin` or `Host`, a body too large, a rate or concurrency limit, an
   * unknown or hidden tool, a timeout, a `verify` outage), with who and what where known. Never changes a
   * response; a throw is logged (phase `onRefusal`). See `RefusalEvent`.
   */
  onRefusal?: (event: RefusalEvent) => void;
  /**
   * Observes what tasks do (the 2026-07-28 tasks extension, `tasks`): a task created (and how: `via`), asking
   * for input, and how it ended (`completed`, `failed` with the `errorId` `onError` got, `cancelled` by its
   * client, `lost` when its run lost its lease), from the process that accepted the call and from a queue
   * consumer's `runTask`. Each task ends with one of those four, told by the process that ran it. Never
   * changes a task; a throw is logged (phase `onTask`). See `TaskEvent`, docs/decisions/0040-task-events.md.
   */
  onTask?: (event: TaskEvent) => void;
  /**
   * OpenTelemetry, per the MCP semantic conventions (docs/decisions/0022-opentelemetry.md): pass the
   * `@opentelemetry/api` module (`import * as otel from '@opentelemetry/api'`). Each MCP request is then a
   * SERVER span named `{mcp.method.name} {target}` (`tools/call get_weather`), under the `traceparent` of
   * `params._meta` or else the HTTP header, and its duration is recorded in the `mcp.server.operation.duration`
   * histogram (seconds). The mount never imports the API itself: without this option nothing of it is loaded
   * or bundled. Spans and metrics go wherever the app's OpenTelemetry SDK sends them.
   * @throws TypeError at construction when not the API module.
   */
  openTelemetry?: OpenTelemetryApi;
  /**
   * Observes every unexpected error (a handler's throw, with the `errorId` its client was shown; an output
   * that breaks its schema; a `verify` that could not check; an internal failure; a throwing `onCall`), with
   * its phase (`ErrorInfo.phase`). Never changes a response. Each is logged through `logger` whether or not
   * this is set.
   */
  onError?: (error: unknown, info: ErrorInfo) => void;
  /**
   * Where probe warnings and every unexpected error are logged. Default `console`. An error's line is
   * `mcp-mount: <phase> error (error id <id>, tool <name>, caller <clientId>[/<subject>], request <id>)`, the
   * error itself the second argument (so a stack is printed). A value a client may have chosen (the tool's
   * name, the caller, the request id) is written as it is only when it is a short plain token
   * (`[A-Za-z0-9_.:@+-]`, up to 128 characters), else as a JSON string with every control, bidirectional and
   * zero-width character escaped, cut at 256 characters: no client can end the line or forge another. An
   * error whose message holds such characters is handed over as an escaped copy (`onError` gets the original).
   * Pass `{ warn() {}, error() {} }` to log nothing (e.g. when `onError` ships errors elsewhere).
   */
  logger?: Pick<Console, 'warn' | 'error'>;
  /**
   * What `onCall` reports as `args`: the call's arguments as the client sent them, through this hook, so
   * an owner can keep secrets (tokens, personal data) out of logs. Return what may be logged. Default:
   * the arguments as they are. A throw is logged and `args` is left out.
   * @example redact: (args, tool) => ({ ...args, ...('password' in args && { password: '[redacted]' }) })
   */
  redact?: (args: Record<string, unknown>, tool: string) => unknown;
  /**
   * Send a handler's unexpected error text to the client (`Tool <name> failed (error id <id>): <message>`)
   * instead of the generic `Tool <name> failed (error id <id>)`. Default false; for development only: the
   * text of an unexpected error (a database error, a stack of internal names) is not meant for a model.
   * A `ToolError`'s message is sent in either case; argument validation errors always are.
   */
  exposeErrors?: boolean;
  /**
   * A request header your proxy or platform sets to the client's address, read for `client.remoteAddress` in
   * `onRefusal` and `onCall` events (and handed to `limits.rate.key`) in place of the address the adapter
   * saw, which behind a proxy is the proxy's: `'cf-connecting-ip'` on Cloudflare, `'x-real-ip'` behind nginx,
   * `'x-forwarded-for'` or `'forwarded'` behind one proxy that appends to it (the last entry is taken: the one
   * that proxy wrote; entries before it are what the client sent, and can be anything). Only a header a proxy
   * in front of every request sets may be named here: a client can send any header. Default none: the
   * adapter's address (Node's socket, Bun's `requestIP`, Deno's `remoteAddr`; Next.js and Workers hand over
   * none).
   * @throws TypeError at construction for a value that is not a header name.
   * @example remoteAddressHeader: 'cf-connecting-ip'
   */
  remoteAddressHeader?: string;
}

/**
 * Where a request came from, as the HTTP request said, for audit: each value as sent, cut after 256
 * characters (a client chooses them: escape them before printing). Not the MCP `clientInfo`.
 */
export interface RequestClient {
  /** The client's address: from `observe.remoteAddressHeader` when set and present, else from the adapter. */
  remoteAddress?: string;
  /** The `User-Agent` header. */
  userAgent?: string;
  /** The `Origin` header (sent by browsers). */
  origin?: string;
}

/** Who called, for audit: from the caller's `AuthInfo`. */
export interface Caller {
  /** `authInfo.clientId`. */
  clientId: string;
  /** `authInfo.extra.sub`, when the verifier put the token's subject there. */
  subject?: string;
}

/**
 * Where an unexpected error happened: `handler` (a tool's handler or `extend.resolve`), `output` (a result its
 * output schema refuses), `auth` (`verify` could not check a token: the client got 503), `request` (any other
 * failure on the request path: the client got a JSON-RPC 500), `body` (the request body could not be read),
 * `notification` (`ctx.log` or `ctx.progress` could not be sent), `transport` (the SDK's own report), `onCall`,
 * `onRefusal` and `onTask` (a hook that threw), `limits` (a rate-limit store failed; the request was served),
 * `task` (the task store failed or refused a running task's heartbeat or settle, or `tasks.run` threw; the
 * client reads what the store holds).
 */
export type ErrorPhase =
  | 'handler'
  | 'output'
  | 'auth'
  | 'request'
  | 'body'
  | 'notification'
  | 'transport'
  | 'onCall'
  | 'onRefusal'
  | 'onTask'
  | 'limits'
  | 'task'
  /** A prompt's or resource's handler registered through `features`. */
  | 'feature';

/** What `onError` sees beside the error. */
export interface ErrorInfo {
  /** Where it happened. */
  phase: ErrorPhase;
  /** The tool whose call failed, when the error belongs to one. */
  tool?: string;
  /**
   * The error's id, in the default log line too: for a masked failure the id the client was shown (the same
   * as `CallEvent.errorId`), for a JSON-RPC 500 the one in its message.
   */
  errorId: string;
  /** The JSON-RPC id of the request the error belongs to. */
  requestId?: string | number;
  /** Who called, when authenticated. */
  caller?: Caller;
}

/** Why a request or call was refused (`RefusalEvent.reason`). */
export type RefusalReason =
  /** 401: no token where one is required, or a call to a tool with `scopes` without one. */
  | 'missing-token'
  /** 401: `verify` said invalid, or the SDK's rules refused the token (expired, no expiry, wrong resource). */
  | 'invalid-token'
  /** 503: `verify` could not check the token. */
  | 'auth-unavailable'
  /**
   * 403: the token lacks `requiredScopes`, the called tool's `scopes`, or what a prompt's or resource's
   * `scopeChallenge` asks.
   */
  | 'insufficient-scope'
  /** 403: the `Origin` header is not allowed. */
  | 'origin'
  /** 403: the `Host` header is not allowed (`access.hosts`). */
  | 'host'
  /** 413: the body is over `limits.maxRequestBodyBytes`. */
  | 'too-large'
  /** 429, or an `isError` call result: over a rate limit (`limits.rate`). */
  | 'rate-limited'
  /** An `isError` call result, or 429: over the caller's concurrency cap (`limits.concurrency`). */
  | 'concurrency'
  /** A call to a tool that does not exist or that this caller may not see (the same answer for both). */
  | 'unknown-tool'
  /** An `isError` call result: the tool ran past its timeout (`timeoutMs`). */
  | 'timeout';

/** One refusal, as `observe.onRefusal` sees it. */
export interface RefusalEvent {
  reason: RefusalReason;
  /** The HTTP status sent, when the request was refused over HTTP; absent for a refusal inside MCP (`isError`). */
  status?: number;
  /** What the client was told (the challenge's `error_description`, the JSON-RPC message, the `isError` text). */
  message: string;
  /** The JSON-RPC method, when the body had been read. */
  method?: string;
  /** The tool called, for a `tools/call`. */
  tool?: string;
  /** The JSON-RPC id, when the body had been read. */
  requestId?: string | number;
  /** Who called, when authenticated. */
  caller?: Caller;
  /** Where the request came from: its address, `User-Agent` and `Origin`, where known. */
  client?: RequestClient;
  /** When the client may retry, in seconds (`Retry-After`, or the time named in the `isError` text). */
  retryAfterSeconds?: number;
}

/** What `onCall` sees for each `tools/call`. */
export interface CallEvent {
  tool: string;
  ok: boolean;
  /** Failure text sent to the client (for `ok: false`). */
  error?: string;
  /** For a masked failure: the id in the text the client saw, and in what `onError` saw. */
  errorId?: string;
  /** The JSON-RPC id of the `tools/call` request. */
  requestId?: string | number;
  /** Who called, when authenticated (`access.auth`, or an `authInfo` the host passed). */
  caller?: Caller;
  /** Where the request came from: its address, `User-Agent` and `Origin`, where known. */
  client?: RequestClient;
  /** The arguments as the client sent them, through `observe.redact` when set. */
  args?: unknown;
  repairs: readonly { path: string; from: string }[];
  /**
   * Keys the schema would have dropped (see `arguments.unknownKeys`): the first 100 met, with a suggestion for the
   * first 10; empty under `'strip'`.
   */
  ignoredKeys: readonly IgnoredKey[];
  durationMs: number;
  /**
   * True when the handler returned a 2026-07-28 `InputRequiredResult`: this round asked the client for
   * input, and the call goes on in a retried request (which is another event).
   */
  inputRequired?: boolean;
  /**
   * Set when the client went away before the call's result, so nobody received it: `'cancelled'`, it sent
   * `notifications/cancelled` for this call (honoured for an authenticated caller's call on this instance:
   * `ctx.signal` aborted, no response sent); `'disconnected'`, its connection closed (how a 2026-07-28 client
   * cancels; also a mount closed mid-call). `ok` still says what the handler came to. Absent for a task's run,
   * which goes on without its client.
   */
  clientGone?: 'cancelled' | 'disconnected';
}

/**
 * What happened to a task (`TaskEvent.kind`): `created`; `input_required` (a round of input requests stored
 * for `tasks/update` to answer); and how it ended, one of these per task: `completed` (a result, an `isError`
 * one included), `failed` (a JSON-RPC error: the handler threw one, or the queue's hook threw), `cancelled`
 * (its client cancelled it: told when its run learns of it, at its next heartbeat), `lost` (its run lost its
 * lease, which lapsed or was taken, or the store refused its settle: the task reads `failed`, or is gone).
 */
export type TaskEventKind = 'created' | 'input_required' | 'completed' | 'failed' | 'cancelled' | 'lost';

/** One thing a task did, as `observe.onTask` sees it. */
export interface TaskEvent {
  kind: TaskEventKind;
  /** The task's id: the mount's own, unguessable. */
  taskId: string;
  /** The tool whose call the task runs (a name the mount serves). */
  tool: string;
  /** The task's status after this: `working`, `input_required`, `completed`, `failed` (also for `lost`), `cancelled`. */
  status: 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';
  /**
   * `created` only: how the task came to be: `'inline-wait'`, the call outlasted the tool's `task.inlineMs`;
   * `'immediate'`, `inlineMs: 0` (the task made before the call started); `'queue'`, handed to `tasks.run`.
   */
  via?: 'inline-wait' | 'immediate' | 'queue';
  /**
   * Milliseconds since the task was created (every kind but `created`), by this process's clock; for a queue
   * consumer's run, since its claim.
   */
  durationMs?: number;
  /** `failed`, when the failure was an unexpected error: the id the client reads, and the one `onError` got. */
  errorId?: string;
  /** Who called, when authenticated (as `CallEvent.caller`; a queue consumer reads it from the stored call). */
  caller?: Caller;
  /** The JSON-RPC id of the `tools/call` that made the task; absent from a queue consumer's events. */
  requestId?: string | number;
}
