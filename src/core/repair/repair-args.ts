/**
 * Entry points of argument repair. Runs on every `tools/call` whose arguments hold a value it could change
 * (the first pass tells, arguments/sent-values.ts), before the one Zod parse.
 *
 * Clients and models double-serialise structured arguments (`"[{\"url\":\"a\"}]"` where an array
 * belongs, at any depth, sometimes the whole `arguments`) and send `"42"` for numbers. Repair
 * fixes exactly what the ORIGINAL Zod schema makes unambiguous and nothing else:
 *
 * - JSON text becomes an array/object only where the schema expects that kind and accepts no string;
 * - a canonical decimal string becomes a number, `"true"`/`"false"` a boolean and `"null"` null,
 *   only where that kind is expected and no string is accepted;
 * - a value is never changed where a string is accepted, only strings are ever changed, and a
 *   scalar is never wrapped into an array;
 * - the one exception: `null` for an optional object key whose schema refuses null is read as the key
 *   left out (`nullAsAbsent`), since that is the only reading under which the call can pass.
 *
 * Repair reads schema definitions only: it never parses with Zod and never runs a transform.
 * Rules and limits: docs/design/repair.md.
 */

import { isSchema, type Schema } from '../zod/def.js';
import { resolveOptions } from './limits.js';
import { walk } from './repair-walk.js';
import type { RepairOptions, RepairResult } from './types.js';

/**
 * Repairs `value` (a tool call's `arguments`) against `schema`. Never throws and never mutates
 * `value`; subtrees without repairs are shared with it. A non-empty `issues` means repair itself
 * refuses the call (a limit, a cycle, or a list written as text where a string is also valid).
 */
export function repairArgs(value: unknown, schema: Schema, options?: RepairOptions): RepairResult {
  const opts = resolveOptions(options);
  if (!isSchema(schema) || (!opts.json && !opts.scalars && !opts.nullAsAbsent))
    return { value, repairs: [], issues: [], visited: 0 };
  try {
    return walk(value, schema, opts);
  } catch (e) {
    // Only reachable through a throwing getter or proxy in the value, or a broken schema (a lazy
    // getter that throws): Zod would fail on the same input, so refuse with the reason.
    const reason = e instanceof Error ? e.message : String(e);
    return {
      value,
      repairs: [],
      issues: [{ path: [], message: `the arguments could not be checked for repair: ${reason}` }],
      visited: 0,
    };
  }
}
