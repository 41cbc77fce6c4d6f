/**
 * The union a value at a path goes through, read from the definitions alone (no parse): error messages
 * name a union's alternatives and what each requires.
 */
import { isPlainObject } from '../json-schema/types.js';
import { defOf, propValues, type Schema, unwrap } from './def.js';
import { walkPath } from './path-walk.js';
import { memberOnPath, requiredKeys, selectVariant } from './variant.js';

/** A union met at the end of a path: its members and, for a discriminated union, its tag. */
export interface UnionAtPath {
  options: readonly Schema[];
  discriminator?: string;
}

/** The union whose value sits at `path` in `value`, walking `schema` beside it; undefined when none does. */
export function unionAt(schema: Schema, value: unknown, path: ReadonlyArray<PropertyKey>): UnionAtPath | undefined {
  return walkPath<UnionAtPath>(schema, value, path, (union, def, v, i) => {
    if (i === path.length) return { found: { options: def.options ?? [], discriminator: def.discriminator } };
    const next =
      def.discriminator !== undefined && isPlainObject(v)
        ? selectVariant(union, v, { scalarText: true })
        : memberOnPath(def.options ?? [], v, path[i]);
    return { next };
  });
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
