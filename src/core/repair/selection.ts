/**
 * Which schema(s) describe a value at one position of the walk.
 *
 * A position is not always described by one schema. Inside a plain union several members can
 * fit the same object, and inside an intersection two schemas apply at once. Picking one member
 * could change a string that another member accepts as it is, so the walk carries all of them:
 *
 * - a Zod schema (already known to be an object, record, array or tuple when it is a container);
 * - `ANY`: some member accepts anything here, so nothing below may change;
 * - `Or`: any of these may end up parsing the value;
 * - `And`: all of these parse the value (intersection).
 *
 * A string below is repaired only if the combined summary (`acceptsSel`) makes it unambiguous.
 * The cost is bounded by the schema's size, not the value's, so the walk stays linear.
 */

import { ACCEPTS_ANY, type Accepts, acceptsOf, andAccepts, orAccepts } from '../zod/accepted-kinds.js';
import type { Schema } from '../zod/def.js';

export class AnySel {
  readonly k = 'any';
}
export class OrSel {
  readonly k = 'or';
  constructor(readonly of: readonly Sel[]) {}
}
export class AndSel {
  readonly k = 'and';
  constructor(readonly of: readonly Sel[]) {}
}
export type Sel = Schema | AnySel | OrSel | AndSel;

export const ANY: AnySel = new AnySel();

/** "Any of these". A member that accepts anything makes the whole position untouchable. */
export function makeOr(list: readonly Sel[]): Sel | null {
  const flat: Sel[] = [];
  for (const s of list) {
    if (s === ANY) return ANY;
    if (s instanceof OrSel) flat.push(...s.of);
    else flat.push(s);
  }
  if (flat.length === 0) return null;
  return flat.length === 1 ? flat[0]! : new OrSel(flat);
}

/** "All of these". A side that accepts anything adds no constraint. */
export function makeAnd(list: readonly Sel[]): Sel {
  const flat: Sel[] = [];
  for (const s of list) {
    if (s === ANY) continue;
    if (s instanceof AndSel) flat.push(...s.of);
    else flat.push(s);
  }
  if (flat.length === 0) return ANY;
  return flat.length === 1 ? flat[0]! : new AndSel(flat);
}

const selMemo = new WeakMap<OrSel | AndSel, Accepts>();

/** The kinds of value accepted at a position described by `sel`. */
export function acceptsSel(sel: Sel): Accepts {
  if (sel === ANY) return ACCEPTS_ANY;
  if (sel instanceof OrSel || sel instanceof AndSel) {
    const known = selMemo.get(sel);
    if (known) return known;
    let acc: Accepts | undefined;
    for (const s of sel.of) {
      const a = acceptsSel(s);
      acc = acc === undefined ? a : sel instanceof OrSel ? orAccepts(acc, a) : andAccepts(acc, a);
    }
    const result = acc ?? ACCEPTS_ANY;
    selMemo.set(sel, result);
    return result;
  }
  return acceptsOf(sel as Schema);
}
