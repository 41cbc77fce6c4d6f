/** The per-request path: body, envelope, one exchange through the SDK. */
import {
  type AuthInfo,
  createMcpHandler as createSdkHandler,
  isJsonContentType,
  type McpRequestContext,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { MountConfig } from '../mount/config.js';
import type { ServerSurface } from '../mount/server-hook.js';
import { authenticate } from './auth.js';
import { bodyAlreadyRead, jsonRpcError, readBodyLimited } from './body.js';
import { noMessage, readEnvelope } from './envelope.js';
import { openExchange, releaseWhenSent } from './exchange.js';
import { observeError } from './observe.js';
import type { Registration } from './registration.js';
import type { FetchExtras, RequestState } from './request-state.js';
import { perRequestServer } from './server-hook.js';
import { toolSet } from './tool-set.js';

export function serveRequests(config: MountConfig, surface: ServerSurface, registrations: readonly Registration[]) {
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
