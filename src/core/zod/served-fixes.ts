/**
 * What `toJsonSchema` changes in Zod's document so that it says what the parse accepts, through Zod's own
 * `override` hook (it sees each Zod schema beside the JSON Schema written for it): a regex's flags, which
 * JSON Schema's `pattern` cannot carry, and a record whose keys are a finite set, which Zod writes as
 * `propertyNames` plus `required` and no `properties` (docs/design/flatten.md, What conversion fixes).
 */
import { cloneJson } from '../json-schema/compare.js';
import { setOwn } from '../json-schema/own-properties.js';
import { flagFreePattern } from '../json-schema/regex-flags.js';
import type { JsonSchema } from '../json-schema/types.js';
import { isPlainObject } from '../json-schema/types.js';
import { defOf, isSchema } from './def.js';

/** Something conversion changed that the report should say, at a JSON Pointer into Zod's document. */
export interface ConversionNote {
  path: string;
  code: 'pattern-flags' | 'unsafe-number';
  message: string;
}

type OverrideContext = { zodSchema: unknown; jsonSchema: JsonSchema; path: Array<string | number> };

/** The `override` for `z.toJSONSchema`, writing what it had to leave out to `notes`. */
export function servedFixes(notes: ConversionNote[]): (ctx: OverrideContext) => void {
  return (ctx) => {
    if (!isSchema(ctx.zodSchema)) return;
    const def = defOf(ctx.zodSchema);
    if (def.type === 'string') fixPatterns(def.checks ?? [], ctx, notes);
    else if (def.type === 'record') fixFiniteRecord(def, ctx.jsonSchema);
  };
}

function toPointer(path: Array<string | number>): string {
  return path.map((t) => `/${String(t).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/** Each flagged regex check's pattern, as a flag-free equivalent, or left out with a note. */
function fixPatterns(checks: readonly unknown[], ctx: OverrideContext, notes: ConversionNote[]): void {
  for (const check of checks) {
    const pattern = (check as { _zod?: { def?: { pattern?: unknown } } })._zod?.def?.pattern;
    if (!(pattern instanceof RegExp) || pattern.flags.replace(/[gdu]/g, '') === '') continue;
    const rewritten = flagFreePattern(pattern.source, pattern.flags);
    const holders = [ctx.jsonSchema, ...(Array.isArray(ctx.jsonSchema.allOf) ? ctx.jsonSchema.allOf : [])];
    for (const holder of holders) {
      if (!isPlainObject(holder) || holder.pattern !== pattern.source) continue;
      if (rewritten !== undefined) holder.pattern = rewritten;
      else {
        delete holder.pattern;
        notes.push({
          path: toPointer(ctx.path),
          code: 'pattern-flags',
          message: `pattern /${pattern.source}/${pattern.flags} left out of the served document: JSON Schema patterns take no flags and this one has no flag-free equivalent here; the parse still checks it`,
        });
      }
    }
    if (Array.isArray(ctx.jsonSchema.allOf)) {
      ctx.jsonSchema.allOf = ctx.jsonSchema.allOf.filter((s) => !isPlainObject(s) || Object.keys(s).length > 0);
      if (ctx.jsonSchema.allOf.length === 0) delete ctx.jsonSchema.allOf;
    }
  }
}

/**
 * A record whose key schema is a finite set of strings or finite numbers (`z.enum`, literals, a union of
 * them; a number as its string form, which is the key Zod accepts) as an object
 * with those properties, each with the value schema, `required` as Zod wrote it (every key, none for
 * `z.partialRecord` or an optional value). A `z.looseRecord` passes other keys through, so it stays open
 * (`additionalProperties: {}`); the others refuse them (`false`).
 */
function fixFiniteRecord(def: ReturnType<typeof defOf>, json: JsonSchema): void {
  const keyType = def.keyType;
  if (!keyType || !isSchema(keyType) || json.propertyNames === undefined || json.properties !== undefined) return;
  const values = (keyType as { _zod: { values?: Set<unknown> } })._zod.values;
  // A number literal (a numeric `z.enum`) keys the record by its string form: Zod takes `{ '1': … }`.
  if (!values || values.size === 0 || [...values].some((v) => !isKey(v))) return;
  if (json.patternProperties !== undefined) return;
  const value = json.additionalProperties ?? {};
  const properties: JsonSchema = {};
  // One copy per key: the documents are walked and rewritten as trees, never as shared graphs.
  for (const key of values) setOwn(properties, String(key), cloneJson(value));
  delete json.propertyNames;
  delete json.additionalProperties;
  const required = json.required;
  delete json.required;
  json.properties = properties;
  if (required !== undefined) json.required = required;
  // Open as a loose object is (`{}`, which a projection that closes objects reports), or closed.
  json.additionalProperties = def.mode === 'loose' ? {} : false;
}

function isKey(v: unknown): v is string | number {
  return typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));
}
