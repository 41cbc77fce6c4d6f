/**
 * Every startup warning is logged once under the default policy, as the probe's errors are thrown: a mount
 * that starts never serves what the probe warns of in silence (before, only `scopes-without-auth` and
 * `projection-fallback` were logged, and a view of the wrong MIME type showed only in `mcp-mount check`).
 * Each warning the mount's report holds for what it serves is one line of one `logger.warn` entry at
 * construction; a family prepared on first use logs its own once then.
 */
import { defineTool, type McpMountOptions, type SchemaIssue } from 'mcp-mount';
import { createMcpFetchHandler } from 'mcp-mount/adapter';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

/** A mount's log: what `warn` and `error` were given, in order. */
function logged() {
  const warn: string[] = [];
  const error: string[] = [];
  return { warn, error, logger: { warn: (m: string) => warn.push(m), error: (m: string) => error.push(m) } };
}

/** The line `formatSchemaIssues` writes for an issue in a log entry. */
const lineOf = (i: SchemaIssue) => {
  const side = i.side && i.side !== 'input' && i.side !== 'name' ? `${i.side} ` : '';
  return `[${i.severity}] ${i.tool} ${i.projection ? `(${i.projection}) ` : ''}${side}${i.path || '(root)'} ${i.code}: ${i.message}`;
};
/** Every issue line of a log, in order. */
const linesOf = (entries: string[]) => entries.flatMap((e) => e.split('\n')).filter((l) => l.startsWith('  ['));

const viewing = defineTool({
  name: 'viewing',
  _meta: { ui: { resourceUri: 'ui://plain/view.html' } },
  handler: () => 'x',
});
const plainView: McpMountOptions = {
  server: {
    features: (server) => {
      server.registerResource('v', 'ui://plain/view.html', { mimeType: 'text/html' }, () => ({ contents: [] }));
    },
  },
};

/** Tools each drawing another kind of warning from the probe in the default (`faithful`) projection. */
const warned = [
  defineTool({
    name: 'tags',
    input: z.object({ tag: z.union([z.string(), z.array(z.string())]) }),
    handler: () => 'x',
  }),
  defineTool({ name: 'nullable', input: z.object({ note: z.string().nullable() }), handler: () => 'x' }),
  defineTool({ name: 'scoped', scopes: ['notes:write'], input: z.object({}), handler: () => 'x' }),
  defineTool({
    name: 'optional_task',
    execution: { taskSupport: 'optional' },
    input: z.object({}),
    handler: () => 'x',
  }),
  viewing,
];
/** Tools warned of only in a provider profile's projection (`large-bound`, `long-pattern`). */
const profileWarned = [
  defineTool({ name: 'bounded', input: z.object({ n: z.string().max(1_000_000) }), handler: () => 'x' }),
  defineTool({
    name: 'patterned',
    input: z.object({ code: z.string().regex(new RegExp(`^${'a?'.repeat(300)}$`)) }),
    handler: () => 'x',
  }),
];

describe('startup warnings under the default policy', () => {
  it('logs a view registered without the MCP Apps type once, at construction', () => {
    const log = logged();
    createMcpFetchHandler([viewing], { ...plainView, observe: { logger: log.logger } });
    expect(log.error).toEqual([]);
    expect(log.warn).toHaveLength(1);
    expect(log.warn[0]).toMatch(/^mcp-mount: the mount starts with these warnings\n.*viewing.*app-view-mime-type/);
  });

  it('logs every warning of the report for what it serves exactly once, in one entry', () => {
    const log = logged();
    const handler = createMcpFetchHandler(warned, { ...plainView, observe: { logger: log.logger } });
    const served = handler.report.projections[handler.report.projection]!.issues;
    const warnings = served.filter((i) => i.severity === 'warning');
    // The table spans the kinds: each tool draws at least one warning of its own.
    expect(new Set(warnings.map((w) => w.tool))).toEqual(new Set(warned.map((t) => t.name)));
    expect(log.error).toEqual([]);
    expect(log.warn).toHaveLength(1);
    expect(
      linesOf(log.warn)
        .map((l) => l.trim())
        .sort(),
    ).toEqual(warnings.map(lineOf).sort());
  });

  it("logs each family's warnings once more when it is prepared on first use, never twice", async () => {
    const log = logged();
    const handler = createMcpFetchHandler([...warned, ...profileWarned], {
      ...plainView,
      projection: 'auto',
      observe: { logger: log.logger },
    });
    const list = (userAgent: string) =>
      handler.fetch(
        new Request('http://localhost/mcp', {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json', 'user-agent': userAgent },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
        }),
      );
    for (const agent of ['openai-mcp/1.0', 'claude-user', 'some-agent/1.0', 'openai-mcp/1.0'])
      await (await list(agent)).text();
    await new Promise((resolve) => setTimeout(resolve, 0));
    const lines = linesOf([...log.warn, ...log.error]).map((l) => l.trim());
    expect(lines.length).toBe(new Set(lines).size);
    const atStart = handler.report.projections.flat!.issues.filter((i) => i.severity === 'warning').map(lineOf);
    for (const line of atStart) expect(lines).toContain(line);
    // A family prepared on first use logged its own warnings then.
    expect(lines.some((l) => /\((?!flat\))[a-z-]+\) /.test(l))).toBe(true);
  });
});
