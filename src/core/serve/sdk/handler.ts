/**
 * The SDK's stateless handler, and one exchange through it: the SDK's factory builds each request's server
 * (server-hook.ts) from the state the core built for that request, found by our own `Request`.
 */
import {
  type AuthInfo,
  createMcpHandler as createSdkHandler,
  type McpRequestContext,
  type McpServer,
  ProtocolError,
  ProtocolErrorCode,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { whenSent } from '../../http/responses.js';
import type { ServerSurface } from '../../model/features.js';
import { observeError } from '../../observe/observe.js';
import type { MountConfig } from '../config.js';
import { noMessage } from '../envelope.js';
import type { RequestState } from '../request-state.js';
import type { ToolSet } from '../tool-set.js';
import { type AcceptPlan, AS_SENT, acceptPlan, asAccepted } from './accept.js';
import { openExchange } from './exchange.js';
import { perRequestServer } from './server.js';
import { type Listing, type ToolList, withListing } from './tool-list.js';

/** What the SDK's `fetch` is handed beside the request. */
export interface SdkOptions {
  authInfo?: AuthInfo;
  /** The message after the envelope step; absent when the SDK reads the body itself. */
  parsedBody?: unknown;
}

export interface SdkExchange {
  /** Serves `request` through the SDK with `state`; `body`, when the SDK must read the bytes itself. */
  exchange(request: Request, state: RequestState, options: SdkOptions, body?: string): Promise<Response>;
  /** Aborts in-flight exchanges. */
  close(): Promise<void>;
}

export function sdkExchange(config: MountConfig, surface: ServerSurface, tools: ToolSet, list: ToolList): SdkExchange {
  const states = new Map<Request, RequestState>();
  // A `tools/list` answered with the sentinel, keyed like `states`, until its entries are spliced in.
  const listings = new Map<Request, Listing>();
  // The factory always gets our request; were a state missing, the request would be served as one without a
  // message of its own.
  const outside: RequestState = noMessage(config);
  const sdk = createSdkHandler(
    (rc: McpRequestContext) => {
      const state = (rc.requestInfo && states.get(rc.requestInfo)) || outside;
      return perRequestServer(config, surface, state, rc, (server) => populate(server, state, rc), list.cacheHints);
    },
    {
      maxRequestBodySize: config.limits.maxRequestBodyBytes,
      responseMode: config.protocol.responseMode,
      onerror: (error) => {
        if (!isClientRejection(error)) observeError(config.observe, error, { phase: 'transport' });
      },
    },
  );

  /** The request's tools: a call holds only the tool it names, a batch what this caller may see (tool-set.ts). */
  const populate = (server: McpServer, state: RequestState, rc: McpRequestContext) => {
    const { requestInfo } = rc;
    // A single `tools/list` registers no tool: it is answered from the cache (tool-list.ts).
    if (requestInfo && state.method === 'tools/list') {
      return list.serve(server, state, rc.era, (listing) => listings.set(requestInfo, listing));
    }
    tools.populate(state, (r) => {
      const registered = server.registerTool(r.name, r.config(state), (args: any, ctx: ServerContext) =>
        r.run(args, ctx, state),
      );
      if (r.execution) registered.execution = r.execution;
      return registered;
    });
  };

  /**
   * The state is keyed by our own request only while the SDK's factory may look it up (the factory runs
   * before `sdk.fetch` settles), then dropped, so nothing per-request is held past the response.
   */
  const exchange: SdkExchange['exchange'] = async (request, state, options, body) => {
    const accept = request.method === 'POST' ? acceptPlan(request.headers.get('accept')) : AS_SENT;
    const opened = openExchange(request, body, sdkHeaders(request, accept));
    states.set(opened.request, state);
    let response: Response;
    try {
      const sent = await sdk.fetch(opened.request, options);
      // A single `tools/list` the SDK dispatched: its body read once, to its end, its sentinel become the
      // entries (tool-list.ts). The exchange is over, so the hold is given up at once.
      const listing = listings.get(opened.request);
      if (listing?.failure) {
        await sent.body?.cancel();
        throw listing.failure.error;
      }
      if (listing) {
        response = await withListing(sent, listing, accept);
        opened.release();
        return response;
      }
      response = await asAccepted(sent, accept);
    } catch (error) {
      opened.release();
      throw error;
    } finally {
      states.delete(opened.request);
      listings.delete(opened.request);
    }
    return whenSent(response, opened.release);
  };

  return { exchange, close: () => sdk.close() };
}

/** The request's headers as the SDK must see them: with the `Accept` it requires, when the plan says so. */
function sdkHeaders(request: Request, accept: AcceptPlan): Headers {
  if (accept.sdkAccept === undefined) return request.headers;
  const headers = new Headers(request.headers);
  headers.set('accept', accept.sdkAccept);
  return headers;
}

/**
 * The SDK reports the requests it refuses as the client's mistake (a 4xx it answers: a missing envelope key,
 * a wrong `Accept`, a batch too long, a protocol revision it does not serve) through the same `onerror` as its
 * own failures. Those are not unexpected errors: logged at error level with a stack, any client could flood
 * the log, and their messages quote what the client sent. Told apart by the SDK's own wording for them, or as
 * a `ProtocolError` it answered with (anything but an internal error).
 */
function isClientRejection(error: unknown): boolean {
  if (error instanceof ProtocolError) return error.code !== ProtocolErrorCode.InternalError;
  return error instanceof Error && CLIENT_REJECTION.test(error.message);
}

const CLIENT_REJECTION =
  /^(Rejected inbound request|Not Acceptable|Unsupported Media Type|Invalid Request|Bad Request|Method not allowed|Parse error|Conflict|Session not found)\b/;
