import { jsonEqual, validationKey } from '../json-schema/compare.js';
import { isPlainObject, type JsonSchema } from '../json-schema/types.js';
import { composeDescription, joinAnnotations, joinEqualAnnotations, labelledText, mergeLabels } from './annotations.js';
import { joinByType } from './join-by-type.js';
import type { JoinInput } from './join-types.js';
import { summarize } from './shape-summary.js';
import type { RefResolver } from './type-atoms.js';

export type { JoinInput } from './join-types.js';

export interface JoinOptions {
  /** Remove the top-level `default` even when every input has the same one (default true). */
  dropDefault?: boolean;
  /** Say what each variant expects where their shapes differ (default true). */
  note?: boolean;
}

/**
 * The schema for one position that several variants give different schemas (a flattened union's key, or
 * anything below it): it must accept every value any input accepts (the superset invariant), keep every
 * field's type and nested shape, and never carry a sibling's default.
 *
 * 1. Inputs that accept the same values (annotations aside) → kept, annotations joined.
 * 2. Otherwise the typed join (`joinByType`): type by type, recursively; `{}` only when an input was
 *    untyped already.
 * The description keeps each variant's own text (labelled when they differ) and, where the variants'
 * shapes differ, a short note of what each expects (`kind = a: { sku, qty }; kind = b: string`). Below a
 * node that has the note, positions do not repeat it.
 */
export function joinSchemas(inputs: readonly JoinInput[], resolve: RefResolver, options: JoinOptions = {}): JsonSchema {
  const value = joinValue(inputs, resolve, options.dropDefault ?? true, options.note === false);
  if (value === true) return {};
  if (value === false) return { not: {} };
  return value as JsonSchema;
}

function sameMeaning(inputs: readonly JoinInput[]): boolean {
  const first = validationKey(inputs[0]?.schema);
  return inputs.every((i) => validationKey(i.schema) === first);
}

/** `noted`: a position above already says what each variant expects. */
function joinValue(inputs: readonly JoinInput[], resolve: RefResolver, dropDefault: boolean, noted: boolean): unknown {
  // The common case first: one input, or the same field in every variant (equal JSON means equal keys).
  const first = inputs[0]?.schema;
  if (inputs.every((i) => jsonEqual(i.schema, first))) return joinEqualAnnotations(first, dropDefault);
  const labels = inputs.map((i) => i.label);
  if (sameMeaning(inputs)) {
    return joinAnnotations(
      inputs.map((i) => i.schema),
      labels,
      dropDefault,
    );
  }
  const note = noted ? undefined : shapeNote(inputs, resolve);
  const schema = joinByType(inputs, resolve, (sub, drop) => joinValue(sub, resolve, drop, noted || note !== undefined));
  const description = composeDescription([
    labelledText(
      inputs.map((i) => (isPlainObject(i.schema) ? i.schema.description : undefined)),
      labels,
    ),
    note,
  ]);
  if (description !== undefined) schema.description = description;
  return schema;
}

/** `kind = one: { id }; kind = many: array of { id }.`, grouping variants that expect the same; none when all do. */
function shapeNote(inputs: readonly JoinInput[], resolve: RefResolver): string | undefined {
  const bySummary = new Map<string, string[]>();
  for (const input of inputs) {
    const s = summarize(input.schema, resolve);
    bySummary.set(s, [...(bySummary.get(s) ?? []), input.label]);
  }
  if (bySummary.size < 2) return undefined;
  return `${[...bySummary].map(([s, ls]) => `${mergeLabels(ls)}: ${s}`).join('; ')}.`;
}
