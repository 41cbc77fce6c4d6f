// Narrowing a selection to the container schemas that could parse one value.

import { acceptsOf } from '../zod/accepted-kinds.js';
import { defOf, type Schema, unwrap } from '../zod/def.js';
import { selectVariant } from '../zod/variant.js';
import type { ContainerKind } from './container-kind.js';
import { ANY, AndSel, makeAnd, makeOr, OrSel, type Sel } from './selection.js';
import type { RepairSwitches } from './types.js';
import { shallowFit } from './value-fit.js';

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
