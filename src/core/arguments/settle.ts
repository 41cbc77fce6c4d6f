/**
 * The `arguments` options, settled once per mount into the `ArgumentsPolicy` the argument check takes
 * (call.ts): which repairs run, what happens to keys a schema would drop, markup hygiene
 * (docs/design/repair.md), and `extend`.
 */
import type { ExtendOption } from '../model/extend.js';
import { booleanOption, hookOption, oneOf, optionKeys } from '../settle/checks.js';
import type { ArgumentsOptions } from './options.js';

/** The keys `arguments` takes: one list, tied to `ArgumentsOptions` by the compiler. */
export const ARGUMENTS_KEYS = optionKeys<ArgumentsOptions>()([
  'json',
  'scalars',
  'nullAsAbsent',
  'unknownKeys',
  'injectedKeys',
  'hygiene',
  'extend',
]);

const UNKNOWN_KEYS = ['notice', 'reject', 'strip'] as const;

/** Keys clients are known to add to every call's arguments on their own: n8n's `toolCallId`. */
const DEFAULT_INJECTED_KEYS: readonly string[] = Object.freeze(['toolCallId']);

/** How a call's arguments are read: `arguments`, defaulted. Frozen. */
export interface ArgumentsPolicy {
  /** Which argument repairs run (`json`, `scalars`, `nullAsAbsent`). */
  readonly repair: { readonly json: boolean; readonly scalars: boolean; readonly nullAsAbsent: boolean };
  /** Defaulted to `'notice'`. */
  readonly unknownKeys: (typeof UNKNOWN_KEYS)[number];
  /** Defaulted to `['toolCallId']`. */
  readonly injectedKeys: readonly string[];
  /** Defaulted to true. */
  readonly hygiene: boolean;
  /** `extend`, copied; undefined without it. */
  readonly extend?: ExtendOption;
}

/**
 * Settles `arguments`: every switch on by default, `unknownKeys` `'notice'`, `injectedKeys` `['toolCallId']`.
 * @throws TypeError for a switch that is not a boolean, an `unknownKeys` that names nothing,
 *   `injectedKeys` that are not key names, or an `extend` without a Zod object `schema`.
 * @example `settleArguments({ unknownKeys: 'reject' })`
 */
export function settleArguments(options: ArgumentsOptions): ArgumentsPolicy {
  for (const key of ['json', 'scalars', 'nullAsAbsent', 'hygiene'] as const) {
    booleanOption(`arguments.${key}`, options[key]);
  }
  const unknownKeys = oneOf('arguments.unknownKeys', options.unknownKeys, UNKNOWN_KEYS, 'notice');
  const injected = options.injectedKeys ?? DEFAULT_INJECTED_KEYS;
  if (!Array.isArray(injected) || !injected.every((k) => typeof k === 'string')) {
    throw new TypeError('mcp-mount: arguments.injectedKeys must be an array of key names');
  }
  const extend = settleExtend(options.extend);
  return Object.freeze({
    repair: Object.freeze({
      json: options.json !== false,
      scalars: options.scalars !== false,
      nullAsAbsent: options.nullAsAbsent !== false,
    }),
    unknownKeys,
    injectedKeys: Object.freeze([...injected]),
    hygiene: options.hygiene !== false,
    ...(extend && { extend }),
  });
}

/** `extend`, copied and frozen. @throws TypeError without a Zod object `schema`, or for hooks that are not functions. */
function settleExtend(extend: ExtendOption | undefined): ExtendOption | undefined {
  if (extend === undefined) return undefined;
  const shape = (extend as { schema?: { shape?: unknown } } | null)?.schema?.shape;
  if (typeof shape !== 'object' || shape === null) {
    throw new TypeError('mcp-mount: arguments.extend.schema must be a z.object of the keys every tool takes');
  }
  hookOption('arguments.extend.resolve', extend.resolve);
  hookOption('arguments.extend.filter', extend.filter);
  return Object.freeze({ ...extend });
}
