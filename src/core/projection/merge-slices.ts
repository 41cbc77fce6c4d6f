import { mapSubschemas, someSubschema } from '../json-schema/keywords.js';
import { setOwn } from '../json-schema/own-properties.js';
import { localRefTokens, pointer } from '../json-schema/pointer.js';
import { isPlainObject, type JsonSchema } from '../json-schema/types.js';

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
 * (never `allOf`; docs/design/flatten.md, Root merge). A key in two slices is a conflict the mount refuses,
 * because the call-time split by key would be ambiguous.
 * `additionalProperties` and the root `description` follow the input side: unknown keys
 * end up in the input slice, so the input schema decides whether they are allowed.
 */
export function mergeRootObjects(parts: RootPart[], options: { keepRootKeywords?: boolean } = {}): MergeResult {
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

  // One slice alone is the root; merged, a slice's `#` no longer names its own root (see `hoistRoot`).
  const own = parts.length > 1 ? parts.map(hoistRoot) : parts;
  const input = own.find((p) => p.slice === 'input')?.schema ?? {};
  const defs = mergeDefs(own);
  const merged: JsonSchema = {};
  // The faithful document keeps its dialect and what the author wrote at the input's root.
  const dialect = options.keepRootKeywords ? parts.find((p) => typeof p.schema.$schema === 'string') : undefined;
  if (dialect) merged.$schema = dialect.schema.$schema;
  merged.type = 'object';
  if (typeof input.description === 'string') merged.description = input.description;
  if (typeof input.title === 'string') merged.title = input.title;
  merged.properties = ownAssign(defs.parts.map((p) => p.properties ?? {}));
  const required = parts.flatMap((p) => (Array.isArray(p.schema.required) ? p.schema.required : []));
  if (required.length > 0) merged.required = required;
  if ('patternProperties' in input) merged.patternProperties = input.patternProperties;
  if ('additionalProperties' in input) merged.additionalProperties = input.additionalProperties;
  if (options.keepRootKeywords) {
    const renamedInput = defs.parts[own.findIndex((p) => p.slice === 'input')] ?? {};
    for (const key of Object.keys(renamedInput)) {
      // Keywords about the whole key set would count the other slices' keys too: left out (a superset).
      if (HANDLED.has(key) || (own.length > 1 && KEY_SET.has(key))) continue;
      setOwn(merged, key, renamedInput[key]);
    }
  }
  if (Object.keys(defs.defs).length > 0) merged.$defs = defs.defs;
  return { ok: true, schema: merged };
}

/** Root keywords the merge writes itself; with `keepRootKeywords` the input's others are copied as they are. */
const HANDLED: ReadonlySet<string> = new Set([
  '$schema',
  'type',
  'description',
  'title',
  'properties',
  'required',
  'patternProperties',
  'additionalProperties',
  '$defs',
]);

/** Root keywords that constrain every key of the object, which the merged root has more of than the slice. */
const KEY_SET: ReadonlySet<string> = new Set(['propertyNames', 'minProperties', 'maxProperties']);

/**
 * A recursive slice refers to its own root with `$ref: "#"` (or `#/properties/...`). Merged into one root
 * object with other slices, `#` would name the merged root, whose other slices' required keys every nested
 * node would then need. So the slice's root is copied into `$defs` (as `<slice>_root`) and those references
 * point there; the slice's root keywords still make the merged root. Returns `part` itself when it has none.
 */
function hoistRoot(part: RootPart): RootPart {
  if (!refersToRoot(part.schema)) return part;
  const defs = isPlainObject(part.schema.$defs) ? part.schema.$defs : {};
  let name = `${part.slice}_root`;
  for (let i = 2; Object.hasOwn(defs, name); i++) name = `${part.slice}_root_${i}`;
  const rewrite = (node: unknown): unknown => {
    if (!isPlainObject(node)) return node;
    const walked = mapSubschemas(node, rewrite);
    const tokens = typeof walked.$ref === 'string' ? localRefTokens(walked.$ref) : undefined;
    if (tokens === undefined || tokens[0] === '$defs' || tokens[0] === 'definitions') return walked;
    return { ...walked, $ref: `#${pointer('', '$defs', name, ...tokens)}` };
  };
  const schema = rewrite(part.schema) as JsonSchema;
  const { $defs: rewrittenDefs, $schema: _dialect, ...body } = schema;
  return {
    ...part,
    schema: { ...schema, $defs: { ...(isPlainObject(rewrittenDefs) ? rewrittenDefs : {}), [name]: body } },
  };
}

/** True when some `$ref` below `node` points into the root itself rather than into `$defs`. */
function refersToRoot(node: unknown): boolean {
  if (!isPlainObject(node)) return false;
  const tokens = typeof node.$ref === 'string' ? localRefTokens(node.$ref) : undefined;
  if (tokens !== undefined && tokens[0] !== '$defs' && tokens[0] !== 'definitions') return true;
  return someSubschema(node, refersToRoot);
}

/** Copies own keys as own properties: a property named `__proto__` stays a property (never a prototype). */
function ownAssign(sources: JsonSchema[]): JsonSchema {
  const out: JsonSchema = {};
  for (const source of sources) for (const key of Object.keys(source)) setOwn(out, key, source[key]);
  return out;
}

/**
 * Each slice is converted on its own, so Zod names each slice's recursive definitions from scratch
 * (`__schema0` in params and in input alike). A name already taken by a different definition is renamed
 * for its slice (`input___schema0`) and that slice's `$ref`s are rewritten, so no property ever points at
 * another slice's definition.
 */
function mergeDefs(parts: RootPart[]): { defs: JsonSchema; parts: JsonSchema[] } {
  const defs: JsonSchema = {};
  const out = parts.map((part) => {
    const own = (part.schema.$defs ?? {}) as JsonSchema;
    const renames = new Map<string, string>();
    for (const name of Object.keys(own)) {
      if (!Object.hasOwn(defs, name) || JSON.stringify(defs[name]) === JSON.stringify(own[name])) continue;
      let renamed = `${part.slice}_${name}`;
      for (let i = 2; Object.hasOwn(defs, renamed) || Object.hasOwn(own, renamed); i++)
        renamed = `${part.slice}_${name}_${i}`;
      renames.set(name, renamed);
    }
    const schema = renames.size > 0 ? (renameRefs(part.schema, renames) as JsonSchema) : part.schema;
    for (const [name, def] of Object.entries((schema.$defs ?? {}) as JsonSchema)) {
      setOwn(defs, renames.get(name) ?? name, def);
    }
    return schema;
  });
  return { defs, parts: out };
}

/** Rewrites `#/$defs/<old>` references at schema positions (never inside data such as `const` or `default`). */
function renameRefs(node: unknown, renames: ReadonlyMap<string, string>): unknown {
  if (!isPlainObject(node)) return node;
  const walked = mapSubschemas(node, (child) => renameRefs(child, renames));
  const tokens = typeof walked.$ref === 'string' ? localRefTokens(walked.$ref) : undefined;
  if (tokens !== undefined && tokens.length >= 2 && tokens[0] === '$defs') {
    const target = renames.get(tokens[1]!);
    if (target !== undefined) return { ...walked, $ref: `#${pointer('', '$defs', target, ...tokens.slice(2))}` };
  }
  return walked;
}
