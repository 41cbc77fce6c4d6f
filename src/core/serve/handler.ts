/**
 * The web-standard core every adapter wraps: settles the options and prepares the tools once, then serves
 * each request through the SDK v2 handler (stateless; 2026-07-28 and 2025-era clients) with a fresh
 * `McpServer` per request. Its `fetch` always resolves to a `Response`.
 */
import {
  type AuthInfo,
  createMcpHandler as createSdkHandler,
  isJsonContentType,
  type McpRequestContext,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { z } from 'zod';
import { type MountConfig, settleOptions } from '../mount/config.js';
import type { McpMountOptions, MountExtend } from '../mount/options.js';
import { servedTools } from '../mount/policy.js';
import { prepareTools } from '../mount/prepare.js';
import { reportOf, type ValidationReport } from '../mount/report.js';
import type { ServerSurface } from '../mount/server-hook.js';
import type { AnyZodObject, MountableTool } from '../mount/tool.js';
import { authenticate } from './auth.js';
import { bodyAlreadyRead, jsonRpcError, readBodyLimited } from './body.js';
import { isPreflight, preflight, withCors } from './cors.js';
import { noMessage, readEnvelope } from './envelope.js';
import { openExchange, releaseWhenSent } from './exchange.js';
import { observeError } from './observe.js';
import { checkOrigin } from './origin.js';
import { type Registration, registration } from './registration.js';
import type { FetchExtras, RequestState } from './request-state.js';
import { perRequestServer } from './server-hook.js';
import { toolSet } from './tool-set.js';

export type { FetchExtras } from './request-state.js';

/** The web-standard core every adapter wraps; `Host` is what its `fetch` hands tools as `ctx.host`. */
export interface McpFetchHandler<Host = unknown> {
  /**
   * Serves one HTTP request (POST JSON-RPC; GET/DELETE are answered as the SDK's stateless serving does).
   * A request whose `Origin` or `Host` is not allowed gets 403 first (`originCheck`); with `cors`, a
   * preflight from an allowed origin gets 204, and responses to it carry CORS headers.
   * Never rejects: a failure inside becomes a JSON-RPC 500 (-32603) and reaches `onError`.
   */
  fetch(request: Request, extras?: FetchExtras<Host>): Promise<Response>;
  /** Aborts in-flight exchanges. */
  close(): Promise<void>;
  /**
   * The startup probe's report for this mount: `projections[name].tools` are exactly what `tools/list` serves a
   * client of that projection; `tools`, the default projection's.
   */
  readonly report: ValidationReport;
}

/**
 * Builds the MCP endpoint for `tools`. All schema work happens here, once; a request only registers
 * precomputed carriers and parses its arguments.
 *
 * @throws TypeError when an option's value cannot mean anything (see `settleOptions`).
 * @throws McpMountSchemaError when a tool name is invalid or duplicated, a key is claimed by two slices, or,
 *   under `schemaValidation.policy: 'throw'` (the default), the probe reports any error-level issue.
 *
 * @example
 * ```ts
 * import { createMcpFetchHandler } from 'mcp-mount';
 *
 * const mcp = createMcpFetchHandler([searchNotes], { flattenUnionInput: true });
 * const response = await mcp.fetch(request); // a web Request in, a Response out, on any fetch runtime
 * ```
 */
export function createMcpFetchHandler<Host = unknown, S extends AnyZodObject = never, R = z.output<S>>(
  tools: readonly MountableTool<Host, NoInfer<MountExtend<S, R>>>[],
  options: McpMountOptions<S, R> = {},
): McpFetchHandler<Host> {
  const config = settleOptions(options);
  const preparation = prepareTools(tools, config);
  const report = reportOf(preparation);
  const registrations = servedTools(preparation, report, config).map((t) => registration(t, config));
  const serve = serveRequests(config, preparation.surface, registrations);
  return {
    report,
    close: serve.close,
    async fetch(request, extras) {
      // The browser origin CORS answers: only one the Origin check let in.
      let allowed: string | undefined;
      try {
        // First, before the body or any credential is read.
        const origin = checkOrigin(config.origin, request);
        if (!origin.ok) return origin.response;
        allowed = config.cors && origin.origin;
        if (config.cors && allowed && isPreflight(request)) return preflight(config.cors, allowed, request);
        return withCors(config.cors, allowed, await serve.fetch(request, extras));
      } catch (error) {
        observeError(config, error);
        return withCors(config.cors, allowed, jsonRpcError(500, -32603, 'Internal server error'));
      }
    },
  };
}

/** The per-request path: body, envelope, one exchange through the SDK. */
function serveRequests(config: MountConfig, surface: ServerSurface, registrations: readonly Registration[]) {
  const states = new Map<Request, RequestState>();
  const tools = toolSet(registrations, config);
  // A request the SDK's factory finds no state for, and one
  // without a JSON-RPC message of its own: no method, no call, the default projection.
  const outside: RequestState = noMessage(config);
  const sdk = createSdkHandler(
    (rc: McpRequestContext) => {
      const state = (rc.requestInfo && states.get(rc.requestInfo)) || outside;
      return perRequestServer(config, surface, state, rc, (server) =>
        // A call holds only the tool it names; a list, what this caller may see (tool-set.ts).
        tools.populate(state, (r) =>
          server.registerTool(r.name, r.config(state), (args: any, ctx: ServerContext) => r.run(args, ctx, state)),
        ),
      );
    },
    {
      maxRequestBodySize: config.maxRequestBodyBytes,
      responseMode: config.responseMode,
      onerror: (error) => observeError(config, error),
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
    sdkOptions: { authInfo?: AuthInfo; parsedBody?: unknown },
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

  const fetch = async (request: Request, extras?: FetchExtras): Promise<Response> => {
    // Before the body is read: a request without valid credentials costs no more than its headers.
    const auth = await authenticate(config, request, extras?.authInfo);
    if (!auth.ok) return auth.response;
    const authInfo = auth.authInfo;
    const visible = await tools.visibility(request, authInfo, extras?.host);
    const plain: RequestState = { ...outside, extras, authInfo, visible };
    if (request.method !== 'POST') return exchange(request, plain, { authInfo });
    // The body is read here (once, counting real bytes) so that the envelope can be normalized
    // before the SDK's request schema sees it; the SDK then gets it as `parsedBody`.
    let parsed: unknown = extras?.parsedBody;
    // Not JSON at all: the SDK answers 415 without anything being read.
    if (parsed === undefined && !isJsonContentType(request.headers.get('content-type'))) {
      return exchange(request, plain, { authInfo });
    }
    if (parsed === undefined) {
      // Something before the core read it (a middleware's `await request.json()`): no bytes are left.
      if (request.bodyUsed || request.body?.locked) return bodyAlreadyRead(config);
      const body = await readBodyLimited(request, config.maxRequestBodyBytes);
      if (!body.ok && body.status === 413) return tooLarge(config.maxRequestBodyBytes);
      if (!body.ok) {
        observeError(config, body.error);
        return jsonRpcError(400, -32700, 'Parse error: the request body could not be read');
      }
      try {
        parsed = JSON.parse(body.text);
      } catch {
        // Not JSON: the SDK answers it (parse error or 415) from a fresh copy of the bytes.
        return exchange(request, plain, { authInfo }, body.text);
      }
    }
    const envelope = readEnvelope(parsed, request, config);
    const state: RequestState = { ...plain, ...envelope.state };
    const refused = tools.refuseCall(request, state);
    if (refused) return refused;
    return exchange(request, state, { authInfo, parsedBody: envelope.body });
  };

  return { fetch, close: () => sdk.close() };
}

/**
 * 413 with the SDK's own code and text, so clients see one answer whichever check fired. It says
 * `Connection: close`: the rest of the body was never read, so the connection cannot carry another
 * request (Node servers would otherwise read the leftover bytes as the next request, and the client's
 * next call on that socket fails). Runtimes that own the connection, like workerd, drop the header.
 */
function tooLarge(maxBytes: number): Response {
  const response = jsonRpcError(413, -32000, `Payload Too Large: Request body must not exceed ${maxBytes} bytes`);
  response.headers.set('connection', 'close');
  return response;
}
