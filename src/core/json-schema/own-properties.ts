// Schema keys are data: a property, `$defs` entry or keyword may be named `__proto__`. Plain assignment
// (`obj[key] = v`) would set the object's prototype for that name and lose the key, and `key in obj`
// is true for it on every object. Every object this folder builds from schema keys goes through here.

/** Sets `key` as an own, enumerable data property (also when `key` is `__proto__`); returns `target`. */
export function setOwn<T extends object>(target: T, key: string | number, value: unknown): T {
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else (target as Record<string | number, unknown>)[key] = value;
  return target;
}

/** `node[key]` when `node` has it as an own property, else undefined (never an inherited value). */
export function ownValue(node: unknown, key: string | number): unknown {
  if (typeof node !== 'object' || node === null) return undefined;
  return Object.hasOwn(node, key) ? (node as Record<string | number, unknown>)[key] : undefined;
}
