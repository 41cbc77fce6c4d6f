/**
 * The input carrier a tool is registered with for one request: its JSON Schema is the projection's frozen
 * document, its `validate` the argument check (call.ts) on what the envelope step left of the call. A refused
 * call is reported to `onCall` from here; an accepted one travels on, as the SDK's validated value, to the
 * executor (execute.ts). Nothing else carries per-call data.
 */

import type { StandardSchemaV1, StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import type { CallCheck, CallPolicy } from '../arguments/call.js';
import { checkCall, type ParsedCall } from '../arguments/call.js';
import { isThenable } from '../json-schema/types.js';
import type { PreparedTool, ToolDocuments } from '../model/prepared.js';
import { observeCall, whoCalled } from '../observe/observe.js';
import type { Observer } from '../observe/settle.js';
import type { ProjectionName } from '../projection/names.js';
import type { RequestState } from './request-state.js';
import { carrier } from './sdk/carrier.js';

/** A call whose arguments passed the check, as the executor gets it. */
export interface CheckedCall extends ParsedCall {
  /** `performance.now()` when the check began. */
  started: number;
  /** The arguments as the SDK handed them to the check. */
  args: unknown;
  /** The call was over a rate window as it arrived: not checked, to be answered with that refusal. */
  limited?: RequestState['limited'];
}

/** What the input carrier knows of the request that made a call: the call's envelope, who made it, its limit. */
export type Caller = Pick<RequestState, 'call' | 'authInfo' | 'trace' | 'limited'>;

/** What a call over its rate window carries instead of checked arguments. */
const UNCHECKED = Object.freeze({ params: {}, input: {}, extend: undefined, repairs: [], ignored: [] });

/** What a carrier shared by every request knows of the request: nothing (registration.ts says when it serves). */
export const NO_CALLER: Caller = Object.freeze({});

/**
 * What `projection` lists the tool with, or, for a call from a client whose projection does not list it, the
 * first served projection's that does (a call may come from any client; the original Zod schema parses it).
 */
export function listedDocuments(
  prepared: PreparedTool,
  projection: ProjectionName,
  served: readonly ProjectionName[],
): ToolDocuments {
  const own = prepared.documents(projection);
  if (own) return own;
  for (const p of served) {
    const documents = prepared.documents(p);
    if (documents) return documents;
  }
  return { inputSchema: {} };
}

export function inputCarrier(
  prepared: PreparedTool,
  served: readonly ProjectionName[],
  observer: Observer,
  policy: CallPolicy,
  caller: Caller,
  projection: ProjectionName,
): StandardSchemaWithJSON {
  // A value when nothing waits (a refusal before the parse, a call over its rate window), else a promise: the
  // direct path calls it as it is, waiting only where the check does.
  const check: ArgumentCheck = (value) => {
    const started = performance.now();
    // Over its rate window: no repair, no parse; the executor answers with the refusal.
    if (caller.limited) return { value: { ...UNCHECKED, started, args: value, limited: caller.limited } };
    const check = checkCall(prepared, value, policy, caller.call);
    if (isThenable(check)) return check.then((done) => checked(done, prepared, observer, caller, value, started));
    return checked(check, prepared, observer, caller, value, started);
  };
  // The SDK's path gets the same check as an async function, as it always has (the differential test tells
  // it from a handed-over call's pass-through carrier by that).
  const schema = carrier(listedDocuments(prepared, projection, served).inputSchema, async (value) => check(value));
  return Object.assign(schema, { [CHECK]: check });
}

/** What the input carrier's `validate` answers, before the SDK's path awaits it. */
type ArgumentCheck = (value: unknown) => StandardSchemaV1.Result<unknown> | Promise<StandardSchemaV1.Result<unknown>>;

const CHECK: unique symbol = Symbol('argument check');

/**
 * The argument check behind an input carrier: its `validate` without the wait, for the direct path, where
 * each awaited layer costs a promise and a turn of the microtask queue per call. Any other carrier's
 * `validate` as it is.
 */
export function argumentCheck(schema: StandardSchemaWithJSON): ArgumentCheck {
  return (schema as { [CHECK]?: ArgumentCheck })[CHECK] ?? schema['~standard'].validate;
}

/** The input carrier's answer for a checked call: the call for the executor, or the issues, told to `onCall`. */
function checked(
  check: CallCheck,
  prepared: PreparedTool,
  observer: Observer,
  caller: Caller,
  value: unknown,
  started: number,
): StandardSchemaV1.Result<unknown> {
  if (check.ok) {
    // The check's value is made for this call alone: completed in place, not copied.
    const call = check.value as CheckedCall;
    call.started = started;
    call.args = value;
    return { value: call };
  }
  observeCall(observer, {
    ...whoCalled(caller, value),
    tool: prepared.name,
    ok: false,
    error: check.messages.join('; '),
    repairs: check.repairs,
    ignoredKeys: check.ignored,
    started,
  });
  return { issues: check.messages.map((message) => ({ message })) };
}
