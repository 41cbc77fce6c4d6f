/**
 * `ctx.mcp` for a call on the direct path: the SDK's request context as its per-request server would build it
 * for this call (SDK 2.4 `Protocol._onrequest` and `Server.buildContext`, the reference), with no server
 * behind it. Its data are the call's own; anything that would send a message to the client (`notify`,
 * `send`, `elicitInput`, `requestSampling`, and `log` where the logging capability is declared) first hands
 * the call to the SDK (`handOver`, call.ts), whose context then sends it on the call's own exchange, as the
 * SDK's path does.
 */
import type { AuthInfo, ServerContext } from '@modelcontextprotocol/server';

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
  let mcpReq: McpReq | undefined;
  return {
    sessionId: undefined,
    get mcpReq() {
      mcpReq ??= requestContext(facts, handOver);
      return mcpReq;
    },
    http: {
      ...(facts.authInfo !== undefined && { authInfo: facts.authInfo }),
      req: facts.request,
      closeSSE: undefined,
      closeStandaloneSSE: undefined,
    },
  } as ServerContext;
}

function requestContext(facts: CallFacts, handOver: () => Promise<ServerContext>): McpReq {
  // Each a closure of this call's own (a handler may take one off the context and call it alone), all on one
  // scope: the arrows are written out, not made by a factory that would give each a scope of its own.
  return {
    id: facts.id,
    method: 'tools/call',
    _meta: facts.meta,
    ...(facts.envelope !== undefined && { envelope: facts.envelope }),
    requestState: NO_REQUEST_STATE,
    get signal() {
      return facts.signal.signal;
    },
    send: (...args: unknown[]) => relay(handOver, 'send', args),
    notify: (...args: unknown[]) => relay(handOver, 'notify', args),
    // Without the logging capability the SDK's `log` sends nothing and resolves at once.
    log: facts.logging ? (...args: unknown[]) => relay(handOver, 'log', args) : LOGGED_NOWHERE,
    elicitInput: (...args: unknown[]) => relay(handOver, 'elicitInput', args),
    requestSampling: (...args: unknown[]) => relay(handOver, 'requestSampling', args),
  } as unknown as McpReq;
}
