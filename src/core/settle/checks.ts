/**
 * What every concern's `settle` checks an option with: each throws a `TypeError` that names the option, so
 * a value that cannot mean anything fails at construction, never on the first request.
 */
import { closestKey } from '../messages/closest-key.js';

/**
 * The keys an options type takes, as a list that must name every key of `T` and no other: a key added to the
 * type but not to the list, or the reverse, fails to compile. Each concern declares its list once, beside its
 * options type, and its `settle` refuses any other key with `optionGroup`.
 *
 * @example
 * ```ts
 * export const LIMITS_KEYS = optionKeys<LimitsOptions>()(['maxRequestBodyBytes', 'timeoutMs']);
 * ```
 */
export function optionKeys<T extends object>() {
  return <const K extends readonly (keyof T & string)[]>(
    keys: K & ([Exclude<keyof T, K[number]>] extends [never] ? unknown : { missing: Exclude<keyof T, K[number]> }),
  ): K => Object.freeze([...keys]) as unknown as K;
}

/**
 * The group object `name` (`{}` when not given).
 * @throws TypeError for a non-object, or a key the group does not take (naming the closest one it does).
 */
export function optionGroup<T extends object>(name: string, value: unknown, keys: readonly (keyof T & string)[]): T {
  if (value === undefined) return {} as T;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new TypeError(`mcp-mount: ${name} must be an object of options (${keys.join(', ')})`);
  }
  for (const key of Object.keys(value)) {
    if ((keys as readonly string[]).includes(key)) continue;
    const near = closestKey(key, keys);
    throw new TypeError(
      `mcp-mount: ${name}.${key} is not an option${near ? ` (did you mean ${name}.${near}?)` : ''}; ${name} takes ${keys.join(', ')}`,
    );
  }
  return value as T;
}

/** @throws TypeError when `value` is given and not a boolean. */
export function booleanOption(name: string, value: unknown): void {
  if (value !== undefined && typeof value !== 'boolean') {
    throw new TypeError(`mcp-mount: ${name} must be a boolean, got ${String(value)}`);
  }
}

/** @throws TypeError when `value` is given and not a function. */
export function hookOption(name: string, value: unknown): void {
  if (value !== undefined && typeof value !== 'function') throw new TypeError(`mcp-mount: ${name} must be a function`);
}

/**
 * `value`, or `fallback` when not given.
 * @throws TypeError naming the allowed values when it is none of them.
 */
export function oneOf<const V extends string>(name: string, value: unknown, allowed: readonly V[], fallback: V): V {
  if (value === undefined) return fallback;
  if (!(allowed as readonly unknown[]).includes(value)) {
    throw new TypeError(`mcp-mount: ${name} must be one of ${allowed.join(', ')}, got ${String(value)}`);
  }
  return value as V;
}

/** A copy of `value` (`[]` when not given). @throws TypeError unless it is an array of strings. */
export function stringList(name: string, value: unknown): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) {
    throw new TypeError(`mcp-mount: ${name} must be an array of strings`);
  }
  return [...value];
}
