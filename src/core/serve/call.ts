import { type IgnoredKey, ignoredKeys } from '../messages/ignored-keys.js';
import { formatIssues } from '../messages/index.js';
import type { MountConfig } from '../mount/config.js';
import type { PreparedTool } from '../mount/prepare.js';
import { type Repair, repairArgs } from '../repair/index.js';
import { type StrippedKey, strippedKeys } from '../zod/stripped-keys.js';
import { argumentsNotAnObject } from './envelope.js';
import { markupLines } from './hygiene.js';

/** What a successful `tools/call` argument check hands to the executor. */
export interface ParsedCall {
  params: unknown;
  input: unknown;
  /** Parsed extend values, before `resolve`. */
  extend: unknown;
  repairs: Repair[];
  /** Keys the schemas dropped, and the notice that names them (under `unknownKeys: 'notice'`). */
  ignored: IgnoredKey[];
  notice?: string;
}

export type CallCheck =
  | { ok: true; value: ParsedCall }
  | { ok: false; messages: string[]; repairs: Repair[]; ignored: IgnoredKey[] };

/** The parts of the mount's configuration the argument check reads. */
export type CallPolicy = Pick<MountConfig, 'repair' | 'unknownKeys' | 'injectedKeys' | 'hygiene'>;

/**
 * Repair, split, then the one parse per slice. The original Zod schemas are the only parsers and each runs
 * exactly once (docs/decisions/0001-architecture-one-core-sdk-v2.md). Keys owned by `extend` and `params`
 * go to those slices; every other key, known or not, goes to `input`, whose own key policy decides
 * (docs/design/repair.md, Where repair runs).
 * Keys a slice's schema would drop are found from that schema beside the parse, and noticed, refused or
 * let go as `unknownKeys` says. With `argumentHygiene`, a string holding tool-call markup refuses the call
 * before anything runs. Never throws for client input; a failure lists every failing path.
 */
export async function checkCall(tool: PreparedTool, raw: unknown, policy: CallPolicy): Promise<CallCheck> {
  const repairs: Repair[] = [];
  const messages: string[] = [];
  const args: unknown = raw ?? {}; // no `arguments` is `{}`; `null` and text are fixed in envelope.ts
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    return { ok: false, messages: [argumentsNotAnObject(args)], repairs, ignored: [] };
  }

  if (policy.hygiene) {
    const polluted = markupLines(args as Record<string, unknown>, tool.argumentKeys, tool.requiredKeys);
    if (polluted.length > 0) return { ok: false, messages: polluted, repairs, ignored: [] };
  }
  const parts = split(args as Record<string, unknown>, tool);
  const slices = [
    { name: 'extend', schema: tool.extend?.schema, value: parts.extend },
    { name: 'params', schema: tool.params?.schema, value: parts.params },
    { name: 'input', schema: tool.input, value: parts.input },
  ] as const;
  const parsed: Record<string, unknown> = { extend: undefined, params: {}, input: {} };
  const stripped: StrippedKey[] = [];
  for (const slice of slices) {
    if (!slice.schema) continue;
    const repaired = repairArgs(slice.value, slice.schema, policy.repair);
    repairs.push(...repaired.repairs);
    if (repaired.issues.length > 0) {
      messages.push(...formatIssues(repaired.issues));
      continue;
    }
    if (policy.unknownKeys !== 'strip') stripped.push(...strippedKeys(slice.schema, repaired.value));
    const result = await slice.schema.safeParseAsync(repaired.value);
    if (result.success) parsed[slice.name] = result.data;
    else messages.push(...formatIssues(result.error, slice.schema, repaired.value));
  }
  const found = ignoredKeys(stripped, { tool: tool.name, rootKeys: tool.argumentKeys, injected: policy.injectedKeys });
  const ignored = found.map((f) => f.key);
  const lines = found.map((f) => f.line);
  // A refused call says what was ignored too: the model resends once, with every fix.
  if (messages.length > 0) return { ok: false, messages: [...messages, ...lines], repairs, ignored };
  if (policy.unknownKeys === 'reject' && lines.length > 0) return { ok: false, messages: lines, repairs, ignored };
  const notice = lines.length > 0 ? lines.join('\n') : undefined;
  return {
    ok: true,
    value: {
      params: parsed.params,
      input: parsed.input,
      extend: parsed.extend,
      repairs,
      ignored,
      ...(notice && { notice }),
    },
  };
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
