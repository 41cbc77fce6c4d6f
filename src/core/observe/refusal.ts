/**
 * The audit trail of refusals (`observe.onRefusal`): every place the mount refuses a request or a call reports
 * it here, once, and the hook never changes the response.
 */
import { type AuthInfo, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { callerOf, observeError } from './observe.js';
import type { RefusalEvent, RefusalReason, RequestClient } from './options.js';
import type { Observer } from './settle.js';
import type { RequestTrace } from './telemetry.js';

/** A refusal as the refusing step knows it: the caller as its `AuthInfo`. */
export type Refusal = Omit<RefusalEvent, 'caller'> & { authInfo?: AuthInfo };

/** Calls `onRefusal`; a throwing hook is logged and reported to `onError`, never passed on. */
export function observeRefusal(observer: Observer, refusal: Refusal): void {
  if (!observer.onRefusal) return;
  const { authInfo, ...rest } = refusal;
  const event: RefusalEvent = { ...rest, ...(authInfo && { caller: callerOf(authInfo) }) };
  try {
    observer.onRefusal(event);
  } catch (error) {
    observeError(observer, error, {
      phase: 'onRefusal',
      ...(event.tool !== undefined && { tool: event.tool }),
      ...(event.requestId !== undefined && { requestId: event.requestId }),
      ...(authInfo && { authInfo }),
    });
  }
}

/**
 * A `tools/call` of `tool` refused inside MCP (an unknown tool's JSON-RPC error; an `isError` result over a
 * limit or past its deadline), reported with the call's request id and caller from `state`, and told to its
 * span as `error.type`: the JSON-RPC code the SDK answers an unknown tool with, else `tool_error`.
 */
export function observeCallRefusal(
  observer: Observer,
  state: {
    call?: { requestId?: string | number };
    authInfo?: AuthInfo;
    trace?: RequestTrace;
    client?: RequestClient;
  },
  refusal: { reason: RefusalReason; message: string; tool: string; retryAfterSeconds?: number },
): void {
  state.trace?.refused(refusal.reason === 'unknown-tool' ? UNKNOWN_TOOL_ERROR : 'tool_error');
  observeRefusal(observer, {
    ...refusal,
    method: 'tools/call',
    ...(state.call?.requestId !== undefined && { requestId: state.call.requestId }),
    ...(state.authInfo && { authInfo: state.authInfo }),
    ...(state.client && { client: state.client }),
  });
}

/** The SDK answers a call to a tool it does not hold with this JSON-RPC error code, in both eras. */
const UNKNOWN_TOOL_ERROR = String(ProtocolErrorCode.InvalidParams);

/** A refused HTTP response as it goes out: reported, then returned unchanged. */
export async function refusedWith(
  observer: Observer,
  response: Response,
  refusal: Omit<Refusal, 'status' | 'message'>,
): Promise<Response> {
  if (!observer.onRefusal) return response;
  observeRefusal(observer, { ...refusal, status: response.status, message: await messageOf(response) });
  return response;
}

/** What a refusal told the client: its challenge's `error_description`, else its JSON body's message. */
async function messageOf(response: Response): Promise<string> {
  const challenge = response.headers.get('www-authenticate');
  const described = challenge && /error_description="((?:[^"\\]|\\.)*)"/.exec(challenge)?.[1];
  if (described) return described.replace(/\\(.)/g, '$1');
  try {
    const body: unknown = await response.clone().json();
    const record = body as { error?: unknown; error_description?: unknown };
    if (typeof record.error_description === 'string') return record.error_description;
    const error = record.error as { message?: unknown } | undefined;
    if (typeof error?.message === 'string') return error.message;
  } catch {}
  return response.statusText || String(response.status);
}
