import { uniqueValues, validationKey } from '../json-schema/compare.js';
import { setOwn } from '../json-schema/own-properties.js';
import type { JsonSchema } from '../json-schema/types.js';

// How the keywords of one scalar type combine across variants. Every rule widens: the result accepts
// every value any fragment accepts, and keeps a constraint only where that stays true.

/** The values a fragment pins (`const`, or a non-empty `enum`), else undefined. */
export function pinnedValues(fragment: JsonSchema): unknown[] | undefined {
  if (Object.hasOwn(fragment, 'const')) return [fragment.const];
  return Array.isArray(fragment.enum) && fragment.enum.length > 0 ? fragment.enum : undefined;
}

/** All pinned values, when every fragment pins some; a position that admits any value of the type pins none. */
export function joinPins(fragments: readonly JsonSchema[]): unknown[] | undefined {
  const lists = fragments.map(pinnedValues);
  if (lists.some((l) => l === undefined)) return undefined;
  return uniqueValues(lists.flatMap((l) => l!));
}

/** The keywords among `keys` that every fragment has, with the same meaning. */
export function keepSame(fragments: readonly JsonSchema[], keys: readonly string[]): JsonSchema {
  const out: JsonSchema = {};
  for (const key of keys) {
    if (!fragments.every((f) => Object.hasOwn(f, key))) continue;
    const first = validationKey(fragments[0]![key]);
    if (fragments.every((f) => validationKey(f[key]) === first)) setOwn(out, key, fragments[0]![key]);
  }
  return out;
}

const STRING_KEYWORDS = [
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'contentEncoding',
  'contentMediaType',
  'contentSchema',
];

/** Strings: the pinned values united; any other constraint kept only when every variant has the same one. */
export function joinStrings(fragments: readonly JsonSchema[]): JsonSchema {
  const out = keepSame(fragments, STRING_KEYWORDS);
  const pins = joinPins(fragments);
  if (pins) out.enum = pins;
  return out;
}

/** Booleans: `true` and `false` pinned by different variants admit every boolean. */
export function joinBooleans(fragments: readonly JsonSchema[]): JsonSchema {
  const pins = joinPins(fragments);
  return pins && pins.length === 1 ? { enum: pins } : {};
}

type Bound = { value: number; exclusive: boolean };

/** Numbers (integers folded in): the loosest bounds, a `multipleOf` every variant shares, pinned values united. */
export function joinNumbers(fragments: readonly JsonSchema[]): JsonSchema {
  const out = keepSame(fragments, ['multipleOf']);
  const lower = loosest(
    fragments.map((f) => bound(f, 'minimum', 'exclusiveMinimum', Math.max)),
    (a, b) => a < b,
  );
  const upper = loosest(
    fragments.map((f) => bound(f, 'maximum', 'exclusiveMaximum', Math.min)),
    (a, b) => a > b,
  );
  if (lower) out[lower.exclusive ? 'exclusiveMinimum' : 'minimum'] = lower.value;
  if (upper) out[upper.exclusive ? 'exclusiveMaximum' : 'maximum'] = upper.value;
  const pins = joinPins(fragments);
  if (pins) out.enum = pins;
  return out;
}

/** A fragment's effective bound on one side: the tighter of its inclusive and exclusive keywords. */
function bound(
  fragment: JsonSchema,
  inclusive: string,
  exclusive: string,
  tighter: (a: number, b: number) => number,
): Bound | undefined {
  const inc = typeof fragment[inclusive] === 'number' ? (fragment[inclusive] as number) : undefined;
  const exc = typeof fragment[exclusive] === 'number' ? (fragment[exclusive] as number) : undefined;
  if (inc === undefined) return exc === undefined ? undefined : { value: exc, exclusive: true };
  if (exc === undefined) return { value: inc, exclusive: false };
  const value = tighter(inc, exc);
  return { value, exclusive: value === exc };
}

/** The loosest of the bounds, or none when some variant has none; at equal values the inclusive one. */
function loosest(
  bounds: ReadonlyArray<Bound | undefined>,
  looser: (a: number, b: number) => boolean,
): Bound | undefined {
  let best: Bound | undefined;
  for (const b of bounds) {
    if (b === undefined) return undefined;
    if (!best || looser(b.value, best.value) || (b.value === best.value && !b.exclusive)) best = b;
  }
  return best;
}
