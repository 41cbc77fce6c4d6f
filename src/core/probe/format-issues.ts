import type { SchemaIssue } from './issue.js';

/** Renders issues grouped by tool, one line each: `tool  /pointer  code  message`. */
export function formatSchemaIssues(issues: readonly SchemaIssue[]): string {
  return issues
    .map(
      (i) =>
        `  [${i.severity}] ${i.tool} ${i.projection ? `(${i.projection}) ` : ''}${i.side && i.side !== 'input' && i.side !== 'name' ? `${i.side} ` : ''}${i.path || '(root)'} ${i.code}: ${i.message}`,
    )
    .join('\n');
}
