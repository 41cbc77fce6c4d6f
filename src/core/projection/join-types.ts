import type { TypeAtom } from './type-atoms.js';

/** One variant's schema at a merged position, and the variant's label (`kind = a`) for descriptions. */
export interface JoinInput {
  label: string;
  schema: unknown;
  /** `$ref`s already expanded on the way to this position (see `TypeAtom.via`). */
  expanding?: ReadonlySet<string>;
}

/** An atom with the label of the variant it came from. */
export interface LabelledAtom extends TypeAtom {
  label: string;
}

/**
 * Joins the inputs of one sub-position (a property, the items, a tuple slot) the same way, recursively.
 * `dropDefault` removes a `default` that not every variant reaching the position would apply.
 */
export type SubJoin = (inputs: readonly JoinInput[], dropDefault: boolean) => unknown;
