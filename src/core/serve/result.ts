/**
 * Turning what a handler returned into the result the SDK sends. What counts as a protocol result is the
 * SDK's own judgement (its result schemas), never a list of keys kept here, so a result shape the SDK learns
 * passes through without a change on our side.
 */
import {
  type CallToolResult,
  type InputRequiredResult,
  isCallToolResult,
  isInputRequiredResult,
} from '@modelcontextprotocol/server';
import type { z } from 'zod';

/** What a tool's callback hands the SDK: a complete `CallToolResult` or a 2026-07-28 `InputRequiredResult`. */
export type ToolResult = CallToolResult | InputRequiredResult;

/**
 * True when `value` is a result the SDK knows for `tools/call`, sent as is: an `InputRequiredResult`
 * (`resultType: 'input_required'`, the multi-round-trip return built by the SDK's `inputRequired(...)`), or
 * a `CallToolResult` (a `content` array of valid content blocks; the SDK's schema allows further keys).
 */
function isToolResult(value: unknown): value is ToolResult {
  return isInputRequiredResult(value) || isCallToolResult(value);
}

/** True for a 2026-07-28 `InputRequiredResult` (the SDK's discriminator, `resultType: 'input_required'`). */
export function isInputRequired(result: ToolResult): result is InputRequiredResult {
  return isInputRequiredResult(result);
}

/**
 * A handler's value as a result: protocol results as they are; any other JSON value becomes text content
 * (strings as they are), plus `structuredContent` when the tool declares `output`.
 */
export function toToolResult(value: unknown, structured: boolean): ToolResult {
  if (isToolResult(value)) return value;
  const result: CallToolResult = { content: [{ type: 'text', text: textOf(value) }] };
  if (structured) result.structuredContent = value as Record<string, unknown>;
  return result;
}

/** The result with the output schema's parsed value as `structuredContent` (and as text, when the text was ours). */
export function withStructured(result: CallToolResult, data: unknown, returned: unknown): CallToolResult {
  if (isToolResult(returned)) return { ...result, structuredContent: data as Record<string, unknown> };
  return { content: [{ type: 'text', text: textOf(data) }], structuredContent: data as Record<string, unknown> };
}

/** The result with one more text block, `notice`, after its own content (the result itself when there is none). */
export function withNotice(result: CallToolResult, notice: string | undefined): CallToolResult {
  if (notice === undefined) return result;
  return { ...result, content: [...result.content, { type: 'text', text: notice }] };
}

/**
 * A handler's own `isError` result, held to the output schema where it carries `structuredContent`: a value
 * the schema accepts is sent as parsed (as a successful result is), one it refuses is dropped, and a text
 * block says so. Sent as it was, it would make a 2025-era client
 * throw -32602 (it validates `structuredContent` against `outputSchema`), hiding the error the tool meant to
 * report. What the schema refused stays out of the text: it is the server's own data.
 */
export async function errorWithinSchema(result: CallToolResult, output: z.ZodType): Promise<CallToolResult> {
  if (result.structuredContent === undefined) return result;
  const parsed = await output.safeParseAsync(result.structuredContent);
  // The parsed value, as a successful result sends: the served output document describes Zod's output (keys
  // it strips and defaults it fills included), which the raw value may not match.
  if (parsed.success) return { ...result, structuredContent: parsed.data as Record<string, unknown> };
  const { structuredContent: _dropped, ...rest } = result;
  return { ...rest, content: [...result.content, { type: 'text', text: DROPPED }] };
}

const DROPPED = "(structuredContent was left out of this error result: it does not match the tool's output schema)";

function textOf(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? 'null');
}
