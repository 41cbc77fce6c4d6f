import { cloneJson } from '../json-schema/compare.js';
import {
  ANNOTATION_KEYWORDS,
  evaluationDependent,
  mapSubschemasShared,
  NEGATIVE_POSITIONS,
  unionKeyword,
} from '../json-schema/keywords.js';
import { setOwn } from '../json-schema/own-properties.js';
import { isPlainObject, type JsonSchema } from '../json-schema/types.js';
import { joinMixed } from './flatten-mixed.js';
import { flattenUnion } from './flatten-union.js';
import { flattenUntagged } from './flatten-untagged.js';
import { openIntersection } from './intersections.js';
import { mergeAllOf } from './merge-all-of.js';
import type { RefResolver } from './type-atoms.js';
import { unionPlan } from './union-plan.js';

// The bottom-up rewrite. Children are rewritten before their parent, so a union nested in a variant is
// already one object when its parent union is joined, and the parent's key merge sees flat shapes.

/**
 * Rewrites every positive position of `node`; never mutates `node`, and the result may share the sub-trees
 * it did not rewrite with it. `atRoot`: the node is the document root, which must end as one object (a
 * union mixing objects and scalars stays).
 */
export function flattenNode(
  node: unknown,
  resolve: RefResolver,
  atRoot = false,
  repeats: Repeats = new Map(),
): unknown {
  if (!isPlainObject(node)) return node;
  if (evaluationDependent(node) !== undefined) return cloneJson(node);
  // Variants often share a sub-tree (the same nested union or object in every variant): a combinator
  // node already rewritten in this document is not rewritten again. The rewrite depends only on the
  // node's JSON (and the document's definitions), so an identical node gets the same result.
  const seenWith = atRoot || !isCombinator(node) ? undefined : signature(node);
  if (seenWith !== undefined) {
    const seen = lookUp(repeats, seenWith, node);
    if (seen !== NOT_SEEN) return seen;
  }
  // A sub-tree nothing rewrites is kept as it is (not copied): the caller copies the finished document once.
  const walked = mapSubschemasShared(node, (child, at) =>
    NEGATIVE_POSITIONS.has(at.keyword) ? cloneJson(child) : flattenNode(child, resolve, false, repeats),
  );
  let current = walked;
  // A step can expose another (a collapsed one-member union revealing an `allOf`); a few rounds settle it.
  for (let round = 0; round < 4; round++) {
    const next = step(current, resolve, atRoot);
    if (next === current) break;
    current = next;
  }
  // An intersection that could not be merged into one object keeps its `allOf`; its closed members are
  // opened so that they do not refuse keys another member recognises (Zod reconciles those).
  const result = openIntersection(current);
  if (seenWith !== undefined) remember(repeats, seenWith, node, result);
  return result;
}

/**
 * Combinator nodes already rewritten in one document, by `signature`. Only nodes of the same signature are
 * compared (`identicalJson` stops at their first difference): no JSON text is spelled, which cost more than
 * every comparison together, since a nested union's text is spelled again at every level above it.
 */
export type Repeats = Map<string, Array<{ node: JsonSchema; result: unknown }>>;

/** Nodes kept per signature: past it a node is rewritten again (the same result), so a lookup stays bounded. */
const BUCKET = 16;

const NOT_SEEN = Symbol('not seen');

/**
 * The result of an identical node rewritten before, newest first: an outer union is remembered after the
 * unions nested in it, and a repeated sub-tree is most often the outer one (each variant's same field).
 */
function lookUp(repeats: Repeats, seenWith: string, node: JsonSchema): unknown {
  const bucket = repeats.get(seenWith);
  if (bucket === undefined) return NOT_SEEN;
  for (let i = bucket.length - 1; i >= 0; i--) if (identicalJson(bucket[i]!.node, node)) return bucket[i]!.result;
  return NOT_SEEN;
}

function remember(repeats: Repeats, seenWith: string, node: JsonSchema, result: unknown): void {
  const bucket = repeats.get(seenWith);
  if (bucket === undefined) repeats.set(seenWith, [{ node, result }]);
  else if (bucket.length < BUCKET) bucket.push({ node, result });
}

function isCombinator(node: JsonSchema): boolean {
  return Array.isArray(node.anyOf) || Array.isArray(node.oneOf) || Array.isArray(node.allOf);
}

/** What two identical nodes share and most others do not: their keys and how many members each combinator has. */
function signature(node: JsonSchema): string {
  const keys = Object.keys(node);
  let out = '';
  for (let i = 0; i < keys.length; i++) {
    const value = node[keys[i]!];
    out += Array.isArray(value) ? `${keys[i]}[${value.length}],` : `${keys[i]},`;
  }
  return out;
}

/**
 * Whether two values are the same JSON in the same spelling: plain objects with the same keys in the
 * same order, arrays element by element, primitives by `Object.is` (a bigint never: JSON cannot hold one,
 * and a node holding one is not reused). Anything else (a Date, a class instance) only when it is the very
 * same object, since its JSON text would not tell two of them apart.
 */
function identicalJson(a: unknown, b: unknown): boolean {
  // Object.is before ===: `0 === -0`, and the two are different values in a document.
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null)
    return Object.is(a, b) && typeof a !== 'bigint';
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!identicalJson(a[i], b[i])) return false;
    return true;
  }
  const proto = Object.getPrototypeOf(a);
  if ((proto !== Object.prototype && proto !== null) || Object.getPrototypeOf(b) !== proto) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    if (ka[i] !== kb[i] || !identicalJson((a as JsonSchema)[ka[i]!], (b as JsonSchema)[kb[i]!])) return false;
  }
  return true;
}

function step(node: JsonSchema, resolve: RefResolver, atRoot: boolean): JsonSchema {
  if (Array.isArray(node.allOf)) {
    const merged = mergeAllOf(node);
    if (merged) return merged;
    if (node.allOf.length === 1) return collapseSingle(node, 'allOf') ?? node;
  }
  const keyword = unionKeyword(node);
  if (keyword) {
    if (node[keyword].length === 1) return collapseSingle(node, keyword) ?? node;
    const plan = unionPlan(node, keyword, atRoot, resolve);
    if (plan.kind === 'tagged') return flattenUnion(node, keyword, node[keyword], plan.tag, plan.values, resolve);
    if (plan.kind === 'untagged') return flattenUntagged(node, keyword, node[keyword], resolve);
    if (plan.kind === 'mixed') return joinMixed(node, keyword, node[keyword], resolve);
  }
  return node;
}

/**
 * `anyOf:[X]` (or `oneOf`/`allOf` with one member) is just X (docs/design/flatten.md, One-member unions).
 * The node's own keywords are laid over X; when both constrain the same keyword the collapse would have
 * to intersect them, so the node is left as it is.
 */
function collapseSingle(node: JsonSchema, keyword: 'anyOf' | 'oneOf' | 'allOf'): JsonSchema | undefined {
  const member = node[keyword][0];
  if (!isPlainObject(member)) return undefined;
  const out: JsonSchema = { ...member };
  for (const key of Object.keys(node)) {
    if (key === keyword) continue;
    const informational = ANNOTATION_KEYWORDS.has(key) || key === '$schema' || key === '$comment';
    if (Object.hasOwn(member, key) && !informational && JSON.stringify(member[key]) !== JSON.stringify(node[key]))
      return undefined;
    setOwn(out, key, node[key]);
  }
  return out;
}
