import {
  type CallToolResult,
  createMcpHandler as createSdkHandler,
  isJsonContentType,
  type McpRequestContext,
  McpServer,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { formatIssues } from '../messages/index.js';
import type { McpMountOptions } from '../mount/options.js';
import { nameIssues, type PreparedTool, prepareTools } from '../mount/prepare.js';
import { formatSchemaIssues, reportOf, type ValidationReport } from '../mount/report.js';
import { McpMountSchemaError } from '../mount/schema-error.js';
import { type AnyTool, type AnyZodObject, isCallToolResult, type ToolContext } from '../mount/tool.js';
import type { Repair } from '../repair/index.js';
import { jsonRpcError, readBodyLimited } from './body.js';
import { checkCall, type ParsedCall } from './call.js';
import { carrier } from './carrier.js';
import { normalizeEnvelope } from './envelope.js';
import { openExchange, releaseWhenSent } from './exchange.js';

/** Per-request extras an adapter hands to `fetch`. */
export interface FetchExtras {
  /** Validated auth info, passed through to tools as `ctx.authInfo` (never read from headers here). */
  authInfo?: unknown;
  /** Host values for tools, e.g. a Worker's `{ env, ctx }`; reaches tools as `ctx.host`. */
  host?: Record<string, unknown>;
  /**
   * The JSON body, when a framework already parsed it (e.g. `express.json()` drained the stream).
   * Without it the body is read from the request, under `maxRequestBodyBytes`.
   */
  parsedBody?: unknown;
}

/** What the per-request factory needs to know about the request it serves. */
interface RequestState {
  extras?: FetchExtras;
  /** Repairs made to the envelope before the SDK saw it (the whole `arguments` sent as a string). */
  envelopeRepairs: Repair[];
  /** Why `arguments` was refused before the SDK saw it (not an object); the call then fails with this text. */
  rejectedArguments?: string;
}

/** The web-standard core every adapter wraps. */
export interface McpMountHandler {
  /** Serves one HTTP request (POST JSON-RPC; GET/DELETE are answered as the SDK's stateless serving does). */
  fetch(request: Request, extras?: FetchExtras): Promise<Response>;
  /** Aborts in-flight exchanges. */
  close(): Promise<void>;
  /** The startup probe's report for this mount: its `tools` are exactly what `tools/list` serves. */
  readonly report: ValidationReport;
}

const DEFAULT_MAX_BODY = 4 * 1024 * 1024;

/**
 * Builds the MCP endpoint for `tools`: the SDK v2 `createMcpHandler` (stateless; 2026-07-28 and 2025-era
 * clients), a fresh `McpServer` per request with every tool registered through a precomputed carrier.
 * All schema work happens here, once; a request only registers carriers and parses its arguments.
 *
 * @throws McpMountSchemaError when a tool name is invalid or duplicated, a key is claimed by two slices, or,
 *   under `schemaValidation.policy: 'throw'` (the default), the probe reports any error-level issue.
 *   Source: issue 2 (item 8), probe.md.
 */
export function createMcpHandler<S extends AnyZodObject = AnyZodObject>(
  tools: readonly AnyTool[],
  options: McpMountOptions<S> = {},
): McpMountHandler {
  const preparation = prepareTools(tools, options);
  const report = reportOf(preparation);
  const policy = options.schemaValidation?.policy ?? 'throw';
  const logger = options.logger ?? console;
  const fatal = [...nameIssues(report.issues), ...report.issues.filter((i) => i.code === 'key-conflict')];
  if (fatal.length > 0) throw new McpMountSchemaError(policy === 'throw' ? errors(report) : fatal);
  if (policy === 'throw' && !report.ok) throw new McpMountSchemaError(errors(report));
  if (policy === 'warn' && report.issues.length > 0) {
    const left = preparation.tools.filter((t) => !t.servable).map((t) => t.name);
    logger.warn(
      `mcp-mount: schema issues (policy 'warn')${left.length ? `; not served: ${left.join(', ')}` : ''}\n${formatSchemaIssues(report.issues)}`,
    );
  }

  const served = preparation.tools.filter((t) => t.servable);
  const registrations = served.map((t) => registration(t, options));
  const states = new Map<Request, RequestState>();
  const maxBytes = options.maxRequestBodyBytes ?? DEFAULT_MAX_BODY;
  const json = options.coerceJsonArgs !== false;

  const sdk = createSdkHandler(
    (rc: McpRequestContext) => {
      const server = new McpServer(
        { name: options.name ?? 'mcp-mount', version: options.version ?? '0.0.0' },
        { capabilities: { tools: { listChanged: false } }, instructions: options.instructions },
      );
      const state = (rc.requestInfo && states.get(rc.requestInfo)) || { envelopeRepairs: [] };
      for (const r of registrations)
        server.registerTool(r.name, r.config(state), (args: any, ctx: ServerContext) => r.run(args, ctx, state));
      return server;
    },
    {
      maxRequestBodySize: maxBytes,
      onerror: (error) => observeError(options, error, undefined),
    },
  );

  /**
   * Serves one exchange through the SDK. The state is keyed by our own request only while the SDK's
   * factory may look it up (the factory runs before `sdk.fetch` settles), then dropped, so nothing
   * per-request is held past the response.
   */
  const exchange = async (
    request: Request,
    state: RequestState,
    sdkOptions: { authInfo: never; parsedBody?: unknown },
    body?: string,
  ): Promise<Response> => {
    const opened = openExchange(request, body);
    states.set(opened.request, state);
    let response: Response;
    try {
      response = await sdk.fetch(opened.request, sdkOptions);
    } catch (error) {
      opened.release();
      throw error;
    } finally {
      states.delete(opened.request);
    }
    return releaseWhenSent(response, opened.release);
  };

  return {
    report,
    close: () => sdk.close(),
    async fetch(request, extras) {
      const authInfo = extras?.authInfo as never;
      if (request.method !== 'POST') return exchange(request, { extras, envelopeRepairs: [] }, { authInfo });
      // The body is read here (once, counting real bytes) so that the envelope can be normalized
      // before the SDK's request schema sees it; the SDK then gets it as `parsedBody`.
      let parsed: unknown = extras?.parsedBody;
      // Not JSON at all: the SDK answers 415 without anything being read.
      if (parsed === undefined && !isJsonContentType(request.headers.get('content-type'))) {
        return exchange(request, { extras, envelopeRepairs: [] }, { authInfo });
      }
      if (parsed === undefined) {
        const body = await readBodyLimited(request, maxBytes);
        if (!body.ok && body.status === 413) {
          // Same code and text as the SDK's own limit, so clients see one answer whichever check fired.
          return jsonRpcError(413, -32000, `Payload Too Large: Request body must not exceed ${maxBytes} bytes`);
        }
        if (!body.ok) {
          observeError(options, body.error, undefined);
          return jsonRpcError(400, -32700, 'Parse error: the request body could not be read');
        }
        try {
          parsed = JSON.parse(body.text);
        } catch {
          // Not JSON: the SDK answers it (parse error or 415) from a fresh copy of the bytes.
          return exchange(request, { extras, envelopeRepairs: [] }, { authInfo }, body.text);
        }
      }
      const envelope = normalizeEnvelope(parsed, json);
      const state = { extras, envelopeRepairs: envelope.repairs, rejectedArguments: envelope.rejected };
      return exchange(request, state, { authInfo, parsedBody: envelope.body });
    },
  };
}

function errors(report: ValidationReport) {
  return report.issues.filter((i) => i.severity === 'error');
}

/** Everything about one tool that does not change between requests: carriers, config, the executor. */
function registration(prepared: PreparedTool, options: McpMountOptions<any>) {
  const { tool } = prepared;
  const switches = { json: options.coerceJsonArgs !== false, scalars: options.coerceScalarArgs !== false };
  // Built per request (a closure and three small objects): the check must see what the envelope step
  // did to this request's arguments, which the SDK does not pass to `validate`.
  const inputFor = (state: RequestState) =>
    carrier(prepared.inputSchema, async (value) => {
      const started = performance.now();
      const check = state.rejectedArguments
        ? { ok: false as const, messages: [state.rejectedArguments], repairs: [] }
        : await checkCall(prepared, value, switches);
      if (check.ok) return { value: { ...check.value, started } };
      const repairs = [...state.envelopeRepairs, ...check.repairs];
      observeCall(options, { tool: prepared.name, ok: false, error: check.messages.join('; '), repairs, started });
      return { issues: check.messages.map((message) => ({ message })) };
    });

  const output = tool.output;
  // The output is checked in `run` (once, with our error text, and visible to onCall/onError); the SDK's own
  // check through this carrier then only sees a value that already passed, so it passes it through.
  const outputSchema =
    prepared.outputSchema && output ? carrier(prepared.outputSchema, (value) => ({ value })) : undefined;

  const run = async (parsed: ParsedCall & { started: number }, mcp: ServerContext, state: RequestState) => {
    const args = { ...parsed, repairs: [...state.envelopeRepairs, ...parsed.repairs] };
    const base: Omit<ToolContext, 'extend'> = {
      request: mcp.http?.req,
      authInfo: mcp.http?.authInfo ?? state.extras?.authInfo,
      signal: mcp.mcpReq.signal,
      repairs: args.repairs,
      host: state.extras?.host ?? {},
      mcp,
    };
    const finish = (result: CallToolResult, error?: string) => {
      observeCall(options, {
        tool: prepared.name,
        ok: !result.isError,
        error,
        repairs: args.repairs,
        started: args.started,
      });
      return result;
    };
    try {
      const extend = prepared.extend?.resolve ? await prepared.extend.resolve(args.extend as never, base) : args.extend;
      const value = await tool.handler(
        { params: args.params as never, input: args.input as never },
        { ...base, extend },
      );
      const result = toCallToolResult(value, output !== undefined);
      if (!output || result.isError) return finish(result);
      const checked = await output.safeParseAsync(result.structuredContent);
      if (checked.success) return finish(withStructured(result, checked.data, value));
      // The handler broke its own contract: a server bug, reported to the client as a failed call.
      const text = `Output validation error: tool ${prepared.name} returned a value its output schema refuses: ${formatIssues(checked.error, output, result.structuredContent).join('; ')}`;
      observeError(options, new Error(text), prepared.name);
      return finish({ content: [{ type: 'text', text }], isError: true }, text);
    } catch (error) {
      observeError(options, error, prepared.name);
      observeCall(options, {
        tool: prepared.name,
        ok: false,
        error: error instanceof Error ? error.message : String(error),
        repairs: args.repairs,
        started: args.started,
      });
      throw error; // the SDK turns it into an `isError` result with the message
    }
  };

  const config = {
    title: tool.title,
    description: tool.description,
    outputSchema,
    annotations: tool.annotations,
  };
  return {
    name: prepared.name,
    config: (state: RequestState) => ({ ...config, inputSchema: inputFor(state) }) as any,
    run,
  };
}

/** A JSON value becomes text content (strings as they are), plus `structuredContent` when the tool declares `output`. */
function toCallToolResult(value: unknown, structured: boolean): CallToolResult {
  if (isCallToolResult(value)) return value;
  const result: CallToolResult = { content: [{ type: 'text', text: textOf(value) }] };
  if (structured) result.structuredContent = value as Record<string, unknown>;
  return result;
}

/** The result with the output schema's parsed value as `structuredContent` (and as text, when the text was ours). */
function withStructured(result: CallToolResult, data: unknown, returned: unknown): CallToolResult {
  if (isCallToolResult(returned)) return { ...result, structuredContent: data as Record<string, unknown> };
  return { content: [{ type: 'text', text: textOf(data) }], structuredContent: data as Record<string, unknown> };
}

function textOf(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? 'null');
}

function observeCall(
  options: McpMountOptions<any>,
  e: { tool: string; ok: boolean; error?: string; repairs: ParsedCall['repairs']; started: number },
) {
  if (!options.onCall) return;
  try {
    options.onCall({
      tool: e.tool,
      ok: e.ok,
      error: e.error,
      repairs: e.repairs,
      durationMs: performance.now() - e.started,
    });
  } catch (error) {
    (options.logger ?? console).error('mcp-mount: onCall threw', error);
  }
}

/** Calls `onError`, which observes and never changes a response; a throwing hook is logged. Shared with the adapters. */
export function observeError(options: McpMountOptions<any>, error: unknown, tool?: string) {
  if (!options.onError) return;
  try {
    options.onError(error, { tool });
  } catch (hookError) {
    (options.logger ?? console).error('mcp-mount: onError threw', hookError);
  }
}
