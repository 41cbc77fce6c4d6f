import type { ServedTool, ValidationReport } from '../core/prepare/report.js';
import type { SchemaIssue } from '../core/probe/issue.js';
import type { ProjectionName } from '../core/projection/names.js';
import type { McpMountOptions } from '../core/serve/options.js';
import { projectionOptionOf } from '../lockfile/lockfile.js';

/** Which served projections the human report shows: the default one, one named, or all of them. */
export type ProjectionView = { kind: 'default' } | { kind: 'one'; projection: ProjectionName } | { kind: 'all' };

/**
 * The human report of `mcp-mount check`, per shown projection: one table row per tool (served or not,
 * errors, warnings, input properties), then the issues grouped by tool with their JSON Pointers. Then a
 * summary line whose verdict is the whole report's (an error in any served projection fails the check, as
 * it fails the mount), and, when projections are left out, one line naming them and how to see them.
 *
 * With `all`, the issues that concern every projection (names, output schemas, the server hook) are listed
 * once, before the sections; each section lists its own.
 */
export function formatCheckReport(
  modulePath: string,
  toolNames: readonly string[],
  report: ValidationReport,
  options: McpMountOptions,
  view: ProjectionView = { kind: 'default' },
): string {
  const lines: string[] = [];
  const profiles = options.schemaValidation?.profiles ?? [];
  const served = Object.keys(report.projections) as ProjectionName[];
  lines.push(
    `mcp-mount check ${modulePath}  (projection: ${projectionOptionOf(options)}${served.length > 1 ? `, serving ${served.join(', ')}` : ''}; profiles: ${profiles.length > 0 ? profiles.join(', ') : 'none'})`,
  );

  // No projection at all: the check stopped before any tool (an invalid option); show its issues.
  const shown: ProjectionName[] =
    served.length === 0
      ? []
      : view.kind === 'all'
        ? served
        : [view.kind === 'one' ? view.projection : report.projection];
  const several = served.length > 1;

  if (shown.length === 0) {
    lines.push('', ...section(toolNames, report.issues, report.issues, report.tools));
  } else if (shown.length === 1) {
    const name = shown[0]!;
    const p = report.projections[name]!;
    if (several) lines.push('', `projection ${name}${name === report.projection ? ' (default)' : ''}`);
    lines.push('', ...section(toolNames, p.issues, p.issues, p.tools));
  } else {
    const shared = report.issues.filter((i) => i.projection === undefined);
    if (shared.length > 0) {
      lines.push('', 'every projection', '', ...listIssues(toolNames, shared));
    }
    for (const name of shown) {
      const p = report.projections[name]!;
      const own = p.issues.filter((i) => i.projection !== undefined);
      lines.push('', `projection ${name}${name === report.projection ? ' (default)' : ''}`);
      lines.push('', ...section(toolNames, p.issues, own, p.tools));
    }
  }

  lines.push('', ...summary(toolNames, report, served, shown));
  return lines.join('\n');
}

/**
 * The verdict line (the whole report's), counting what is shown, naming the projections not shown that
 * have errors; then, when projections are left out, the line naming them and how to see them.
 */
function summary(
  toolNames: readonly string[],
  report: ValidationReport,
  served: readonly ProjectionName[],
  shown: readonly ProjectionName[],
): string[] {
  const shownIssues = shown.length === 1 ? report.projections[shown[0]!]!.issues : report.issues;
  const count = (severity: SchemaIssue['severity']) => shownIssues.filter((i) => i.severity === severity).length;
  const [errors, warnings, infos] = [count('error'), count('warning'), count('info')];
  const servedCount = shown.length === 0 ? report.tools.length : report.projections[shown[0]!]!.tools.length;
  const hidden = served.filter((n) => !shown.includes(n));
  const hiddenErrors = hidden
    .map((n) => [n, report.projections[n]!.issues.filter((i) => i.severity === 'error' && i.projection === n).length])
    .filter(([, c]) => c !== 0) as Array<[ProjectionName, number]>;
  const where =
    served.length <= 1 ? '' : shown.length === 1 ? ` (projection ${shown[0]})` : ` (${served.length} projections)`;
  const lines = [
    `${report.ok ? 'OK' : 'FAILED'}: ${plural(toolNames.length, 'tool')}, ${servedCount} served, ` +
      `${plural(errors, 'error')}, ${plural(warnings, 'warning')}${infos > 0 ? `, ${infos} info` : ''}${where}` +
      (hiddenErrors.length > 0
        ? `; errors in projections not shown: ${hiddenErrors.map(([n, c]) => `${n} (${c})`).join(', ')}`
        : ''),
  ];
  if (hidden.length > 0) {
    lines.push(`Also served: ${hidden.join(', ')}. Show one with --show NAME, every one with --all-projections.`);
  }
  return lines;
}

/** One projection's table, then `listed` grouped by tool; the table counts `counted`. */
function section(
  toolNames: readonly string[],
  counted: readonly SchemaIssue[],
  listed: readonly SchemaIssue[],
  tools: readonly ServedTool[],
): string[] {
  const served = new Map(tools.map((t) => [t.name, t]));
  const byTool = groupByTool(counted);
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
  const lines = table(['TOOL', 'SERVED', 'ERRORS', 'WARNINGS', 'INPUT PROPS'], rows).map((l) => `  ${l}`);
  const issueLines = listIssues(toolNames, listed);
  return issueLines.length > 0 ? [...lines, '', ...issueLines] : lines;
}

/** Issues grouped by tool (module order), each with its pointer, code, profile and message. */
function listIssues(toolNames: readonly string[], issues: readonly SchemaIssue[]): string[] {
  const byTool = groupByTool(issues);
  const lines: string[] = [];
  for (const name of [...new Set([...toolNames, ...byTool.keys()])]) {
    const own = byTool.get(name);
    if (!own) continue;
    if (lines.length > 0) lines.push('');
    lines.push(name === '*' ? '(all tools)' : name);
    for (const i of sortIssues(own)) {
      const where = `${i.side && i.side !== 'input' ? `${i.side} ` : ''}${i.path || '(root)'}`;
      const profile = i.profile ? `  [profile ${i.profile}]` : '';
      lines.push(`  ${i.severity.padEnd(7)} ${where}  ${i.code}${profile}`);
      lines.push(`          ${i.message}`);
    }
  }
  return lines;
}

function groupByTool(issues: readonly SchemaIssue[]): Map<string, SchemaIssue[]> {
  const byTool = new Map<string, SchemaIssue[]>();
  for (const issue of issues) byTool.set(issue.tool, [...(byTool.get(issue.tool) ?? []), issue]);
  return byTool;
}

/** Errors first, then warnings, then info; then by side and pointer, so one tool's findings read top-down. */
function sortIssues(issues: readonly SchemaIssue[]): SchemaIssue[] {
  const rank = (i: SchemaIssue) => (i.severity === 'error' ? 0 : i.severity === 'warning' ? 1 : 2);
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
