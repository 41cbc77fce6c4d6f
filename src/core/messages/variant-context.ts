/**
 * For an error inside a discriminated union, which variant the tag chose and what it requires.
 *
 * A model that sends `{ kind: "append", path: "a" }` and reads only "content: required" does not
 * learn that the rule comes from its own choice of `kind`. Naming the tag and the variant's
 * required fields (`kind = append requires path, content`) lets it fix the call in one go.
 */
import { isPlainObject } from '../json-schema/types.js';
import { selectVariant } from '../repair/selection.js';
import type { RepairSwitches } from '../repair/types.js';
import { defOf, isOptionalIn, isSchema, type Schema, unwrap } from '../zod/def.js';

export interface VariantContext {
  discriminator: string;
  tag: unknown;
  /** Keys the chosen variant requires, without the discriminator itself. */
  required: string[];
  /** How many path segments lead to the variant object (0 when the union is the root). */
  depth: number;
}

const SWITCHES: RepairSwitches = { json: true, scalars: true };

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
      const variant = selectVariant(s, v, SWITCHES);
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
    const options = def.options ?? [];
    const key = path[i];
    const pick =
      options.find((o) => kindMatches(o, v) && (key === undefined || hasChild(o, key))) ??
      options.find((o) => kindMatches(o, v));
    return descend(pick, v, path, i, found, hops + 1);
  }
  if (def.type === 'intersection') {
    const right = descend(def.right, v, path, i, found, hops + 1);
    if (right !== found) return right;
    return descend(def.left, v, path, i, found, hops + 1);
  }
  if (i >= path.length) return found;
  const key = path[i]!;
  if (typeof v !== 'object' || v === null || typeof key === 'symbol' || !Object.hasOwn(v, key)) {
    // The key is missing (e.g. a required field): the context found so far is the answer.
    return found;
  }
  const next = (v as Record<PropertyKey, unknown>)[key];
  return descend(childSchema(s, key), next, path, i + 1, found, hops + 1);
}

function kindMatches(option: Schema, v: unknown): boolean {
  const s = unwrap(option);
  if (!s) return false;
  const type = defOf(s).type;
  if (Array.isArray(v)) return type === 'array' || type === 'tuple' || type === 'union' || type === 'intersection';
  return type === 'object' || type === 'record' || type === 'union' || type === 'intersection';
}

function hasChild(option: Schema, key: PropertyKey): boolean {
  const s = unwrap(option);
  if (!s) return false;
  const def = defOf(s);
  if (def.type === 'object') return typeof key === 'string' && Object.hasOwn(def.shape ?? {}, key);
  return childSchema(s, key) !== undefined;
}

function childSchema(s: Schema, key: PropertyKey): Schema | undefined {
  const def = defOf(s);
  switch (def.type) {
    case 'object':
      return typeof key === 'string' && Object.hasOwn(def.shape ?? {}, key) ? def.shape![key] : def.catchall;
    case 'record':
      return def.valueType;
    case 'array':
      return def.element;
    case 'tuple':
      if (typeof key !== 'number') return undefined;
      return key < (def.items?.length ?? 0) ? def.items![key] : (def.rest ?? undefined);
    default:
      return undefined;
  }
}

/** Required keys of a variant: the fields Zod requires (no optional/default/prefault marker). */
function requiredKeys(variant: Schema): string[] {
  const s = unwrap(variant);
  if (!s || !isSchema(s)) return [];
  const def = defOf(s);
  if (def.type === 'object') {
    const shape = def.shape ?? {};
    return Object.keys(shape).filter((k) => !isOptionalIn(shape[k]!));
  }
  if (def.type === 'intersection') {
    const keys = [...requiredKeys(def.left!), ...requiredKeys(def.right!)];
    return [...new Set(keys)];
  }
  return [];
}
