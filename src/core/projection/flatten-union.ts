import { uniqueValues } from '../json-schema/compare.js';
import { setOwn } from '../json-schema/own-properties.js';
import { isPlainObject, type JsonSchema } from '../json-schema/types.js';
import { composeDescription, labelledText } from './annotations.js';
import { joinUndeclared, objectKeys } from './join-objects.js';
import { joinSchemas } from './join-variant-schemas.js';
import type { RefResolver } from './type-atoms.js';

/**
 * Replaces a discriminated union node by one flat object that accepts every value the union accepts
 * (and more: the original Zod schema still parses every call, per variant). The union's own siblings
 * (description, default, `$defs`, ...) stay on the node; the variants' own annotations move into
 * labelled descriptions.
 *
 * `members` must be object schemas and `values[i]` the tag values of member i (see `analyzeUnion`).
 */
export function flattenUnion(
  node: JsonSchema,
  keyword: 'anyOf' | 'oneOf',
  members: readonly JsonSchema[],
  tag: string,
  values: readonly string[][],
  resolve: RefResolver,
): JsonSchema {
  const n = members.length;
  const labels = values.map((v) => `${tag} = ${v.join(' | ')}`);
  const when = (indices: readonly number[]) => `${tag} = ${indices.flatMap((i) => values[i]!).join(' | ')}`;
  const objects = members.map((schema, i) => ({ schema, label: labels[i]! }));
  const props = members.map((m) => (isPlainObject(m.properties) ? (m.properties as JsonSchema) : {}));

  const allValues = uniqueValues(values.flat());
  const properties: JsonSchema = {
    [tag]: withDescription(
      { type: 'string', enum: allValues },
      composeDescription([
        labelledText(
          props.map((p) => (isPlainObject(p[tag]) ? authorText(p[tag].description) : undefined)),
          labels,
        ),
        `${SELECTS} ${allValues.join(' | ')}.`,
      ]),
    ),
  };
  const required: string[] = [tag];

  for (const { key, inputs, present, requiredIn } of objectKeys(objects, new Set([tag]))) {
    const { schema } = joinSchemas(inputs, resolve);
    let hint: string | undefined;
    if (requiredIn.length === n) required.push(key);
    else if (requiredIn.length > 0) {
      hint = `Required if ${when(requiredIn)}.`;
      if (present.length > requiredIn.length && present.length < n) hint += ` Only for ${when(present)}.`;
    } else if (present.length < n) hint = `Only for ${when(present)}.`;
    setOwn(properties, key, withDescription(schema, composeDescription([schema.description, hint])));
  }

  const out: JsonSchema = {};
  if ('$schema' in node) out.$schema = node.$schema;
  out.type = 'object';
  out.properties = properties;
  out.required = required;
  const extra = joinUndeclared(objects, false, (inputs) => joinSchemas(inputs, resolve).schema);
  if (extra !== undefined) out.additionalProperties = extra;
  const description = composeDescription([
    typeof node.description === 'string' ? node.description : undefined,
    variantNotes(members, labels),
  ]);
  if (description !== undefined) out.description = description;
  for (const key of Object.keys(node)) {
    if (
      key === keyword ||
      key === 'type' ||
      key === 'description' ||
      key === 'discriminator' ||
      Object.hasOwn(out, key)
    )
      continue;
    setOwn(out, key, node[key]);
  }
  return out;
}

const SELECTS = 'Selects the variant:';

/** A tag description without the sentence an inner flatten generated (the outer one lists every value). */
function authorText(description: unknown): string | undefined {
  if (typeof description !== 'string') return undefined;
  const at = description.indexOf(SELECTS);
  return (at < 0 ? description : description.slice(0, at)).trim() || undefined;
}

/** Descriptions the variants carried themselves, labelled, so flattening loses none of the author's text. */
function variantNotes(members: readonly JsonSchema[], labels: readonly string[]): string | undefined {
  const parts = members.flatMap((m, i) =>
    typeof m.description === 'string' && m.description.length > 0 ? [`${labels[i]}: ${m.description}`] : [],
  );
  return parts.length > 0 ? parts.join('; ') : undefined;
}

function withDescription(schema: JsonSchema, description: string | undefined): JsonSchema {
  const { description: _old, ...rest } = schema;
  return description === undefined ? rest : { ...rest, description };
}
