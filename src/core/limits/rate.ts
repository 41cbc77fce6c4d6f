/**
 * Rate limits and the concurrency cap, per request (docs/decisions/0021-rate-limits-and-timeouts.md). Every
 * request of a caller is counted in its caller's window as it arrives, before any repair or validation work
 * (a call with invalid arguments or to an unknown tool included), and a `tools/call` in its tool's window
 * too. One over its window is refused: a call with an `isError` the model can act on, anything else with 429.
 * A call let in then takes one of its caller's running slots. Nothing here waits for another call: parallel
 * calls are counted, never queued.
 */
import type { AuthInfo } from '@modelcontextprotocol/server';
import { jsonRpcError } from '../http/responses.js';
import { isPlainObject } from '../json-schema/types.js';
import { observeError } from '../observe/observe.js';
import type { RefusalReason, RequestClient } from '../observe/options.js';
import { observeCallRefusal, refusedWith } from '../observe/refusal.js';
import type { Observer } from '../observe/settle.js';
import type { RequestTrace } from '../observe/telemetry.js';
import type { RateLimiter } from './options.js';
import type { RatePolicy } from './rate-policy.js';
import type { LimitsPolicy } from './settle.js';

/**
 * The key a request is counted under: the token's subject, else its client id; for an anonymous request what
 * `limits.rate.key` returns. Undefined: not limited (no limits, or an anonymous request without a key).
 */
export function limitKey(
  limits: LimitsPolicy,
  request: Request,
  authInfo: AuthInfo | undefined,
  host: unknown,
  remoteAddress?: string,
) {
  if (!limits.rate) return undefined;
  if (authInfo) {
    const subject = authInfo.extra?.sub;
    return typeof subject === 'string' && subject !== '' ? `sub:${subject}` : `client:${authInfo.clientId}`;
  }
  const key = limits.rate.key?.({ request, host: host ?? {}, ...(remoteAddress !== undefined && { remoteAddress }) });
  return typeof key === 'string' && key !== '' ? `anon:${key}` : undefined;
}

/** What the limits know of a request: the key it counts under, and what a refusal reports. */
export interface LimitedRequest {
  /** The key its windows and running slots count under (`limitKey`); undefined: not limited. */
  readonly limitKey?: string;
  readonly method?: string;
  readonly authInfo?: AuthInfo;
  readonly call?: { readonly requestId?: string | number };
  /** Its span, told of a refused call. */
  readonly trace?: RequestTrace;
  /** Where it came from, for the audit trail. */
  readonly client?: RequestClient;
}

/** A single `tools/call` over a window: its answer is the `isError` of `limitedCall`, given when it is served. */
export interface OverLimit {
  readonly retryAfterSeconds: number;
}

/**
 * What counting a request came to: let in; refused with 429 (`response`), for anything but a single
 * `tools/call`; or, for such a call, over a window (`limited`): it is still served, as an `isError`, with no
 * repair, validation or handler run.
 */
export type Count =
  | { response?: undefined; limited?: undefined }
  | { response: Response; limited?: undefined }
  | { response?: undefined; limited: OverLimit };

/** A request no window holds back. */
export const LET_IN: Count = Object.freeze({});

/**
 * Counts a request in its caller's window (`perCaller`), one point per JSON-RPC message (a batch counts each
 * of its messages), and each `tools/call` in its tool's window (`perTool`), before anything else reads the
 * message: so a call refused later for its arguments, or because its tool does not exist, has still been
 * counted, and one over a window costs no repair or validation. Both windows are taken at once, as
 * `rate-limiter-flexible`'s `RateLimiterUnion` does: one store round trip of latency, not two; the longer
 * wait is the one named. `message` is the parsed body, undefined for a request without one (a GET, a body the
 * SDK reads itself).
 */
export async function countRequest(
  limits: LimitsPolicy,
  observer: Observer,
  message: unknown,
  state: LimitedRequest,
): Promise<Count> {
  const rate = limits.rate;
  const key = state.limitKey;
  if (!rate || key === undefined || (!rate.perCaller && rate.perTool.size === 0)) return LET_IN;
  const messages = Array.isArray(message) ? message : [message];
  const calls = new Map<string, number>();
  for (const m of messages) {
    const tool = calledTool(m);
    if (tool !== undefined && rate.perTool.has(tool)) calls.set(tool, (calls.get(tool) ?? 0) + 1);
  }
  const single = Array.isArray(message) ? undefined : isPlainObject(message) ? message : undefined;
  const about = aboutRequest(single, state);
  const call = calledTool(single);
  const takes: Array<Promise<number | undefined>> = [];
  if (rate.perCaller) takes.push(take(observer, rate.perCaller, key, about, call, Math.max(1, messages.length)));
  for (const [tool, points] of calls) takes.push(take(observer, rate.perTool.get(tool)!, key, about, tool, points));
  const retry = Math.max(0, ...(await Promise.all(takes)).map((w) => w ?? 0));
  if (retry === 0) return LET_IN;
  if (call !== undefined) return { limited: { retryAfterSeconds: retry } };
  const response = jsonRpcError(429, -32000, `Rate limited: retry in ${retry} s`);
  response.headers.set('retry-after', String(retry));
  const refused = await refusedWith(observer, response, {
    reason: 'rate-limited',
    retryAfterSeconds: retry,
    ...(about.method !== undefined && { method: about.method }),
    ...(about.call?.requestId !== undefined && { requestId: about.call.requestId }),
    ...(state.authInfo && { authInfo: state.authInfo }),
    ...(state.client && { client: state.client }),
  });
  return { response: refused };
}

