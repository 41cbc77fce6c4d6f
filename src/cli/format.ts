import type { PrepareOptions } from '../core/mount/options.js';
import type { ValidationReport } from '../core/mount/report.js';
import type { SchemaIssue } from '../core/probe/issue.js';

/**
 * The human report of `mcp-mount check`: one table row per tool (served or not, errors, warnings,
 * input properties), then the issues grouped by tool with their JSON Pointers, then a summary line.
 */
export function formatCheckReport(
  modulePath: string,
  toolNames: readonly string[],
  report: ValidationReport,
  options: PrepareOptions,
): string {
  const lines: string[] = [];
  const profiles = options.schemaValidation?.profiles ?? [];
  lines.push(
    `mcp-mount check ${modulePath}  (flattenUnionInput: ${options.flattenUnionInput === true}; profiles: ${profiles.length > 0 ? profiles.join(', ') : 'none'})`,
  );
  lines.push('');

  const served = new Map(report.tools.map((t) => [t.name, t]));
  const byTool = new Map<string, SchemaIssue[]>();
  for (const issue of report.issues) {
    const list = byTool.get(issue.tool) ?? [];
    list.push(issue);
    byTool.set(issue.tool, list);
  }
  // Tools in module order, then any issue owner that is not a tool name (e.g. `*` for the whole set).
  const names = [...new Set([...toolNames, ...byTool.keys()])];

  const rows = names.map((name) => {
    const issues = byTool.get(name) ?? [];
    const doc = served.get(name);
    const properties =
      doc && typeof doc.inputSchema.properties === 'object' ? Object.keys(doc.inputSchema.properties).length : 0;
    return [
      name,
      doc ? 'yes' : toolNames.includes(name) ? 'NO' : '-',
      String(issues.filter((i) => i.severity === 'error').length),
      String(issues.filter((i) => i.severity === 'warning').length),
      doc ? String(properties) : '-',
    ];
  });
  lines.push(...table(['TOOL', 'SERVED', 'ERRORS', 'WARNINGS', 'INPUT PROPS'], rows).map((l) => `  ${l}`));

  for (const name of names) {
    const issues = byTool.get(name);
    if (!issues) continue;
    lines.push('', name === '*' ? '(all tools)' : name);
    for (const i of sortIssues(issues)) {
      const where = `${i.side && i.side !== 'input' ? `${i.side} ` : ''}${i.path || '(root)'}`;
      const profile = i.profile ? `  [profile ${i.profile}]` : '';
      lines.push(`  ${i.severity.padEnd(7)} ${where}  ${i.code}${profile}`);
      lines.push(`          ${i.message}`);
    }
  }

  const errors = report.issues.filter((i) => i.severity === 'error').length;
  const warnings = report.issues.length - errors;
  lines.push('');
  lines.push(
    `${report.ok ? 'OK' : 'FAILED'}: ${plural(toolNames.length, 'tool')}, ${report.tools.length} served, ` +
      `${plural(errors, 'error')}, ${plural(warnings, 'warning')}`,
  );
  return lines.join('\n');
}

/** Errors first, then by side and pointer, so one tool's findings read top-down. */
function sortIssues(issues: readonly SchemaIssue[]): SchemaIssue[] {
  const rank = (i: SchemaIssue) => (i.severity === 'error' ? 0 : 1);
  return [...issues].sort(
    (a, b) => rank(a) - rank(b) || (a.side ?? 'input').localeCompare(b.side ?? 'input') || a.path.localeCompare(b.path),
  );
}

function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, c) => cell.padEnd(widths[c]!))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)];
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
