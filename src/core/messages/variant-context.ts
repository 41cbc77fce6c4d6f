/**
 * For an error inside a discriminated union, which variant the tag chose and what it requires.
 *
 * A model that sends `{ kind: "append", path: "a" }` and reads only "content: required" does not
 * learn that the rule comes from its own choice of `kind`. Naming the tag and the variant's
 * required fields (`kind = append requires path, content`) lets it fix the call in one go.
 */
import { valueAt } from '../json-schema/pointer.js';
import { isPlainObject } from '../json-schema/types.js';
import { childSchema } from '../zod/child-schemas.js';
import { defOf, type Schema, unwrap } from '../zod/def.js';
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
 * prefix of `path`, walking `schema` and `value` together. Undefined when there is none.
 */
export function variantContext(
  schema: Schema,
  value: unknown,
  path: ReadonlyArray<PropertyKey>,
): VariantContext | undefined {
  return descend(schema, value, path, 0, undefined, 0);
}

const MAX_HOPS = 512;

function descend(
  sel: Schema | undefined,
  v: unknown,
  path: ReadonlyArray<PropertyKey>,
  i: number,
  found: VariantContext | undefined,
  hops: number,
): VariantContext | undefined {
  if (!sel || hops > MAX_HOPS) return found;
  const s = unwrap(sel);
  if (!s) return found;
  const def = defOf(s);
  if (def.type === 'union') {
    if (!isPlainObject(v) && !Array.isArray(v)) return found;
    if (def.discriminator !== undefined) {
      if (!isPlainObject(v)) return found;
      // As repair reads it: a tag sent as text for a numeric or boolean literal still selects its variant.
      const variant = selectVariant(s, v, { scalarText: true });
      if (!variant) return found;
      const here: VariantContext = {
        discriminator: def.discriminator,
        tag: v[def.discriminator],
        required: requiredKeys(variant).filter((k) => k !== def.discriminator),
        depth: i,
      };
      return descend(variant, v, path, i, here, hops + 1);
    }
    // Plain union: follow the first member of the value's kind that knows the next key.
    return descend(memberOnPath(def.options ?? [], v, path[i]), v, path, i, found, hops + 1);
  }
  if (def.type === 'intersection') {
    const right = descend(def.right, v, path, i, found, hops + 1);
    if (right !== found) return right;
    return descend(def.left, v, path, i, found, hops + 1);
  }
  if (i >= path.length) return found;
  const key = path[i]!;
  const child = valueAt(v, [key]);
  // The key is missing (e.g. a required field): the context found so far is the answer.
  if (!child.found) return found;
  return descend(childSchema(s, key), child.value, path, i + 1, found, hops + 1);
}
