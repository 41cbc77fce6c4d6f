/**
 * The direct path for `tools/call`: a call the fallback rule takes (eligible.ts) is checked, run and answered
 * here, without a per-request SDK server, transport or request copy, through the same concern functions the
 * SDK's path calls: the tool's input carrier (the argument check, `onCall` on a refusal), the executor
 * (limits, the handler, the output check, `onCall`), and bytes written as the SDK writes them (encode.ts).
 *
 * The SDK finishes a call begun here (`handOver`) when the call needs what only it does: a result not in the
 * plain shape (an `InputRequiredResult`, a handler's own content blocks, `_meta`...), a throw that must
 * reach the client as a protocol error, or a message sent to the client before the result (context.ts). A
 * call still running after one keep-alive interval is kept alive by the request path (keep-alive.ts), on
 * either path alike. It then registers the called tool with the call's input passed through and the call in
 * flight as its callback, so the answer is the SDK's own and nothing is checked or run twice.
 */

import {
  type CallToolResult,
  SdkError,
  SdkErrorCode,
  type ServerContext,
  type StandardSchemaV1,
} from '@modelcontextprotocol/server';
import { isThenable } from '../../json-schema/types.js';
import { LazySignal } from '../../limits/lazy-signal.js';
import { argumentCheck, type CheckedCall } from '../input-carrier.js';
import { unansweredStream } from '../keep-alive.js';
import type { Registration } from '../registration.js';
import type { RequestState } from '../request-state.js';
import type { ToolResult } from '../result.js';
import type { SdkExchange } from '../sdk/handler.js';
import { callContext } from './context.js';
import { type DirectPlan, type DirectPolicy, directPlan } from './eligible.js';
import { legacyAnswer, modernAnswer, plainResult, refusedArguments } from './encode.js';

export interface DirectCalls {
  /** The answer to a call the direct path takes, or undefined: the SDK's path serves this request. */
  serve(request: Request, state: RequestState, message: unknown): Promise<Response> | undefined;
  /**
   * As the SDK's `close` does for its exchanges: in-flight 2026-07-28 calls are answered 499 and their
   * handlers' signals aborted (2025-era calls run on, as the SDK's stateless legacy serving leaves them);
   * later calls go to the SDK's path, which refuses them.
   */
  close(): void;
}

/** What the direct path reads beyond the fallback rule's policy. */
export interface DirectSetup extends DirectPolicy {
  /** The per-request server's `serverInfo`, stamped into 2026-07-28 results. */
  readonly serverInfo: object;
  /** `protocol.logging`: the per-request server declares the logging capability. */
  readonly logging: boolean;
  /** False once the mount is switched to the SDK's path alone (`forceSdkPath`, for the differential test). */
  readonly enabled: () => boolean;
}

/**
 * Why a handler's signal is aborted once its call is over, as the SDK's teardown of the exchange aborts it
 * (`Protocol`'s close): one instance for every call, so a call does not pay for an error's stack.
 */
const CONNECTION_CLOSED = new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed');

export function directCalls(setup: DirectSetup, sdk: SdkExchange): DirectCalls {
  const inflight = new Set<() => void>();
  let closed = false;
  return {
    serve(request, state, message) {
      if (closed || !setup.enabled()) return undefined;
      const plan = directPlan(request, state, message, setup);
      return plan && serveCall(setup, sdk, request, state, message, plan, inflight);
    },
    close() {
      closed = true;
      for (const stop of [...inflight]) stop();
      inflight.clear();
    },
  };
}

