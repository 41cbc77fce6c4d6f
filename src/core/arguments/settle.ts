/**
 * The `repair` options, settled once per mount into the `ArgumentsPolicy` the argument check takes (call.ts):
 * which repairs run, what happens to keys a schema would drop, and markup hygiene (docs/design/repair.md).
 */
import { booleanOption, oneOf, optionKeys } from '../settle/checks.js';
import type { RepairOptions } from './options.js';

/** The keys `repair` takes: one list, tied to `RepairOptions` by the compiler. */
export const REPAIR_KEYS = optionKeys<RepairOptions>()([
  'json',
  'scalars',
  'nullAsAbsent',
  'unknownKeys',
  'injectedKeys',
  'hygiene',
]);

const UNKNOWN_KEYS = ['notice', 'reject', 'strip'] as const;

/** Keys clients are known to add to every call's arguments on their own: n8n's `toolCallId`. */
const DEFAULT_INJECTED_KEYS: readonly string[] = Object.freeze(['toolCallId']);

/** How a call's arguments are read: `repair`, defaulted. Frozen. */
export interface ArgumentsPolicy {
  /** Which argument repairs run (`json`, `scalars`, `nullAsAbsent`). */
  readonly repair: { readonly json: boolean; readonly scalars: boolean; readonly nullAsAbsent: boolean };
  /** Defaulted to `'notice'`. */
  readonly unknownKeys: (typeof UNKNOWN_KEYS)[number];
  /** Defaulted to `['toolCallId']`. */
  readonly injectedKeys: readonly string[];
  /** Defaulted to true. */
  readonly hygiene: boolean;
}

/**
 * Settles `repair`: every switch on by default, `unknownKeys` `'notice'`, `injectedKeys` `['toolCallId']`.
 * @throws TypeError for a switch that is not a boolean, an `unknownKeys` that names nothing, or
 *   `injectedKeys` that are not key names.
 * @example `settleArguments({ unknownKeys: 'reject' })`
 */
export function settleArguments(repair: RepairOptions): ArgumentsPolicy {
  for (const key of ['json', 'scalars', 'nullAsAbsent', 'hygiene'] as const) {
    booleanOption(`repair.${key}`, repair[key]);
  }
  const unknownKeys = oneOf('repair.unknownKeys', repair.unknownKeys, UNKNOWN_KEYS, 'notice');
  const injected = repair.injectedKeys ?? DEFAULT_INJECTED_KEYS;
  if (!Array.isArray(injected) || !injected.every((k) => typeof k === 'string')) {
    throw new TypeError('mcp-mount: repair.injectedKeys must be an array of key names');
  }
  return Object.freeze({
    repair: Object.freeze({
      json: repair.json !== false,
      scalars: repair.scalars !== false,
      nullAsAbsent: repair.nullAsAbsent !== false,
    }),
    unknownKeys,
    injectedKeys: Object.freeze([...injected]),
    hygiene: repair.hygiene !== false,
  });
}
