/**
 * Which variant of a union a value chose, read from the definitions alone (no parse). Repair follows a
 * discriminated union's tag to the one variant that will parse the value; error messages name the chosen
 * variant's required fields.
 */
import { canonicalNumber } from '../json-schema/canonical-number.js';
import { childSchema, shapeField } from './child-schemas.js';
import { defOf, isOptionalIn, isSchema, propValues, type Schema, unwrap } from './def.js';

/**
 * The variant a discriminated union's tag selects, read from Zod's per-option `propValues`
 * (which covers multi-value literals, enums and nested discriminated unions). With `scalarText`, a tag
 * sent as a string for a numeric or boolean literal (or null) selects the same variant, as scalar repair
 * would read it. An unknown or missing tag selects nothing: Zod rejects the value by the tag's path.
 */
export function selectVariant(
  union: Schema,
  value: Record<string, unknown>,
  opts: { scalarText: boolean },
): Schema | undefined {
  const def = defOf(union);
  const disc = def.discriminator;
  if (disc === undefined || !Object.hasOwn(value, disc)) return undefined;
  const tag = value[disc];
  const lookup = (t: unknown): Schema | undefined => {
    for (const option of def.options ?? []) {
      if (propValues(option, disc)?.has(t)) return option;
    }
    return undefined;
  };
  const direct = lookup(tag);
  if (direct || !opts.scalarText || typeof tag !== 'string') return direct;
  if (tag === 'true') return lookup(true);
  if (tag === 'false') return lookup(false);
  if (tag === 'null') return lookup(null);
  const n = canonicalNumber(tag);
  return n === undefined ? undefined : lookup(n);
}

/**
 * The member of a plain union that a value at a path goes through: the first member of the value's kind
 * (object-like or array-like) that knows `nextKey`, the next key on the path, else the first of its kind.
 */
export function memberOnPath(
  options: readonly Schema[],
  value: unknown,
  nextKey: PropertyKey | undefined,
): Schema | undefined {
  return (
    options.find((o) => kindMatches(o, value) && (nextKey === undefined || hasChild(o, nextKey))) ??
    options.find((o) => kindMatches(o, value))
  );
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
  if (def.type === 'object') return shapeField(def, key) !== undefined;
  return childSchema(s, key) !== undefined;
}

/** Required keys of a variant: the fields Zod requires (no optional/default/prefault marker). */
export function requiredKeys(variant: Schema): string[] {
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