function serveCall(
  setup: DirectSetup,
  sdk: SdkExchange,
  request: Request,
  state: RequestState,
  message: unknown,
  plan: DirectPlan,
  inflight: Set<() => void>,
): Promise<Response> {
  const { registration: r } = plan;
  // The handler's signal follows the client's until the call has settled, as the SDK's exchange does
  // (sdk/exchange.ts), so a signal a runtime reuses never holds on to the call. It is made, and the client's
  // read, only when the handler reads it (limits/lazy-signal.ts).
  const signal = new LazySignal(() => request.signal);

  const flight = callFlight();
  // A call cancelled before the SDK had it is answered here, without a response, and never handed over.
  const cancelled = state.cancel?.answer;
  const handOver = () =>
    cancelled?.aborted && !flight.handed
      ? Promise.reject(CONNECTION_CLOSED)
      : handOverCall(flight, sdk, request, state, message, r);

  const mcp = callContext(
    {
      id: plan.id,
      meta: plan.meta,
      envelope: plan.envelope,
      request,
      authInfo: state.authInfo,
      signal,
      logging: setup.logging,
    },
    handOver,
  );
  const settled = runCall(r, plan, state, mcp);
  flight.settled = settled;
  const release = watchEnds(flight, plan.era, signal, cancelled, inflight);
  settled.then(
    (result) => {
      if (!cancelled?.aborted) answerResult(flight, setup, plan, result, handOver);
      callOver(signal, release);
    },
    // A throw the SDK turns into its own answer (a protocol error, or its tool error).
    () => {
      void handOver().catch(() => {});
      callOver(signal, release);
    },
  );
  return flight.answered;
}

/** Once a call has settled: what watched its ends let go, and its handler's signal aborted, as the SDK's is. */
function callOver(signal: LazySignal, release: (() => void) | undefined): void {
  release?.();
  signal.abort(CONNECTION_CLOSED);
}

/**
 * How a call in flight can end besides its result: cancelled by its client (in-flight.ts), answered as the
 * SDK's path answers a call whose exchange is torn down; its mount closed mid-call (2026-07-28: the SDK's
 * exchange would be torn down, its answer 499 and its handler aborted). Returns what lets go of them once the
 * call has settled, or undefined when nothing is watched.
 */
function watchEnds(
  flight: CallFlight,
  era: DirectPlan['era'],
  signal: LazySignal,
  cancelled: AbortSignal | undefined,
  inflight: Set<() => void>,
): (() => void) | undefined {
  // Nothing to watch for a 2025-era call no notification can cancel: the common call makes no closure here.
  if (!cancelled && era === 'legacy') return undefined;
  const cancel = () => {
    if (flight.handed) return;
    flight.answer(era === 'modern' ? new Response(null, { status: 499 }) : unansweredStream());
    signal.abort(CONNECTION_CLOSED);
  };
  cancelled?.addEventListener('abort', cancel, { once: true });
  const stop = () => {
    if (flight.handed) return;
    flight.answer(new Response(null, { status: 499 }));
    signal.abort(CONNECTION_CLOSED);
  };
  if (era === 'modern') inflight.add(stop);
  return () => {
    cancelled?.removeEventListener('abort', cancel);
    inflight.delete(stop);
  };
}

/** One call begun on the direct path: how it is answered, and how far the SDK has it. */
interface CallFlight {
  /** The call's response, once settled by `answer`. */
  readonly answered: Promise<Response>;
  /** Settles the call's response: the direct path's own, or the SDK's once handed over. */
  readonly answer: (response: Promise<Response> | Response) => void;
  /** The call run: its handler's result, or its throw. */
  settled?: Promise<ToolResult>;
  /** The SDK's answer, once the call is handed over. */
  handed?: Promise<Response>;
  /** The SDK's context for the call, once handed over: bound when the SDK runs the adopted callback. */
  sdkContext?: Promise<ServerContext>;
}

/** A call's flight, not yet answered. */
function callFlight(): CallFlight {
  let answer!: (response: Promise<Response> | Response) => void;
  const answered = new Promise<Response>((resolve) => {
    answer = resolve;
  });
  return { answered, answer };
}

/**
 * Hands the call to the SDK (once; later calls get the same context): its exchange registers the tool with
 * the call in flight as its callback, and its answer becomes the call's.
 */
