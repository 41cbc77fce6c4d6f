/**
 * `ctx.mcp` for a call on the direct path: the SDK's request context as its per-request server would build it
 * for this call (SDK 2.4 `Protocol._onrequest` and `Server.buildContext`, the reference), with no server
 * behind it. Its data are the call's own; anything that would send a message to the client (`notify`,
 * `send`, `elicitInput`, `requestSampling`, and `log` where the logging capability is declared) first hands
 * the call to the SDK (`handOver`, call.ts), whose context then sends it on the call's own exchange, as the
 * SDK's path does.
 */
import type { AuthInfo, ServerContext } from '@modelcontextprotocol/server';
import { sharedAccessor } from '../shared-accessor.js';

/** What the context is built from: the call's JSON-RPC id, its `_meta`, and the HTTP request. */
export interface CallFacts {
  readonly id: string | number;
  /** `params._meta` as the SDK's handlers see it: without the 2026-07-28 envelope keys. */
  readonly meta: Record<string, unknown> | undefined;
  /** The 2026-07-28 envelope keys, lifted out of `_meta`; undefined in a 2025-era call. */
  readonly envelope: Record<string, unknown> | undefined;
  readonly request: Request;
  readonly authInfo: AuthInfo | undefined;
  /** Holds the call's signal, aborted when the client goes away (call.ts); made on first read. */
  readonly signal: { readonly signal: AbortSignal };
  /** The per-request server declares `logging` (`protocol.logging`): `log` then sends. */
  readonly logging: boolean;
}

/** A message to the client, sent through the SDK's context once the call is handed over. */
function relay(
  handOver: () => Promise<ServerContext>,
  method: 'notify' | 'send' | 'elicitInput' | 'requestSampling' | 'log',
  args: unknown[],
): Promise<unknown> {
  return handOver().then((mcp) => (mcp.mcpReq[method] as (...a: unknown[]) => unknown)(...args));
}

/** `log` without the logging capability: nothing sent, resolved at once. */
const LOGGED_NOWHERE = () => Promise.resolve();

/** The SDK's accessor for a call that carried no `requestState`. */
const NO_REQUEST_STATE = () => undefined;

type McpReq = ServerContext['mcpReq'];

/**
 * The context a handler gets as `ctx.mcp`. `handOver` resolves with the SDK's own context for the call, once
 * the SDK has been handed it; it is asked only when the handler sends something to the client. `mcpReq` is
 * built on its first read (then kept, the same object on every read): a handler that reads only its input
 * never makes its closures.
 */
export function callContext(facts: CallFacts, handOver: () => Promise<ServerContext>): ServerContext {
  return new DirectContext(facts, handOver) as unknown as ServerContext;
}

/**
 * `ctx.mcp`, its `mcpReq` an own enumerable property as on the SDK's context, read through one accessor shared
 * by every call (shared-accessor.ts says why not one written in a literal).
 */
class DirectContext {
  readonly sessionId = undefined;
  declare readonly mcpReq: McpReq;
  readonly http: NonNullable<ServerContext['http']>;
  #facts: CallFacts;
  #handOver: () => Promise<ServerContext>;
  #mcpReq: McpReq | undefined;

  constructor(facts: CallFacts, handOver: () => Promise<ServerContext>) {
    this.#facts = facts;
    this.#handOver = handOver;
    Object.defineProperty(this, 'mcpReq', MCP_REQ);
    this.http = {
      ...(facts.authInfo !== undefined && { authInfo: facts.authInfo }),
      req: facts.request,
      closeSSE: undefined,
      closeStandaloneSSE: undefined,
    } as NonNullable<ServerContext['http']>;
  }

  /** The request context, built on the first read. */
  static requestOf(context: DirectContext): McpReq {
    context.#mcpReq ??= new DirectRequest(context.#facts, context.#handOver) as unknown as McpReq;
    return context.#mcpReq;
  }
}

const MCP_REQ = sharedAccessor(DirectContext.requestOf);

/**
 * `ctx.mcp.mcpReq`: the call's data and a closure of this call's own for each message to the client (a
 * handler may take one off the context and call it alone); `signal` an own accessor shared by every call, made
 * when first read.
 */
class DirectRequest {
  readonly id: string | number;
  readonly method = 'tools/call';
  readonly _meta: Record<string, unknown> | undefined;
  declare readonly envelope?: Record<string, unknown>;
  readonly requestState = NO_REQUEST_STATE;
  declare readonly signal: AbortSignal;
  readonly send: (...args: unknown[]) => Promise<unknown>;
  readonly notify: (...args: unknown[]) => Promise<unknown>;
  readonly log: (...args: unknown[]) => Promise<unknown>;
  readonly elicitInput: (...args: unknown[]) => Promise<unknown>;
  readonly requestSampling: (...args: unknown[]) => Promise<unknown>;
  #facts: CallFacts;

  constructor(facts: CallFacts, handOver: () => Promise<ServerContext>) {
    this.#facts = facts;
    this.id = facts.id;
    this._meta = facts.meta;
    if (facts.envelope !== undefined) (this as { envelope?: Record<string, unknown> }).envelope = facts.envelope;
    Object.defineProperty(this, 'signal', REQUEST_SIGNAL);
    this.send = (...args) => relay(handOver, 'send', args);
    this.notify = (...args) => relay(handOver, 'notify', args);
    // Without the logging capability the SDK's `log` sends nothing and resolves at once.
    this.log = facts.logging ? (...args) => relay(handOver, 'log', args) : LOGGED_NOWHERE;
    this.elicitInput = (...args) => relay(handOver, 'elicitInput', args);
    this.requestSampling = (...args) => relay(handOver, 'requestSampling', args);
  }

  static signalOf(request: DirectRequest): AbortSignal {
    return request.#facts.signal.signal;
  }
}

const REQUEST_SIGNAL = sharedAccessor(DirectRequest.signalOf);
