/**
 * The first look at a call's arguments as sent, before anything else reads them: how deep they nest, how
 * many values they hold, and which strings carry tool-call markup (argument hygiene).
 *
 * Everything after it (repair, the key-policy walk, Zod's parse, error text) recurses or allocates per
 * level, so this pass is what keeps a small hostile request cheap: it visits each value once with an
 * explicit stack of containers (no recursion, no path copied per level; a path is spelled only for what a
 * message names), and refuses the call as soon as a container sits deeper than `maxDepth` or the values
 * outnumber `maxValues`. Its cost is linear in the arguments' size and, past a limit, constant.
 */
import { isPlainObject } from '../json-schema/types.js';
import { formatPath } from '../messages/path.js';
import { markupIn, type PollutedString } from './hygiene.js';

export interface SentValueLimits {
  /** Most nesting levels of arrays and objects; the arguments object itself is level 1. */
  readonly maxDepth: number;
  /** Most values in all (containers, scalars and the arguments object itself). */
  readonly maxValues: number;
  /** Look for tool-call markup in strings (`repair.hygiene`). */
  readonly markup: boolean;
}

export type SentValues =
  | {
      ok: true;
      values: number;
      polluted: PollutedString[];
      morePolluted: number;
      /**
       * False when no value is one repair could change (no null, no string that could be JSON text or a
       * scalar's spelling, `mayBeRepaired`): repair then has nothing to do, and its walk is left out.
       */
      repairable: boolean;
    }
  | { ok: false; values: number; message: string };

/** Polluted strings recorded with their paths; the rest are only counted (one is enough to refuse). */
const POLLUTED_RECORDED = 5;

/**
 * Walks `args` once. `values` counts what was visited (the walk's work), also when it stopped at a limit.
 * Never throws for JSON values; a non-JSON object (a `Date` handed in by a direct caller) is a leaf.
 */
export function inspectSentValues(args: Record<string, unknown>, limits: SentValueLimits): SentValues {
  // The containers on the current path, each with its own keys (null for an array) and its next index.
  const containers: unknown[] = [args];
  const keyLists: Array<string[] | null> = [Object.keys(args)];
  const next: number[] = [0];
  const polluted: PollutedString[] = [];
  let morePolluted = 0;
  let repairable = false;
  let values = 1;
  while (containers.length > 0) {
    const top = containers.length - 1;
    const keys = keyLists[top]!;
    const container = containers[top] as Record<string, unknown> & unknown[];
    const i = next[top]!;
    if (i >= (keys === null ? container.length : keys.length)) {
      containers.pop();
      keyLists.pop();
      next.pop();
      continue;
    }
    next[top] = i + 1;
    const child = keys === null ? container[i] : container[keys[i]!];
    if (++values > limits.maxValues) {
      return {
        ok: false,
        values,
        message: `(root): the arguments hold more than ${limits.maxValues} values, over the limit (limits.maxArgumentValues); send smaller arguments`,
      };
    }
    if (typeof child === 'string') {
      if (!repairable) repairable = mayBeRepaired(child);
      const marker = limits.markup ? markupIn(child) : undefined;
      if (marker === undefined) continue;
      if (polluted.length < POLLUTED_RECORDED)
        polluted.push({ path: pathOf(containers, keyLists, next), marker, text: child });
      else morePolluted++;
      continue;
    }
    if (child === null) repairable = true;
    if (typeof child !== 'object' || child === null) continue;
    const isArray = Array.isArray(child);
    if (!isArray && !isPlainObject(child)) continue;
    if (containers.length >= limits.maxDepth) {
      return {
        ok: false,
        values,
        message: `${formatPath(pathOf(containers, keyLists, next))}: nested deeper than ${limits.maxDepth} levels of arrays and objects, over the limit (limits.maxArgumentDepth); send a flatter value`,
      };
    }
    containers.push(child);
    keyLists.push(isArray ? null : Object.keys(child));
    next.push(0);
  }
  return { ok: true, values, polluted, morePolluted, repairable };
}

/**
 * A string repair might change (repair/repair-walk.ts): JSON text, whose first significant character is `[`
 * or `{`, or the spelling of a scalar (`null`, `true`, `false`, a decimal, which starts with `-` or a digit).
 * Errs towards true: leading whitespace alone says yes.
 */
function mayBeRepaired(s: string): boolean {
  const c = s.charCodeAt(0);
  if (c === 0x5b || c === 0x7b || c === 0x2d || (c >= 0x30 && c <= 0x39)) return true;
  if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) return true;
  return s === 'null' || s === 'true' || s === 'false';
}

/** The path of the child last read from the top container: each level's key, read off the stack. */
function pathOf(containers: unknown[], keyLists: Array<string[] | null>, next: number[]): PropertyKey[] {
  const path: PropertyKey[] = new Array(containers.length);
  for (let level = 0; level < containers.length; level++) {
    const at = next[level]! - 1;
    const keys = keyLists[level]!;
    path[level] = keys === null ? at : keys[at]!;
  }
  return path;
}
