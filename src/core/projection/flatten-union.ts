import { uniqueValues } from '../json-schema/compare.js';
import { SELECTS_VARIANT, type TagValue, tagType, tagValuesText } from '../json-schema/tag-values.js';
import { isPlainObject, type JsonSchema } from '../json-schema/types.js';
import { composeDescription, labelledText } from './annotations.js';
import { flatObject, withDescription } from './flat-object.js';
import type { RefResolver } from './type-atoms.js';

/**
 * Replaces a discriminated union node by one flat object that accepts every value the union accepts
 * (and more: the original Zod schema still parses every call, per variant). The tag becomes a required
 * `enum` of every member's values, typed by their JSON types (`"string"`, `"integer"`, `["string",
 * "null"]`), and each other key says which tag values require it or have it (`Required if v = 1`; values
 * written by `tagValueText`, so the string `"1"` and the number `1` read differently).
 *
 * `members` must be object schemas and `values[i]` the tag values of member i (see `analyzeUnion`).
 */
export function flattenUnion(
  node: JsonSchema,
  keyword: 'anyOf' | 'oneOf',
  members: readonly JsonSchema[],
  tag: string,
  values: readonly TagValue[][],
  resolve: RefResolver,
): JsonSchema {
  const labels = values.map((v) => `${tag} = ${tagValuesText(v)}`);
  // Loops, not flatMap()/flat(): `when` runs for every key of every flattened union.
  const valuesOf = (indices: readonly number[]) => {
    const out: TagValue[] = [];
    for (const i of indices) for (const v of values[i]!) out.push(v);
    return out;
  };
  const when = (indices: readonly number[]) => `${tag} = ${tagValuesText(valuesOf(indices))}`;
  const props = members.map((m) => (isPlainObject(m.properties) ? (m.properties as JsonSchema) : {}));
  const allValues = uniqueValues(valuesOf(values.map((_, i) => i)));
  const tagSchema = withDescription(
    { type: tagType(allValues), enum: allValues },
    composeDescription([
      labelledText(
        props.map((p) => (isPlainObject(p[tag]) ? authorText(p[tag].description) : undefined)),
        labels,
      ),
      `${SELECTS_VARIANT} ${tagValuesText(allValues)}.`,
    ]),
  );
  return flatObject(
    node,
    keyword,
    members,
    {
      labels,
      head: { [tag]: tagSchema },
      hint: (present, requiredIn) => {
        if (requiredIn.length > 0) {
          const only = present.length > requiredIn.length && present.length < members.length;
          return `Required if ${when(requiredIn)}.${only ? ` Only for ${when(present)}.` : ''}`;
        }
        return present.length < members.length ? `Only for ${when(present)}.` : undefined;
      },
    },
    resolve,
  );
}

/** A tag description without the sentence an inner flatten generated (the outer one lists every value). */
function authorText(description: unknown): string | undefined {
  if (typeof description !== 'string') return undefined;
  const at = description.indexOf(SELECTS_VARIANT);
  return (at < 0 ? description : description.slice(0, at)).trim() || undefined;
}
