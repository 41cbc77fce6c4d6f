/**
 * A quick proof that a document is valid JSON Schema 2020-12, for the common case: every keyword it carries is
 * one the 2020-12 meta-schema constrains in a way read here (or one it does not constrain at all), and each
 * value has the type that keyword's meta-schema entry requires. When it says `true`, Ajv's validator for the
 * meta-schema would find nothing, so it is not run; anything it does not read (`$vocabulary`, `dependencies`,
 * a non-plain object) or any value it does not vouch for leaves the verdict, and every message, to Ajv
 * (docs/decisions/0027-meta-schema-check-for-plain-documents.md). It only ever answers `true` for less than
 * Ajv would accept, never more: test/unit/probe/meta-schema-plain.property.test.ts compares the two over random
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

const isSchema: Check = (v) => plainlyValid(v);
const isSchemaMap = objectOf(isSchema);
const isAnchor: Check = (v) => typeof v === 'string' && ANCHOR.test(v);

/** Every keyword in `keywords` checked by `check`. */
const each = (keywords: readonly string[], check: Check) => keywords.map((k): [string, Check] => [k, check]);

/**
 * What the 2020-12 meta-schema requires of each keyword read here, grouped by requirement; the vocabulary
 * each keyword comes from is in its meta-schema (core, applicator, unevaluated, validation, meta-data,
 * format-annotation, content), the deprecated ones in the root's own `properties`.
 */
const KEYWORDS: ReadonlyMap<string, Check> = new Map<string, Check>([
  // One schema.
  ...each(['items', 'contains', 'additionalProperties', 'propertyNames', 'if', 'then', 'else', 'not'], isSchema),
  ...each(['unevaluatedItems', 'unevaluatedProperties', 'contentSchema'], isSchema),
  // A non-empty list of schemas (`schemaArray`), and names to schemas.
  ...each(['prefixItems', 'allOf', 'anyOf', 'oneOf'], isSchemaArray),
  ...each(['properties', 'patternProperties', 'dependentSchemas', '$defs', 'definitions'], isSchemaMap),
  // Strings: URIs and URI references (their formats are not asserted), and the annotations.
  ...each(['$schema', '$ref', '$dynamicRef', '$recursiveRef', '$comment', 'pattern', 'format'], isString),
  ...each(['title', 'description', 'contentEncoding', 'contentMediaType'], isString),
  ...each(['$anchor', '$dynamicAnchor', '$recursiveAnchor'], isAnchor),
  ['$id', (v) => typeof v === 'string' && ID.test(v)],
  // Numbers and counts.
  ...each(['maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum'], isNumber),
  ['multipleOf', (v) => isNumber(v) && (v as number) > 0],
  ...each(['maxLength', 'minLength', 'maxItems', 'minItems', 'maxContains', 'minContains'], isNonNegativeInteger),
  ...each(['maxProperties', 'minProperties'], isNonNegativeInteger),
  // The rest of validation and meta-data.
  ['type', isType],
  ['required', isStringArray],
  ['dependentRequired', objectOf(isStringArray)],
  ...each(['enum', 'examples'], isArray),
  ...each(['uniqueItems', 'deprecated', 'readOnly', 'writeOnly'], isBoolean),
  ...each(['const', 'default'], isAny),
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
