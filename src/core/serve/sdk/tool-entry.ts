/**
 * Seam (docs/design/sdk-seams.md, pinned by test/unit/serve/sdk-seams.test.ts): the cached `tools/list`
 * (tool-list.ts) writes each tool's entry itself, so it must write exactly the entry the SDK would: its
 * fields, their order, and what each era's codec keeps.
 */
import type { ToolDocuments } from '../../model/prepared.js';
import { type AnyTool, listedExecution } from '../../model/tool.js';

/**
 * The tool as the SDK's own `tools/list` handler builds it (`McpServer.setToolRequestHandlers`), field for
 * field and in its order, then as the era's codec encodes it:
 * - `inputSchema` is `{ type: 'object', ...document }`, as the SDK's `standardSchemaToJsonSchema` makes it of
 *   a carrier's document (ours is an object root already: `type` keeps its place and value);
 * - `outputSchema` is the document itself: the SDK keeps a root that has a `type`, and a served tool's output
 *   root is always `type: 'object'` (a tool whose output root is not an object is not served), so the 2025
 *   codec, which wraps a non-object output root in `{ result }`, never changes a served tool either;
 * - the 2026-07-28 codec deletes `execution`, which that revision no longer has; the 2025 codec keeps it
 *   (`listedExecution`: derived from `task` for a task tool, as the registration sets it).
 * Fields without a value are left out, as `JSON.stringify` leaves out the SDK's `undefined` ones.
 */
export function sdkEntry(
  name: string,
  tool: AnyTool,
  documents: ToolDocuments,
  era: 'legacy' | 'modern',
): Record<string, unknown> {
  const entry: Record<string, unknown> = {
    name,
    title: tool.title,
    description: tool.description,
    inputSchema: { type: 'object', ...documents.inputSchema },
    annotations: tool.annotations,
    icons: tool.icons,
    execution: era === 'legacy' ? listedExecution(tool) : undefined,
    _meta: tool._meta,
  };
  if (documents.outputSchema && tool.output) entry.outputSchema = documents.outputSchema;
  return entry;
}
