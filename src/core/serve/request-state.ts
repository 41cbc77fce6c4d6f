/** What one request tells the per-request server, beside the JSON-RPC message the SDK reads itself. */
import type { AuthInfo, ServerContext } from '@modelcontextprotocol/server';
import type { Visibility } from '../access/visibility.js';
import type { OverLimit } from '../limits/rate.js';
import type { RequestClient } from '../observe/options.js';
import type { RequestTrace } from '../observe/telemetry.js';
import type { MessageState } from './envelope.js';
import type { CallCancel } from './in-flight.js';
import type { ToolResult } from './result.js';

/** Per-request extras an adapter hands to the core's `fetch`. */
export interface FetchExtras<Host = unknown> {
  /** Validated auth info, passed through to tools as `ctx.authInfo` (never read from headers here). */
  authInfo?: AuthInfo;
  /** Host values for tools, e.g. a Worker's `{ env, ctx }`; reaches tools as `ctx.host` (`{}` when absent). */
  host?: Host;
  /**
   * The JSON body, when a framework already parsed it (e.g. `express.json()` drained the stream).
   * Without it the body is read from the request, under `maxRequestBodyBytes`; a request whose body was
   * already read then gets a JSON-RPC 500 (-32603) saying so, logged and reported to `onError`.
   */
  parsedBody?: unknown;
  /**
   * The client's address as the connection gives it (Node's socket, Bun's `requestIP`, Deno's `remoteAddr`),
   * for the audit events and `limits.rate.key`; `observe.remoteAddressHeader` takes it from a proxy's header
   * instead.
   */
  remoteAddress?: string;
  /**
   * The platform's way to keep work going after the response (a Worker's `ctx.waitUntil`, Vercel's
   * `waitUntil`): a task run in the process that accepted its call is handed to it, so the run is not cut
   * with the request (within the platform's own limit on such work). Left out on Node, where it goes on.
   */
  waitUntil?: (promise: Promise<unknown>) => void;
}

/** What the executor needs to know about the request it serves. */
export interface RequestState extends MessageState {
  extras?: FetchExtras;
  /** Who is calling: the verified token's info (`auth`), or what the host passed. */
  authInfo?: AuthInfo;
  /** Which tools this request may see (`visibleTools`); undefined: all of them. */
  visible?: Visibility;
  /** The key its rate limits and running slots count under (limits.ts); undefined: not limited. */
  limitKey?: string;
  /**
   * Set when this `tools/call` was over a rate window as it arrived (limits/rate.ts `countRequest`): it is
   * answered with that refusal, and nothing repairs, validates or runs it.
   */
  limited?: OverLimit;
  /** Its span (`observe.openTelemetry`); undefined when not traced. */
  trace?: RequestTrace;
  /** Where it came from, for the audit events; undefined when no hook listens. */
  client?: RequestClient;
  /**
   * A `tools/call` a `notifications/cancelled` can reach (in-flight.ts): its handler's signal and its exchange
   * follow these. Undefined for an anonymous caller, or a call without an id.
   */
  cancel?: CallCancel;
  /** A call begun on the direct path that the SDK is to finish (direct/call.ts); its server holds that tool alone. */
  adopted?: Adoption;
  /** A `tools/list` whose frame the direct list learns (direct/list.ts): told of it once the SDK has answered. */
  listFramed?: (frame: ListFrame) => void;
}

/** A call the direct path hands to the SDK: what its server registers, and the callback the SDK calls. */
interface Adoption {
  /** The called tool's `registerTool` config, its input passed through (`Registration.adoptable`). */
  readonly config: unknown;
  /** Hands the SDK's context to the call in flight, and settles as the call does. */
  run(mcp: ServerContext): Promise<ToolResult>;
}

/**
 * What the SDK wrote around a list's sentinel, for a request whose answer it framed (the direct list learns
 * its answer's frame from these, direct/list.ts; the splice is sdk/tool-list.ts): the text before the sentinel, the text after it (which ends
 * with the echoed id), and the status and headers the client gets, before any encoding.
 */
export interface ListFrame {
  readonly head: string;
  readonly tail: string;
  readonly status: number;
  readonly statusText: string;
  readonly headers: Headers;
}
