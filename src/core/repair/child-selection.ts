// What a container's selection says about one of its children.

import { shapeField, tupleItem } from '../zod/child-schemas.js';
import { defOf, isNever, type Schema } from '../zod/def.js';
import { recordTakesEveryKey, recordTakesKey } from '../zod/record-keys.js';
import { ANY, AndSel, makeAnd, makeOr, OrSel, type Sel } from './selection.js';

/**
 * What one schema says about child `key`: the schema(s) that validate it, or one of
 * - IGNORED: the key is accepted and its value not validated (a strip-mode object without the key
 *   drops it; a loose record passes a key its key schema refuses through as sent);
 * - REFUSED_KEY: the key itself is refused by name (a strict object, a record's key schema), which
 *   an intersection forgives when another side does not refuse it;
 * - REJECTED: no value can be there (a tuple index past its items, without rest).
 */
const IGNORED: unique symbol = Symbol('ignored');
const REFUSED_KEY: unique symbol = Symbol('refused-key');
const REJECTED: unique symbol = Symbol('rejected');
type Child = Sel | typeof IGNORED | typeof REFUSED_KEY | typeof REJECTED;

/**
 * The schema(s) describing child `key` of a container described by a structural `sel`, or null when
 * nothing constrains it (nothing below may change).
 *
 * In a plain union (`Or`), a member that ignores the key accepts ANY value there: that member could
 * parse the container whatever the child holds, so a repair there could only make another member
 * win instead. The child is then `ANY`: a repair is made only where every member still in the
 * running would need it. In an intersection (`And`) a side that ignores the key, or refuses it by
 * name while another side does not, adds no constraint, and the other sides decide.
 */
export function childSel(sel: Sel, key: string | number): Sel | null {
  const c = childOf(sel, key, false);
  return c === IGNORED || c === REFUSED_KEY || c === REJECTED ? null : c;
}

function childOf(sel: Sel, key: string | number, inAnd: boolean): Child {
  if (sel === ANY) return ANY;
  if (sel instanceof OrSel) {
    const parts: Sel[] = [];
    for (const s of sel.of) {
      const c = childOf(s, key, inAnd);
      // Under an intersection a member refusing the key may be forgiven, and then ignores it.
      if (c === IGNORED || c === ANY || (c === REFUSED_KEY && inAnd)) return ANY;
      // Otherwise a member refusing the key (strict object, tuple without this index) cannot parse the value.
      if (c !== REFUSED_KEY && c !== REJECTED) parts.push(c);
    }
    return makeOr(parts) ?? REJECTED;
  }
  if (sel instanceof AndSel) {
    const parts: Sel[] = [];
    let ignored = false;
    let rejected = false;
    for (const s of sel.of) {
      const c = childOf(s, key, true);
      if (c === IGNORED) ignored = true;
      else if (c === REJECTED) rejected = true;
      else if (c !== REFUSED_KEY) parts.push(c);
    }
    if (parts.length > 0) return makeAnd(parts);
    // Zod reports a key refused by name only when every side refuses it.
    return rejected ? REJECTED : ignored ? IGNORED : REFUSED_KEY;
  }
  const def = defOf(sel as Schema);
  switch (def.type) {
    case 'object': {
      const field = shapeField(def, key);
      if (field !== undefined) return field;
      // Loose objects carry z.unknown() here, strict ones z.never(); a strip-mode object drops the key.
      if (!def.catchall) return IGNORED;
      return isNever(def.catchall) ? REFUSED_KEY : def.catchall;
    }
    case 'record': {
      const known = recordTakesKey(def, key);
      if (known === true) return def.valueType ?? ANY;
      // A loose record passes a key its key schema refuses through as sent.
      if (def.mode === 'loose') return known === false ? IGNORED : ANY;
      if (known === false) return REFUSED_KEY;
      // Cannot tell: if refused, Zod rejects the call, unless an intersection forgives the key.
      return inAnd ? ANY : (def.valueType ?? ANY);
    }
    case 'array':
      return def.element ?? ANY;
    case 'tuple': {
      return typeof key === 'number' ? (tupleItem(def, key) ?? REJECTED) : REJECTED;
    }
    default:
      return ANY;
  }
}

/** True when every child's schema is the same whatever the key (arrays, records of any key): computed once per container. */
export function uniformChildren(sel: Sel): boolean {
  if (sel === ANY) return true;
  if (sel instanceof OrSel || sel instanceof AndSel) return sel.of.every(uniformChildren);
  const def = defOf(sel as Schema);
  // A record whose key schema may refuse some keys treats those keys differently.
  return def.type === 'array' || (def.type === 'record' && recordTakesEveryKey(def));
}
