import { validationKey } from '../json-schema/compare.js';
import { setOwn } from '../json-schema/own-properties.js';
import { isPlainObject, type JsonSchema } from '../json-schema/types.js';
import { keepSame } from './join-scalars.js';
import type { JoinInput, SubJoin } from './join-types.js';

// Objects of several variants as one object: every variant's keys, each merged the same way, required
// where every variant requires it, closed only where every variant is closed. A flattened union's flat
// object and an object nested at any depth below a merged key are built by the same rules.

/** One object schema and the label (`kind = a`) and expanded `$ref`s of the variant it belongs to. */
export interface ObjectMember {
  schema: JsonSchema;
  label: string;
  expanding?: ReadonlySet<string>;
}

/** The inputs for one key across the members, and which members declare and require it. */
export interface KeyInputs {
  key: string;
  inputs: JoinInput[];
  /** Indices of the members that declare the key. */
  present: number[];
  /** Indices of the members that require it. */
  requiredIn: number[];
}

/**
 * Every key any member declares, in the order it first appears, with the schemas that must accept its
 * value. A member that does not declare the key adds what it lets through for undeclared keys: its
 * catch-all (`additionalProperties` present and not `false`: a loose or catch-all object passes the key on
 * to the handler) and its `patternProperties` (the key may match). A strip member (Zod's default object,
 * with no `additionalProperties`) adds nothing: Zod drops the key before the handler (ADR 0002).
 */
export function objectKeys(members: readonly ObjectMember[], skip: ReadonlySet<string> = new Set()): KeyInputs[] {
  const props = members.map((m) => (isPlainObject(m.schema.properties) ? (m.schema.properties as JsonSchema) : {}));
  const required = members.map((m) => new Set<string>(Array.isArray(m.schema.required) ? m.schema.required : []));
  const keys = new Set<string>();
  for (const p of props) for (const k of Object.keys(p)) if (!skip.has(k)) keys.add(k);
  const out: KeyInputs[] = [];
  for (const key of keys) {
    const entry: KeyInputs = { key, inputs: [], present: [], requiredIn: [] };
    for (let i = 0; i < members.length; i++) {
      const member = members[i]!;
      if (Object.hasOwn(props[i]!, key)) {
        entry.present.push(i);
        if (required[i]!.has(key)) entry.requiredIn.push(i);
        entry.inputs.push({ label: member.label, schema: props[i]![key], expanding: member.expanding });
      } else {
        for (const schema of undeclaredSchemas(member.schema)) {
          entry.inputs.push({ label: `${member.label} (undeclared key)`, schema, expanding: member.expanding });
        }
      }
    }
    out.push(entry);
  }
  return out;
}

/** What a member accepts at a key it does not declare: its pattern schemas and its catch-all. */
function undeclaredSchemas(member: JsonSchema): unknown[] {
  const out = isPlainObject(member.patternProperties) ? Object.values(member.patternProperties) : [];
  const extra = member.additionalProperties;
  if (extra !== undefined && extra !== false) out.push(extra);
  return out;
}

/**
 * `additionalProperties` for the merged object:
 * - `false` when every member refuses undeclared keys (closed, no patterns);
 * - absent when some member is a strip object (it accepts any extra key and drops it) and none lets
 *   extra keys through, or the explicit `{}` when one also does: undeclared keys reach the handler, and
 *   a union this object later joins must keep accepting them under any key;
 * - otherwise what the members let through, merged (`z.record` values of two variants).
 * `patternsKept` says the merged object keeps the members' (identical) `patternProperties`.
 */
export function joinUndeclared(members: readonly ObjectMember[], patternsKept: boolean, sub: SubJoin): unknown {
  const sources: JoinInput[] = [];
  let strip = false;
  for (const member of members) {
    const extra = member.schema.additionalProperties;
    if (extra === undefined) strip = true;
    else if (extra !== false) sources.push({ label: member.label, schema: extra, expanding: member.expanding });
    if (!patternsKept && isPlainObject(member.schema.patternProperties)) {
      for (const schema of Object.values(member.schema.patternProperties))
        sources.push({ label: member.label, schema, expanding: member.expanding });
    }
  }
  if (strip) return sources.length > 0 ? {} : undefined;
  return sources.length === 0 ? false : sub(sources, true);
}

const KEPT_WHEN_SAME = ['propertyNames', 'dependentRequired', 'dependentSchemas', 'unevaluatedProperties'];

/** The object keywords of several variants' object schemas, merged (see the file comment). */
export function joinObjects(members: readonly ObjectMember[], sub: SubJoin): JsonSchema {
  const schemas = members.map((m) => m.schema);
  const out: JsonSchema = {};
  const keys = objectKeys(members);
  if (keys.length > 0 || schemas.some((s) => 'properties' in s)) {
    const properties: JsonSchema = {};
    for (const { key, inputs, present } of keys) setOwn(properties, key, sub(inputs, present.length < members.length));
    out.properties = properties;
  }
  const required = keys.filter((k) => k.requiredIn.length === members.length).map((k) => k.key);
  if (required.length > 0) out.required = required;
  const patterns = schemas.map((s) => validationKey(s.patternProperties));
  const patternsKept = patterns.every((p) => p === patterns[0]);
  const patterned = patternsKept && schemas[0]!.patternProperties !== undefined;
  const extra = joinUndeclared(members, patternsKept, sub);
  // Never closed beside `patternProperties`: the root merge and some clients drop them, and "closed" would
  // then refuse keys the patterns let through.
  if (extra !== undefined && !(patterned && extra === false)) out.additionalProperties = extra;
  if (patterned) out.patternProperties = schemas[0]!.patternProperties;
  Object.assign(out, keepSame(schemas, KEPT_WHEN_SAME));
  const min = schemas.map((s) => s.minProperties);
  if (min.every((n) => typeof n === 'number')) out.minProperties = Math.min(...min);
  const max = schemas.map((s) => s.maxProperties);
  if (max.every((n) => typeof n === 'number')) out.maxProperties = Math.max(...max);
  return out;
}
