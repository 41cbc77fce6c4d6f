/** The report of a preparation: what the probe and a mount's `report` show. */
import type { ProjectionName } from '../projection/names.js';
import type { Preparation, ToolDocuments } from './prepare.js';
import type { ProjectionReport, ServedTool, ValidationReport } from './report.js';

/**
 * Builds the report from a preparation, preparing every served projection first; the mount uses the same
 * function (for its `report`), so both agree.
 */
export function reportOf(preparation: Preparation): ValidationReport {
  const issues = preparation.allIssues();
  const servable = preparation.tools.filter((t) => t.servable);
  const projections: Partial<Record<ProjectionName, ProjectionReport>> = {};
  for (const name of preparation.projections.served) {
    const own = issues.filter((i) => i.projection === undefined || i.projection === name);
    projections[name] = {
      ok: !own.some((i) => i.severity === 'error'),
      issues: own,
      tools: servable.flatMap((t) => {
        const documents = t.documents(name);
        return documents ? [servedTool(t, documents)] : [];
      }),
    };
  }
  const projection = preparation.projections.default;
  return {
    ok: !issues.some((i) => i.severity === 'error'),
    issues,
    tools: projections[projection]?.tools ?? [],
    projection,
    projections,
  };
}

function servedTool(t: Preparation['tools'][number], documents: ToolDocuments): ServedTool {
  const served: ServedTool = { name: t.name, inputSchema: documents.inputSchema };
  if (t.tool.title !== undefined) served.title = t.tool.title;
  if (t.tool.description !== undefined) served.description = t.tool.description;
  if (documents.outputSchema) served.outputSchema = documents.outputSchema;
  if (t.tool.annotations) served.annotations = t.tool.annotations;
  if (t.tool.icons) served.icons = t.tool.icons;
  if (t.tool.execution) served.execution = t.tool.execution;
  if (t.tool._meta) served._meta = t.tool._meta;
  return served;
}
