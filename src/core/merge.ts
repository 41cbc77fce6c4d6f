import type { JsonSchema } from './json-schema.js';

/** One root object to merge: which slice of the arguments it describes, and its served schema. */
export interface RootPart {
  slice: 'params' | 'input' | 'extend';
  schema: JsonSchema;
}

export type MergeResult =
  | { ok: true; schema: JsonSchema }
  | { ok: false; conflicts: Array<{ key: string; slices: string[] }> };

/**
 * Merges the `params`, `input` and `extend` root objects into the one object a model sees
 * (never `allOf`; issue 2, "Advertised schema"). A key in two slices is a conflict the mount refuses,
 * because the call-time split by key would be ambiguous (flatten.md SK-27, SK-28).
 * `additionalProperties` and the root `description` follow the input side (SK-29, SK-47): unknown keys
 * end up in the input slice, so the input schema decides whether they are allowed.
 */
export function mergeRootObjects(parts: RootPart[]): MergeResult {
  const owner = new Map<string, string>();
  const conflicts = new Map<string, string[]>();
  for (const part of parts) {
    for (const key of Object.keys(part.schema.properties ?? {})) {
      const first = owner.get(key);
      if (first === undefined) owner.set(key, part.slice);
      else conflicts.set(key, [...(conflicts.get(key) ?? [first]), part.slice]);
    }
  }
  if (conflicts.size > 0) {
    return { ok: false, conflicts: [...conflicts].map(([key, slices]) => ({ key, slices })) };
  }

  const input = parts.find((p) => p.slice === 'input')?.schema ?? {};
  const merged: JsonSchema = { type: 'object' };
  if (typeof input.description === 'string') merged.description = input.description;
  if (typeof input.title === 'string') merged.title = input.title;
  merged.properties = Object.assign({}, ...parts.map((p) => p.schema.properties ?? {}));
  const required = parts.flatMap((p) => (Array.isArray(p.schema.required) ? p.schema.required : []));
  if (required.length > 0) merged.required = required;
  if ('additionalProperties' in input) merged.additionalProperties = input.additionalProperties;
  const defs = Object.assign({}, ...parts.map((p) => p.schema.$defs ?? {}));
  if (Object.keys(defs).length > 0) merged.$defs = defs;
  return { ok: true, schema: merged };
}
