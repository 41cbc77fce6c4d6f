import {
  declaredTypes,
  evaluationDependent,
  forEachSubschema,
  isNullableWrapper,
  isNullOnly,
  NEGATIVE_POSITIONS,
  type Position,
  unionKeyword,
} from '../json-schema/keywords.js';
import { positionPointer } from '../json-schema/pointer.js';
import { isPlainObject, type JsonSchema } from '../json-schema/types.js';
import type { RefResolver } from './type-atoms.js';
import { unionPlan } from './union-plan.js';

/** A union the projection left in the served document, and why. */
export interface Unflattened {
  /** JSON Pointer of the union node in the RESULT document. */
  pointer: string;
  reason: string;
}

/**
 * Every `oneOf`/`anyOf` left in `doc` that a reader could have expected to be flattened: a choice between
 * shapes where at least one member is (or may be) an object. Nullable wrappers (`anyOf:[X, null]`) and
 * unions of scalars are how JSON Schema spells nullability and scalar choice, not unflattened unions.
 * Computed on the result, so pointers are always into the served document, whatever moved.
 */
export function findUnflattened(doc: unknown, resolve: RefResolver): Unflattened[] {
  const out: Unflattened[] = [];
  visit(doc, [], undefined, resolve, out);
  return out;
}

// Runs over every node of every served document at startup: a pointer is spelled only for a union reported,
// and nothing is allocated per node that is not one.
function visit(
  node: unknown,
  path: Position[],
  blocked: string | undefined,
  resolve: RefResolver,
  out: Unflattened[],
): void {
  if (!isPlainObject(node)) return;
  if (isReportable(node)) {
    out.push({
      pointer: path.reduce(positionPointer, ''),
      reason: blocked ?? explain(node, path.length === 0, resolve),
    });
  }
  const evaluation = evaluationDependent(node);
  forEachSubschema(node, (child, pos) => {
    let reason = blocked;
    if (reason === undefined && evaluation) reason = `left as is under \`${evaluation}\`, whose result depends on it`;
    if (reason === undefined && NEGATIVE_POSITIONS.has(pos.keyword)) {
      reason = `inside \`${pos.keyword}\`, where a wider schema would change the meaning`;
    }
    path.push(pos);
    visit(child, path, reason, resolve, out);
    path.pop();
  });
}

const NO_MEMBERS: readonly unknown[] = [];

function isReportable(node: JsonSchema): boolean {
  const oneOf: readonly unknown[] = Array.isArray(node.oneOf) ? node.oneOf : NO_MEMBERS;
  const anyOf: readonly unknown[] = Array.isArray(node.anyOf) ? node.anyOf : NO_MEMBERS;
  if (oneOf.length + anyOf.length === 0 || isNullableWrapper(node)) return false;
  return oneOf.some(reportableMember) || anyOf.some(reportableMember);
}

function reportableMember(member: unknown): boolean {
  return !isNullOnly(member) && mayBeObject(member);
}

function mayBeObject(member: unknown): boolean {
  if (!isPlainObject(member)) return member === true;
  const types = declaredTypes(member);
  if (types) return types.includes('object');
  return ['properties', '$ref', 'anyOf', 'oneOf', 'allOf'].some((k) => k in member) || Object.keys(member).length === 0;
}

function explain(node: JsonSchema, atRoot: boolean, resolve: RefResolver): string {
  const keyword = unionKeyword(node);
  if (!keyword) return 'the node carries both `oneOf` and `anyOf`';
  if (node[keyword].length === 1) return 'a one-member union whose node constrains the same keywords as its member';
  const plan = unionPlan(node, keyword, atRoot, resolve);
  // Flattenable on its own, so something around it kept it (should not happen after `flattenNode`).
  return plan.kind === 'left' ? plan.reason : 'left as is';
}
