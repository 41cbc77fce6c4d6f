import {
  declaredTypes,
  EVALUATION_DEPENDENT,
  forEachSubschema,
  isNullableWrapper,
  isNullOnly,
  NEGATIVE_POSITIONS,
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
  visit(doc, '', undefined, resolve, out);
  return out;
}

function visit(node: unknown, at: string, blocked: string | undefined, resolve: RefResolver, out: Unflattened[]): void {
  if (!isPlainObject(node)) return;
  if (isReportable(node)) out.push({ pointer: at, reason: blocked ?? explain(node, at === '', resolve) });
  const evaluation = EVALUATION_DEPENDENT.find((k) => k in node);
  forEachSubschema(node, (child, pos) => {
    const here = positionPointer(at, pos);
    let reason = blocked;
    if (reason === undefined && evaluation) reason = `left as is under \`${evaluation}\`, whose result depends on it`;
    if (reason === undefined && NEGATIVE_POSITIONS.has(pos.keyword)) {
      reason = `inside \`${pos.keyword}\`, where a wider schema would change the meaning`;
    }
    visit(child, here, reason, resolve, out);
  });
}

function isReportable(node: JsonSchema): boolean {
  const members = [...(Array.isArray(node.oneOf) ? node.oneOf : []), ...(Array.isArray(node.anyOf) ? node.anyOf : [])];
  if (members.length === 0 || isNullableWrapper(node)) return false;
  return members.some((m) => !isNullOnly(m) && mayBeObject(m));
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
