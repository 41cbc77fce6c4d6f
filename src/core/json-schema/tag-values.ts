import { type JsonType, typeOfValue } from './keywords.js';

// The values a discriminated union's tag can pin, and how a model reads them in text. One place, so the
// flat object's hints (`Required if v = 1`), the error lines (`(v = 1 requires a)`) and the ignored-keys
// notice (`when ok = false`) spell a tag value the same way.

/**
 * The sentence a flattened union's tag description ends with (`Selects the variant: a | b.`). The flatten
 * drops it from an inner tag's text when it flattens an outer union on the same tag, and the probe reads it
 * to know a key is a tag: a null there is a value that selects a variant, not a missing one.
 */
export const SELECTS_VARIANT = 'Selects the variant:';

/** True when `schema` is the tag of a flattened union (its description says it selects the variant). */
export function isFlattenedTag(schema: unknown): boolean {
  const description = (schema as { description?: unknown } | null)?.description;
  return typeof description === 'string' && description.includes(SELECTS_VARIANT);
}

/** A value a tag may pin: what `z.literal` and `z.enum` produce that JSON can carry. */
export type TagValue = string | number | boolean | null;

/** True for a value a tag may pin (a finite number, a string, a boolean or null). */
export function isTagValue(value: unknown): value is TagValue {
  if (typeof value === 'number') return Number.isFinite(value);
  return value === null || typeof value === 'string' || typeof value === 'boolean';
}

/**
 * A tag value as a model reads it in a description or an error line: a string as it is (`kind = create`),
 * any other value as JSON (`v = 1`, `ok = true`, `kind = null`). A string that would read as another value
 * or as more than one is JSON-quoted: `"1"`, `"true"`, `"null"` (beside the number 1, `true` and `null`),
 * `""`, text with edge spaces, a `|` (the separator between values), a quote or a control character.
 *
 * @example tagValueText('create') // 'create'
 * @example tagValueText('1') // '"1"'
 * @example tagValueText(1) // '1'
 */
export function tagValueText(value: unknown): string {
  if (typeof value !== 'string') {
    if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
    return JSON.stringify(value) ?? String(value);
  }
  return readsAsOther(value) ? JSON.stringify(value) : value;
}

/** `a | b | 1`: tag values joined as `tagValueText` writes each. */
export function tagValuesText(values: readonly unknown[]): string {
  return values.map(tagValueText).join(' | ');
}

function readsAsOther(s: string): boolean {
  if (s.length === 0 || s.trim() !== s || s.includes('|')) return true;
  // A quote, a backslash or a control character: JSON writes it escaped.
  if (JSON.stringify(s).length !== s.length + 2) return true;
  if (/^(?:true|false|null)$/i.test(s)) return true;
  // Anything a reader could take for a number: `1`, `-2.5`, `1e3`, `0x10`, `Infinity`.
  return !Number.isNaN(Number(s));
}

/**
 * The JSON types of tag values, as one `type` keyword: a name when there is one type (`"string"`,
 * `"boolean"`), a list in order of first appearance with `null` last otherwise. Numbers are `integer`
 * when every number is an integer, else `number` (which admits the integers among them).
 *
 * @example tagType(['a', 'b']) // 'string'
 * @example tagType([1, 2.5]) // 'number'
 * @example tagType([null, 'a', 1]) // ['string', 'integer', 'null']
 */
export function tagType(values: readonly TagValue[]): JsonType | JsonType[] {
  const fraction = values.some((v) => typeof v === 'number' && !Number.isInteger(v));
  const types: JsonType[] = [];
  for (const v of values) {
    const t = typeOfValue(v);
    const type = t === 'integer' && fraction ? 'number' : t;
    if (type !== 'null' && !types.includes(type)) types.push(type);
  }
  if (values.includes(null)) types.push('null');
  return types.length === 1 ? types[0]! : types;
}
