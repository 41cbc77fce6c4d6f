/**
 * The union a value at a path goes through, read from the definitions alone (no parse): error messages
 * name a union's alternatives and what each requires.
 */
import { valueAt } from '../json-schema/pointer.js';
import { isPlainObject } from '../json-schema/types.js';
import { childSchema } from './child-schemas.js';
import { defOf, propValues, type Schema, unwrap } from './def.js';
import { memberOnPath, requiredKeys, selectVariant } from './variant.js';

/** A union met at the end of a path: its members and, for a discriminated union, its tag. */
export interface UnionAtPath {
  options: readonly Schema[];
  discriminator?: string;
}

const MAX_HOPS = 512;

/** The union whose value sits at `path` in `value`, walking `schema` beside it; undefined when none does. */
export function unionAt(schema: Schema, value: unknown, path: ReadonlyArray<PropertyKey>): UnionAtPath | undefined {
  return descend(schema, value, path, 0, 0);
}

function descend(
  sel: Schema | undefined,
  v: unknown,
  path: ReadonlyArray<PropertyKey>,
  i: number,
  hops: number,
): UnionAtPath | undefined {
  if (!sel || hops > MAX_HOPS) return undefined;
  const s = unwrap(sel);
  if (!s) return undefined;
  const def = defOf(s);
  if (def.type === 'union' && i === path.length)
    return { options: def.options ?? [], discriminator: def.discriminator };
  if (def.type === 'union') {
    const next =
      def.discriminator !== undefined && isPlainObject(v)
        ? selectVariant(s, v, { scalarText: true })
        : memberOnPath(def.options ?? [], v, path[i]);
    return descend(next, v, path, i, hops + 1);
  }
  if (def.type === 'intersection') {
    return descend(def.right, v, path, i, hops + 1) ?? descend(def.left, v, path, i, hops + 1);
  }
  if (i >= path.length) return undefined;
  const child = valueAt(v, [path[i]!]);
  return descend(childSchema(s, path[i]!), child.found ? child.value : undefined, path, i + 1, hops + 1);
}

/** What an object member of a union declares and requires; undefined when the member is not an object. */
export function objectMemberKeys(option: Schema): { declared: string[]; required: string[] } | undefined {
  const s = unwrap(option);
  if (!s) return undefined;
  const def = defOf(s);
  if (def.type !== 'object') return undefined;
  return { declared: Object.keys(def.shape ?? {}), required: requiredKeys(s) };
}

/** The literal values a member pins for `key` (its tag values), as Zod records them. */
export function memberTagValues(option: Schema, key: string): unknown[] {
  const s = unwrap(option);
  if (!s) return [];
  return [...(propValues(s, key) ?? [])];
}
