import { resolveLocalRef, valueAtPointer } from '../json-schema/pointer.js';
import { isPlainObject, type JsonSchema } from '../json-schema/types.js';
import { walkSchemas } from '../json-schema/visit.js';

/** Where a local `$ref` points, and whether inlining it could ever finish. */
export interface RefIndex {
  /** The JSON Pointer and node a `$ref` value points to; `undefined` for dangling, external or anchor refs. */
  resolve(ref: string): { pointer: string; node: unknown } | undefined;
  /** True when the target can reach itself through `$ref`s, so it cannot be inlined (a `z.lazy` recursion). */
  isRecursive(targetPointer: string): boolean;
}

export function indexRefs(doc: JsonSchema): RefIndex {
  const resolve: RefIndex['resolve'] = (ref) => {
    const target = resolveLocalRef(doc, ref);
    return target && { pointer: target.pointer, node: target.value };
  };
  // Targets referenced from inside each target's subtree: the edges of the ref graph.
  const edges = new Map<string, string[]>();
  const targetsFrom = (ptr: string): string[] => {
    let out = edges.get(ptr);
    if (!out) {
      out = [];
      const node = valueAtPointer(doc, ptr).value;
      if (isPlainObject(node)) {
        for (const { node: sub } of walkSchemas(node)) {
          const target = typeof sub.$ref === 'string' ? resolve(sub.$ref) : undefined;
          if (target) out.push(target.pointer);
        }
      }
      edges.set(ptr, out);
    }
    return out;
  };
  const recursive = new Map<string, boolean>();
  const isRecursive = (start: string): boolean => {
    const cached = recursive.get(start);
    if (cached !== undefined) return cached;
    const seen = new Set<string>();
    const stack = [...targetsFrom(start)];
    let result = false;
    while (stack.length > 0 && !result) {
      const ptr = stack.pop()!;
      if (ptr === start) result = true;
      else if (!seen.has(ptr)) {
        seen.add(ptr);
        stack.push(...targetsFrom(ptr));
      }
    }
    recursive.set(start, result);
    return result;
  };
  return { resolve, isRecursive };
}
