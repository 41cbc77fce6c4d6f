import { uniqueValues, validationKey } from '../json-schema/compare.js';
import type { JsonType } from '../json-schema/keywords.js';
import type { JsonSchema } from '../json-schema/types.js';
import { composeDescription, joinAnnotations, labelledText, mergeLabels, summarize } from './annotations.js';
import { type RefResolver, type TypeAtom, typeAtoms } from './type-atoms.js';

/** One variant's schema for a key, and the variant's label (`kind = a`) for descriptions. */
export interface JoinInput {
  label: string;
  schema: unknown;
}

/**
 * The schema for one key of a flattened union: it must accept every value that any input accepts
 * (the superset invariant), be as tight as the rules allow, and never carry a sibling's default.
 *
 * Rules, in order:
 * 1. Inputs that accept the same values (annotations aside) → kept, annotations joined, no default.
 * 2. Any input with no provable type (`{}`, unresolved `$ref`) → untyped `{}`: nothing narrower is safe.
 * 3. Otherwise type by type: `integer` folds into `number` when both occur; a type whose inputs agree
 *    keeps its constraints; string consts/enums join into one enum; anything else is the bare type
 *    (an array keeps `items: {}` so every array node has `items`). Several types become a `type` list;
 *    a nullable input becomes `null` in that list, never an `anyOf`.
 * Widened results get a note listing what each variant expects.
 */
export function joinSchemas(
  inputs: readonly JoinInput[],
  resolve: RefResolver,
): { schema: JsonSchema; widened: boolean } {
  const labels = inputs.map((i) => i.label);
  const first = validationKey(inputs[0]?.schema);
  if (inputs.every((i) => validationKey(i.schema) === first)) {
    const joined = joinAnnotations(
      inputs.map((i) => i.schema),
      labels,
      true,
    );
    return { schema: typeof joined === 'object' && joined !== null ? (joined as JsonSchema) : {}, widened: false };
  }

  const original = labelledText(
    inputs.map((i) =>
      typeof i.schema === 'object' && i.schema !== null ? (i.schema as JsonSchema).description : undefined,
    ),
    labels,
  );
  const note = widenNote(inputs, resolve);
  const description = composeDescription([original, note]);
  const schema = joinByType(inputs, resolve);
  if (description !== undefined) schema.description = description;
  return { schema, widened: true };
}

function joinByType(inputs: readonly JoinInput[], resolve: RefResolver): JsonSchema {
  const atoms: Array<TypeAtom & { label: string }> = [];
  for (const input of inputs) {
    const a = typeAtoms(input.schema, resolve);
    if (a === 'any') return {};
    atoms.push(...a.map((atom) => ({ ...atom, label: input.label })));
  }
  if (atoms.length === 0) return { not: {} };

  const hasNumber = atoms.some((a) => a.type === 'number');
  const groups = new Map<JsonType, Array<{ fragment: JsonSchema; label: string }>>();
  for (const atom of atoms) {
    const type = atom.type === 'integer' && hasNumber ? 'number' : atom.type;
    groups.set(type, [...(groups.get(type) ?? []), atom]);
  }
  // Type order: first appearance across variants, `null` last, so output is stable and readable.
  const types: JsonType[] = [...groups.keys()].filter((t) => t !== 'null');
  if (groups.has('null')) types.push('null');

  const fragments = new Map<JsonType, JsonSchema>();
  for (const type of types) fragments.set(type, joinFragments(type, groups.get(type)!));

  if (types.length === 1) return { type: types[0], ...fragments.get(types[0]!) };

  // `const`/`enum` constrain every type at once, so they survive only if every type is enumerated.
  const enumerated = types.every((t) => t === 'null' || valuesOf(fragments.get(t)!) !== undefined);
  if (enumerated) {
    const values = types.flatMap((t) => (t === 'null' ? [null] : valuesOf(fragments.get(t)!)!));
    return { type: types, enum: uniqueValues(values) };
  }
  const nonNull = types.filter((t) => t !== 'null');
  if (nonNull.length === 1) {
    // `X | null`: X's own constraints only ever apply to X's type, so they can stay beside the list.
    const { const: _c, enum: _e, ...rest } = fragments.get(nonNull[0]!)!;
    return { type: types, ...rest };
  }
  const out: JsonSchema = { type: types };
  if (types.includes('array')) out.items = {};
  return out;
}

/** One fragment for all atoms of one type. */
function joinFragments(type: JsonType, atoms: ReadonlyArray<{ fragment: JsonSchema; label: string }>): JsonSchema {
  const fragments = atoms.map((a) => a.fragment);
  const key = validationKey(fragments[0]);
  if (fragments.every((f) => validationKey(f) === key)) {
    // Same constraints; nested annotations (a default inside an object, say) may still differ.
    return joinAnnotations(
      fragments,
      atoms.map((a) => a.label),
      false,
    ) as JsonSchema;
  }
  if (type === 'string') {
    const lists = fragments.map(valuesOf);
    if (lists.every((l) => l?.every((v) => typeof v === 'string'))) {
      return { enum: uniqueValues(lists.flatMap((l) => l ?? [])) };
    }
  }
  return type === 'array' ? { items: {} } : {};
}

/** The values a fragment pins (its `const` or `enum`), when it pins any and has no other constraint. */
function valuesOf(fragment: JsonSchema): unknown[] | undefined {
  const keys = Object.keys(fragment);
  if (keys.length === 1 && keys[0] === 'const') return [fragment.const];
  if (keys.length === 1 && keys[0] === 'enum' && Array.isArray(fragment.enum)) return fragment.enum;
  return undefined;
}

/** `kind = one: object; kind = many: array`, grouping variants that expect the same thing. */
function widenNote(inputs: readonly JoinInput[], resolve: RefResolver): string {
  const bySummary = new Map<string, string[]>();
  for (const input of inputs) {
    const s = summarize(input.schema, resolve);
    bySummary.set(s, [...(bySummary.get(s) ?? []), input.label]);
  }
  return `${[...bySummary].map(([s, ls]) => `${mergeLabels(ls)}: ${s}`).join('; ')}.`;
}
