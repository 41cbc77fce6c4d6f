import type {
  AuthInfo,
  CallToolResult,
  Icon,
  InputRequiredResult,
  LoggingLevel,
  ServerContext,
  ToolAnnotations,
  ToolExecution,
} from '@modelcontextprotocol/server';
import type { z } from 'zod';
import type { Repair } from '../repair/index.js';

/**
 * The `execution` 2025-era `tools/list` answers show for a tool: its own, or `{ taskSupport: 'forbidden' }` for
 * a tool with `task`, since 2025-era clients are served plain calls (docs/decisions/0036-serving-tasks.md).
 */
export function listedExecution(tool: {
  execution?: ToolExecution;
  task?: ToolTaskOptions;
}): ToolExecution | undefined {
  return tool.task === undefined ? tool.execution : TASK_EXECUTION;
}

const TASK_EXECUTION: ToolExecution = Object.freeze({ taskSupport: 'forbidden' as const });

/** Any Zod object schema; `params` and `extend.schema` must be one. */
export type AnyZodObject = z.ZodObject<z.ZodRawShape, z.core.$ZodObjectConfig>;

/** Notifications a tool sends while it runs, on the exchange of its call. Neither rejects. */
export interface ToolSignals {
  /**
   * Sends a log message (`notifications/message`, MCP 2025-11-25 server/utilities/logging) when the mount
   * declares `logging: true`, and the client wants that level: in 2025-era serving unless `logging/setLevel`
   * set a higher one, in 2026-07-28 at or above the level the request's `_meta` names. Otherwise nothing.
   *
   * @example
   * ```ts
   * await ctx.log('info', { fetched: rows.length });
   * ```
   */
  log(level: LoggingLevel, data: unknown, logger?: string): Promise<void>;
  /**
   * Reports progress (`notifications/progress`, MCP 2025-11-25 basic/utilities/progress) when the client
   * asked for it with a `progressToken`; otherwise nothing. `progress` must grow from call to call.
   *
   * @example
   * ```ts
   * await ctx.progress(2, { total: 10, message: 'page 2' });
   * ```
   */
  progress(progress: number, detail?: { total?: number; message?: string }): Promise<void>;
}

/** What a handler running as a task can tell its client (`ctx.task`). */
export interface TaskContext {
  /** Sets the task's `statusMessage`. */
  status(message: string): Promise<void>;
}

/**
 * What a handler receives beside its parsed arguments. Built per call; cheap (no schema work).
 *
 * @typeParam Extend what `extend.resolve` returns (or the parsed `extend` values); see `ToolNeeds`.
 * @typeParam Host what the adapter hands over, e.g. `HonoHost` from `mcp-mount/hono`; see `ToolNeeds`.
 */
export interface ToolContext<Extend = unknown, Host = unknown> extends ToolSignals {
  /** The HTTP request this call arrived on, when the transport exposes it. */
  request?: Request;
  /** Validated auth info passed by the host (never derived from headers by mcp-mount). */
  authInfo?: AuthInfo;
  /** Aborted when the client cancels or disconnects. */
  signal: AbortSignal;
  /** Paths the argument repair changed before the parse, e.g. `[{ path: 'media', from: 'json-string' }]`. */
  repairs: readonly Repair[];
  /**
   * Keys the arguments carried that the schema dropped, e.g. `[{ path: 'sort', key: 'sort', didYouMean: 'orderBy' }]`:
   * the first 100 met, with a suggestion for the first 10 (the notice names those and counts the rest); empty
   * under `unknownKeys: 'strip'`.
   */
  ignoredKeys: readonly { path: string; key: string; didYouMean?: string }[];
  /** What `extend.resolve` returned for this call (`undefined` without `extend`). */
  extend: Extend;
  /** What the adapter hands over: a Worker's `{ env, ctx }`, Express's `{ req, res }`, and so on. */
  host: Host;
  /**
   * The SDK's own request context: `mcp.mcpReq.inputResponses` and `mcp.mcpReq.requestState()` in a retried
   * 2026-07-28 multi-round-trip call, `mcp.mcpReq.envelope` and the rest.
   */
  mcp: ServerContext;
  /**
   * Present when this call may run as a task (a tool with `task`, called by a client that declared the tasks
   * extension): `status(message)` sets the task's `statusMessage`, which is how a task tells its progress
   * (progress notifications do not reach a task's client). Before the call became a task the latest message
   * is kept, and written when it does. Never rejects; a message the store refuses is dropped.
   *
   * @example
   * ```ts
   * await ctx.task?.status(`page ${n} of ${pages}`);
   * ```
   */
  task?: TaskContext;
}

