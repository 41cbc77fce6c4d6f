import { defOf, isSchema } from './def.js';

// Zod schemas are immutable, so a schema's keys never change: a mount asks for them more than once per
// tool (the argument keys, the probe's shape check), and each answer is kept with the schema.
const known = new WeakMap<object, readonly string[]>();

/**
 * The top-level keys a Zod schema declares: an object's shape, every variant's of a union, both sides' of
 * an intersection, a pipe's input side. Anything else declares none. A new array on every call (callers
 * may keep or change it).
 */
export function shapeKeys(schema: unknown): string[] {
  if (!isSchema(schema)) return [];
  let keys = known.get(schema);
  if (keys === undefined) {
    keys = declaredKeys(schema);
    known.set(schema, keys);
  }
  return [...keys];
}

function declaredKeys(schema: Parameters<typeof defOf>[0]): string[] {
  const def = defOf(schema);
  if (def.type === 'object') return Object.keys(def.shape!);
  if (def.type === 'union') return [...new Set(def.options!.flatMap(shapeKeys))];
  if (def.type === 'intersection') return [...new Set([...shapeKeys(def.left), ...shapeKeys(def.right)])];
  if (def.type === 'pipe') return shapeKeys(def.in);
  return [];
}
