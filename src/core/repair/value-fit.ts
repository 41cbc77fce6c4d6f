// Fit checks: could a value be accepted where a selection stands, counting what repair would change?

import {
  type Accepts,
  acceptsNumberValue,
  acceptsOf,
  acceptsSomeString,
  acceptsStringValue,
} from '../zod/accepted-kinds.js';
import { type AnyDef, defOf, isNever, isOptionalIn, isSchema } from '../zod/def.js';
import { recordTakesEveryKey, recordTakesKey } from '../zod/record-keys.js';
import { containerKind } from './container-kind.js';
import { firstSignificant } from './json-text.js';
import { repairScalar } from './scalars.js';
import { ANY, AndSel, OrSel, type Sel } from './selection.js';
import type { RepairSwitches } from './types.js';

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
    case 'object':
      return kind === 'object' && objectFits(def, value as Record<string, unknown>, sw, inAnd);
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

/** `shallowFit` for an object schema: required keys present, each sent key of a fitting kind. */
function objectFits(def: AnyDef, obj: Record<string, unknown>, sw: RepairSwitches, inAnd: boolean): boolean {
  const shape = def.shape ?? {};
  for (const key of Object.keys(shape)) {
    const field = shape[key]!;
    if (!Object.hasOwn(obj, key)) {
      if (!isOptionalIn(field)) return false;
    } else if (!valueFits(acceptsOf(field), obj[key], sw)) {
      // Repair leaves the key out (null-as-absent), and an optional key may be missing.
      const absent = obj[key] === null && sw.nullAsAbsent && isOptionalIn(field);
      if (!absent) return false;
    }
  }
  if (def.catchall && !(inAnd && isNever(def.catchall))) {
    const rest = acceptsOf(def.catchall);
    // A strict object's undeclared key sent as null is left out by repair (null-as-absent).
    const absent = (key: string) => obj[key] === null && sw.nullAsAbsent && isNever(def.catchall);
    for (const key of Object.keys(obj)) {
      if (!Object.hasOwn(shape, key) && !valueFits(rest, obj[key], sw) && !absent(key)) return false;
    }
  }
  return true;
}