function handOverCall(
  flight: CallFlight,
  sdk: SdkExchange,
  request: Request,
  state: RequestState,
  message: unknown,
  r: DirectPlan['registration'],
): Promise<ServerContext> {
  if (flight.sdkContext) return flight.sdkContext;
  let bind!: (mcp: ServerContext) => void;
  let unbound!: (error: unknown) => void;
  flight.sdkContext = new Promise<ServerContext>((resolve, reject) => {
    bind = resolve;
    unbound = reject;
  });
  const adopted = {
    config: r.adoptable(state.projection()),
    run: (mcp: ServerContext) => {
      bind(mcp);
      return flight.settled!;
    },
  };
  const handed = sdk.exchange(request, { ...state, adopted }, { authInfo: state.authInfo, parsedBody: message });
  flight.handed = handed;
  // Were the SDK to answer without calling the tool, what waits on its context must not wait forever.
  handed.then(
    () => unbound(new Error('mcp-mount: the SDK answered this call without running it')),
    (error) => unbound(error),
  );
  flight.answer(handed);
  return flight.sdkContext;
}

/** A call's result, unless the SDK has the call already: answered here when plain, else handed to the SDK. */
function answerResult(
  flight: CallFlight,
  setup: DirectSetup,
  plan: DirectPlan,
  result: ToolResult,
  handOver: () => Promise<ServerContext>,
): void {
  if (flight.handed) return;
  if (!plainResult(result, plan.withOutput)) return void handOver();
  flight.answer(
    plan.era === 'modern' ? modernAnswer(result, plan.id, setup.serverInfo) : legacyAnswer(result, plan.id, plan.json),
  );
}

/**
 * The call as the SDK's `tools/call` handler runs it once the tool is found: the input carrier's `validate`
 * (the same function the SDK calls), its refusal as the SDK words it, else the executor. Rejects where the
 * SDK's handler would see a throw. Waits only where the check does (its parse).
 */
function runCall(
  r: DirectPlan['registration'],
  plan: DirectPlan,
  state: RequestState,
  mcp: ServerContext,
): Promise<ToolResult> {
  try {
    const checked = checkArguments(r, state, plan.arguments);
    if (isThenable(checked)) return checked.then((done) => runChecked(r, done, mcp, state));
    return runChecked(r, checked, mcp, state);
  } catch (error) {
    return Promise.reject(error);
  }
}

function runChecked(
  r: DirectPlan['registration'],
  checked: Checked,
  mcp: ServerContext,
  state: RequestState,
): Promise<ToolResult> {
  return 'refused' in checked ? Promise.resolve(checked.refused) : r.run(checked.value, mcp, state);
}

/** A call's arguments after the input carrier: the checked call, or the SDK's answer to arguments it refuses. */
type Checked = { value: CheckedCall } | { refused: CallToolResult };

/**
 * A call's arguments through the tool's input carrier, as the SDK's `tools/call` handler puts them: the
 * checked call, or the result the SDK answers for arguments its input schema refuses. A promise only when
 * the carrier's answer is one.
 */
export function checkArguments(r: Registration, state: RequestState, args: unknown): Checked | Promise<Checked> {
  const checked = argumentCheck(r.config(state).inputSchema)(args);
  if (isThenable(checked)) return checked.then((done) => checkedArguments(r.name, done));
  return checkedArguments(r.name, checked);
}

function checkedArguments(tool: string, checked: StandardSchemaV1.Result<unknown>): Checked {
  if (checked.issues) return { refused: refusedArguments(tool, checked.issues.map(issueText)) };
  return { value: checked.value as CheckedCall };
}

/** An issue as the SDK's `validateStandardSchema` words it. */
function issueText(issue: { message: string; path?: ReadonlyArray<PropertyKey | { key: PropertyKey }> }): string {
  if (!issue.path?.length) return issue.message;
  return `${issue.path.map((p) => String(typeof p === 'object' ? p.key : p)).join('.')}: ${issue.message}`;
}
