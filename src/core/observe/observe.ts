/**
 * The observer hooks (`onCall`, `onError`) and the default error log: they see every call and error and never
 * change a response.
 */
import type { AuthInfo } from '@modelcontextprotocol/server';
import type { IgnoredKey } from '../messages/ignored-keys.js';
import type { Repair } from '../repair/index.js';
import { loggedError, logValue } from './log-text.js';
import type { Caller, ErrorInfo, ErrorPhase, RequestClient } from './options.js';
import type { Observer } from './settle.js';
import type { RequestTrace } from './telemetry.js';

/** One finished `tools/call`, as the executor knows it. */
export interface CallRecord {
  tool: string;
  ok: boolean;
  error?: string;
  /** The id shown to the client for a masked failure. */
  errorId?: string;
  repairs: readonly Repair[];
  ignoredKeys: readonly IgnoredKey[];
  /** `performance.now()` when the argument check began. */
  started: number;
  requestId?: string | number;
  authInfo?: AuthInfo;
  /** The arguments as the client sent them. */
  args?: unknown;
  /** The handler returned an `InputRequiredResult`: the call goes on in a retried request. */
  inputRequired?: boolean;
  /** How the client went away before the result, when it did (`CallEvent.clientGone`). */
  clientGone?: 'cancelled' | 'disconnected';
  /** The request's span, when traced. */
  trace?: RequestTrace;
  /** Where the request came from. */
  client?: RequestClient;
}

/** What the hooks are told about who made a call (its request id, its caller, where from) and with what arguments. */
export function whoCalled(
  state: { call?: { requestId?: string | number }; authInfo?: AuthInfo; trace?: RequestTrace; client?: RequestClient },
  args: unknown,
): Pick<CallRecord, 'requestId' | 'authInfo' | 'args' | 'trace' | 'client'> {
  return {
    requestId: state.call?.requestId,
    authInfo: state.authInfo,
    args,
    ...(state.trace && { trace: state.trace }),
    ...(state.client && { client: state.client }),
  };
}

/** Tells the request's span, then calls `onCall`; a throwing hook is logged, never passed on. */
export function observeCall(observer: Observer, record: CallRecord): void {
  record.trace?.called(record);
  if (!observer.onCall) return;
  try {
    observer.onCall({
      tool: record.tool,
      ok: record.ok,
      error: record.error,
      ...(record.errorId !== undefined && { errorId: record.errorId }),
      repairs: record.repairs,
      ignoredKeys: record.ignoredKeys,
      durationMs: performance.now() - record.started,
      ...(record.requestId !== undefined && { requestId: record.requestId }),
      ...(record.authInfo && { caller: callerOf(record.authInfo) }),
      ...(record.client && { client: record.client }),
      ...argsOf(observer, record),
      ...(record.inputRequired && { inputRequired: true }),
      ...(record.clientGone && { clientGone: record.clientGone }),
    });
  } catch (error) {
    observeError(observer, error, { phase: 'onCall', tool: record.tool, ...whoFailed(record) });
  }
}

/** Where an error happened and for whom, as `observeError` takes it; `errorId` is made when not given. */
export type ErrorWhere = Omit<ErrorInfo, 'errorId' | 'caller'> & { errorId?: string; authInfo?: AuthInfo };

/**
 * Reports an unexpected error: one line through `logger.error` (always, so nothing is lost without a hook),
 * then `onError`. A throwing `onError` is logged, never passed on. Returns the error's id.
 */
export function observeError(observer: Observer, error: unknown, where: ErrorWhere): string {
  const { authInfo, errorId = crypto.randomUUID(), ...rest } = where;
  const info: ErrorInfo = { ...rest, errorId, ...(authInfo && { caller: callerOf(authInfo) }) };
  try {
    observer.logger.error(errorLine(info), loggedError(error));
  } catch {
    // A logger that throws has nowhere else to go; onError still hears of the error.
  }
  if (!observer.onError) return errorId;
  try {
    observer.onError(error, info);
  } catch (hookError) {
    observer.logger.error('mcp-mount: onError threw', loggedError(hookError));
  }
  return errorId;
}

/**
 * `mcp-mount: handler error (error id …, tool orders, caller client-1/alice, request 7)`. The tool, the caller
 * and the request id may be what a client chose (an unknown tool's name, a JSON-RPC id, a subject a verifier
 * copied from a token): each is written plainly only when it is a short plain token, and quoted and escaped
 * otherwise (log-text.ts), so no value can end the line or pass for another field.
 */
function errorLine(info: ErrorInfo): string {
  const parts = [`error id ${info.errorId}`];
  if (info.tool !== undefined) parts.push(`tool ${logValue(info.tool)}`);
  if (info.caller) {
    const { clientId, subject } = info.caller;
    parts.push(`caller ${logValue(clientId)}${subject ? `/${logValue(subject)}` : ''}`);
  }
  if (info.requestId !== undefined) parts.push(`request ${logValue(info.requestId)}`);
  return `mcp-mount: ${phaseText(info.phase)} error (${parts.join(', ')})`;
}

function phaseText(phase: ErrorPhase): string {
  return phase === 'onCall' || phase === 'onRefusal' || phase === 'onTask' ? `${phase} hook` : phase;
}

/** The request and caller of a call record, for an error that belongs to it. */
function whoFailed(record: Pick<CallRecord, 'requestId' | 'authInfo'>): Pick<ErrorWhere, 'requestId' | 'authInfo'> {
  return {
    ...(record.requestId !== undefined && { requestId: record.requestId }),
    ...(record.authInfo && { authInfo: record.authInfo }),
  };
}

/** Who called, for audit: the client id, and the subject where the verifier put one (`extra.sub`). */
export function callerOf(authInfo: AuthInfo): Caller {
  const subject = authInfo.extra?.sub;
  return { clientId: authInfo.clientId, ...(typeof subject === 'string' && { subject }) };
}

/** `{ args }` for the event: through `redact` when set; nothing when it throws (logged). */
function argsOf(observer: Observer, record: CallRecord): { args?: unknown } {
  const args = record.args;
  if (args === undefined || !observer.redact) return args === undefined ? {} : { args };
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return {};
  try {
    return { args: observer.redact(args as Record<string, unknown>, record.tool) };
  } catch (error) {
    observer.logger.error('mcp-mount: redact threw; args left out of onCall', loggedError(error));
    return {};
  }
}
