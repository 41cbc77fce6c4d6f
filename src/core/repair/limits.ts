/**
 * Default limits of argument repair. Each bounds work that repair itself creates (parsing text,
 * walking the schema), so that no argument can make repair overflow the stack, hang, or allocate
 * without bound. Text over a limit is refused with an issue naming its path; sent values beyond
 * the walk's budget are passed on as sent (see DEFAULT_MAX_NODES). Nothing is ever truncated or
 * half-repaired.
 */
import type { RepairOptions, RepairSwitches } from './types.js';

/**
 * 64 nesting levels of arrays/objects, counted from the root of the arguments, for any value
 * repair produces by parsing JSON text. Real tool arguments rarely pass 10; the reviver that drops
 * prototype keys and the ambiguity check recurse once per level, so the bound also keeps them far
 * from the stack limit.
 * @internal exported for its tests alone
 */
export const DEFAULT_MAX_DEPTH = 64;

/**
 * 1 MiB (1,048,576 bytes, UTF-8) per string that repair parses as JSON.
 * @internal exported for its tests alone
 */
export const DEFAULT_MAX_STRING_BYTES = 1024 * 1024;

/**
 * 1,000,000 values per call, counted twice over:
 * - values parsed out of JSON text: text that would take the count past it is refused with an
 *   issue (repair would otherwise create that work itself);
 * - sent values the schema-guided walk visits: past it, repair gives up and returns the arguments
 *   as sent, with no issue of its own. Their size is the sender's (the transport caps the body at
 *   4 MiB, which can hold more than a million values), nothing is known to need repair, and Zod
 *   still checks them; a valid call is never refused for its size.
 * Values inside parsed text are walked without a second count (their number is already bounded), so
 * repair's cost stays linear and bounded: at most about 2,000,000 visits plus 1,000,000 parsed values,
 * well under a second on the reference machine (see bench/repair.bench.ts).
 * @internal exported for its tests alone
 */
export const DEFAULT_MAX_NODES = 1_000_000;

// Marked pure so that a bundle which never reads it (every Worker) leaves it out.
/** @internal exported for its tests alone */
export const DEFAULT_REPAIR_LIMITS = /* @__PURE__ */ Object.freeze({
  maxDepth: DEFAULT_MAX_DEPTH,
  maxStringBytes: DEFAULT_MAX_STRING_BYTES,
  maxNodes: DEFAULT_MAX_NODES,
});

export interface ResolvedRepairOptions extends RepairSwitches {
  maxDepth: number;
  maxStringBytes: number;
  maxNodes: number;
}

/** A limit must be a non-negative number (Infinity allowed); anything else falls back to the default. */
function limit(value: unknown, fallback: number): number {
  return typeof value === 'number' && !Number.isNaN(value) && value >= 0 ? value : fallback;
}

export function resolveOptions(options: RepairOptions | undefined): ResolvedRepairOptions {
  const o = options ?? {};
  return {
    json: o.json !== false,
    scalars: o.scalars !== false,
    nullAsAbsent: o.nullAsAbsent !== false,
    maxDepth: limit(o.maxDepth, DEFAULT_MAX_DEPTH),
    maxStringBytes: limit(o.maxStringBytes, DEFAULT_MAX_STRING_BYTES),
    maxNodes: limit(o.maxNodes, DEFAULT_MAX_NODES),
  };
}
