/**
 * What a client sees of a call that failed on the server's side: a `ToolError`'s message as it is, any
 * other error masked behind an id that `onError` also gets (docs/decisions/0012-access-control.md).
 */
import type { AuthInfo, CallToolResult } from '@modelcontextprotocol/server';
import { ToolError } from '../model/tool-error.js';
import { observeError } from './observe.js';
import type { Observer } from './settle.js';

export interface Failure {
  result: CallToolResult;
  /** The text sent, for `onCall`. */
  text: string;
  /** Set when the error was masked: the id in `text`, and in what `onError` saw. */
  errorId?: string;
}

/**
 * The `isError` result for `error`, thrown by `tool`'s handler or its `extend.resolve`, or an output that
 * broke its schema. A `ToolError` is an answer meant for the model: sent verbatim, not reported. Anything
 * else is reported to `onError` in full and shown as `Tool <name> failed (error id <id>)`, with the message
 * appended under `exposeErrors`, or with `told`, a text of ours written for the client, always.
 */
export function failedCall(
  observer: Observer,
  tool: string,
  error: unknown,
  { requestId, authInfo }: { requestId?: string | number; authInfo?: AuthInfo } = {},
  phase: 'handler' | 'output' = 'handler',
  told?: string,
): Failure {
  if (error instanceof ToolError) return { result: errorResult(error.message), text: error.message };
  const errorId = observeError(observer, error, {
    phase,
    tool,
    ...(requestId !== undefined && { requestId }),
    ...(authInfo && { authInfo }),
  });
  const text = maskedText(observer, `Tool ${tool}`, errorId, error, told);
  return { result: errorResult(text), text, errorId };
}

/**
 * What a client is told of an unexpected error in `what`: `<what> failed (error id <id>)`, with `told` after
 * it when given (a text written for the client), else the error's message under `exposeErrors`.
 */
export function maskedText(observer: Observer, what: string, errorId: string, error: unknown, told?: string): string {
  const masked = `${what} failed (error id ${errorId})`;
  if (told !== undefined) return `${masked}: ${told}`;
  return observer.exposeErrors ? `${masked}: ${error instanceof Error ? error.message : String(error)}` : masked;
}

/** An `isError` result of one text block. */
export function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}
