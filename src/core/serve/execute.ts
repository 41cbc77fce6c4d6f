/**
 * The executor: the tool callback the SDK calls with a checked call (input-carrier.ts). It runs
 * `extend.resolve`, the handler and the output check, adds the notice of ignored keys, and reports the call to
 * `onCall` once. A call that was over a rate window as it arrived is answered with that refusal, unchecked and
 * unrun; one let in takes a running slot first.
 */

import {
  type CallToolResult,
  type InputRequiredResult,
  ProtocolError,
  ProtocolErrorCode,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { isThenable } from '../json-schema/types.js';
import { admitCall, limitedCall } from '../limits/rate.js';
import type { LimitsPolicy } from '../limits/settle.js';
import { settledTimeout, timedOutText, withTimeout } from '../limits/timeout.js';
import { formatIssues } from '../messages/index.js';
import type { PreparedTool } from '../model/prepared.js';
import type { ToolContext } from '../model/tool.js';
import { errorResult, failedCall } from '../observe/failure.js';
import { type CallRecord, observeCall, whoCalled } from '../observe/observe.js';
import { observeCallRefusal } from '../observe/refusal.js';
import type { Observer } from '../observe/settle.js';
import type { CheckedCall } from './input-carrier.js';
import { toolSignals } from './logging.js';
import type { RequestState } from './request-state.js';
import {
  errorWithinSchema,
  isInputRequired,
  sendable,
  type ToolResult,
  toToolResult,
  UnsendableResult,
  withNotice,
  withStructured,
} from './result.js';
import { sharedAccessor } from './shared-accessor.js';
import type { TaskSlot } from './task-call.js';

/**
 * Runs one checked call. `slot`, for a call that may run as a task (task-call.ts): the handler runs on its
 * signal and timeout once it is set, and a JSON-RPC error it throws is left there.
 */
export type Executor = (
  call: CheckedCall,
  mcp: ServerContext,
  state: RequestState,
  slot?: TaskSlot,
) => Promise<ToolResult>;

/**
 * What the handler's run came to, when it did not throw. A round that asks the client for input is not the
 * call's outcome: it is sent without the notice.
 */
type Outcome =
  | { result: InputRequiredResult; ok: true; inputRequired: true }
  | { result: CallToolResult; ok: boolean; inputRequired?: undefined };

/** What running a call reads: the limits, the observer, and whether `ctx.log` sends (`protocol.logging`). */
export interface RunPolicy {
  readonly limits: LimitsPolicy;
  readonly observer: Observer;
  readonly logging: boolean;
}

export function executor(prepared: PreparedTool, policy: RunPolicy): Executor {
  const { limits, observer } = policy;
  const timeoutMs = settledTimeout(prepared.tool, limits.timeoutMs);
  return async (call, mcp, state, slot) => {
    // Inside a task the handler runs on the task's signal: its client may go; a plain call's may cancel it.
    // A reader: the signal is made when the handler reads it (limits/lazy-signal.ts).
    const parent = slot?.signal ? undefined : callSignal(mcp, state.cancel?.handler);
    const finish = callReport(observer, prepared.name, call, parent && mcp, state);
    if (call.limited) {
      const text = limitedCall(observer, state, prepared.name, call.limited);
      finish(false, { error: text });
      return errorResult(text);
    }
    // Handed to a queue (`tasks.run`): checked, and run by the queue's consumer, where it is reported.
    if (slot?.queue) return slot.queue(call, mcp.http?.authInfo ?? state.authInfo);
    const admission = admitCall(limits, observer, prepared.name, state);
    if (!admission.ok) {
      finish(false, { error: admission.text });
      return withNotice(errorResult(admission.text), call.notice);
    }
    let outcome: Outcome;
    // A handler past its deadline keeps running: it keeps its slot until it settles, or the cap means nothing.
    let settled: Promise<void> | undefined;
    let handlerSignal: (() => AbortSignal) | undefined;
    try {
      // Inside a task the handler runs on the task's signal, under the task's timeout.
      const deadline = slot?.signal ? slot.timeoutMs : timeoutMs;
      const taskSignal = slot?.signal;
      const start = (signal: () => AbortSignal) => {
        handlerSignal = signal;
        return runHandler(prepared, call, toolContext(prepared, policy, call, mcp, state, signal, slot));
      };
      const signal = taskSignal ? () => taskSignal : parent!;
      // Without a deadline nothing races the run (withTimeout would only wrap it in one more promise).
      if (deadline === undefined) outcome = await start(signal);
      else {
        const timed = await withTimeout(deadline, signal, start);
        if (timed.timedOut) {
          settled = timed.settled;
          const text = timedOut(observer, prepared.name, deadline, state);
          finish(false, { error: text });
          return withNotice(errorResult(text), call.notice);
        }
        outcome = timed.value;
      }
    } catch (error) {
      const gone = parent && handlerStopped(error, handlerSignal, mcp, state);
      return failedRun(error, { observer, tool: prepared.name, call, state, slot, finish, gone });
    } finally {
      if (settled) void settled.then(() => admission.release());
      else admission.release();
    }
    finish(outcome.ok, outcome.inputRequired && { inputRequired: true });
    // What the schema dropped reaches the model beside whatever the handler returned.
    return outcome.inputRequired ? outcome.result : withNotice(outcome.result, call.notice);
  };
}

/** Reports the call once to a span and `onCall`, building the record only when one of them listens. */
function callReport(
  observer: Observer,
  tool: string,
  call: CheckedCall,
  // The call's context, for a plain call whose client may go away; undefined inside a task.
  client: ServerContext | undefined,
  state: RequestState,
): (ok: boolean, detail?: Pick<CallRecord, 'error' | 'errorId' | 'inputRequired'>) => void {
  if (observer.onCall === undefined && state.trace === undefined) return UNHEARD;
  return (ok, detail = {}) =>
    observeCall(observer, {
      ...whoCalled(state, call.args),
      tool,
      ok,
      ...detail,
      ...clientGone(client?.mcpReq.signal, state.cancel),
      repairs: call.repairs,
      ignoredKeys: call.ignored,
      started: call.started,
    });
}

/** The report of a call nobody listens to: one function for every such call. */
const UNHEARD = () => {};

/**
 * A handler that stopped with its own signal's reason once its client had gone did what it was asked: nobody
 * reads the answer, and it is no unexpected error to log. A handler that threw its signal's reason has read its
 * signal, so reading it here makes nothing new.
 */
function handlerStopped(
  error: unknown,
  signal: (() => AbortSignal) | undefined,
  mcp: ServerContext,
  state: RequestState,
): boolean {
  const stopped = signal?.();
  return stopped?.aborted === true && error === stopped.reason && gone(mcp.mcpReq.signal, state.cancel) !== undefined;
}

/** What a run that threw is answered with, reported once; rethrows what must reach the client as it is. */
function failedRun(
  error: unknown,
  run: {
    observer: Observer;
    tool: string;
    call: CheckedCall;
    state: RequestState;
    slot: TaskSlot | undefined;
    finish: ReturnType<typeof callReport>;
    gone: boolean | undefined;
  },
): ToolResult {
  const { observer, tool, call, slot, finish } = run;
  // The SDK's URL elicitation must reach the client as the protocol error it is.
  if (error instanceof ProtocolError && error.code === ProtocolErrorCode.UrlElicitationRequired) throw error;
  // A task ends `failed` with a JSON-RPC error its handler threw; a plain call masks it as always.
  if (slot && error instanceof ProtocolError) slot.thrown = error;
  if (run.gone) {
    const text = `Tool ${tool} stopped: its client went away`;
    finish(false, { error: text });
    return errorResult(text);
  }
  const unsendable = error instanceof UnsendableResult;
  const phase = error instanceof OutputRefused || unsendable ? 'output' : 'handler';
  const who = whoCalled(run.state, call.args);
  const failure = failedCall(observer, tool, error, who, phase, unsendable ? error.message : undefined);
  if (slot && slot.thrown === error && failure.errorId !== undefined) slot.errorId = failure.errorId;
  finish(false, { error: failure.text, errorId: failure.errorId });
  return withNotice(failure.result, call.notice);
}

/**
 * The signal a plain call's handler runs under: the request's (aborted when its client goes away, and when
 * the exchange ends), and, for a call a `notifications/cancelled` may reach, the cancel's, which aborts
 * first with its own reason (in-flight.ts). Both sources live as long as the call, so nothing is removed.
 * Returned as a reader: nothing is made until the handler reads its signal.
 */
function callSignal(mcp: ServerContext, cancel: AbortSignal | undefined): () => AbortSignal {
  if (!cancel) return () => mcp.mcpReq.signal;
  let made: AbortSignal | undefined;
  return () => {
    if (made) return made;
    const request = mcp.mcpReq.signal;
    const controller = new AbortController();
    const first = cancel.aborted ? cancel : request.aborted ? request : undefined;
    if (first) controller.abort(first.reason);
    else {
      cancel.addEventListener('abort', () => controller.abort(cancel.reason), { once: true });
      request.addEventListener('abort', () => controller.abort(request.reason), { once: true });
    }
    made = controller.signal;
    return made;
  };
}

/** How the call's client went away before its result, if it did: cancelled it, or closed its connection. */
function gone(request: AbortSignal, cancel: RequestState['cancel']): 'cancelled' | 'disconnected' | undefined {
  if (cancel?.handler.aborted) return 'cancelled';
  return request.aborted ? 'disconnected' : undefined;
}

/** `{ clientGone }` for the `onCall` event; nothing for a task's run (`request` undefined) or a client still there. */
function clientGone(request: AbortSignal | undefined, cancel: RequestState['cancel']): Pick<CallRecord, 'clientGone'> {
  const how = request && gone(request, cancel);
  return how ? { clientGone: how } : {};
}

/** The text for a call past its deadline, reported to the audit trail. */
function timedOut(observer: Observer, tool: string, timeoutMs: number, state: RequestState): string {
  const message = timedOutText(tool, timeoutMs);
  observeCallRefusal(observer, state, { reason: 'timeout', message, tool });
  return message;
}

/** What the handler and `extend.resolve` are given, before `extend` is resolved. */
function toolContext(
  prepared: PreparedTool,
  policy: RunPolicy,
  call: CheckedCall,
  mcp: ServerContext,
  state: RequestState,
  signal: () => AbortSignal,
  slot: TaskSlot | undefined,
): Omit<ToolContext, 'extend'> {
  const status = slot?.status;
  const { log, progress } = toolSignals(mcp, policy.logging, policy.observer, prepared.name);
  const context = new ToolCallContext(signal) as unknown as Omit<ToolContext, 'extend'>;
  context.request = mcp.http?.req;
  context.authInfo = mcp.http?.authInfo ?? state.authInfo;
  // Made when the handler reads it (limits/lazy-signal.ts).
  Object.defineProperty(context, 'signal', TOOL_SIGNAL);
  context.repairs = call.repairs;
  context.ignoredKeys = call.ignored;
  context.host = state.extras?.host ?? {};
  context.mcp = mcp;
  context.log = log;
  context.progress = progress;
  if (status) context.task = { status };
  return context;
}

/**
 * A handler's context: plain own properties, `signal` an own enumerable accessor shared by every call
 * (shared-accessor.ts says why not one written in a literal).
 */
class ToolCallContext {
  readonly #signal: () => AbortSignal;
  constructor(signal: () => AbortSignal) {
    this.#signal = signal;
  }
  static signalOf(context: ToolCallContext): AbortSignal {
    return context.#signal();
  }
}

const TOOL_SIGNAL = sharedAccessor(ToolCallContext.signalOf);

/**
 * `extend.resolve`, the handler, and its result as JSON carries it (`sendable`), then held to the output
 * schema. Throws what they throw, a result JSON cannot carry, and an output its schema refuses: the handler
 * broke its own contract, a server bug, masked like a throw (the issues may quote values).
 */
async function runHandler(
  prepared: PreparedTool,
  call: CheckedCall,
  base: Omit<ToolContext, 'extend'>,
): Promise<Outcome> {
  const { handler, output } = prepared.tool;
  const extend = prepared.extend?.resolve ? await prepared.extend.resolve(call.extend as never, base) : call.extend;
  // Assigned, not spread: a spread would read `signal` and make it for every call.
  const returned = handler(
    { params: call.params as never, input: call.input as never },
    Object.assign(base, { extend }),
  );
  // A value returned at once is not waited for: an await is a promise and a turn of the queue per call.
  const value = sendable(isThenable(returned) ? await returned : returned);
  const result = toToolResult(value, output !== undefined);
  // A round that asks the client for input is not the call's outcome: no output to check yet.
  if (isInputRequired(result)) return { result, ok: true, inputRequired: true };
  if (!output) return { result, ok: !result.isError };
  if (result.isError) return { result: await errorWithinSchema(result, output), ok: false };
  const checked = await output.safeParseAsync(result.structuredContent);
  if (checked.success) return { result: withStructured(result, checked.data, value), ok: true };
  const issues = formatIssues(checked.error, output, result.structuredContent).join('; ');
  throw new OutputRefused(
    `Output validation error: tool ${prepared.name} returned a value its output schema refuses: ${issues}`,
  );
}

/** A result the tool's own output schema refuses: reported in the `output` phase. */
class OutputRefused extends Error {
  override name = 'OutputValidationError';
}
