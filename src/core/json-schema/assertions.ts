import { ANNOTATION_KEYWORDS } from './keywords.js';
import { isPlainObject } from './types.js';

/** Keywords that assert which of an object's keys are present, or how many, without declaring any. */
const KEY_ASSERTIONS: ReadonlySet<string> = new Set([
  'required',
  'dependentRequired',
  'minProperties',
  'maxProperties',
]);
const NESTED = ['allOf', 'anyOf', 'oneOf'] as const;
const SINGLE = ['not', 'if', 'then', 'else'] as const;

/**
 * True when `node` only asserts about an object whose keys are declared elsewhere (in `declared`): which keys
 * must be present (`required`, `dependentRequired`), how many (`minProperties`, `maxProperties`), conditions on
 * declared keys' values (`properties` naming only declared keys, e.g. `if: {properties: {country: {const: "US"}}}`),
 * and `allOf`/`anyOf`/`oneOf`/`not`/`if`/`then`/`else` of such assertions. It declares no type but `object`,
 * no new key and no rule for unknown keys. An author adds these through `.meta()` (a root
 * `allOf: [{anyOf: [{required: ["email"]}, {required: ["phone"]}]}]`); they describe the same object, so a
 * client that reads one object still sees every field (docs/design/probe.md, Root).
 */
export function isAssertionOnly(node: unknown, declared: ReadonlySet<string>): boolean {
  if (node === true) return true;
  if (!isPlainObject(node)) return false;
  for (const [keyword, value] of Object.entries(node)) {
    if (ANNOTATION_KEYWORDS.has(keyword)) continue;
    if (KEY_ASSERTIONS.has(keyword)) {
      if (!namesDeclaredOnly(keyword, value, declared)) return false;
      continue;
    }
    if (keyword === 'type' && value === 'object') continue;
    if (keyword === 'properties') {
      if (!isPlainObject(value) || !Object.keys(value).every((k) => declared.has(k))) return false;
      continue;
    }
    if ((NESTED as readonly string[]).includes(keyword)) {
      if (!Array.isArray(value) || !value.every((member) => isAssertionOnly(member, declared))) return false;
      continue;
    }
    if ((SINGLE as readonly string[]).includes(keyword)) {
      if (!isAssertionOnly(value, declared)) return false;
      continue;
    }
    return false;
  }
  return true;
}

/** `required` and `dependentRequired` may name declared keys only; a count is a count. */
function namesDeclaredOnly(keyword: string, value: unknown, declared: ReadonlySet<string>): boolean {
  const known = (names: unknown) =>
    Array.isArray(names) && names.every((n) => typeof n === 'string' && declared.has(n));
  if (keyword === 'required') return known(value);
  if (keyword === 'dependentRequired') {
    return isPlainObject(value) && Object.entries(value).every(([key, names]) => declared.has(key) && known(names));
  }
  return true;
}
