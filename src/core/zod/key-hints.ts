/**
 * What each declared key of an object schema says about itself beyond its name, for a "did you mean": the
 * names of its nested fields (an object's, or an array's item object's) and the words of its description.
 * Read once per schema (schemas are immutable) and capped, so a suggestion costs the same on every call.
 */
import { defOf, isSchema, type Schema, unwrap } from './def.js';

/** Words kept per key: enough for a description's nouns, few enough to keep a suggestion cheap. */
const HINT_WORDS = 24;

export type KeyHints = ReadonlyMap<string, { fields: readonly string[]; words: readonly string[] }>;

const cache = new WeakMap<object, KeyHints>();

/** For each key `object` declares: its nested field names and its description's words (both capped). */
export function keyHints(object: Schema): KeyHints {
  let hints = cache.get(object);
  if (!hints) {
    const map = new Map<string, { fields: readonly string[]; words: readonly string[] }>();
    for (const [key, field] of Object.entries(defOf(object).shape ?? {})) {
      if (isSchema(field)) map.set(key, { fields: nestedFields(field), words: descriptionWords(field) });
    }
    hints = map;
    cache.set(object, hints);
  }
  return hints;
}

function nestedFields(field: Schema): readonly string[] {
  let inner = unwrap(field);
  if (inner && defOf(inner).type === 'array') inner = unwrap(defOf(inner).element as Schema);
  const shape = inner ? defOf(inner).shape : undefined;
  return shape ? Object.keys(shape).slice(0, HINT_WORDS) : [];
}

/** The description on the field or on any wrapper around it (`.describe()` before or after `.optional()`). */
function descriptionWords(field: Schema): readonly string[] {
  let current: Schema | undefined = field;
  for (let hops = 0; current && hops < 8; hops++) {
    const text = (current as { description?: unknown }).description;
    if (typeof text === 'string')
      return text
        .split(/[^A-Za-z0-9]+/)
        .filter((w) => w.length >= 3)
        .slice(0, HINT_WORDS);
    const def = defOf(current);
    current = (def.innerType ?? def.in) as Schema | undefined;
    if (current !== undefined && !isSchema(current)) return [];
  }
  return [];
}
