import { setOwn } from '../json-schema/own-properties.js';
import type { JsonSchema } from '../json-schema/types.js';
import { composeDescription } from './annotations.js';
import { joinUndeclared, objectKeys } from './join-objects.js';
import { joinSchemas } from './join-variant-schemas.js';
import type { RefResolver } from './type-atoms.js';

/** What a kind of union adds to the flat object: its leading keys, labels and per-key hints. */
export interface FlatShape {
  /** `labels[i]` names member i in descriptions (`kind = a`, or the alternative it stands for). */
  labels: readonly string[];
  /** Keys the shape builds itself (the tag), first in `properties`, required. */
  head: JsonSchema;
  /** A hint for a key, from the members that declare it and those that require it. */
  hint?: (present: readonly number[], requiredIn: readonly number[]) => string | undefined;
  /** A sentence about the union as a whole, after the node's own description. */
  summary?: string;
}

/**
 * One object for a union of object members: every key any member declares, merged by the typed join;
 * required where every member requires it; closed only where every member is closed. The union node's
 * own keywords (description, default, `$defs`, ...) stay; `discriminator` goes; the members' own
 * descriptions are kept, labelled.
 */
export function flatObject(
  node: JsonSchema,
  keyword: 'anyOf' | 'oneOf',
  members: readonly JsonSchema[],
  shape: FlatShape,
  resolve: RefResolver,
): JsonSchema {
  const objects = members.map((schema, i) => ({ schema, label: shape.labels[i]! }));
  const properties: JsonSchema = {};
  for (const key of Object.keys(shape.head)) setOwn(properties, key, shape.head[key]);
  const required = Object.keys(shape.head);
  for (const { key, inputs, present, requiredIn } of objectKeys(objects, new Set(required))) {
    const schema = joinSchemas(inputs, resolve);
    if (requiredIn.length === members.length) required.push(key);
    const hint = requiredIn.length === members.length ? undefined : shape.hint?.(present, requiredIn);
    setOwn(properties, key, withDescription(schema, composeDescription([schema.description, hint])));
  }

  const out: JsonSchema = {};
  if ('$schema' in node) out.$schema = node.$schema;
  out.type = 'object';
  out.properties = properties;
  if (required.length > 0) out.required = required;
  const extra = joinUndeclared(objects, false, (inputs) => joinSchemas(inputs, resolve));
  if (extra !== undefined) out.additionalProperties = extra;
  const description = composeDescription([
    typeof node.description === 'string' ? node.description : undefined,
    shape.summary,
    memberNotes(members, shape.labels),
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

/** Descriptions the members carried themselves, labelled, so flattening loses none of the author's text. */
function memberNotes(members: readonly JsonSchema[], labels: readonly string[]): string | undefined {
  const parts: string[] = [];
  for (let i = 0; i < members.length; i++) {
    const text = members[i]!.description;
    if (typeof text === 'string' && text.length > 0) parts.push(`${labels[i]}: ${text}`);
  }
  return parts.length > 0 ? parts.join('; ') : undefined;
}

export function withDescription(schema: JsonSchema, description: string | undefined): JsonSchema {
  if (description === undefined && !Object.hasOwn(schema, 'description')) return schema;
  // The description goes last; a loop, not rest-spread, which costs more than the rest of this file.
  const out: JsonSchema = {};
  for (const key of Object.keys(schema)) if (key !== 'description') setOwn(out, key, schema[key]);
  if (description !== undefined) out.description = description;
  return out;
}