/**
 * The answer to a call over a window (`countRequest`'s `limited`), reported to the audit trail when it is
 * given: `Tool <name> is rate limited: retry in <N> s`.
 */
export function limitedCall(observer: Observer, state: LimitedRequest, tool: string, over: OverLimit): string {
  const retry = over.retryAfterSeconds;
  const text = `Tool ${tool} is rate limited: retry in ${retry} s`;
  observeCallRefusal(observer, state, { reason: 'rate-limited', message: text, tool, retryAfterSeconds: retry });
  return text;
}

/** The tool a message calls, when it is a `tools/call` naming one. */
function calledTool(message: unknown): string | undefined {
  if (!isPlainObject(message) || message.method !== 'tools/call' || !isPlainObject(message.params)) return undefined;
  const { name } = message.params;
  return typeof name === 'string' ? name : undefined;
}

/** What a refusal of `message` can say about it: its method and id, read from the message itself. */
function aboutRequest(message: Record<string, unknown> | undefined, state: LimitedRequest): LimitedRequest {
  const method = typeof message?.method === 'string' ? message.method : undefined;
  const id = message?.id;
  const requestId = typeof id === 'string' || typeof id === 'number' ? id : undefined;
  return {
    ...state,
    ...(method !== undefined && { method }),
    ...(requestId !== undefined && { call: { requestId } }),
  };
}

/** A call let in: `release` gives its running slot back (once). */
export type Admission = { ok: true; release(): void } | { ok: false; text: string };

/** Whether a call of `tool`, already counted in its windows (`countRequest`), may take a running slot now. */
export function admitCall(limits: LimitsPolicy, observer: Observer, tool: string, state: LimitedRequest): Admission {
  const rate = limits.rate;
  const key = state.limitKey;
  if (!rate || key === undefined || rate.concurrency === undefined) return ADMITTED;
  return slot(observer, rate, key, tool, state);
}

const ADMITTED: Admission = Object.freeze({ ok: true, release: () => {} });

function slot(observer: Observer, rate: RatePolicy, key: string, tool: string, state: LimitedRequest): Admission {
  const running = rate.running.get(key) ?? 0;
  if (running >= rate.concurrency!) {
    const text = `Tool ${tool}: ${running} calls of this caller are already running; retry when one finishes`;
    return refusedCall(observer, state, tool, 'concurrency', text);
  }
  rate.running.set(key, running + 1);
  let released = false;
  return {
    ok: true,
    release() {
      if (released) return;
      released = true;
      const left = (rate.running.get(key) ?? 1) - 1;
      if (left > 0) rate.running.set(key, left);
      else rate.running.delete(key);
    },
  };
}

function refusedCall(
  observer: Observer,
  state: LimitedRequest,
  tool: string,
  reason: RefusalReason,
  text: string,
  retryAfterSeconds?: number,
): Admission {
  observeCallRefusal(observer, state, {
    reason,
    message: text,
    tool,
    ...(retryAfterSeconds !== undefined && { retryAfterSeconds }),
  });
  return { ok: false, text };
}

/**
 * Takes `points`: undefined when taken, else the whole seconds until the window has room. A store that fails
 * (its `consume` rejects with an `Error`) lets the request through and is logged (phase `limits`).
 */
async function take(
  observer: Observer,
  limiter: RateLimiter,
  key: string,
  state: LimitedRequest,
  tool: string | undefined,
  points: number,
): Promise<number | undefined> {
  try {
    await limiter.consume(key, points);
    return undefined;
  } catch (outcome) {
    if (outcome instanceof Error) {
      observeError(observer, outcome, {
        phase: 'limits',
        ...(tool !== undefined && { tool }),
        ...(state.authInfo && { authInfo: state.authInfo }),
      });
      return undefined;
    }
    const ms = (outcome as { msBeforeNext?: unknown } | undefined)?.msBeforeNext;
    return Math.max(1, Math.ceil((typeof ms === 'number' ? ms : 1000) / 1000));
  }
}
