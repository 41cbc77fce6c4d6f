/**
 * `value` frozen all the way down, in place: the documents a mount serves are shared by every request and
 * every tool that refers to them, so no handler or hook may change one. An object already frozen is taken
 * as frozen whole (a document shared by several tools is walked once).
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
