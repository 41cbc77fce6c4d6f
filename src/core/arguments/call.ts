import type { z } from 'zod';
import { setOwn } from '../json-schema/own-properties.js';
import { isThenable } from '../json-schema/types.js';
import { type IgnoredKey, ignoredKeys } from '../messages/ignored-keys.js';
import { formatIssues } from '../messages/index.js';
import type { PreparedTool } from '../model/prepared.js';
import { type Repair, repairArgs } from '../repair/index.js';
import type { RepairOptions, RepairResult } from '../repair/types.js';
import { parsesAtOnce } from '../zod/parses-at-once.js';
import { type StrippedKey, strippedKeys } from '../zod/stripped-keys.js';
import { markupLines } from './hygiene.js';
import { inspectSentValues } from './sent-values.js';
import type { ArgumentsPolicy } from './settle.js';

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

export type CallCheck = (
  | { ok: true; value: ParsedCall }
  | { ok: false; messages: string[]; repairs: Repair[]; ignored: IgnoredKey[] }
) & { work: CallWork };

/**
 * What each walk over the sent values did, counted in the units it visits: the measure its linearity is
 * held to (a walk's count grows with the arguments' size, never faster).
 */
interface CallWork {
  /** Values the first pass visited (sent-values.ts). */
  sent: number;
  /** Values the repair walk visited, sent and parsed out of text. */
  repair: number;
  /** Steps of the key-policy walk (stripped-keys.ts). */
  stripped: number;
}

/** What the envelope step did to a call's `arguments` before the SDK saw them (serve/envelope.ts). */
export interface SentEnvelope {
  /** Repairs made to the whole `arguments` (sent as JSON text, or empty). */
  readonly repairs: readonly Repair[];
  /** `arguments` the SDK would refuse, kept for the check to judge (it was handed `{}`). */
  readonly unfit?: { readonly value: unknown };
}

/** What the argument check reads: `repair`, settled, and what one call's arguments may hold (`limits`). */
export interface CallPolicy extends ArgumentsPolicy {
  readonly argumentLimits: { readonly maxDepth: number; readonly maxValues: number };
}

/**
 * The first pass, repair, split, then the one parse per slice. The original Zod schemas are the only parsers
 * and each runs exactly once (docs/decisions/0001-architecture-one-core-sdk-v2.md). Keys owned by `extend`
 * and `params` go to those slices; every other key, known or not, goes to `input`, whose own key policy
 * decides (docs/design/repair.md, Where repair runs).
 * The first pass refuses arguments past `argumentLimits` before any recursive step (Zod's parse included)
 * sees them and, with `hygiene`, a string holding tool-call markup. Keys a slice's schema would drop are
 * found from that schema beside the parse, and noticed, refused or let go as `unknownKeys` says. Every walk
 * is linear in the arguments' size (docs/design/repair.md, Limits). Never throws for client input; a
 * failure lists the failing paths, the first few of many.
 *
 * Synchronous up to the parse: the one wait of a call's check is Zod's, so a promise is returned only when a
 * parse is pending (each layer awaited cost a promise and a turn of the microtask queue per call).
 */
export function checkCall(
  tool: PreparedTool,
  raw: unknown,
  policy: CallPolicy,
  envelope: SentEnvelope = NO_ENVELOPE,
): CallCheck | Promise<CallCheck> {
  // The envelope's repairs come first: they were made first.
  const repairs: Repair[] = [...envelope.repairs];
  const work: CallWork = { sent: 0, repair: 0, stripped: 0 };
  // No `arguments` is `{}`. What the SDK could not take was replaced by `{}` for it; this judges what was sent.
  const args: unknown = envelope.unfit ? envelope.unfit.value : (raw ?? {});
  const first = firstPass(tool, args, policy, work);
  if (typeof first !== 'boolean') return { ok: false, messages: first, repairs, ignored: [], work };
  const checked = checkSlices(tool, args as Record<string, unknown>, policy, repairs, work, first);
  if (isThenable(checked)) return checked.then((done) => verdict(tool, policy, done, repairs, work));
  return verdict(tool, policy, checked, repairs, work);
}

/**
 * What no later step may see: arguments that are not an object (the one place they are refused), past
 * `argumentLimits`, or (with `hygiene`) holding tool-call markup. The refusal's lines, or else whether any
 * value is one repair could change (sent-values.ts).
 */
