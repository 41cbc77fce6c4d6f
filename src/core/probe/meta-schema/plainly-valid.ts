/**
 * A quick proof that a document is valid JSON Schema 2020-12, for the common case: every keyword it carries is
 * one the 2020-12 meta-schema constrains in a way read here (or one it does not constrain at all), and each
 * value has the type that keyword's meta-schema entry requires. When it says `true`, Ajv's validator for the
 * meta-schema would find nothing, so it is not run; anything it does not read (`$vocabulary`, `dependencies`,
 * a non-plain object) or any value it does not vouch for leaves the verdict, and every message, to Ajv
 * (docs/decisions/0027-meta-schema-check-for-plain-documents.md). It only ever answers `true` for less than
 * Ajv would accept, never more: test/unit/probe/meta-schema-plain.test.ts compares the two over random
 * documents.
 *
 * The entries follow the meta-schema's vocabularies (core, applicator, unevaluated, validation, meta-data,
 * format-annotation, content) and the deprecated keywords its root still defines. `format` is not asserted,
 * as in the validator (2020-12's format-annotation vocabulary), so `pattern` and `patternProperties` names
 * need not be checked as regular expressions.
 */
import { isPlainObject } from '../../json-schema/types.js';

type Check = (value: unknown) => boolean;

const SIMPLE_TYPES: ReadonlySet<unknown> = new Set([
  'array',
  'boolean',
  'integer',
  'null',
  'number',
  'object',
  'string',
]);
/** `anchorString` in the core vocabulary. */
const ANCHOR = /^[A-Za-z_][-A-Za-z0-9._]*$/u;
/** `$id`'s own pattern: no non-empty fragment. */
const ID = /^[^#]*#?$/u;

const isString: Check = (v) => typeof v === 'string';
const isBoolean: Check = (v) => typeof v === 'boolean';
/** JSON Schema's `number`: Ajv also refuses NaN and the infinities. */
const isNumber: Check = (v) => typeof v === 'number' && Number.isFinite(v);
const isNonNegativeInteger: Check = (v) => Number.isInteger(v) && (v as number) >= 0;
const isAny: Check = () => true;
const isArray: Check = (v) => Array.isArray(v);

/** `stringArray` in the validation vocabulary: strings, none twice. */
function isStringArray(v: unknown): boolean {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) if (typeof v[i] !== 'string' || v.indexOf(v[i]) !== i) return false;
  return true;
}

/** A simple type name, or a non-empty list of them with none twice. */
function isType(v: unknown): boolean {
  if (typeof v === 'string') return SIMPLE_TYPES.has(v);
  if (!Array.isArray(v) || v.length === 0) return false;
  for (let i = 0; i < v.length; i++) if (!SIMPLE_TYPES.has(v[i]) || v.indexOf(v[i]) !== i) return false;
  return true;
}

/** `schemaArray`: a non-empty list of schemas. */
function isSchemaArray(v: unknown): boolean {
  if (!Array.isArray(v) || v.length === 0) return false;
  for (let i = 0; i < v.length; i++) if (!plainlyValid(v[i])) return false;
  return true;
}

/** An object whose every value passes `each` (`properties`, `$defs`, `dependentRequired`, ...). */
const objectOf =
  (each: Check): Check =>
  (v) => {
    if (!isPlainObject(v) || Object.getPrototypeOf(v) !== Object.prototype) return false;
    // Every key `for...in` reaches, as the validator reads them.
    for (const key in v) if (!each(v[key])) return false;
    return true;
  };

const isSchemaMap = objectOf((v) => plainlyValid(v));

/** What the 2020-12 meta-schema requires of each keyword read here. */
const KEYWORDS: ReadonlyMap<string, Check> = new Map<string, Check>([
  // core
  ['$id', (v) => typeof v === 'string' && ID.test(v)],
  ['$schema', isString],
  ['$ref', isString],
  ['$anchor', (v) => typeof v === 'string' && ANCHOR.test(v)],
  ['$dynamicRef', isString],
  ['$dynamicAnchor', (v) => typeof v === 'string' && ANCHOR.test(v)],
  ['$comment', isString],
  ['$defs', isSchemaMap],
  // applicator
  ['prefixItems', isSchemaArray],
  ['items', (v) => plainlyValid(v)],
  ['contains', (v) => plainlyValid(v)],
  ['additionalProperties', (v) => plainlyValid(v)],
  ['properties', isSchemaMap],
  ['patternProperties', isSchemaMap],
  ['dependentSchemas', isSchemaMap],
  ['propertyNames', (v) => plainlyValid(v)],
  ['if', (v) => plainlyValid(v)],
  ['then', (v) => plainlyValid(v)],
  ['else', (v) => plainlyValid(v)],
  ['allOf', isSchemaArray],
  ['anyOf', isSchemaArray],
  ['oneOf', isSchemaArray],
  ['not', (v) => plainlyValid(v)],
  // unevaluated
  ['unevaluatedItems', (v) => plainlyValid(v)],
  ['unevaluatedProperties', (v) => plainlyValid(v)],
  // validation
  ['type', isType],
  ['const', isAny],
  ['enum', isArray],
  ['multipleOf', (v) => isNumber(v) && (v as number) > 0],
  ['maximum', isNumber],
  ['exclusiveMaximum', isNumber],
  ['minimum', isNumber],
  ['exclusiveMinimum', isNumber],
  ['maxLength', isNonNegativeInteger],
  ['minLength', isNonNegativeInteger],
  ['pattern', isString],
  ['maxItems', isNonNegativeInteger],
  ['minItems', isNonNegativeInteger],
  ['uniqueItems', isBoolean],
  ['maxContains', isNonNegativeInteger],
  ['minContains', isNonNegativeInteger],
  ['maxProperties', isNonNegativeInteger],
  ['minProperties', isNonNegativeInteger],
  ['required', isStringArray],
  ['dependentRequired', objectOf(isStringArray)],
  // meta-data
  ['title', isString],
  ['description', isString],
  ['default', isAny],
  ['deprecated', isBoolean],
  ['readOnly', isBoolean],
  ['writeOnly', isBoolean],
  ['examples', isArray],
  // format-annotation
  ['format', isString],
  // content
  ['contentEncoding', isString],
  ['contentMediaType', isString],
  ['contentSchema', (v) => plainlyValid(v)],
  // the root's deprecated keywords
  ['definitions', isSchemaMap],
  ['$recursiveAnchor', (v) => typeof v === 'string' && ANCHOR.test(v)],
  ['$recursiveRef', isString],
]);

/** Keywords the meta-schema constrains that are not read here: a document carrying one goes to Ajv. */
const NOT_READ: ReadonlySet<string> = new Set(['$vocabulary', 'dependencies']);

/**
 * True when `schema` is certainly valid against the 2020-12 meta-schema; false when it may not be (Ajv then
 * decides). Keywords the meta-schema does not name are unconstrained there, as 2020-12 allows them.
 */
export function plainlyValid(schema: unknown): boolean {
  if (typeof schema === 'boolean') return true;
  if (!isPlainObject(schema) || Object.getPrototypeOf(schema) !== Object.prototype) return false;
  for (const keyword in schema) {
    const check = KEYWORDS.get(keyword);
    if (check === undefined) {
      if (NOT_READ.has(keyword)) return false;
    } else if (!check(schema[keyword])) return false;
  }
  return true;
}
