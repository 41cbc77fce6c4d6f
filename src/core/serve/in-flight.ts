/**
 * The calls in flight on one mount, by who made them and their JSON-RPC id, so a `notifications/cancelled`
 * can reach the call it names (docs/decisions/0038-long-calls-without-tasks.md).
 *
 * On stateless HTTP the notification comes on a request of its own, and a request id is the client's choice
 * (clients count from 0 or 1): only a caller's own calls may be reached, so a call is tracked only for an
 * authenticated caller, keyed by its token's issuer, client id and subject (`tokenOwner`) and by the token
 * itself: the users of one OAuth client whose tokens carry no subject share an owner, never a token. A
 * notification cancels only when exactly one call of that caller holds that id here (two instances of one
 * client may run the same id at once; which one was meant cannot be told). An anonymous caller is never
 * tracked: anyone could guess its ids. The registry is this process's: a notification that lands on another
 * replica finds nothing. An entry lives as long as the call's answer: removed when it has been sent.
 */
import type { AuthInfo } from '@modelcontextprotocol/server';
import { tokenOwner } from '../tasks/settle.js';

/** How a tracked call is cancelled: two signals, aborted in this order, both with `CANCELLED` as reason. */
export interface CallCancel {
  /** Followed by the handler's signal (`ctx.signal`, execute.ts). */
  readonly handler: AbortSignal;
  /** Followed by the call's exchange, which then ends without a response (sdk/exchange.ts, direct/call.ts). */
  readonly answer: AbortSignal;
}

/**
 * One call being tracked: its cancel signals, and `end`, to call once its answer has been sent.
 * @internal named for the unit test; the mount reads it through `InFlightCalls.track`
 */
export interface TrackedCall {
  readonly cancel: CallCancel;
  end(): void;
}

export interface InFlightCalls {
  /** Tracks a `tools/call` of an authenticated caller; undefined when it cannot be cancelled by notification. */
  track(call: { requestId?: string | number } | undefined, authInfo: AuthInfo | undefined): TrackedCall | undefined;
  /**
   * Cancels the call a `notifications/cancelled` message names, when it is one of this caller's calls tracked
   * here and the only one with that id. True when a call was cancelled.
   */
  cancel(message: unknown, authInfo: AuthInfo | undefined): boolean;
}

/**
 * Why a cancelled call's handler signal aborts (`ctx.signal.reason`): an `AbortError` `DOMException`, so
 * `fetch(url, { signal: ctx.signal })` stops too. The client's own `reason` text is not put in it: it is
 * whatever the client chose.
 * @internal exported for the unit test
 */
export const CANCELLED: DOMException = new DOMException(
  'The client cancelled this call (notifications/cancelled)',
  'AbortError',
);

export function inFlightCalls(): InFlightCalls {
  // An owner's calls by id; a set, because one id may be in flight twice (then none is cancelled).
  const calls = new Map<string, Set<() => void>>();
  return {
    track(call, authInfo) {
      const id = call?.requestId;
      const owner = id === undefined ? undefined : callerOf(authInfo);
      if (owner === undefined) return undefined;
      const key = keyOf(owner, id!);
      const handler = new AbortController();
      const answer = new AbortController();
      const cancel = () => {
        handler.abort(CANCELLED);
        answer.abort(CANCELLED);
      };
      const held = calls.get(key) ?? new Set();
      held.add(cancel);
      calls.set(key, held);
      let ended = false;
      return {
        cancel: { handler: handler.signal, answer: answer.signal },
        end() {
          if (ended) return;
          ended = true;
          held.delete(cancel);
          if (held.size === 0 && calls.get(key) === held) calls.delete(key);
        },
      };
    },
    cancel(message, authInfo) {
      const id = cancelledId(message);
      const owner = id === undefined ? undefined : callerOf(authInfo);
      if (owner === undefined) return false;
      const held = calls.get(keyOf(owner, id!));
      if (held?.size !== 1) return false;
      const [cancel] = held;
      cancel!();
      return true;
    },
  };
}

/**
 * Who may cancel a call: its token's owner and the token (held in memory for the call's life, never logged);
 * undefined without credentials, an owner or a token.
 */
function callerOf(authInfo: AuthInfo | undefined): string | undefined {
  const owner = authInfo && tokenOwner(authInfo);
  return owner === undefined || !authInfo?.token ? undefined : `${owner}\n${authInfo.token}`;
}

/** 7 and "7" are different JSON-RPC ids; JSON keeps them apart, and an owner key from a request id. */
function keyOf(owner: string, id: string | number): string {
  return JSON.stringify([owner, id]);
}

/** The `requestId` of a single `notifications/cancelled` message, when it is a string or a number. */
function cancelledId(message: unknown): string | number | undefined {
  // A message with an `id` is a request, not a notification: the SDK refuses it.
  if (typeof message !== 'object' || message === null || Array.isArray(message) || 'id' in message) return undefined;
  const { method, params } = message as { method?: unknown; params?: unknown };
  if (method !== 'notifications/cancelled' || typeof params !== 'object' || params === null) return undefined;
  const id = (params as { requestId?: unknown }).requestId;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : undefined;
}
