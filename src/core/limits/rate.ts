/**
 * Rate limits and the concurrency cap, per request (docs/decisions/0021-rate-limits-and-timeouts.md): a
 * request that is not a `tools/call` is counted in its caller's window and refused with 429; a call is
 * counted in its caller's window and its tool's, then takes one of its caller's running slots, and is refused
 * with an `isError` the model can act on. Nothing here waits for another call: parallel calls are counted,
 * never queued.
 */
import type { AuthInfo } from '@modelcontextprotocol/server';
import { jsonRpcError } from '../http/responses.js';
import { observeError } from '../observe/observe.js';
import type { RefusalReason } from '../observe/options.js';
import { observeCallRefusal, refusedWith } from '../observe/refusal.js';
import type { Observer } from '../observe/settle.js';
import type { RateLimiter } from './options.js';
import type { RatePolicy } from './rate-policy.js';
import type { LimitsPolicy } from './settle.js';

/**
 * The key a request is counted under: the token's subject, else its client id; for an anonymous request what
 * `limits.rate.key` returns. Undefined: not limited (no limits, or an anonymous request without a key).
 */
export function limitKey(limits: LimitsPolicy, request: Request, authInfo: AuthInfo | undefined, host: unknown) {
  if (!limits.rate) return undefined;
  if (authInfo) {
    const subject = authInfo.extra?.sub;
    return typeof subject === 'string' && subject !== '' ? `sub:${subject}` : `client:${authInfo.clientId}`;
  }
  const key = limits.rate.key?.({ request, host: host ?? {} });
  return typeof key === 'string' && key !== '' ? `anon:${key}` : undefined;
}

/** What the limits know of a request: the key it counts under, and what a refusal reports. */
export interface LimitedRequest {
  /** The key its windows and running slots count under (`limitKey`); undefined: not limited. */
  readonly limitKey?: string;
  readonly method?: string;
  readonly authInfo?: AuthInfo;
  readonly call?: { readonly requestId?: string | number };
}

/** A request that is not a `tools/call`, past its caller's window: 429 with `Retry-After`, else undefined. */
export async function limitRequest(
  limits: LimitsPolicy,
  observer: Observer,
  state: LimitedRequest,
): Promise<Response | undefined> {
  const limiter = limits.rate?.perCaller;
  if (!limiter || state.limitKey === undefined) return undefined;
  const retry = await take(observer, limiter, state.limitKey, state);
  if (retry === undefined) return undefined;
  const response = jsonRpcError(429, -32000, `Rate limited: retry in ${retry} s`);
  response.headers.set('retry-after', String(retry));
  return refusedWith(observer, response, {
    reason: 'rate-limited',
    retryAfterSeconds: retry,
    ...(state.method !== undefined && { method: state.method }),
    ...(state.authInfo && { authInfo: state.authInfo }),
  });
}

/** A call let in: `release` gives its running slot back (once). */
export type Admission = { ok: true; release(): void } | { ok: false; text: string };

/** Whether a call of `tool` may run now: its caller's window, its tool's, then a running slot. */
export async function admitCall(
  limits: LimitsPolicy,
  observer: Observer,
  tool: string,
  state: LimitedRequest,
): Promise<Admission> {
  const rate = limits.rate;
  const key = state.limitKey;
  if (!rate || key === undefined) return ADMITTED;
  // Both windows at once, as `rate-limiter-flexible`'s `RateLimiterUnion` does: one store round trip of
  // latency, not two. The longer wait is the one to name.
  const limiters = [rate.perCaller, rate.perTool.get(tool)].filter((l) => l !== undefined);
  const waits = await Promise.all(limiters.map((limiter) => take(observer, limiter, key, state, tool)));
  const retry = Math.max(0, ...waits.map((w) => w ?? 0));
  if (retry > 0) {
    const text = `Tool ${tool} is rate limited: retry in ${retry} s`;
    return refusedCall(observer, state, tool, 'rate-limited', text, retry);
  }
  return rate.concurrency === undefined ? ADMITTED : slot(observer, rate, key, tool, state);
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
 * Takes a point: undefined when taken, else the whole seconds until the window has room. A store that fails
 * (its `consume` rejects with an `Error`) lets the request through and is logged (phase `limits`).
 */
async function take(
  observer: Observer,
  limiter: RateLimiter,
  key: string,
  state: LimitedRequest,
  tool?: string,
): Promise<number | undefined> {
  try {
    await limiter.consume(key);
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
