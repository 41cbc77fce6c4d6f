/**
 * Rate limits and the concurrency cap, per request (docs/decisions/0021-rate-limits-and-timeouts.md): a
 * request that is not a `tools/call` is counted in its caller's window and refused with 429; a call is
 * counted in its caller's window and its tool's, then takes one of its caller's running slots, and is refused
 * with an `isError` the model can act on. Nothing here waits for another call: parallel calls are counted,
 * never queued.
 */
import type { AuthInfo } from '@modelcontextprotocol/server';
import type { MountConfig } from '../mount/config.js';
import type { RateLimiter, RefusalReason } from '../mount/options.js';
import type { RatePolicy } from '../mount/rate-limits.js';
import { jsonRpcError } from './body.js';
import { observeError } from './observe.js';
import { observeCallRefusal, refusedWith } from './refusal.js';
import type { RequestState } from './request-state.js';

/**
 * The key a request is counted under: the token's subject, else its client id; for an anonymous request what
 * `limits.rate.key` returns. Undefined: not limited (no limits, or an anonymous request without a key).
 */
export function limitKey(config: MountConfig, request: Request, authInfo: AuthInfo | undefined, host: unknown) {
  if (!config.rate) return undefined;
  if (authInfo) {
    const subject = authInfo.extra?.sub;
    return typeof subject === 'string' && subject !== '' ? `sub:${subject}` : `client:${authInfo.clientId}`;
  }
  const key = config.rate.key?.({ request, host: host ?? {} });
  return typeof key === 'string' && key !== '' ? `anon:${key}` : undefined;
}

/** A request that is not a `tools/call`, past its caller's window: 429 with `Retry-After`, else undefined. */
export async function limitRequest(config: MountConfig, state: RequestState): Promise<Response | undefined> {
  const limiter = config.rate?.perCaller;
  if (!limiter || state.limitKey === undefined) return undefined;
  const retry = await take(config, limiter, state.limitKey, state);
  if (retry === undefined) return undefined;
  const response = jsonRpcError(429, -32000, `Rate limited: retry in ${retry} s`);
  response.headers.set('retry-after', String(retry));
  return refusedWith(config, response, {
    reason: 'rate-limited',
    retryAfterSeconds: retry,
    ...(state.method !== undefined && { method: state.method }),
    ...(state.authInfo && { authInfo: state.authInfo }),
  });
}

/** A call let in: `release` gives its running slot back (once). */
export type Admission = { ok: true; release(): void } | { ok: false; text: string };

/** Whether a call of `tool` may run now: its caller's window, its tool's, then a running slot. */
export async function admitCall(config: MountConfig, tool: string, state: RequestState): Promise<Admission> {
  const rate = config.rate;
  const key = state.limitKey;
  if (!rate || key === undefined) return ADMITTED;
  // Both windows at once, as `rate-limiter-flexible`'s `RateLimiterUnion` does: one store round trip of
  // latency, not two. The longer wait is the one to name.
  const limiters = [rate.perCaller, rate.perTool.get(tool)].filter((l) => l !== undefined);
  const waits = await Promise.all(limiters.map((limiter) => take(config, limiter, key, state, tool)));
  const retry = Math.max(0, ...waits.map((w) => w ?? 0));
  if (retry > 0) {
    const text = `Tool ${tool} is rate limited: retry in ${retry} s`;
    return refusedCall(config, state, tool, 'rate-limited', text, retry);
  }
  return rate.concurrency === undefined ? ADMITTED : slot(config, rate, key, tool, state);
}

const ADMITTED: Admission = Object.freeze({ ok: true, release: () => {} });

function slot(config: MountConfig, rate: RatePolicy, key: string, tool: string, state: RequestState): Admission {
  const running = rate.running.get(key) ?? 0;
  if (running >= rate.concurrency!) {
    const text = `Tool ${tool}: ${running} calls of this caller are already running; retry when one finishes`;
    return refusedCall(config, state, tool, 'concurrency', text);
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
  config: MountConfig,
  state: RequestState,
  tool: string,
  reason: RefusalReason,
  text: string,
  retryAfterSeconds?: number,
): Admission {
  observeCallRefusal(config, state, {
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
  config: MountConfig,
  limiter: RateLimiter,
  key: string,
  state: RequestState,
  tool?: string,
): Promise<number | undefined> {
  try {
    await limiter.consume(key);
    return undefined;
  } catch (outcome) {
    if (outcome instanceof Error) {
      observeError(config, outcome, {
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
