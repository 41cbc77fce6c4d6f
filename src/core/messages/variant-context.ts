/**
 * For an error inside a discriminated union, which variant the tag chose and what it requires.
 *
 * A model that sends `{ kind: "append", path: "a" }` and reads only "content: required" does not
 * learn that the rule comes from its own choice of `kind`. Naming the tag and the variant's
 * required fields (`kind = append requires path, content`) lets it fix the call in one go.
 */
import { isPlainObject } from '../json-schema/types.js';
import type { Schema } from '../zod/def.js';
import { walkPath } from '../zod/path-walk.js';
import { memberOnPath, requiredKeys, selectVariant } from '../zod/variant.js';

export interface VariantContext {
  discriminator: string;
  tag: unknown;
  /** Keys the chosen variant requires, without the discriminator itself. */
  required: string[];
  /** How many path segments lead to the variant object (0 when the union is the root). */
  depth: number;
}

/**
 * The innermost discriminated union (with a tag that selects a variant) whose object sits at a
 * prefix of `path`, walking `schema` and `value` together. Undefined when there is none. Past a key the
 * value lacks (e.g. a required field), every union meets `undefined` and stops: the context found so far
 * is the answer.
 */
export function variantContext(
  schema: Schema,
  value: unknown,
  path: ReadonlyArray<PropertyKey>,
): VariantContext | undefined {
  return walkPath<VariantContext>(schema, value, path, (union, def, v, i) => {
    if (!isPlainObject(v) && !Array.isArray(v)) return {};
    // Plain union: follow the first member of the value's kind that knows the next key.
    if (def.discriminator === undefined) return { next: memberOnPath(def.options ?? [], v, path[i]) };
    if (!isPlainObject(v)) return {};
    // As repair reads it: a tag sent as text for a numeric or boolean literal still selects its variant.
    const variant = selectVariant(union, v, { scalarText: true });
    if (!variant) return {};
    const required = requiredKeys(variant).filter((k) => k !== def.discriminator);
    return {
      next: variant,
      found: { discriminator: def.discriminator, tag: v[def.discriminator], required, depth: i },
    };
  });
}
