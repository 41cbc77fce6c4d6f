/** The observer hooks (`onCall`, `onError`): they see every call and error and never change a response. */
import type { AuthInfo } from '@modelcontextprotocol/server';
import type { IgnoredKey } from '../messages/ignored-keys.js';
import type { MountConfig } from '../mount/config.js';
import type { Caller, ErrorInfo } from '../mount/options.js';
import type { Repair } from '../repair/index.js';

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
}

/** What the hooks are told about who made a call (its request id, its caller) and with what arguments. */
export function whoCalled(
  state: { call?: { requestId?: string | number }; authInfo?: AuthInfo },
  args: unknown,
): Pick<CallRecord, 'requestId' | 'authInfo' | 'args'> {
  return { requestId: state.call?.requestId, authInfo: state.authInfo, args };
}

/** Calls `onCall`; a throwing hook is logged, never passed on. */
export function observeCall(config: MountConfig, record: CallRecord): void {
  if (!config.onCall) return;
  try {
    config.onCall({
      tool: record.tool,
      ok: record.ok,
      error: record.error,
      ...(record.errorId !== undefined && { errorId: record.errorId }),
      repairs: record.repairs,
      ignoredKeys: record.ignoredKeys,
      durationMs: performance.now() - record.started,
      ...(record.requestId !== undefined && { requestId: record.requestId }),
      ...(record.authInfo && { caller: callerOf(record.authInfo) }),
      ...argsOf(config, record),
      ...(record.inputRequired && { inputRequired: true }),
    });
  } catch (error) {
    config.logger.error('mcp-mount: onCall threw', error);
  }
}

/** Calls `onError`; a throwing hook is logged, never passed on. */
export function observeError(config: MountConfig, error: unknown, info: ErrorInfo = {}): void {
  if (!config.onError) return;
  try {
    config.onError(error, info);
  } catch (hookError) {
    config.logger.error('mcp-mount: onError threw', hookError);
  }
}

/** Who called, for audit: the client id, and the subject where the verifier put one (`extra.sub`). */
export function callerOf(authInfo: AuthInfo): Caller {
  const subject = authInfo.extra?.sub;
  return { clientId: authInfo.clientId, ...(typeof subject === 'string' && { subject }) };
}

/** `{ args }` for the event: through `redact` when set; nothing when it throws (logged). */
function argsOf(config: MountConfig, record: CallRecord): { args?: unknown } {
  const args = record.args;
  if (args === undefined || !config.redact) return args === undefined ? {} : { args };
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return {};
  try {
    return { args: config.redact(args as Record<string, unknown>, record.tool) };
  } catch (error) {
    config.logger.error('mcp-mount: redact threw; args left out of onCall', error);
    return {};
  }
}
