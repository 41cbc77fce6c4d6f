import { evaluationDependent, mapSubschemas, NEGATIVE_POSITIONS } from '../../json-schema/keywords.js';
import { positionPointer } from '../../json-schema/pointer.js';
import { isPlainObject, type JsonSchema } from '../../json-schema/types.js';
import type { RefResolver } from '../type-atoms.js';

/** A place where a rewrite narrowed the document (JSON Pointer into the RESULT) and why, one sentence. */
export interface Narrowing {
  pointer: string;
  reason: string;
}

/** Where a node sits, as the rewrites need to know it. */
export interface NodeContext {
  /** JSON Pointer of the node in the result. */
  pointer: string;
  atRoot: boolean;
  /**
   * The value may be left out altogether: the node is a property its object does not require. A
   * narrowing that takes a value away from such a node leaves the model a way to say "none": omit the key.
   */
  omittable: boolean;
  /** Looks `$ref`s up in the input document, for the typed join. */
  resolve: RefResolver;
  /** Reports a narrowing at this node, or at `at` (a pointer into the result, below this node). */
  narrow(reason: string, at?: string): void;
}

/** One rewrite of one node: the new node, or undefined when it does not apply. Never mutates `node`. */
export type Rewrite = (node: JsonSchema, ctx: NodeContext) => JsonSchema | undefined;

export interface Rewrites {
  /** Tried on a node, in order, until none applies, before its children are visited (so what they build is visited too). */
  pre: readonly Rewrite[];
  /** Applied once to a node after its children were rewritten. */
  post?: readonly Rewrite[];
}

// Settles a node: one rewrite can expose another (a joined union's type list, a merged allOf's union).
const MAX_ROUNDS = 16;

/**
 * Rewrites every positive position of `root`, top-down: each node is settled by `rewrites.pre`, then
 * its children are visited in the settled node, then `rewrites.post` runs. Positions under `not`/`if`
 * and nodes whose result depends on what they evaluated (`unevaluated*`) are left as they are, since a
 * wider schema there would change the meaning. Pointers given to the rewrites are into the result.
 */
export function rewriteTree(
  root: JsonSchema,
  rewrites: Rewrites,
  resolve: RefResolver,
  narrowed: Narrowing[],
): JsonSchema {
  return visit(root, '', true, false) as JsonSchema;

  function visit(node: unknown, at: string, atRoot: boolean, omittable: boolean): unknown {
    if (!isPlainObject(node)) return node;
    if (evaluationDependent(node) !== undefined) return node;
    const ctx: NodeContext = {
      pointer: at,
      atRoot,
      omittable,
      resolve,
      narrow: (reason, below) => narrowed.push({ pointer: below ?? at, reason }),
    };
    let current: JsonSchema = node;
    for (let round = 0; round < MAX_ROUNDS; round++) {
      let changed = false;
      for (const rewrite of rewrites.pre) {
        const next = rewrite(current, ctx);
        if (next !== undefined && next !== current) {
          current = next;
          changed = true;
        }
      }
      if (!changed) break;
    }
    const required: unknown[] = Array.isArray(current.required) ? current.required : [];
    let out = mapSubschemas(current, (child, pos) => {
      if (NEGATIVE_POSITIONS.has(pos.keyword)) return child;
      const optional = pos.keyword === 'properties' && !required.includes(pos.key);
      return visit(child, positionPointer(at, pos), false, optional);
    });
    for (const rewrite of rewrites.post ?? []) out = rewrite(out, ctx) ?? out;
    return out;
  }
}
