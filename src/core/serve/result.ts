/** Turning what a handler returned into the `CallToolResult` the SDK sends. */
import type { CallToolResult } from '@modelcontextprotocol/server';

/** True when `value` already is an MCP `CallToolResult` (has a `content` array), so it is sent as is. */
export function isCallToolResult(value: unknown): value is CallToolResult {
  return (
    typeof value === 'object' &&
    value !== null &&
    Array.isArray((value as { content?: unknown }).content) &&
    Object.keys(value).every((k) => ['content', 'structuredContent', 'isError', '_meta'].includes(k))
  );
}

/** A JSON value becomes text content (strings as they are), plus `structuredContent` when the tool declares `output`. */
export function toCallToolResult(value: unknown, structured: boolean): CallToolResult {
  if (isCallToolResult(value)) return value;
  const result: CallToolResult = { content: [{ type: 'text', text: textOf(value) }] };
  if (structured) result.structuredContent = value as Record<string, unknown>;
  return result;
}

/** The result with the output schema's parsed value as `structuredContent` (and as text, when the text was ours). */
export function withStructured(result: CallToolResult, data: unknown, returned: unknown): CallToolResult {
  if (isCallToolResult(returned)) return { ...result, structuredContent: data as Record<string, unknown> };
  return { content: [{ type: 'text', text: textOf(data) }], structuredContent: data as Record<string, unknown> };
}

/** The result with one more text block, `notice`, after its own content (the result itself when there is none). */
export function withNotice(result: CallToolResult, notice: string | undefined): CallToolResult {
  if (notice === undefined) return result;
  return { ...result, content: [...result.content, { type: 'text', text: notice }] };
}

function textOf(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? 'null');
}
