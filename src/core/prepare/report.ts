/** The report of a preparation, and its shape: what the probe and a mount's `report` show. */

import type { Icon, ToolAnnotations, ToolExecution } from '@modelcontextprotocol/server';
import type { JsonSchema } from '../json-schema/types.js';
import type { Preparation, ToolDocuments } from '../model/prepared.js';
import { listedExecution } from '../model/tool.js';
import type { SchemaIssue } from '../probe/issue.js';
import type { ProjectionName } from '../projection/names.js';

/** A tool as `tools/list` serves it. */
export interface ServedTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations?: ToolAnnotations;
  icons?: readonly Icon[];
  execution?: ToolExecution;
  _meta?: Readonly<Record<string, unknown>>;
}

/** The probe's verdict on one projection: its issues and exactly what `tools/list` sends a client of it. */
export interface ProjectionReport {
  /** True when no issue of this projection has severity `error`. */
  ok: boolean;
  /** Issues about this projection's documents, and those that concern every projection (names, output, hook). */
  issues: SchemaIssue[];
  /** The tools a client of this projection is listed, in order, with the exact documents `tools/list` sends. */
  tools: ServedTool[];
}

/** What `validateMcpSchemas` returns. */
export interface ValidationReport {
  /** True when no issue, in any served projection, has severity `error`. */
  ok: boolean;
  /** Every issue; an input-side issue names its `projection`. */
  issues: SchemaIssue[];
  /** The tools of the default projection (`projection`), exactly as `tools/list` sends them to its clients. */
  tools: ServedTool[];
  /** The default projection: the `projection` option's name, or `flat` for `'auto'` and a function. */
  projection: ProjectionName;
  /** Each projection the mount serves, keyed by name, in the mount's order. */
  projections: Partial<Record<ProjectionName, ProjectionReport>>;
}

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
  const execution = listedExecution(t.tool);
  if (execution) served.execution = execution;
  if (t.tool._meta) served._meta = t.tool._meta;
  return served;
}