/**
 * What a tool needs from the mount it is served on, named so that a tool can opt in to either:
 * `host` (the adapter's extras, e.g. `HonoHost<AppEnv>`) and `extend` (what the mount's `extend` gives).
 * Left out, each is `unknown`: the tool mounts anywhere and must narrow before use.
 */
export interface ToolNeeds {
  host?: unknown;
  extend?: unknown;
}

/**
 * What a handler returns: any JSON value (sent as text), a full MCP `CallToolResult`, or a 2026-07-28
 * `InputRequiredResult` (the SDK's `inputRequired(...)`: ask the client for input, and be called again with
 * it). With `output`, a plain value must be the output schema's input type; it is validated once and also
 * sent as `structuredContent`.
 *
 * While `O` is still being inferred, TypeScript types the handler's value against this type's constraint
 * (both branches); were any part of that `unknown`, it would widen `type: 'text'` in a returned
 * `CallToolResult` literal to `string`. Hence `& object`, and "any value" spelled out instead of `unknown`
 * (a handler without `output` whose value is typed `unknown` must say what it is).
 */
export type ToolReturn<O extends z.ZodType | undefined = undefined> = O extends z.ZodType
  ? CallToolResult | InputRequiredResult | (z.input<O> & object)
  : // biome-ignore lint/complexity/noBannedTypes: `{}` is "any value but null or undefined", as meant.
    // biome-ignore lint/suspicious/noConfusingVoidType: `void` lets a handler return nothing.
    CallToolResult | InputRequiredResult | {} | null | undefined | void;

/** The scopes a tool requires: all of a list (or of `allOf`), or any one of `anyOf`. */
export type ToolScopes =
  | readonly string[]
  | { readonly allOf: readonly string[] }
  | { readonly anyOf: readonly string[] };

/**
 * How a tool runs as a task of the 2026-07-28 tasks extension (`io.modelcontextprotocol/tasks`;
 * docs/guide/tasks.md). The handler is the same code either way; the mount settles these at construction
 * (tasks/settle.ts) and needs `tasks.store` to run any.
 */
export interface ToolTaskOptions {
  /**
   * `'optional'`: a call from a client that declared the extension becomes a task when it has not finished
   * within `inlineMs`; other clients get a plain result. `'required'`: a declaring client always gets a task,
   * any other client JSON-RPC error `-32021` (Missing Required Client Capability).
   */
  support: 'optional' | 'required';
  /**
   * How long a declaring client's call may run before it is answered with a task, in milliseconds; a call that
   * finishes sooner is answered inline, as to any client. `0`: a task at once, created before the handler
   * starts. Default 500 for `'optional'`, 0 for `'required'`.
   */
  inlineMs?: number;
  /**
   * How long the task stays readable, counted from its creation, in milliseconds (the task's `ttlMs`), or
   * `null` for as long as the store keeps it. Default 3,600,000 (one hour).
   */
  ttlMs?: number | null;
  /** The interval the client is asked to poll `tasks/get` at, in milliseconds. Default 1,000. */
  pollIntervalMs?: number;
  /**
   * How long the task's run may take, in milliseconds, from the call (the inline wait included): past it
   * `ctx.signal` aborts and the task completes with an `isError` result `Tool <name> timed out after <N> s`,
   * as a timed-out plain call does. Inside a task it replaces `timeoutMs` and `limits.timeoutMs`. Default none.
   */
  timeoutMs?: number;
}

