/**
 * Which schemas can be parsed without waiting: those that run none of a tool author's code (no refinement,
 * transform, `catch`, `overwrite`, `z.custom`, `z.lazy`...), only Zod's own kinds and checks. Zod's async
 * parse differs from its sync one only in waiting for what such code returns, so for these schemas
 * `safeParse` answers as `safeParseAsync` would, without its promises and turns of the microtask queue.
 * Any other schema (and any kind or check not listed here, such as one a later Zod adds) is parsed with
 * `safeParseAsync` as always: a sync parse that met a promise would have to run the schema a second time.
 */
import { type AnyDef, defOf, isSchema, type Schema } from './def.js';

/** Kinds whose parse calls no code of the schema's author; the schemas they hold are judged in turn. */
const OWN_KINDS: ReadonlySet<string> = new Set([
  'string',
  'number',
  'boolean',
  'bigint',
  'null',
  'undefined',
  'void',
  'any',
  'unknown',
  'never',
  'nan',
  'date',
  'symbol',
  'literal',
  'enum',
  'template_literal',
  'object',
  'array',
  'tuple',
  'union',
  'intersection',
  'record',
  'map',
  'set',
  'optional',
  'nullable',
  'nonoptional',
  'readonly',
  'default',
  'pipe',
]);

/** Checks Zod runs itself (bounds, sizes, lengths, formats): no callback of the author's. */
const OWN_CHECKS: ReadonlySet<string> = new Set([
  'less_than',
  'greater_than',
  'multiple_of',
  'number_format',
  'bigint_format',
  'max_size',
  'min_size',
  'size_equals',
  'max_length',
  'min_length',
  'length_equals',
  'string_format',
  'mime_type',
]);

/** Per schema, judged once: schemas are immutable. */
const judged = new WeakMap<object, boolean>();

/** True when `schema`'s parse runs Zod's own code alone, so its sync parse is its async parse without a wait. */
export function parsesAtOnce(schema: Schema): boolean {
  let at = judged.get(schema);
  if (at === undefined) {
    at = ownCodeOnly(schema, new Set());
    judged.set(schema, at);
  }
  return at;
}

/** `seen`: schemas already judged in this walk (shared parts, judged once; a schema holds no cycle but a lazy's). */
function ownCodeOnly(schema: unknown, seen: Set<object>): boolean {
  if (!isSchema(schema)) return false;
  if (seen.has(schema)) return true;
  seen.add(schema);
  const def = defOf(schema);
  if (!OWN_KINDS.has(def.type) || !ownChecks(def)) return false;
  // A codec is a pipe with the author's `decode`.
  if (def.type === 'pipe' && (def as { transform?: unknown }).transform !== undefined) return false;
  for (const inner of held(def)) if (!ownCodeOnly(inner, seen)) return false;
  return true;
}

function ownChecks(def: AnyDef): boolean {
  for (const check of def.checks ?? []) {
    const kind = (check as { _zod?: { def?: { check?: unknown } } })._zod?.def?.check;
    if (typeof kind !== 'string' || !OWN_CHECKS.has(kind)) return false;
  }
  return true;
}

/** The schemas a kind's parse runs in turn. */
function held(def: AnyDef): unknown[] {
  switch (def.type) {
    case 'object':
      return [...Object.values(def.shape ?? {}), ...(def.catchall === undefined ? [] : [def.catchall])];
    case 'array':
    case 'set':
      return [def.element ?? (def as { valueType?: unknown }).valueType];
    case 'tuple':
      return [...(def.items ?? []), ...(def.rest ? [def.rest] : [])];
    case 'union':
      return [...(def.options ?? [])];
    case 'intersection':
      return [def.left, def.right];
    case 'record':
    case 'map':
      return [def.keyType, def.valueType];
    case 'optional':
    case 'nullable':
    case 'nonoptional':
    case 'readonly':
    case 'default':
      return [def.innerType];
    case 'pipe':
      return [def.in, (def as { out?: unknown }).out];
    default:
      return [];
  }
}
