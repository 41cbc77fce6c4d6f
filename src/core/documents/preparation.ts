/**
 * A preparation from build-time documents (docs/decisions/0024-build-time-documents.md): the tools whose
 * documents match are served them as they are, without conversion, projection or probe; the rest follow
 * `documents.stale`. Imports nothing of the preparation itself, so that an entry serving
 * documents leaves it out of its bundle: a stale tool is prepared by the `prepare` the caller passes.
 */

import type { FeatureProbe } from '../model/features.js';
import { perProjection } from '../model/per-projection.js';
import type { Preparation, PreparedTool, ToolDocuments } from '../model/prepared.js';
import { slicesOf } from '../model/slices.js';
import type { AnyTool } from '../model/tool.js';
import { checkAppViews } from '../probe/app-views.js';
import type { SchemaIssue } from '../probe/issue.js';
import { checkToolNames } from '../probe/names.js';
import { McpMountSchemaError } from '../probe/schema-error.js';
import { checkToolScopes } from '../probe/scopes.js';
import { type MatchedTool, matchDocuments, type StaleDocuments } from './read.js';
import type { DocumentsPolicy } from './settle.js';
import type { DocumentsShape } from './stamps.js';

/**
 * Prepares the tools the documents no longer describe (the full entry's `prepareTools`, without the features
 * hook, which runs here once for the whole mount).
 */
export type PrepareStale = (tools: readonly AnyTool[]) => Preparation;

/** What a preparation from documents reads of the mount: what shapes the documents, the hook, the identity. */
export interface DocumentsSetup extends DocumentsShape {
  /** The `features` hook's run at construction: what it registered, and the issues found in that. */
  readonly features: FeatureProbe;
}

/**
 * The mount's preparation from `documents`: every tool the module describes as it is now served its
 * documents; a stale one (changed, added, or the whole module for other options or another format) fails the
 * mount (`documents.stale: 'fail'`, the default), or, given `prepare` and `'prepare'`, is prepared here with a
 * `stale-documents` warning. A tool the module holds but the mount does not is a warning either way, named in
 * the error when the mount fails. Warnings are the policy's to log, with the mount's others (prepare/policy.ts).
 *
 * @throws McpMountSchemaError listing each stale tool and the command to run, under `'fail'` or without `prepare`.
 */
export function preparationFromDocuments(
  tools: readonly AnyTool[],
  setup: DocumentsSetup,
  documents: DocumentsPolicy,
  prepare?: PrepareStale,
): Preparation {
  const match = matchDocuments(tools, setup, documents.module);
  const removed = match.stale.filter((s) => s.kind === 'removed').map((s) => staleIssue(s, 'warning'));
  const stale = match.stale.filter((s) => s.kind !== 'removed');
  const preparing = prepare !== undefined && documents.stale === 'prepare';
  if (stale.length > 0 && !preparing)
    throw new McpMountSchemaError([...stale.map((s) => staleIssue(s, 'error')), ...removed]);
  const staleTools = tools.filter((t) => !match.matched.has(t.name));
  const prepared = staleTools.length > 0 ? prepare!(staleTools) : undefined;
  // Logged with the mount's other startup warnings, by the policy (prepare/policy.ts).
  const warnings = stale.map((s) => ({
    ...staleIssue(s, 'warning'),
    message: `${s.reason}; prepared at startup, as the build-time documents do not describe it`,
  }));
  const byName = new Map(prepared?.tools.map((t) => [t.name, t]));
  // The names, the hook and the views are checked below for every tool: only the stale tools' own issues here.
  const ownOf = (issues: SchemaIssue[]) => issues.filter((i) => byName.has(i.tool));
  const all = tools.map(
    (tool) => byName.get(tool.name) ?? servedFromDocuments(tool, match.matched.get(tool.name)!, setup),
  );
  const hook = setup.features;
  const own = [
    ...checkToolNames(tools.map((t) => t.name)),
    ...match.issues.filter((i) => match.matched.has(i.tool)),
    ...warnings,
    ...removed,
    ...hook.issues,
    ...checkAppViews(tools, hook.surface),
  ];
  return {
    tools: all,
    issues: [...own, ...ownOf(prepared?.issues ?? [])],
    allIssues: () => [...own, ...ownOf(prepared?.allIssues() ?? [])],
    surface: hook.surface,
    projections: { default: setup.projections.default, served: setup.projections.served },
  };
}

/** A tool served its build-time documents: its slices and scopes settled as the preparation settles them. */
function servedFromDocuments(tool: AnyTool, matched: MatchedTool, setup: DocumentsSetup): PreparedTool {
  const scopes = checkToolScopes(tool.name, tool.scopes).scopes;
  const documents = perProjection((projection): ToolDocuments | undefined => {
    const inputSchema = matched.inputSchema(projection);
    const outputSchema = matched.outputSchema(projection);
    return inputSchema && { inputSchema, ...(outputSchema && { outputSchema }) };
  });
  return {
    tool,
    name: tool.name,
    documents,
    requiredKeys: matched.requiredKeys,
    servable: matched.servable,
    ...(scopes && { scopes }),
    ...slicesOf(tool, setup.extend),
  };
}

function staleIssue(stale: StaleDocuments, severity: SchemaIssue['severity']): SchemaIssue {
  return { tool: stale.tool ?? '*', path: '', code: 'stale-documents', message: stale.reason, severity, side: 'tool' };
}
