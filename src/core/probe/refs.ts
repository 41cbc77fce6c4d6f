import { isPlainObject, type JsonSchema } from '../json-schema/types.js';
import { valueAt } from '../messages/describe.js';
import { walkSchemas } from './walk.js';

/** Where a local `$ref` points, and whether inlining it could ever finish. */
export interface RefIndex {
  /** The JSON Pointer and node a `$ref` value points to; `undefined` for dangling, external or anchor refs. */
  resolve(ref: string): { pointer: string; node: unknown } | undefined;
  /** True when the target can reach itself through `$ref`s, so it cannot be inlined (a `z.lazy` recursion). */
  isRecursive(targetPointer: string): boolean;
}

/** Converts a local ref (`#`, `#/$defs/A`) to a JSON Pointer; URI fragments may be percent-encoded. */
function refToPointer(ref: string): string | undefined {
  if (ref === '#') return '';
  if (!ref.startsWith('#/')) return undefined;
  try {
    return decodeURIComponent(ref.slice(1));
  } catch {
    return undefined;
  }
}

/** The value a JSON Pointer names in `doc`, following own keys only. */
function atPointer(doc: unknown, ptr: string): { found: boolean; value: unknown } {
  const tokens =
    ptr === ''
      ? []
      : ptr
          .slice(1)
          .split('/')
          .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
  return valueAt(doc, tokens);
}

export function indexRefs(doc: JsonSchema): RefIndex {
  const resolve: RefIndex['resolve'] = (ref) => {
    const ptr = refToPointer(ref);
    if (ptr === undefined) return undefined;
    const { found, value } = atPointer(doc, ptr);
    return found ? { pointer: ptr, node: value } : undefined;
  };
  // Targets referenced from inside each target's subtree: the edges of the ref graph.
  const edges = new Map<string, string[]>();
  const targetsFrom = (ptr: string): string[] => {
    let out = edges.get(ptr);
    if (!out) {
      out = [];
      const node = atPointer(doc, ptr).value;
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
