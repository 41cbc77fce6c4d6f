import { formatIssues } from '../messages/index.js';
import type { PreparedTool } from '../mount/prepare.js';
import { type Repair, type RepairSwitches, repairArgs } from '../repair/index.js';
import { argumentsNotAnObject } from './envelope.js';

/** What a successful `tools/call` argument check hands to the executor. */
export interface ParsedCall {
  params: unknown;
  input: unknown;
  /** Parsed extend values, before `resolve`. */
  extend: unknown;
  repairs: Repair[];
}

export type CallCheck = { ok: true; value: ParsedCall } | { ok: false; messages: string[]; repairs: Repair[] };

/**
 * Repair, split, then the one parse per slice. The original Zod schemas are the only parsers and each runs
 * exactly once (docs/decisions/0001-architecture-one-core-sdk-v2.md). Keys owned by `extend` and `params`
 * go to those slices; every other key, known or not, goes to `input`, whose own key policy decides
 * (docs/design/repair.md, Where repair runs).
 * Never throws for client input; a failure lists every failing path.
 */
export async function checkCall(tool: PreparedTool, raw: unknown, switches: RepairSwitches): Promise<CallCheck> {
  const repairs: Repair[] = [];
  const messages: string[] = [];
  const args: unknown = raw ?? {}; // no `arguments` is `{}`; `null` and text are fixed in envelope.ts
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    return { ok: false, messages: [argumentsNotAnObject(args)], repairs };
  }

  const parts = split(args as Record<string, unknown>, tool);
  const slices = [
    { name: 'extend', schema: tool.extend?.schema, value: parts.extend },
    { name: 'params', schema: tool.params?.schema, value: parts.params },
    { name: 'input', schema: tool.input, value: parts.input },
  ] as const;
  const parsed: Record<string, unknown> = { extend: undefined, params: {}, input: {} };
  for (const slice of slices) {
    if (!slice.schema) continue;
    const repaired = repairArgs(slice.value, slice.schema, switches);
    repairs.push(...repaired.repairs);
    if (repaired.issues.length > 0) {
      messages.push(...formatIssues(repaired.issues));
      continue;
    }
    const result = await slice.schema.safeParseAsync(repaired.value);
    if (result.success) parsed[slice.name] = result.data;
    else messages.push(...formatIssues(result.error, slice.schema, repaired.value));
  }
  if (messages.length > 0) return { ok: false, messages, repairs };
  return { ok: true, value: { params: parsed.params, input: parsed.input, extend: parsed.extend, repairs } };
}

function split(args: Record<string, unknown>, tool: PreparedTool) {
  const extend: Array<[string, unknown]> = [];
  const params: Array<[string, unknown]> = [];
  const input: Array<[string, unknown]> = [];
  for (const entry of Object.entries(args)) {
    if (tool.extend?.keys.has(entry[0])) extend.push(entry);
    else if (tool.params?.keys.has(entry[0])) params.push(entry);
    else input.push(entry);
  }
  // fromEntries defines own properties: a `__proto__` key sent by a client stays a plain key (which the
  // schema's key policy then judges) and never becomes the slice's prototype.
  return { extend: Object.fromEntries(extend), params: Object.fromEntries(params), input: Object.fromEntries(input) };
}