/**
 * A tool as given to `defineTool`. The model sees ONE argument object: `params`' keys merged with `input`'s
 * (and the mount's `extend` keys). At call time the arguments are split by key and each part is parsed once
 * by its own Zod schema.
 */
export interface ToolDefinition<
  P extends AnyZodObject | undefined = AnyZodObject | undefined,
  I extends z.ZodType | undefined = z.ZodType | undefined,
  O extends z.ZodType | undefined = z.ZodType | undefined,
  Extend = unknown,
  Host = unknown,
> {
  /** 1 to 64 characters of `[A-Za-z0-9_-]` (SEP-986); served exactly as given. */
  name: string;
  /** A human-readable name for user interfaces (MCP `Tool.title`); served as given. */
  title?: string;
  description?: string;
  /**
   * Icons a client may show beside the tool (MCP 2025-11-25 `Tool.icons`): `src` an `https:` (or `http:`)
   * URL or a `data:` URI, optional `mimeType`, `sizes` (`'48x48'`, `'any'`) and `theme` (`'light'`, `'dark'`).
   * Served as given; the probe reports a malformed one (`invalid-icon`, an error).
   */
  icons?: readonly Icon[];
  /**
   * The tool's `_meta` (MCP `Tool._meta`), served as given: e.g. an MCP Apps view
   * (`{ ui: { resourceUri: 'ui://...' } }`) or ChatGPT's `openai/outputTemplate`. Keys whose prefix the
   * spec reserves (any label `modelcontextprotocol` or `mcp`, such as `io.modelcontextprotocol/`) are the
   * protocol's: the probe reports them (`reserved-meta-key`), and a key outside the spec's key grammar
   * (`invalid-meta-key`); both errors.
   */
  _meta?: Readonly<Record<string, unknown>>;
  /**
   * How the tool runs (MCP 2025-11-25 `Tool.execution`), served as given. Stateless serving runs no tasks:
   * `taskSupport: 'required'` is an error (`invalid-tool-field`), `'optional'` a warning.
   */
  execution?: ToolExecution;
  /** Named arguments (ids and the like): a `z.object`. */
  params?: P;
  /** Any Zod schema whose advertised form is an object: an object, a discriminated union (with `flattenUnionInput`), an intersection. */
  input?: I;
  /** Output schema; when set, the handler's value is validated and also sent as `structuredContent`. */
  output?: O;
  annotations?: ToolAnnotations;
  /**
   * OAuth scopes a caller's token must carry to see and call this tool: every scope of a list
   * (`['orders:write']`, or `{ allOf: [...] }`), or at least one of `{ anyOf: [...] }`. A caller without
   * them does not see the tool in `tools/list` (unless `access.listUnauthorizedTools`) and its call gets HTTP 403
   * `insufficient_scope` naming the scopes (the first of `anyOf`), before the handler runs: the SDK's
   * per-tool `scopeChallenge`, so a client can step up. A caller without a token gets 401.
   * Default: none. At least one scope, each in the OAuth scope-token grammar (RFC 6749 section 3.3); checked
   * by the probe: anything else is an `invalid-scopes` error naming the tool, which fails the mount under
   * every policy (`McpMountSchemaError`). On a mount without `access.auth`, a `scopes-without-auth` warning: only an
   * `authInfo` the framework passes in (Express's `req.auth`) can then carry the scopes.
   */
  scopes?: ToolScopes;
  /**
   * How long a call may run, in milliseconds (`extend.resolve`, the handler and the output check): past it,
   * `ctx.signal` aborts (reason: a `TimeoutError` `DOMException`) and the client gets `isError`
   * `Tool <name> timed out after <N> s`, reported to `onCall` and `onRefusal` (`timeout`). Default: the
   * mount's `limits.timeoutMs`, else none. A handler still running past it keeps its `limits.concurrency`
   * slot until it settles.
   * @throws TypeError at mount when not a positive integer.
   */
  timeoutMs?: number;
  /**
   * Run as a task for 2026-07-28 clients that declare the tasks extension (see `ToolTaskOptions`); needs the
   * mount's `tasks.store`. 2025-era clients get plain calls (and `execution.taskSupport: 'forbidden'` in
   * their `tools/list`). Leave `execution` out beside it. Default: never a task.
   * @throws TypeError at mount for a value that means nothing, or `'required'` on a mount without `tasks`.
   */
  task?: ToolTaskOptions;
  handler: (
    args: {
      params: P extends AnyZodObject ? z.output<P> : Record<string, never>;
      input: I extends z.ZodType ? z.output<I> : Record<string, never>;
    },
    ctx: ToolContext<Extend, Host>,
    // `NoInfer`: `O` comes from `output` alone, never from what the handler happens to return.
  ) => NoInfer<ToolReturn<O> | Promise<ToolReturn<O>>>;
}

