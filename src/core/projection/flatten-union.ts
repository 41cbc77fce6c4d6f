import { uniqueValues } from '../json-schema/compare.js';
import { setOwn } from '../json-schema/own-properties.js';
import { isPlainObject, type JsonSchema } from '../json-schema/types.js';
import { composeDescription, labelledText } from './annotations.js';
import { type JoinInput, joinSchemas } from './join-variant-schemas.js';
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
  const props = members.map((m) => (isPlainObject(m.properties) ? (m.properties as JsonSchema) : {}));
  const req = members.map((m) => new Set<string>(Array.isArray(m.required) ? m.required : []));

  const keys: string[] = [tag];
  for (const p of props) for (const k of Object.keys(p)) if (!keys.includes(k)) keys.push(k);

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

  for (const key of keys.slice(1)) {
    const present: number[] = [];
    const inputs: JoinInput[] = [];
    for (let i = 0; i < n; i++) {
      if (Object.hasOwn(props[i]!, key)) {
        present.push(i);
        inputs.push({ label: labels[i]!, schema: props[i]![key] });
      } else {
        // A variant that lets undeclared keys through (loose object, catch-all) passes this key on too,
        // with whatever its catch-all allows, so its values must stay acceptable. Zod's default
        // (strip) objects emit no `additionalProperties`: the key is dropped before the handler, so
        // those variants do not widen the key.
        const extra = members[i]!.additionalProperties;
        if (extra !== undefined && extra !== false)
          inputs.push({ label: `${labels[i]} (undeclared key)`, schema: extra });
      }
    }
    const requiredIn = present.filter((i) => req[i]!.has(key));
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
  if (members.every((m) => m.additionalProperties === false)) out.additionalProperties = false;
  else if (members.some((m) => m.additionalProperties !== undefined && m.additionalProperties !== false)) {
    // Open either way, but an explicit `{}` says undeclared keys reach the handler (a loose or
    // catch-all variant). A union this object later joins must still accept them under any key.
    out.additionalProperties = {};
  }
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
