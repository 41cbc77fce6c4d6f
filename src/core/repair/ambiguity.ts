/**
 * The one case repair refuses instead of guessing: a position that accepts a string AND an
 * array or object (`z.union([z.string(), z.array(z.string())])`), holding a string that is JSON
 * text of a list or object that the structured member would accept.
 *
 * `"[\"a\",\"b\"]"` is a valid string there, so repair must not parse it; but the sender almost
 * certainly meant the list. Passing it on silently would hand the handler the wrong thing, so the
 * call is refused with a message that tells the sender what to do.
 *
 * "Would accept" is decided structurally (kinds, required keys, literals, strictness, at every
 * depth, counting repairable strings as fitting), never by running Zod: repair runs no parse, no
 * refinement and no transform. Refinements are therefore not consulted; a list that fails only a
 * refinement still counts as "meant as a list", which is the honest reading.
 */
import { childSel } from './child-selection.js';
import { containerKind } from './container-kind.js';
import { structural } from './narrowing.js';
import { ANY, acceptsSel, type Sel } from './selection.js';
import type { RepairSwitches } from './types.js';
import { shallowFit, valueFits } from './value-fit.js';

/** Upper bound on the values looked at by one check; past it the string is kept and the call goes on. */
const DEFAULT_BUDGET = 100_000;

export function ambiguityMessage(kind: 'array' | 'object'): string {
  return kind === 'array'
    ? 'the list was written as text; send the list itself, not a string holding it'
    : 'the object was written as text; send the object itself, not a string holding it';
}

/**
 * True when `parsed` (the JSON behind a string) fits one of the structured members of `sel`; false past
 * `budget` values looked at.
 */
export function structuredMemberAccepts(
  sel: Sel,
  parsed: unknown,
  sw: RepairSwitches,
  budget = DEFAULT_BUDGET,
): boolean {
  const state = { left: budget };
  return fits(sel, parsed, sw, state);
}

/**
 * Every value below `value` fits where `sel` puts it. An explicit stack: the parsed text may nest as deep as
 * the mount's depth limit allows, and each value is looked at once.
 */
function fits(sel: Sel, value: unknown, sw: RepairSwitches, state: { left: number }): boolean {
  const stack: Array<{ sel: Sel; value: unknown }> = [{ sel, value }];
  while (stack.length > 0) {
    const top = stack.pop()!;
    if (--state.left < 0) return false;
    const kind = containerKind(top.value);
    if (!kind) {
      if (!valueFits(acceptsSel(top.sel), top.value, sw)) return false;
      continue;
    }
    const st = structural(top.sel, top.value, kind, sw);
    if (st === null || !shallowFit(st, top.value, sw)) return false;
    if (Array.isArray(top.value)) {
      for (let i = 0; i < top.value.length; i++) {
        const c = childSel(st, i);
        if (c !== null && c !== ANY) stack.push({ sel: c, value: top.value[i] });
      }
    } else {
      const obj = top.value as Record<string, unknown>;
      for (const key of Object.keys(obj)) {
        const c = childSel(st, key);
        if (c !== null && c !== ANY) stack.push({ sel: c, value: obj[key] });
      }
    }
  }
  return true;
}
