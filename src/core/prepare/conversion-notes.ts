import type { SchemaIssue } from '../probe/issue.js';
import type { ConversionNote } from '../zod/convert.js';

/**
 * What conversion left out of a tool's document (a flagged pattern, an integer beyond ±(2^53 - 1)) as `info`
 * issues: every projection is computed from the converted document, so each note is about all of them, at
 * its pointer into Zod's document (docs/design/probe.md, Issue codes).
 */
export function conversionNoteIssues(
  tool: string,
  notes: readonly ConversionNote[],
  side: 'input' | 'output',
): SchemaIssue[] {
  const prefix = side === 'output' ? 'Output schema: ' : '';
  return notes.map((n) => ({
    tool,
    path: n.path,
    code: n.code,
    message: `${prefix}${n.message}`,
    severity: 'info',
    side,
  }));
}
