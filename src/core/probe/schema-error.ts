import { formatSchemaIssues } from './format-issues.js';
import type { SchemaIssue } from './issue.js';

/**
 * Thrown by `createMcpFetchHandler` (and every adapter) at construction when the startup probe finds
 * error-level issues under `schemaValidation.policy: 'throw'`, or, under every policy, an issue that always
 * fails a mount: a tool name invalid or duplicated, a key claimed by two argument slices, `scopes` that
 * cannot mean anything (`invalid-scopes`), a `features` hook that throws or registers a tool. `issues` are
 * exactly issues of `validateMcpSchemas` with the same tools and options; one error lists every one, so one
 * deploy shows them all.
 */
export class McpMountSchemaError extends Error {
  override readonly name = 'McpMountSchemaError';
  constructor(readonly issues: SchemaIssue[]) {
    const tools = [...new Set(issues.map((i) => i.tool))].join(', ');
    super(`mcp-mount: ${issues.length} schema issue(s) in tool(s) ${tools}:\n${formatSchemaIssues(issues)}`);
  }
}
