/**
 * The SDK's stateless handler, and one exchange through it: the SDK's factory builds each request's server
 * (server.ts) from the state the core built for that request, found by our own `Request`.
 *
 * Seams (docs/design/sdk-seams.md, each pinned by test/unit/serve/sdk-seams.test.ts): the per-request state
 * reaches the factory through a map keyed by the `Request` the factory is handed; the SDK's reports of a
 * client's mistake are told from its own failures by their wording (`isClientRejection`).
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
import { observeError } from '../../observe/observe.js';
import { noMessage } from '../envelope.js';
import type { RequestState } from '../request-state.js';
import { callerTasks, taskCall, taskMethods } from '../task-call.js';
import type { ToolSet } from '../tool-set.js';
import { type AcceptPlan, AS_SENT, acceptPlan, asAccepted } from './accept.js';
import { openExchange } from './exchange.js';
import { perRequestServer, type SdkSetup } from './server.js';
import { serveTaskMethods } from './tasks.js';
import { type Listing, listGzip, type ToolList, withListing } from './tool-list.js';
import { aroundToolsCall } from './tools-call.js';

/** What the SDK's `fetch` is handed beside the request. */
interface SdkOptions {
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

export function sdkExchange(setup: SdkSetup, tools: ToolSet, list: ToolList): SdkExchange {
  const states = new Map<Request, RequestState>();
  // A `tools/list` answered with the sentinel, keyed like `states`, until its entries are spliced in.
  const listings = new Map<Request, Listing>();
  // The factory always gets our request; were a state missing, the request would be served as one without a
  // message of its own.
  const outside: RequestState = noMessage(setup.projection);
  const sdk = createSdkHandler(
    (rc: McpRequestContext) => {
      const state = (rc.requestInfo && states.get(rc.requestInfo)) || outside;
      const { requestInfo } = rc;
      const listed = requestInfo && ((listing: Listing) => void listings.set(requestInfo, listing));
      const populate = (server: McpServer) => populateServer(server, state, rc, setup, { tools, list, listed });
      return perRequestServer(setup, state, rc, populate, list.cacheHints);
    },
    {
      maxRequestBodySize: setup.maxRequestBodyBytes,
      responseMode: setup.protocol.responseMode,
      keepAliveMs: setup.protocol.keepAliveMs,
      onerror: (error) => {
        if (!isClientRejection(error)) observeError(setup.observer, error, { phase: 'transport' });
      },
    },
  );
  /**
   * The state is keyed by our own request only while the SDK's factory may look it up (the factory runs
   * before `sdk.fetch` settles), then dropped, so nothing per-request is held past the response.
   */
  const exchange: SdkExchange['exchange'] = async (request, state, options, body) => {
    const accept = request.method === 'POST' ? acceptPlan(request.headers.get('accept')) : AS_SENT;
    // A cancelled call's exchange is torn down, as a client's going away tears it down: no response is sent.
    const opened = openExchange(request, body, sdkHeaders(request, accept), state.cancel?.answer);
    states.set(opened.request, state);
    try {
      const sent = await sdk.fetch(opened.request, options);
      const listing = listings.get(opened.request);
      const gzip = listing && listGzip(setup.protocol.compressList, request);
      return await answered(sent, listing, accept, opened.release, gzip, state.listFramed);
    } catch (error) {
      opened.release();
      throw error;
    } finally {
      states.delete(opened.request);
      listings.delete(opened.request);
    }
  };
  return { exchange, close: () => sdk.close() };
}

/**
 * The request's tools on its server: a single `tools/list` registers none (it is answered from the cache,
 * tool-list.ts, and `listed`, where the exchange can find it, hears of its listing); a call holds only the tool it names, a batch what this caller
 * may see (tool-set.ts), a single message of another method none. A server holding no tool (an unknown or hidden one called, nothing visible in a batch)
 * still answers tools/list with [] and tools/call with "Tool x not found": it declares the tools capability.
 */
function populateServer(
  server: McpServer,
  state: RequestState,
  rc: McpRequestContext,
  setup: SdkSetup,
  { tools, list, listed }: { tools: ToolSet; list: ToolList; listed: ((listing: Listing) => void) | undefined },
): void {
  if (listed && state.method === 'tools/list') {
    list.serve(server, state, rc.era, listed);
    return;
  }
  const { adopted } = state;
  if (adopted && state.call) {
    server.registerTool(state.call.tool, adopted.config as any, (_args: unknown, ctx: ServerContext) =>
      adopted.run(ctx),
    );
    return;
  }
  const who = {
    ...(state.authInfo && { authInfo: state.authInfo }),
    request: rc.requestInfo as Request,
    host: state.extras?.host,
  };
  // A task request (a poll, above all) is answered by the task methods alone: no tool is registered for it, so
  // its cost does not grow with the tool count.
  if (state.method?.startsWith('tasks/')) {
    if (setup.tasks && rc.era === 'modern') {
      serveTaskMethods(server, taskMethods(setup.tasks, setup.observer, who, tools.reaches(state), state.trace));
    }
    return;
  }
  // Any other single message that is no tool method (`ping`, `initialize`, a resource, a prompt, a
  // notification) is answered without a tool: the server declares the tools capability itself (server.ts),
  // and each registration cost the SDK a tool object and closures per tool, per request. A batch (no
  // `method`) holds what its caller may see, as before.
  if (state.method !== undefined && !state.method.startsWith('tools/')) return;
  registerHeld(server, state, rc, setup, tools, who);
}

/** The tools this request's server holds (tool-set.ts), each around its task run where it has one. */
function registerHeld(
  server: McpServer,
  state: RequestState,
  rc: McpRequestContext,
  setup: SdkSetup,
  tools: ToolSet,
  who: Parameters<typeof callerTasks>[3],
): void {
  let withTask: ReturnType<typeof taskCall> | undefined;
  for (const r of tools.held(state)) {
    // A call holds one tool: a tool with `task` runs around the SDK's handling (task-call.ts).
    const keep = state.extras?.waitUntil;
    const task =
      state.call &&
      r.task &&
      taskCall({
        tasks: setup.tasks,
        tool: r.task,
        name: r.name,
        observer: setup.observer,
        ...(keep && { keep }),
        ...(state.authInfo && { authInfo: state.authInfo }),
        ...(state.call.requestId !== undefined && { requestId: state.call.requestId }),
        ...(state.trace && { trace: state.trace }),
      });
    if (task) withTask = task;
    const registered = server.registerTool(r.name, r.config(state), (args: any, ctx: ServerContext) =>
      r.run(args, ctx, state, task ? task.slot : undefined),
    );
    if (r.execution) registered.execution = r.execution;
  }
  if (withTask) {
    const { around } = withTask;
    aroundToolsCall(server, (ctx, next) =>
      around(() => callerTasks(setup.tasks, rc.era, ctx.mcpReq.envelope, who), ctx.mcpReq.signal, next),
    );
  }
}

/**
 * The SDK's answer as the client gets it. A single `tools/list` the SDK dispatched: its body read once, to its
 * end, its sentinel become the entries (tool-list.ts), and the exchange's hold given up at once. Anything else:
 * as the client accepts it, the hold given up once it has been sent.
 */
async function answered(
  sent: Response,
  listing: Listing | undefined,
  accept: AcceptPlan,
  release: () => void,
  gzip: boolean | undefined,
  framed: RequestState['listFramed'],
): Promise<Response> {
  if (listing?.failure) {
    await sent.body?.cancel();
    throw listing.failure.error;
  }
  if (listing) {
    const response = await withListing(sent, listing, accept, gzip, framed);
    release();
    return response;
  }
  return whenSent(await asAccepted(sent, accept), release);
}

/** The request's headers as the SDK must see them: with the `Accept` it requires, when the plan says so. */
function sdkHeaders(request: Request, accept: AcceptPlan): Headers {
  if (accept.sdkAccept === undefined) return request.headers;
  const headers = new Headers(request.headers);
  headers.set('accept', accept.sdkAccept);
  return headers;
}

/**
 * The SDK reports the requests it refuses as the client's mistake (a 4xx it answers) through the same `onerror`
 * as its own failures: the standard-header and body checks of its request classification (`Rejected inbound
 * request (<cell>): ...`), a body it was handed that is not JSON (`Unsupported Media Type`), and a
 * `ProtocolError` it answered with (a protocol revision it does not serve: anything but an internal error).
 * Those are not unexpected errors: logged at error level with a stack, any client could flood the log, and
 * their messages quote what the client sent. Told apart by the SDK's own wording for them (a seam, pinned by
 * test/unit/serve/sdk-seams.test.ts); a report in other words is logged, the safe side.
 * @internal exported for its tests alone
 */
export function isClientRejection(error: unknown): boolean {
  if (error instanceof ProtocolError) return error.code !== ProtocolErrorCode.InternalError;
  return error instanceof Error && CLIENT_REJECTION.test(error.message);
}

const CLIENT_REJECTION = /^(Rejected inbound request \([\w-]+\)|Unsupported Media Type): /;
