import {
  ANNOTATION_KEYWORDS,
  forEachSubschema,
  isNullableWrapper,
  META_KEYWORDS,
  mapSubschemasShared,
  NEGATIVE_POSITIONS,
  someSubschema,
  unionKeyword,
} from '../json-schema/keywords.js';
import { isPlainObject, type JsonSchema } from '../json-schema/types.js';
import { joinMixed } from './flatten-mixed.js';
import { unrollRefs } from './profiles/refs.js';
import { localResolver, type RefResolver, typeAtoms } from './type-atoms.js';

// What `flat` serves on top of the flattened document, so that a client that resolves no `$ref` and reads
// no scalar `anyOf` (LangChain's MCP adapters, measured) still sees every nested field and every type:
// docs/decisions/0018-flat-for-clients-that-never-name-themselves.md.

/**
 * How many times `flat` writes out a recursive definition along one path before its leaf is left open.
 * @internal exported for its tests alone
 */
export const FLAT_RECURSION_DEPTH = 3;

/** Above this many schema nodes the unrolling is retried one level shallower (a definition referring to itself many times). */
const MAX_UNROLLED_NODES = 20_000;

/**
 * The served `flat` document from the flattened one: recursive `$ref`s (all `inlineRefs` leaves) written out
 * `FLAT_RECURSION_DEPTH` times, then an open leaf of the target's type (SUPERSET); below the root, a union
 * whose members are all provably typed non-objects joined into one node with a `type` list, each type
 * keeping its own keywords (the typed join: EXACT where the types are disjoint, else SUPERSET). Pure: never
 * mutates `doc`; the result may share sub-trees with it (the caller copies what it serves).
 */
export function servedFlat(doc: JsonSchema): JsonSchema {
  const unrolled = boundedUnroll(doc);
  return joinScalarUnions(unrolled, localResolver(unrolled), true) as JsonSchema;
}

/**
 * `doc` with its recursion (the `$ref`s `inlineRefs` left) unrolled, as deep as `FLAT_RECURSION_DEPTH` and the
 * node budget allow, each leaf open to any value of its type (SUPERSET); `doc` itself when it has no `$ref`.
 */
export function boundedUnroll(doc: JsonSchema): JsonSchema {
  if (!hasRef(doc)) return doc;
  const resolve = rootOrLocal(doc);
  for (let depth = FLAT_RECURSION_DEPTH; depth > 0; depth--) {
    const out = unrollRefs(doc, resolve, depth);
    if (countNodes(out) <= MAX_UNROLLED_NODES) return out;
  }
  return unrollRefs(doc, resolve, 0);
}

/** Local definitions, and `#` itself: a recursive root (`z.lazy` at the top) refers to the document root. */
function rootOrLocal(doc: JsonSchema): RefResolver {
  const local = localResolver(doc);
  return (ref) => (ref === '#' ? doc : local(ref));
}

/** Bottom-up over positive positions; a node nothing rewrites is returned as it is. */
function joinScalarUnions(node: unknown, resolve: RefResolver, atRoot: boolean): unknown {
  if (!isPlainObject(node)) return node;
  const walked = mapSubschemasShared(node, (child, at) =>
    NEGATIVE_POSITIONS.has(at.keyword) ? child : joinScalarUnions(child, resolve, false),
  );
  const keyword = unionKeyword(walked);
  if (atRoot || !keyword || !isScalarUnion(walked, keyword, resolve)) return walked;
  return joinMixed(walked, keyword, walked[keyword], resolve);
}

/**
 * A union of two or more members that are all provably typed and none an object, on a node that carries
 * nothing but annotations: the typed join keeps each member's type and keywords. Unions of objects are the
 * flatten's (what it left has its reason, reported); a nullable wrapper is `collapseNullable`'s.
 */
function isScalarUnion(node: JsonSchema, keyword: 'anyOf' | 'oneOf', resolve: RefResolver): boolean {
  const members: unknown = node[keyword];
  if (!Array.isArray(members) || members.length < 2 || isNullableWrapper(node)) return false;
  for (const key of Object.keys(node)) {
    if (key !== keyword && !ANNOTATION_KEYWORDS.has(key) && !META_KEYWORDS.has(key)) return false;
  }
  return members.every((member) => {
    if (!isPlainObject(member) || '$ref' in member) return false;
    if ('allOf' in member || 'anyOf' in member || 'oneOf' in member || 'not' in member) return false;
    const atoms = typeAtoms(member, resolve);
    return atoms !== 'any' && atoms.length > 0 && atoms.every((a) => a.type !== 'object');
  });
}

function hasRef(node: unknown): boolean {
  if (!isPlainObject(node)) return false;
  return typeof node.$ref === 'string' || someSubschema(node, hasRef);
}

function countNodes(node: unknown): number {
  if (!isPlainObject(node)) return 0;
  let count = 1;
  forEachSubschema(node, (child) => {
    count += countNodes(child);
  });
  return count;
}
