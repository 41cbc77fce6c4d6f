/**
 * The `limits` options, settled once per mount into the `LimitsPolicy` the per-request limits take: the body
 * and argument caps, the default timeout, the rate windows and the concurrency cap.
 */
import { optionKeys } from '../settle/checks.js';
import { positiveInteger } from '../settle/positive-integer.js';
import type { LimitsOptions } from './options.js';
import { type RatePolicy, settleRatePolicy } from './rate-policy.js';

/** The keys `limits` takes: one list, tied to `LimitsOptions` by the compiler. */
export const LIMITS_KEYS = optionKeys<LimitsOptions>()([
  'maxRequestBodyBytes',
  'maxArgumentDepth',
  'maxArgumentValues',
  'timeoutMs',
  'rate',
  'concurrency',
]);

/** The SDK's own default body limit, 4 MiB. */
const DEFAULT_MAX_REQUEST_BODY_BYTES = 4 * 1024 * 1024;

/** What one call's arguments may hold (docs/design/repair.md, Limits). */
export interface ArgumentLimits {
  /** Nesting levels of arrays and objects, sent or parsed from text; the arguments object is level 1. */
  readonly maxDepth: number;
  /** Values sent; text that repair parses may hold as many again. */
  readonly maxValues: number;
}

/** 64 levels: far past real arguments, far from where Zod's recursive parse would exhaust the stack. */
const DEFAULT_MAX_ARGUMENT_DEPTH = 64;
/** 1,000,000 values: every walk over them is linear, so this bounds a call's work, not its validity. */
const DEFAULT_MAX_ARGUMENT_VALUES = 1_000_000;

/** What the per-request limits run with: `limits`, defaulted. Frozen. */
export interface LimitsPolicy {
  /** In bytes; a body over this gets 413. */
  readonly maxRequestBodyBytes: number;
  /** `maxArgumentDepth` and `maxArgumentValues`: what one call's arguments may hold. */
  readonly argumentLimits: ArgumentLimits;
  /** The default for tools without their own `timeoutMs`; undefined for none. */
  readonly timeoutMs?: number;
  /** `rate` and `concurrency`, settled; undefined when neither is set. */
  readonly rate?: RatePolicy;
}

/**
 * Settles `limits`: each count a positive integer or its default, each rate window's limiter built once.
 * `mountName` prefixes the windows' keys, so mounts sharing a store count apart.
 * @throws TypeError naming the limit that is not a positive integer, or a rate option that cannot mean anything.
 * @example `settleLimits({ timeoutMs: 30_000, concurrency: 4 }, 'notes')`
 */
export function settleLimits(limits: LimitsOptions, mountName: string): LimitsPolicy {
  const rate = settleRatePolicy(limits, mountName);
  return Object.freeze({
    ...(limits.timeoutMs !== undefined && { timeoutMs: positiveInteger('limits.timeoutMs', limits.timeoutMs, 0) }),
    maxRequestBodyBytes: positiveInteger(
      'limits.maxRequestBodyBytes',
      limits.maxRequestBodyBytes,
      DEFAULT_MAX_REQUEST_BODY_BYTES,
    ),
    argumentLimits: Object.freeze({
      maxDepth: positiveInteger('limits.maxArgumentDepth', limits.maxArgumentDepth, DEFAULT_MAX_ARGUMENT_DEPTH),
      maxValues: positiveInteger('limits.maxArgumentValues', limits.maxArgumentValues, DEFAULT_MAX_ARGUMENT_VALUES),
    }),
    ...(rate && { rate }),
  });
}