function firstPass(tool: PreparedTool, args: unknown, policy: CallPolicy, work: CallWork): string[] | boolean {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return [argumentsNotAnObject(args)];
  const sent = inspectSentValues(args as Record<string, unknown>, {
    ...policy.argumentLimits,
    markup: policy.hygiene,
  });
  work.sent = sent.values;
  if (!sent.ok) return [sent.message];
  const polluted = markupLines(
    sent.polluted,
    sent.morePolluted,
    args as Record<string, unknown>,
    tool.argumentKeys,
    tool.requiredKeys,
  );
  return polluted.length > 0 ? polluted : sent.repairable;
}

/** What the slices came to: the parsed values, the failure lines, and the keys their schemas dropped. */
interface CheckedSlices {
  parsed: { extend: unknown; params: unknown; input: unknown };
  messages: string[];
  stripped: StrippedKey[];
  moreStripped: number;
}

/** Split by key, then per slice: repair, the key-policy walk, the one parse. Adds to `repairs` and `work`. */
function checkSlices(
  tool: PreparedTool,
  args: Record<string, unknown>,
  policy: CallPolicy,
  repairs: Repair[],
  work: CallWork,
  repairable: boolean,
): CheckedSlices | Promise<CheckedSlices> {
  const checked: CheckedSlices = {
    parsed: { extend: undefined, params: {}, input: {} },
    messages: [],
    stripped: [],
    moreStripped: 0,
  };
  // Nothing repair could change (the first pass saw no null and no string it might read): no repair walk.
  const options = repairable ? repairOptionsOf(policy) : undefined;
  // A tool without `extend` or `params` (most tools) has one slice, the sent object itself.
  if (!tool.extend && !tool.params)
    return checkSlice('input', tool.input, args, policy, options, checked, repairs, work);
  return checkParts(tool, split(args, tool), policy, options, checked, repairs, work);
}

/** The slices one after another: each parse is over before the next slice's begins, as the parses ran. */
async function checkParts(
  tool: PreparedTool,
  parts: ReturnType<typeof split>,
  policy: CallPolicy,
  options: RepairOptions | undefined,
  checked: CheckedSlices,
  repairs: Repair[],
  work: CallWork,
): Promise<CheckedSlices> {
  if (tool.extend)
    await checkSlice('extend', tool.extend.schema, parts.extend, policy, options, checked, repairs, work);
  if (tool.params)
    await checkSlice('params', tool.params.schema, parts.params, policy, options, checked, repairs, work);
  return checkSlice('input', tool.input, parts.input, policy, options, checked, repairs, work);
}

/**
 * One slice: repair, the key-policy walk, the one parse; its outcome added to `checked`, `repairs`, `work`.
 * Returns `checked`, once the parse is over.
 */
function checkSlice(
  name: keyof CheckedSlices['parsed'],
  schema: z.ZodType,
  value: unknown,
  policy: CallPolicy,
  options: RepairOptions | undefined,
  checked: CheckedSlices,
  repairs: Repair[],
  work: CallWork,
): CheckedSlices | Promise<CheckedSlices> {
  const { messages, stripped } = checked;
  const repaired = options ? repairArgs(value, schema, options) : unrepaired(value);
  work.repair += repaired.visited;
  for (const repair of repaired.repairs) repairs.push(repair);
  if (repaired.issues.length > 0) {
    messages.push(...formatIssues(repaired.issues));
    return checked;
  }
  if (policy.unknownKeys !== 'strip') {
    const dropped = strippedKeys(schema, repaired.value, STRIPPED_RECORDED - stripped.length);
    work.stripped += dropped.steps;
    for (const key of dropped.keys) stripped.push(key);
    checked.moreStripped += dropped.more;
  }
  const parsed = repaired.value;
  // A schema that runs none of its author's code parses the same at once (zod/parses-at-once.ts).
  if (parsesAtOnce(schema)) return parseOutcome(name, schema, parsed, parseNow(schema, parsed), checked);
  return schema.safeParseAsync(parsed).then(
    (result) => parseOutcome(name, schema, parsed, result, checked),
    (error: unknown) => parseOutcome(name, schema, parsed, tooDeep(error), checked),
  );
}

/** A slice's parse, added to `checked`. */
function parseOutcome(
  name: keyof CheckedSlices['parsed'],
  schema: z.ZodType,
  value: unknown,
  result: z.ZodSafeParseResult<unknown> | typeof TOO_DEEP,
  checked: CheckedSlices,
): CheckedSlices {
  if (result === TOO_DEEP) checked.messages.push(TOO_DEEP_FOR_SCHEMA);
  else if (result.success) checked.parsed[name] = result.data;
  else checked.messages.push(...formatIssues(result.error, schema, value));
  return checked;
}