/** A tool after `defineTool`, whatever it needs: the list given to `validateMcpSchemas`, mountable anywhere. */
export type AnyTool = ToolDefinition<any, any, any, any, any>;

/**
 * A tool that a mount handing over `Host` and `Extend` can serve: one that needs no more than that. The
 * handler's context is a parameter, so a tool needing `{ env: E }` accepts any host that has that `env`,
 * and a tool needing nothing (`unknown`) accepts every host.
 */
export type MountableTool<Host, Extend> = ToolDefinition<any, any, any, Extend, Host>;

type Needed<N extends ToolNeeds, K extends keyof ToolNeeds> = N extends { [key in K]: infer T } ? T : unknown;

/** `defineTool` for a tool that needs `N` from its mount; see `defineTool.for`. */
export type DefineToolFor<N extends ToolNeeds> = <
  P extends AnyZodObject | undefined = undefined,
  I extends z.ZodType | undefined = undefined,
  O extends z.ZodType | undefined = undefined,
>(
  tool: ToolDefinition<P, I, O, Needed<N, 'extend'>, Needed<N, 'host'>>,
) => ToolDefinition<P, I, O, Needed<N, 'extend'>, Needed<N, 'host'>>;

/**
 * Declares a tool. Returns the definition unchanged (typed); all checks happen at mount, where every
 * problem of every tool is reported at once (see `validateMcpSchemas`). Its `ctx.host` and `ctx.extend`
 * are `unknown`; `defineTool.for<{ host: HonoHost<AppEnv>; extend: Tenant }>()` declares a tool that
 * needs them typed (and then mounts only where the mount provides them).
 *
 * @example
 * ```ts
 * import { defineTool } from 'mcp-mount';
 * import * as z from 'zod';
 *
 * export const searchNotes = defineTool({
 *   name: 'search_notes',
 *   description: 'Search notes by text.',
 *   input: z.object({ query: z.string().min(1), limit: z.number().int().max(50).default(10) }),
 *   handler: ({ input }) => ({ query: input.query, results: [] }),
 * });
 * ```
 */
export function defineTool<
  P extends AnyZodObject | undefined = undefined,
  I extends z.ZodType | undefined = undefined,
  O extends z.ZodType | undefined = undefined,
>(tool: ToolDefinition<P, I, O>): ToolDefinition<P, I, O> {
  return tool;
}

/**
 * `defineTool` for a tool that needs a typed `ctx.host` and/or `ctx.extend`. Curried because TypeScript
 * infers all of a call's type arguments or none: the first call names the needs, the second infers the
 * schemas as `defineTool` does.
 *
 * @example
 * ```ts
 * import type { HonoHost } from 'mcp-mount/hono';
 *
 * const whoAmI = defineTool.for<{ host: HonoHost<{ Bindings: { REGION: string } }> }>()({
 *   name: 'region',
 *   handler: (_args, ctx) => ctx.host.env.REGION,
 * });
 * ```
 */
defineTool.for = <N extends ToolNeeds>(): DefineToolFor<N> => defineTool as DefineToolFor<N>;
