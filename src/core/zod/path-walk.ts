/**
 * The walk error messages take down a path: a schema and a value side by side, through wrappers, into object
 * and array children, trying an intersection's right side then its left, and letting the caller decide at each
 * union which member to go on into and what it found there. Read from the definitions alone (no parse).
 */
import { valueAt } from '../json-schema/pointer.js';
import { childSchema } from './child-schemas.js';
import { type AnyDef, defOf, type Schema, unwrap } from './def.js';

/**
 * What a walk does at a union met with `value` after `i` segments of the path: the member to go on into (none:
 * stop here), and what it found, which replaces what the walk found so far.
 */
export type AtUnion<R> = (
  union: Schema,
  def: AnyDef,
  value: unknown,
  i: number,
) => { next?: Schema | undefined; found?: R };

/** Steps past which a walk stops (a recursive schema is walked at most this far). */
const MAX_HOPS = 512;

/**
 * Walks `schema` beside `value` down `path`; returns what `atUnion` found last on the way (undefined when
 * nothing). A key the value lacks is walked on with `undefined` as its value.
 */
export function walkPath<R>(
  schema: Schema,
  value: unknown,
  path: ReadonlyArray<PropertyKey>,
  atUnion: AtUnion<R>,
): R | undefined {
  function descend(sel: Schema | undefined, v: unknown, i: number, found: R | undefined, hops: number): R | undefined {
    if (!sel || hops > MAX_HOPS) return found;
    const s = unwrap(sel);
    if (!s) return found;
    const def = defOf(s);
    if (def.type === 'union') {
      const step = atUnion(s, def, v, i);
      return descend(step.next, v, i, 'found' in step ? step.found : found, hops + 1);
    }
    if (def.type === 'intersection') {
      const right = descend(def.right, v, i, found, hops + 1);
      if (right !== found) return right;
      return descend(def.left, v, i, found, hops + 1);
    }
    if (i >= path.length) return found;
    const key = path[i]!;
    const child = valueAt(v, [key]);
    return descend(childSchema(s, key), child.found ? child.value : undefined, i + 1, found, hops + 1);
  }
  return descend(schema, value, 0, undefined, 0);
}
