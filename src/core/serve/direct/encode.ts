/**
 * The answer bytes of a `tools/call` served on the direct path, written as the SDK writes them (SDK 2.4, the
 * reference: `Protocol._onrequest`'s response object, the 2026-07-28 codec's `encodeResult`, the legacy
 * transport's `event: message` frame, the per-request transport's JSON body, and accept.ts's collapse for a
 * client that takes JSON only).
 *
 * Only a result in the plain shape is written here (`plainResult`): one the SDK's result projection and
 * result schema pass through unchanged, so that the bytes are the SDK's by construction. Any other result
 * is handed to the SDK to write (call.ts).
 */
import { type CallToolResult, SERVER_INFO_META_KEY } from '@modelcontextprotocol/server';
import { wholeBody } from '../../http/responses.js';
import { STREAM_HEADERS } from '../keep-alive.js';
import type { ToolResult } from '../result.js';

/** A JSON-RPC id the SDK's request schema accepts as is: a string or a safe integer. */
export type CallId = string | number;

/**
 * True when the SDK would send `result` exactly as it is, before its era's stamps: an object of exactly
 * `content`, then optionally `structuredContent`, then optionally `isError`, in that order, with nothing
 * else; `content` only text blocks of exactly `{ type: 'text', text }`; `structuredContent` a plain object
 * without an own `__proto__` key (the 2025 result schema copies it key by key, and that key would be lost).
 * A tool with an output schema and a result that is no error must carry `structuredContent` (the SDK
 * would replace the result with its own error). Linear in the number of content blocks.
 */
export function plainResult(result: ToolResult, withOutput: boolean): result is CallToolResult {
  if (!isPlainRecord(result)) return false;
  let order = 0;
  for (const key in result) {
    const rank = key === 'content' ? 1 : key === 'structuredContent' ? 2 : key === 'isError' ? 3 : 0;
    if (rank <= order) return false;
    order = rank;
  }
  const { content, structuredContent, isError } = result as Partial<CallToolResult>;
  if (!Array.isArray(content)) return false;
  for (const block of content) if (!isTextBlock(block)) return false;
  if (isError !== undefined && typeof isError !== 'boolean') return false;
  if (structuredContent === undefined) return !(withOutput && isError !== true);
  return isPlainRecord(structuredContent) && !Object.hasOwn(structuredContent, '__proto__');
}

function isTextBlock(block: unknown): boolean {
  if (!isPlainRecord(block)) return false;
  let keys = 0;
  for (const key in block) {
    if ((keys === 0 && key !== 'type') || (keys === 1 && key !== 'text') || keys > 1) return false;
    keys++;
  }
  return keys === 2 && block.type === 'text' && typeof block.text === 'string';
}

/** An object literal's kind of object: JSON text parses to these; a class instance or array is not one. */
function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return (proto === Object.prototype || proto === null) && Object.getOwnPropertySymbols(value).length === 0;
}

/** The SDK's result for a call whose arguments its input schema refused (`McpServer`'s tool error). */
export function refusedArguments(tool: string, messages: readonly string[]): CallToolResult {
  return {
    content: [
      { type: 'text', text: `Input validation error: Invalid arguments for tool ${tool}: ${messages.join(', ')}` },
    ],
    isError: true,
  };
}

const JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'content-type': 'application/json' });

/**
 * A 2025-era answer: the legacy transport's one `message` event on an event stream, or, for a client that
 * takes JSON only, the JSON-RPC response alone (accept.ts's collapse: its headers are the stream's without
 * the stream's own, `content-type: application/json`). The result is sent as it is (the 2025 codec stamps
 * nothing). The event is the whole body, so a Node server sends it with `Content-Length` in one write where
 * the SDK's stream goes out chunked, headers and event apart (ADR 0039: framing is the HTTP layer's).
 */
export function legacyAnswer(result: CallToolResult, id: CallId, json: boolean): Response {
  const text = JSON.stringify({ result, jsonrpc: '2.0', id });
  if (json) return wholeBody(new Response(text, { status: 200, headers: { ...JSON_HEADERS } }));
  return wholeBody(
    new Response(`event: message\ndata: ${text}\n\n`, { status: 200, headers: { ...STREAM_HEADERS } }),
  );
}

/**
 * A 2026-07-28 answer: one JSON body (the per-request transport's `auto` and `json` modes, nothing sent
 * before the result), the result stamped as the 2026 codec stamps a result without its own `resultType` or
 * `_meta`: `resultType: 'complete'`, then `_meta` naming the server.
 */
export function modernAnswer(result: CallToolResult, id: CallId, serverInfo: object): Response {
  const stamped = { ...result, resultType: 'complete', _meta: { [SERVER_INFO_META_KEY]: serverInfo } };
  return wholeBody(
    new Response(JSON.stringify({ result: stamped, jsonrpc: '2.0', id }), { status: 200, headers: { ...JSON_HEADERS } }),
  );
}
