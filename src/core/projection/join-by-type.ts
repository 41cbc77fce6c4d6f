import { validationKey } from '../json-schema/compare.js';
import type { JsonType } from '../json-schema/keywords.js';
import type { JsonSchema } from '../json-schema/types.js';
import { joinAnnotations } from './annotations.js';
import { isLegacyTuple, joinArrays } from './join-arrays.js';
import { joinObjects } from './join-objects.js';
import { joinBooleans, joinNumbers, joinPins, joinStrings, pinnedValues } from './join-scalars.js';
import type { JoinInput, LabelledAtom, SubJoin } from './join-types.js';
import { type RefResolver, typeAtoms } from './type-atoms.js';

// The typed join: inputs that disagree are read as their type atoms, grouped by JSON type, and each type's
// keywords are merged by that type's rules, recursively into properties, items and tuple slots. The
// families of keywords are disjoint per type, so several types stand in one node side by side
// (`type: ["object", "array"]` with `properties` for the objects and `items` for the arrays): the
// document needs no combinator, and every field keeps its type and nested shape.

/**
 * One schema that accepts every value any input accepts. `{}` only when some input has no provable type
 * (it was untyped already); `{not: {}}` when no input admits anything.
 */
export function joinByType(inputs: readonly JoinInput[], resolve: RefResolver, sub: SubJoin): JsonSchema {
  const atoms: LabelledAtom[] = [];
  for (const input of inputs) {
    const a = typeAtoms(input.schema, resolve, input.expanding);
    if (a === 'any') return {};
    atoms.push(...a.map((atom) => ({ ...atom, label: input.label })));
  }
  if (atoms.length === 0) return { not: {} };

  const hasNumber = atoms.some((a) => a.type === 'number');
  const groups = new Map<JsonType, LabelledAtom[]>();
  for (const atom of atoms) {
    const type = atom.type === 'integer' && hasNumber ? 'number' : atom.type;
    groups.set(type, [...(groups.get(type) ?? []), atom]);
  }
  // Type order: first appearance across variants, `null` last, so output is stable and readable.
  const types: JsonType[] = [...groups.keys()].filter((t) => t !== 'null');
  if (groups.has('null')) types.push('null');
  const fragments = types.map((type) => joinType(type, groups.get(type)!, sub));
  if (types.length === 1) return { type: types[0], ...fragments[0] };

  // `const`/`enum` constrain every type at once, so they survive only when every type is pinned.
  const pins = fragments.map((f, i) => (types[i] === 'null' ? [null] : pinnedValues(f)));
  const out: JsonSchema = { type: types };
  for (const fragment of fragments) {
    const { const: _c, enum: _e, ...rest } = fragment;
    Object.assign(out, rest);
  }
  if (pins.every((p) => p !== undefined)) out.enum = pins.flat();
  return out;
}

/** The keywords of one type, merged across the atoms of that type. */
function joinType(type: JsonType, atoms: readonly LabelledAtom[], sub: SubJoin): JsonSchema {
  const fragments = atoms.map((a) => a.fragment);
  if (atoms.some((a) => a.shallow)) {
    // A recursive definition met again: its shape is not expanded twice, so only its type is said.
    return type === 'array' ? { items: {} } : {};
  }
  const key = validationKey(fragments[0]);
  if (fragments.every((f) => validationKey(f) === key)) {
    // Same constraints; nested annotations (a default inside an object, say) may still differ.
    return joinAnnotations(
      fragments,
      atoms.map((a) => a.label),
      false,
    ) as JsonSchema;
  }
  const members = atoms.map((a) => ({ schema: a.fragment, label: a.label, expanding: a.via }));
  switch (type) {
    case 'object':
      return withPins(joinObjects(members, sub), fragments);
    case 'array':
      if (fragments.some(isLegacyTuple)) return { items: {} };
      return withPins(joinArrays(members, sub), fragments);
    case 'string':
      return joinStrings(fragments);
    case 'number':
    case 'integer':
      return joinNumbers(fragments);
    case 'boolean':
      return joinBooleans(fragments);
    default:
      return {};
  }
}

/** Object and array literals (rare: `z.literal` takes scalars) stay pinned when every variant pins. */
function withPins(out: JsonSchema, fragments: readonly JsonSchema[]): JsonSchema {
  const pins = joinPins(fragments);
  if (pins) out.enum = pins;
  return out;
}
