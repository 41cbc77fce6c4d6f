import type { SchemaIssue } from '../probe/issue.js';
import { formatSchemaIssues } from './report.js';

/**
 * Thrown by `createMcpFetchHandler` (and every adapter) at construction when the startup probe finds
 * error-level issues under `schemaValidation.policy: 'throw'`, or a tool name is invalid or duplicated,
 * or a key is claimed by two argument slices. One error lists every issue, so one deploy shows them all.
 */
export class McpMountSchemaError extends Error {
  override readonly name = 'McpMountSchemaError';
  constructor(readonly issues: SchemaIssue[]) {
    const tools = [...new Set(issues.map((i) => i.tool))].join(', ');
    super(`mcp-mount: ${issues.length} schema issue(s) in tool(s) ${tools}:\n${formatSchemaIssues(issues)}`);
  }
}
