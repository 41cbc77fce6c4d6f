import { acceptsOf } from './accepted-kinds.js';
import { type AnyDef, defOf, isOptionalIn, isSchema } from './def.js';

// Which keys a record's key schema takes, judged from its definition without running it.

/** True when a record's key schema accepts every key (`z.string()` without checks, `z.any()`, `z.unknown()`). */
export function recordTakesEveryKey(def: AnyDef): boolean {
  const keyType = def.keyType;
  if (!keyType || !isSchema(keyType)) return true;
  const kd = defOf(keyType);
  if (kd.checks?.length) return false;
  return kd.type === 'any' || kd.type === 'unknown' || (kd.type === 'string' && !kd.coerce && !kd.format);
}

/** Zod's numeric-key retry: a key spelled as a number also matches a numeric key schema. */
const NUMERIC_KEY = /^-?\d+(?:\.\d+)?$/;

/**
 * Whether a record's key schema accepts `key`: true, false, or undefined when that cannot be told
 * without running the key schema (formats, refinements, template literals, pipes).
 */
export function recordTakesKey(def: AnyDef, key: string | number): boolean | undefined {
  if (recordTakesEveryKey(def)) return true;
  const keyType = def.keyType!;
  if (defOf(keyType).checks?.length) return undefined;
  const a = acceptsOf(keyType);
  if (a.any || a.anyString || a.realNumber || a.intNumber) return undefined;
  // A finite set (enum, literals, a union of them): membership decides.
  const k = String(key);
  if (a.strings.has(k)) return true;
  return a.numbers.size > 0 && NUMERIC_KEY.test(k) && a.numbers.has(Number(k));
}

/**
 * Whether `key` may be left out of a record: every key may when the key schema takes every key; a key of a
 * finite set (`z.enum`, literals) may in a `z.partialRecord`, or when the value schema is optional or
 * defaulted (Zod fills or skips it). Undefined when that cannot be told, or the key is required.
 */
export function recordKeyOptional(def: AnyDef, key: string): true | undefined {
  if (recordTakesEveryKey(def)) return true;
  if (recordTakesKey(def, key) !== true) return undefined;
  const value = def.valueType;
  return def.partial === true || (value !== undefined && isSchema(value) && isOptionalIn(value)) ? true : undefined;
}

/**
 * Whether a record refuses `key` by name: its key schema is a finite set without `key`, and it is not a
 * `z.looseRecord` (which passes such keys through).
 */
export function recordRefusesKey(def: AnyDef, key: string): boolean {
  return def.mode !== 'loose' && recordTakesKey(def, key) === false;
}