/** What repair gives back for arguments it has nothing to change in: the value itself, as sent. */
function unrepaired(value: unknown): RepairResult {
  return { value, repairs: NO_REPAIRS, issues: NO_ISSUES, visited: 0 };
}

const NO_REPAIRS = Object.freeze([]) as unknown as Repair[];
const NO_ISSUES = Object.freeze([]) as unknown as RepairResult['issues'];

/** Repair's options for a policy: `repair` with the argument limits, made once per settled policy. */
const repairOptions = new WeakMap<CallPolicy, RepairOptions>();

function repairOptionsOf(policy: CallPolicy): RepairOptions {
  let options = repairOptions.get(policy);
  if (!options) {
    options = Object.freeze({
      ...policy.repair,
      maxDepth: policy.argumentLimits.maxDepth,
      maxNodes: policy.argumentLimits.maxValues,
    });
    repairOptions.set(policy, options);
  }
  return options;
}

/** The call's outcome: refused with every line (what was ignored too), or parsed, with the notice. */
function verdict(
  tool: PreparedTool,
  policy: CallPolicy,
  checked: CheckedSlices,
  repairs: Repair[],
  work: CallWork,
): CallCheck {
  const { ignored, lines } = ignoredKeys(checked.stripped, checked.moreStripped, {
    tool: tool.name,
    rootKeys: tool.argumentKeys,
    injected: policy.injectedKeys,
  });
  const { messages, parsed } = checked;
  // A refused call says what was ignored too: the model resends once, with every fix.
  if (messages.length > 0) return { ok: false, messages: [...messages, ...lines], repairs, ignored, work };
  if (policy.unknownKeys === 'reject' && lines.length > 0)
    return { ok: false, messages: lines, repairs, ignored, work };
  const value: ParsedCall = { params: parsed.params, input: parsed.input, extend: parsed.extend, repairs, ignored };
  const notice = lines.length > 0 ? lines.join('\n') : undefined;
  if (notice) value.notice = notice;
  return { ok: true, value, work };
}

const NO_ENVELOPE: SentEnvelope = Object.freeze({ repairs: Object.freeze([]) });

/** The failure text for `arguments` that are not an object: the one place that refuses them. */
function argumentsNotAnObject(value: unknown): string {
  const received =
    value === null
      ? 'null'
      : Array.isArray(value)
        ? 'array'
        : typeof value === 'string'
          ? 'text that is not a JSON object'
          : typeof value;
  return `(root): expected an object of arguments, received ${received}`;
}

const TOO_DEEP: unique symbol = Symbol('too-deep');
const TOO_DEEP_FOR_SCHEMA = '(root): the arguments nest too deep for this tool to check; send a flatter value';

/**
 * What a slice's parse that threw came to. Zod's parse recurses per level: within `maxArgumentDepth` (64 by
 * default) it never nears the stack limit, but a mount that raised the limit far enough could hit it, and a
 * stack overflow must reach the model as what it is, not as the engine's words.
 */
function parseNow(schema: z.ZodType, value: unknown): z.ZodSafeParseResult<unknown> | typeof TOO_DEEP {
  try {
    return schema.safeParse(value);
  } catch (error) {
    return tooDeep(error);
  }
}

function tooDeep(error: unknown): typeof TOO_DEEP {
  if (error instanceof RangeError) return TOO_DEEP;
  throw error;
}

/**
 * Ignored keys kept with their paths for the notice, `ctx.ignoredKeys` and `onCall`; past it they are only
 * counted, so a call with 100,000 unknown keys costs a count, not 100,000 entries.
 */
const STRIPPED_RECORDED = 100;

function split(args: Record<string, unknown>, tool: PreparedTool) {
  // Without other slices every key is the input's: the sent object itself (nothing below writes to it).
  if (!tool.extend && !tool.params) return { extend: {}, params: {}, input: args };
  const extend: Record<string, unknown> = {};
  const params: Record<string, unknown> = {};
  const input: Record<string, unknown> = {};
  const keys = Object.keys(args);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const slice = tool.extend?.keys.has(key) ? extend : tool.params?.keys.has(key) ? params : input;
    // An own property even for `__proto__` sent by a client: a plain key (which the schema's key policy then
    // judges), never the slice's prototype.
    setOwn(slice, key, args[key]);
  }
  return { extend, params, input };
}
