import type { z } from 'zod';
import type { SchemaIssue } from '../probe/issue.js';
import type { AnyTool, AnyZodObject, ToolContext } from './tool.js';

/**
 * Keys added to every tool it applies to (e.g. a `tenantId`).
 * At call time the extend keys are parsed once with `schema`, handed to `resolve`, then removed
 * before the tool's own parse.
 */
export interface ExtendOption<S extends AnyZodObject = AnyZodObject, R = unknown> {
  schema: S;
  /**
   * Turns the parsed extend values into `ctx.extend`. Default: the parsed values themselves. Throw a
   * `ToolError` to refuse the call with a message the model sees; any other throw is masked like a
   * handler's.
   */
  resolve?: (values: z.output<S>, ctx: Omit<ToolContext, 'extend'>) => R | Promise<R>;
  /**
   * Which tools get the extra keys. Default: all. A tool left out sees `ctx.extend` as `undefined`, which
   * its type cannot know: a tool that declares an `extend` need must be one the filter keeps.
   */
  filter?: (tool: AnyTool) => boolean;
}

/**
 * What tools see as `ctx.extend` on a mount whose `extend` has schema `S` and `resolve` result `R`:
 * `undefined` when the mount has no `extend` (`S` is then inferred as `never`).
 */
export type MountExtend<S extends AnyZodObject, R> = [S] extends [never] ? undefined : Awaited<R>;

/** Schema checks run at startup (`validateMcpSchemas` and every mount). See docs/design/probe.md. */
export interface SchemaValidationOptions {
  /**
   * `'throw'` (default): construction fails with one error listing every error-level issue.
   * `'warn'`: issues are logged; tools that cannot be served are left out, the rest are served.
   * `'skip'`: no report; tools that cannot be served are still left out (never half-registered).
   */
  policy?: 'throw' | 'warn' | 'skip';
  /** Client profiles to check against: `anthropic`, `openai-strict`, `gemini`, `cursor`, `local-grammar`. */
  profiles?: string[];
  /** Every property must carry `type`, `enum` or `const`. Default false. */
  requireTypedProperties?: boolean;
  /** Exemptions for `requireTypedProperties`: `'<tool>:<JSON pointer>'`. */
  allowUntyped?: string[];
  /** Only `format`s that common clients accept. Default false. */
  requirePortableFormats?: boolean;
  /** Extra formats to accept under `requirePortableFormats`. */
  allowFormats?: string[];
}

/** Options shared by the probe and every mount: the same options give the same served documents. */
export interface PrepareOptions<S extends AnyZodObject = AnyZodObject, R = unknown> {
  /** Advertise discriminated unions as one flat object at every depth (docs/design/flatten.md). Default false. */
  flattenUnionInput?: boolean;
  /** Generic over the extend schema and `resolve`'s result, so that `resolve` and tools see them typed. */
  extend?: ExtendOption<S, R>;
  schemaValidation?: SchemaValidationOptions;
}

/** Options of `createMcpFetchHandler` and every adapter. */
export interface McpMountOptions<S extends AnyZodObject = AnyZodObject, R = unknown> extends PrepareOptions<S, R> {
  /** Server name in `initialize`/`server/discover`. Default `'mcp-mount'`. */
  name?: string;
  /** Server version. Default `'0.0.0'`. */
  version?: string;
  /** Server instructions sent to clients. */
  instructions?: string;
  /** Parse object/array arguments sent as JSON text (see docs/design/repair.md). Default true. */
  coerceJsonArgs?: boolean;
  /**
   * Turn canonical `"42"`, `"true"`, `"null"` into the scalar the schema expects (see docs/design/repair.md).
   * Default true.
   */
  coerceScalarArgs?: boolean;
  /** Request bodies over this many bytes get 413. Default 4 MiB (the SDK's default). */
  maxRequestBodyBytes?: number;
  /**
   * Origin and Host validation against DNS rebinding and cross-site requests (the MCP transport spec:
   * servers MUST validate `Origin`). Default true. A request whose `Origin` is present and not allowed gets
   * 403 with a JSON-RPC error before its body is read; a request without `Origin` (non-browser clients)
   * passes. Allowed, besides `allowedOrigins`: localhost origins (any port) when the server is addressed as
   * localhost (`Host` is `localhost`, `127.0.0.1` or `[::1]`), and the server's own origin when a rebinding
   * cannot fake it (over HTTPS, at an IP address, or with `allowedHosts` set). `false` turns every check
   * off: right only behind a proxy or gateway that already checks `Origin` and `Host`.
   * See docs/decisions/0008-access-control.md.
   */
  originCheck?: boolean;
  /**
   * Origins allowed to call from a browser: exact origins (`'https://app.example.com'`, scheme, host and
   * port compared; no path) and `'<scheme>://*'` for every origin of a non-web scheme, as the SDK allows
   * (`'chrome-extension://*'`, `'moz-extension://*'`; not `http://*` or `https://*`). Default none.
   * @throws TypeError at construction for any other entry.
   */
  allowedOrigins?: readonly string[];
  /**
   * Hostnames (no scheme, no port; IPv6 in brackets) the `Host` header must name, e.g.
   * `['localhost', '127.0.0.1', '[::1]']` for a server bound to localhost, or your public name. Default:
   * `Host` is not checked. With it set, a request naming another host gets 403 (the SDK's
   * `validateHostHeader` rule), and same-origin browser requests pass over plain HTTP too.
   */
  allowedHosts?: readonly string[];
  /** Where `'warn'` issues and out-of-band errors are logged. Default `console`. */
  logger?: Pick<Console, 'warn' | 'error'>;
  /**
   * Send a handler's unexpected error text to the client (`Tool <name> failed (error id <id>): <message>`)
   * instead of the generic `Tool <name> failed (error id <id>)`. Default false; for development only: the
   * text of an unexpected error (a database error, a stack of internal names) is not meant for a model.
   * A `ToolError`'s message is sent in either case; argument validation errors always are.
   */
  exposeErrors?: boolean;
  /**
   * Observes errors (a handler's unexpected throw, with the `errorId` its client was shown; an output that
   * breaks its schema; transport errors). Never changes a response.
   */
  onError?: (error: unknown, info: ErrorInfo) => void;
  /** Observes every finished `tools/call`, successful or not. Never changes a response. */
  onCall?: (event: CallEvent) => void;
}

/** What `onError` sees beside the error. */
export interface ErrorInfo {
  /** The tool whose call failed, when the error belongs to one. */
  tool?: string;
  /** The id the client was shown for a masked failure: the same as `CallEvent.errorId`. */
  errorId?: string;
}

/** What `onCall` sees for each `tools/call`. */
export interface CallEvent {
  tool: string;
  ok: boolean;
  /** Failure text sent to the client (for `ok: false`). */
  error?: string;
  /** For a masked failure: the id in the text the client saw, and in what `onError` saw. */
  errorId?: string;
  repairs: readonly { path: string; from: string }[];
  durationMs: number;
}

export type { SchemaIssue };
