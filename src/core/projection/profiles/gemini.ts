import { GEMINI_FORMATS } from '../../json-schema/client-limits.js';
import { declaredTypes, type JsonType, typeOfValue } from '../../json-schema/keywords.js';
import type { JsonSchema } from '../../json-schema/types.js';
import { composeDescription } from '../annotations.js';
import { dropFormatsOutside, intersectionToNode, typeListToUntyped, unionToJoin, without } from './common.js';
import { withoutNull } from './nulls.js';
import type { Rewrite, Rewrites } from './walk.js';

/** How many times a recursive definition is expanded before its `$ref` becomes a bare type. */
export const GEMINI_RECURSION_DEPTH = 3;

/**
 * EXACT in Gemini's dialect: `null` leaves the `type` list, `enum` or nullable wrapper, and is said with
 * OpenAPI's `nullable: true`, which Gemini's schema reads (so does Ajv). Beside an `enum` it is a NARROWING,
 * reported: `nullable` does not add null to an enum, and Gemini takes no null in one. It applies once one
 * type is left, or none (an untyped node admits null anyway); a wrapper around a node still to be typed
 * waits for its member to be rewritten (it runs again after the children).
 */
const nullableFlag: Rewrite = (node, ctx) => {
  const out = withoutNull(node);
  if (!out) return undefined;
  const types = declaredTypes(out);
  if (types?.length === 1) {
    // OpenAPI's `nullable` does not add null to an `enum` (3.0.3), and Gemini takes string enums only. An
    // enum of other values (a flattened tag `true | false | null`) becomes its type next (`nonStringEnum`),
    // and `nullable` then admits null: nothing is lost there.
    if (Array.isArray(out.enum) && out.enum.every((v: unknown) => typeof v === 'string')) {
      ctx.narrow(narrowedEnum(ctx.omittable));
    }
    return { ...out, nullable: true };
  }
  return types === undefined && !UNTYPED_BREAKERS.some((k) => k in out) ? out : undefined;
};

const narrowedEnum = (omittable: boolean) =>
  `null is left out of the enum, since Gemini takes enums of strings only${omittable ? '; the key is optional: leave it out for none' : ''}`;

/** Keywords that can refuse null on a node without `type`. */
const UNTYPED_BREAKERS = ['const', 'enum', 'anyOf', 'oneOf', 'allOf', '$ref', 'not', 'if'];

/** The one type of the values in `values`, `number` for a mix of integers and fractions; undefined for a mix of types. */
function typeOfAll(values: readonly unknown[]): JsonType | undefined {
  const types = new Set(values.map(typeOfValue));
  if (types.size === 2 && types.has('integer') && types.has('number')) return 'number';
  return types.size === 1 ? [...types][0] : undefined;
}

/** `node` with `type` set to `type` when it has none (a type it already has stays). */
function typed(node: JsonSchema, type: JsonType | undefined): JsonSchema {
  return 'type' in node || type === undefined ? node : { ...node, type };
}

/** EXACT: a string `const` becomes a one-value `enum`. SUPERSET: another `const` becomes its type. */
const constToEnum: Rewrite = (node) => {
  if (!('const' in node)) return undefined;
  const { const: value, ...rest } = node;
  return typeof value === 'string' ? typed({ ...rest, enum: [value] }, 'string') : typed(rest, typeOfValue(value));
};

/**
 * SUPERSET: an `enum` with values other than strings becomes the values' type; with `null` among them,
 * the other values' type and `nullable: true` (`z.literal([null, 'x'])` has no `type` for the null rule).
 */
const nonStringEnum: Rewrite = (node) => {
  if (!Array.isArray(node.enum) || node.enum.every((v: unknown) => typeof v === 'string')) return undefined;
  const { enum: values, ...rest } = node;
  const nonNull = values.filter((v: unknown) => v !== null);
  const out = typed(rest, typeOfAll(nonNull));
  return nonNull.length < values.length && 'type' in out ? { ...out, nullable: true } : out;
};

/**
 * SUPERSET: a string `enum` holding `""` becomes its type, and the description lists the values, `""`
 * included (Gemini refuses "enum[n]: cannot be empty"). Leaving `""` out would serve the model fewer
 * values than the parse takes, with no other way to say "empty".
 */
const emptyStringEnum: Rewrite = (node) => {
  if (!Array.isArray(node.enum) || !node.enum.includes('')) return undefined;
  const { enum: values, ...rest } = node;
  const listed = `One of: ${values.map((v: unknown) => JSON.stringify(v)).join(', ')}.`;
  const description = composeDescription([typeof node.description === 'string' ? node.description : undefined, listed]);
  const out = typed({ ...rest, description }, typeOfAll(values.filter((v: unknown) => v !== null)));
  // A null the enum took stays admitted: by the type list (the null rule says it next) or `nullable`.
  return values.includes(null) && !declaredTypes(out)?.includes('null') ? { ...out, nullable: true } : out;
};

/** SUPERSET: the record keywords are dropped; every key is then allowed, with any value. */
const dropRecordKeywords: Rewrite = (node) =>
  without(node, ['additionalProperties', 'propertyNames', 'patternProperties']);

/**
 * `gemini`: the OpenAPI 3.0 subset of function declarations. Recursive `$ref`s are expanded
 * `GEMINI_RECURSION_DEPTH` times, then stop at the type (SUPERSET); intersections become one object and
 * unions the typed join (SUPERSET); null becomes `nullable: true` (EXACT for Gemini); a `type`
 * list of several types is dropped (SUPERSET); `const` becomes an `enum` or a type and non-string enums
 * their type, and a string enum holding `""` its type with the values in the description (SUPERSET); record keywords and formats Gemini lacks are dropped (SUPERSET).
 */
export const GEMINI: Rewrites = {
  pre: [
    intersectionToNode,
    unionToJoin,
    typeListToUntyped,
    emptyStringEnum,
    nullableFlag,
    constToEnum,
    nonStringEnum,
    dropRecordKeywords,
    dropFormatsOutside(GEMINI_FORMATS),
  ],
  post: [nullableFlag],
};
