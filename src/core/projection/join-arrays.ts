import { isPlainObject, type JsonSchema } from '../json-schema/types.js';
import { keepSame } from './join-scalars.js';
import type { JoinInput, SubJoin } from './join-types.js';

// Arrays of several variants as one array: the items merged, tuple slots merged position by position,
// and the loosest length bounds. A slot a variant's tuple does not have takes that variant's rest schema.

/** One array schema and the label and expanded `$ref`s of the variant it belongs to. */
export interface ArrayMember {
  schema: JsonSchema;
  label: string;
  expanding?: ReadonlySet<string>;
}

/** What a member allows past its own tuple slots: a schema, anything (no `items`), or nothing (`items: false`). */
function rest(member: ArrayMember): JoinInput | 'none' {
  const items = member.schema.items;
  if (items === false) return 'none';
  return { label: member.label, schema: items === undefined ? {} : items, expanding: member.expanding };
}

function slots(member: ArrayMember): unknown[] {
  return Array.isArray(member.schema.prefixItems) ? member.schema.prefixItems : [];
}

const KEPT_WHEN_SAME = ['contains', 'minContains', 'maxContains', 'unevaluatedItems'];

/** The array keywords of several variants' array schemas, merged (see the file comment). */
export function joinArrays(members: readonly ArrayMember[], sub: SubJoin): JsonSchema {
  const out: JsonSchema = {};
  const length = Math.max(...members.map((m) => slots(m).length));
  if (length > 0) {
    out.prefixItems = Array.from({ length }, (_, i) => {
      const inputs: JoinInput[] = [];
      for (const member of members) {
        const own = slots(member);
        const input =
          i < own.length ? { label: member.label, schema: own[i], expanding: member.expanding } : rest(member);
        if (input !== 'none') inputs.push(input);
      }
      return sub(inputs, inputs.length < members.length);
    });
  }
  const rests = members.map(rest).filter((r): r is JoinInput => r !== 'none');
  out.items = rests.length === 0 ? false : sub(rests, rests.length < members.length);
  const schemas = members.map((m) => m.schema);
  const min = schemas.map((s) => s.minItems);
  if (min.every((n) => typeof n === 'number')) out.minItems = Math.min(...min);
  const max = schemas.map((s) => s.maxItems);
  if (max.every((n) => typeof n === 'number')) out.maxItems = Math.max(...max);
  if (schemas.every((s) => s.uniqueItems === true)) out.uniqueItems = true;
  Object.assign(out, keepSame(schemas, KEPT_WHEN_SAME));
  return out;
}

/** Pre-2020 tuples (`items` as a list, `additionalItems`) are not merged slot by slot. */
export function isLegacyTuple(schema: JsonSchema): boolean {
  return Array.isArray(schema.items) || isPlainObject(schema.additionalItems) || schema.additionalItems === false;
}
