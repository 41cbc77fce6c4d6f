import type { CallToolResult, ServerContext, ToolAnnotations } from '@modelcontextprotocol/server';
import type { z } from 'zod';
import type { Repair } from '../repair/index.js';

/** Any Zod object schema; `params` and `extend.schema` must be one. */
export type AnyZodObject = z.ZodObject<z.ZodRawShape, z.core.$ZodObjectConfig>;

/**
 * What a tool handler receives beside its parsed arguments.
 * Built per call; cheap (no schema work).
 */
export interface ToolContext<Extra = unknown> {
  /** The HTTP request this call arrived on, when the transport exposes it. */
  request?: Request;
  /** Validated auth info passed by the host (never derived from headers by mcp-mount). */
  authInfo?: unknown;
  /** Aborted when the client cancels or disconnects. */
  signal: AbortSignal;
  /** Paths the argument repair changed before the parse, e.g. `[{ path: 'media', from: 'json-string' }]`. */
  repairs: readonly Repair[];
  /** What `extend.resolve` returned for this call (`undefined` without `extend`). */
  extend: Extra;
  /** Host extras an adapter supplies, e.g. a Worker's `{ env, ctx }`. */
  host: Record<string, unknown>;
  /** The SDK's own request context, for progress, logging, elicitation. */
  mcp: ServerContext;
}

/**
 * What a handler returns: any JSON value (sent as text) or a full MCP `CallToolResult`. With `output`, the
 * value must be the output schema's input type; it is validated once and also sent as `structuredContent`.
 */
export type ToolReturn<O extends z.ZodType | undefined = undefined> = O extends z.ZodType
  ? z.input<O> | CallToolResult
  : unknown;

/**
 * A tool as given to `defineTool`. The model sees ONE argument object: `params`' keys merged with `input`'s
 * (and the mount's `extend` keys). At call time the arguments are split by key and each part is parsed once
 * by its own Zod schema.
 */
export interface ToolDefinition<
  P extends AnyZodObject | undefined = AnyZodObject | undefined,
  I extends z.ZodType | undefined = z.ZodType | undefined,
  O extends z.ZodType | undefined = z.ZodType | undefined,
> {
  /** 1 to 64 characters of `[A-Za-z0-9_-]` (SEP-986); served exactly as given. */
  name: string;
  title?: string;
  description?: string;
  /** Named arguments (ids and the like): a `z.object`. */
  params?: P;
  /** Any Zod schema whose advertised form is an object: an object, a discriminated union (with `flattenUnionInput`), an intersection. */
  input?: I;
  /** Output schema; when set, the handler's value is validated and also sent as `structuredContent`. */
  output?: O;
  annotations?: ToolAnnotations;
  handler: (
    args: {
      params: P extends AnyZodObject ? z.output<P> : Record<string, never>;
      input: I extends z.ZodType ? z.output<I> : Record<string, never>;
    },
    ctx: ToolContext,
  ) => ToolReturn<O> | Promise<ToolReturn<O>>;
}

/** A tool after `defineTool`; the list given to `createMcpFetchHandler` and `validateMcpSchemas`. */
export type AnyTool = ToolDefinition<any, any, any>;

/**
 * Declares a tool. Returns the definition unchanged (typed); all checks happen at mount, where every
 * problem of every tool is reported at once (see `validateMcpSchemas`).
 */
export function defineTool<
  P extends AnyZodObject | undefined = undefined,
  I extends z.ZodType | undefined = undefined,
  O extends z.ZodType | undefined = undefined,
>(tool: ToolDefinition<P, I, O>): ToolDefinition<P, I, O> {
  return tool;
}
