/**
 * `limits.rate` and `limits.concurrency`, settled once per mount: one `rate-limiter-flexible` limiter per
 * window, built by the store the options name (memory by default).
 * See docs/decisions/0021-rate-limits-and-timeouts.md.
 */
import RateLimiterMemory from 'rate-limiter-flexible/lib/RateLimiterMemory.js';
import { positiveInteger } from '../settle/positive-integer.js';
import type { LimitsOptions, RateLimiter, RateLimitOptions, RateWindow } from './options.js';

/** What the per-request limits run with. */
export interface RatePolicy {
  /** Every request of a caller. */
  readonly perCaller?: RateLimiter;
  /** Each limited tool's calls, by tool name. */
  readonly perTool: ReadonlyMap<string, RateLimiter>;
  readonly key?: RateLimitOptions['key'];
  /** `limits.concurrency`. */
  readonly concurrency?: number;
  /** Calls running per caller key, on this instance (for `concurrency`). */
  readonly running: Map<string, number>;
}

/**
 * @throws TypeError for a window whose `points` or `durationSeconds` is not a positive integer, a `key` or
 *   `store` that is not a function, a `store` that returns no limiter, a `concurrency` that is not a positive
 *   integer.
 */
export function settleRatePolicy(limits: LimitsOptions, mountName: string): RatePolicy | undefined {
  const { rate, concurrency } = limits;
  if (rate === undefined && concurrency === undefined) return undefined;
  if (concurrency !== undefined) positiveInteger('limits.concurrency', concurrency);
  if (rate !== undefined && (typeof rate !== 'object' || rate === null)) {
    throw new TypeError('mcp-mount: limits.rate must be { perCaller, perTool, key, store }');
  }
  const given = rate ?? {};
  for (const hook of ['key', 'store'] as const) {
    if (given[hook] !== undefined && typeof given[hook] !== 'function') {
      throw new TypeError(`mcp-mount: limits.rate.${hook} must be a function`);
    }
  }
  const build = (option: string, window: RateWindow, keyPrefix: string) => limiter(given, option, window, keyPrefix);
  const prefix = `mcp-mount:${mountName}`;
  const perTool = new Map(
    Object.entries(given.perTool ?? {}).map(([tool, window]) => [
      tool,
      build(`limits.rate.perTool.${tool}`, window, `${prefix}:tool:${tool}`),
    ]),
  );
  return Object.freeze({
    ...(given.perCaller && { perCaller: build('limits.rate.perCaller', given.perCaller, `${prefix}:caller`) }),
    perTool,
    ...(given.key && { key: given.key }),
    ...(concurrency !== undefined && { concurrency }),
    running: new Map<string, number>(),
  });
}

function limiter(rate: RateLimitOptions, option: string, window: RateWindow, keyPrefix: string): RateLimiter {
  if (typeof window !== 'object' || window === null)
    throw new TypeError(`mcp-mount: ${option} must be { points, durationSeconds }`);
  const points = positiveInteger(`${option}.points`, window.points);
  const duration = positiveInteger(`${option}.durationSeconds`, window.durationSeconds);
  const options = { points, duration, keyPrefix };
  const built = rate.store ? rate.store(options) : new RateLimiterMemory(options);
  if (typeof (built as RateLimiter | undefined)?.consume !== 'function') {
    throw new TypeError(`mcp-mount: limits.rate.store must return a rate-limiter-flexible limiter (for ${option})`);
  }
  return built;
}
