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

import {
  ACCEPTS_ANY,
  type Accepts,
  acceptsNumberValue,
  acceptsOf,
  acceptsSomeString,
  acceptsStringValue,
  andAccepts,
  orAccepts,
} from '../zod/accepted-kinds.js';
import { shapeField, tupleItem } from '../zod/child-schemas.js';
import { defOf, isNever, isOptionalIn, isSchema, type Schema, unwrap } from '../zod/def.js';
import { recordTakesEveryKey, recordTakesKey } from '../zod/record-keys.js';
import { selectVariant } from '../zod/variant.js';
import { firstSignificant } from './json-text.js';
import { repairScalar } from './scalars.js';
import type { RepairSwitches } from './types.js';

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

export type ContainerKind = 'array' | 'object';

export function containerKind(value: unknown): ContainerKind | undefined {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype) return 'object';
  if (typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === null) return 'object';
  return undefined;
}

/**
 * Narrows `sel` to the container schemas that could parse `value` (of kind `kind`), or null when
 * none can. Discriminated unions follow their tag; a plain union keeps every member of the right
 * kind, and when more than one remains, only those that `shallowFit` the value.
 *
 * `inAnd` is set below an intersection: there Zod reports a key refused by name (a strict object's
 * unknown key, a record key outside its key schema) only when EVERY side refuses it.
 */
export function structural(
  sel: Sel,
  value: unknown,
  kind: ContainerKind,
  sw: RepairSwitches,
  inAnd = false,
): Sel | null {
  if (sel === ANY) return ANY;
  if (sel instanceof OrSel) return narrowOr(sel.of, value, kind, sw, inAnd);
  if (sel instanceof AndSel) {
    const parts: Sel[] = [];
    for (const s of sel.of) {
      const part = structural(s, value, kind, sw, true);
      if (part === null) return null; // one side cannot take this kind: the intersection cannot either
      parts.push(part);
    }
    return makeAnd(parts);
  }
  const schema = unwrap(sel as Schema);
  if (!schema) return ANY;
  const def = defOf(schema);
  switch (def.type) {
    case 'object':
    case 'record':
      return kind === 'object' ? schema : null;
    case 'array':
    case 'tuple':
      return kind === 'array' ? schema : null;
    case 'union': {
      if (def.discriminator !== undefined) {
        if (kind !== 'object') return null;
        const variant = selectVariant(schema, value as Record<string, unknown>, { scalarText: sw.scalars });
        return variant ? structural(variant, value, kind, sw, inAnd) : null;
      }
      return narrowOr(def.options ?? [], value, kind, sw, inAnd);
    }
    case 'intersection':
      return structural(makeAnd([def.left!, def.right!]), value, kind, sw, inAnd);
    default:
      return acceptsOf(schema).any ? ANY : null;
  }
}

function narrowOr(
  options: readonly Sel[],
  value: unknown,
  kind: ContainerKind,
  sw: RepairSwitches,
  inAnd: boolean,
): Sel | null {
  const found: Sel[] = [];
  for (const option of options) {
    const s = structural(option, value, kind, sw, inAnd);
    if (s === ANY) return ANY;
    if (s === null) continue;
    if (s instanceof OrSel) found.push(...s.of);
    else found.push(s);
  }
  if (found.length <= 1) return found[0] ?? null;
  // Several members of the same kind: drop the ones that cannot accept the value whatever repair
  // does (missing required key, wrong literal, unknown key on a strict object, wrong child kind).
  return makeOr(found.filter((s) => shallowFit(s, value, sw, inAnd)));
}

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

/**
 * Could a value of this JSON shape be accepted at a position with summary `a`, counting a string
 * that repair would turn into the right kind as fitting? Containers are judged by kind only.
 */
export function valueFits(a: Accepts, v: unknown, sw: RepairSwitches): boolean {
  if (a.any) return true;
  switch (typeof v) {
    case 'string': {
      if (acceptsSomeString(a)) return acceptsStringValue(a, v);
      if (sw.scalars && repairScalar(a, v)) return true;
      if (!sw.json) return false;
      const c = firstSignificant(v);
      return (c === '[' && a.array) || (c === '{' && a.object);
    }
    case 'number':
      return acceptsNumberValue(a, v);
    case 'boolean':
      return v ? a.true : a.false;
    case 'undefined':
      return a.undefined;
    case 'object': {
      if (v === null) return a.null;
      const kind = containerKind(v);
      if (kind === 'array') return a.array;
      if (kind === 'object') return a.object;
      return true; // Date, Map, class instances: not JSON, so no opinion
    }
    default:
      return true;
  }
}

/**
 * A one-level check that a container schema could accept `value` after repair: right kind,
 * required keys present, no unknown key on a strict object, each child of a fitting kind.
 * It is a necessary condition only (refinements and deeper levels are not looked at), so a
 * member it rejects could never have parsed the value, whatever repair did. Under an intersection
 * (`inAnd`) a key refused by name may be forgiven by another side, so it is not held against a side.
 */
export function shallowFit(sel: Sel, value: unknown, sw: RepairSwitches, inAnd = false): boolean {
  if (sel === ANY) return true;
  if (sel instanceof OrSel) return sel.of.some((s) => shallowFit(s, value, sw, inAnd));
  if (sel instanceof AndSel) return sel.of.every((s) => shallowFit(s, value, sw, true));
  if (!isSchema(sel)) return true;
  const def = defOf(sel);
  const kind = containerKind(value);
  switch (def.type) {
    case 'object': {
      if (kind !== 'object') return false;
      const obj = value as Record<string, unknown>;
      const shape = def.shape ?? {};
      for (const key of Object.keys(shape)) {
        const field = shape[key]!;
        if (!Object.hasOwn(obj, key)) {
          if (!isOptionalIn(field)) return false;
        } else if (!valueFits(acceptsOf(field), obj[key], sw)) return false;
      }
      if (def.catchall && !(inAnd && isNever(def.catchall))) {
        const rest = acceptsOf(def.catchall);
        for (const key of Object.keys(obj)) {
          if (!Object.hasOwn(shape, key) && !valueFits(rest, obj[key], sw)) return false;
        }
      }
      return true;
    }
    case 'record': {
      if (kind !== 'object') return false;
      const a = acceptsOf(def.valueType);
      const obj = value as Record<string, unknown>;
      const all = recordTakesEveryKey(def);
      for (const key of Object.keys(obj)) {
        const known = all || recordTakesKey(def, key);
        // A key the key schema refuses (or may refuse) is passed through (loose) or forgiven
        // (intersection) without its value being looked at; otherwise it is a refusal.
        if (known !== true && (def.mode === 'loose' || inAnd)) continue;
        if (known === false || !valueFits(a, obj[key], sw)) return false;
      }
      return true;
    }
    case 'array': {
      if (kind !== 'array') return false;
      const a = acceptsOf(def.element);
      for (const item of value as unknown[]) if (!valueFits(a, item, sw)) return false;
      return true;
    }
    case 'tuple': {
      if (kind !== 'array') return false;
      const arr = value as unknown[];
      const items = def.items ?? [];
      let required = 0;
      for (let i = 0; i < items.length; i++) if (!isOptionalIn(items[i]!)) required = i + 1;
      if (arr.length < required) return false;
      if (arr.length > items.length && !def.rest) return false;
      for (let i = 0; i < arr.length; i++) {
        const s = i < items.length ? items[i] : def.rest;
        if (s && !valueFits(acceptsOf(s), arr[i], sw)) return false;
      }
      return true;
    }
    default:
      return true;
  }
}
