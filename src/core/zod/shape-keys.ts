import { defOf, isSchema } from './def.js';

/**
 * The top-level keys a Zod schema declares: an object's shape, every variant's of a union, both sides' of
 * an intersection, a pipe's input side. Anything else declares none.
 */
export function shapeKeys(schema: unknown): string[] {
  if (!isSchema(schema)) return [];
  const def = defOf(schema);
  if (def.type === 'object') return Object.keys(def.shape!);
  if (def.type === 'union') return [...new Set(def.options!.flatMap(shapeKeys))];
  if (def.type === 'intersection') return [...new Set([...shapeKeys(def.left), ...shapeKeys(def.right)])];
  if (def.type === 'pipe') return shapeKeys(def.in);
  return [];
}
