import type { ExtendOption } from '../model/extend.js';
import { type FeatureProbe, NO_FEATURES } from '../model/features.js';
import { perProjection } from '../model/per-projection.js';
import type { Preparation, PreparedTool, ToolDocuments } from '../model/prepared.js';
import { slicesOf } from '../model/slices.js';
import type { AnyTool } from '../model/tool.js';
import { checkAppViews, checkToolFields, checkToolNames, checkToolScopes, type SettledScopes } from '../probe/index.js';
import type { SchemaIssue } from '../probe/issue.js';
import { flattenAcrossDocuments } from '../projection/flatten.js';
import type { ProjectionName } from '../projection/names.js';
import { NO_OUTPUT, notServed, onceEach, schemaIssue, serveInput, serveOutput } from './checked.js';
import { type ConvertedSide, type ConvertedSides, convertSide } from './projector.js';
import { type PreparePolicy, settlePrepare } from './settle.js';

/** What one preparation runs with: the documents' policy, and what else of the mount shapes a tool. */
export interface PrepareSetup {
  readonly policy: PreparePolicy;
  /** The mount's `extend`, merged into the documents of the tools it applies to. */
  readonly extend?: ExtendOption;
  /** The `features` hook's run at construction: what it registered, and the issues found in that. */
  readonly features: FeatureProbe;
  /** Whether the mount checks bearer tokens (`access.auth`): a scoped tool on one that does not is warned of. */
  readonly authenticates: boolean;
}

/** A preparation with every default: the `faithful` projection, no `extend`, no hook, no auth. */
const DEFAULT_SETUP: PrepareSetup = Object.freeze({
  policy: settlePrepare({}),
  features: NO_FEATURES,
  authenticates: false,
});

/** How `prepareTools` prepares the projections other than the default one. */
export interface PrepareMode {
  /** Every projection at construction (`validateMcpSchemas`, `projection.prepare: 'at-startup'`). */
  eager: boolean;
  /** Hears the issues of each projection prepared after construction, once each. */
  onLate?: (issues: SchemaIssue[]) => void;
  /**
   * False where the caller runs the `features` hook and checks the views itself (build-time documents with
   * stale tools: the hook runs once per mount, for every tool); default true.
   */
  hook?: boolean;
}

/**
 * The one preparation shared by `validateMcpSchemas` and every mount (docs/design/flatten.md, The pipeline):
 * convert params / input / extend to JSON Schema (input side), inline non-recursive `$ref`s, flatten
 * unions when asked, merge into one root object, then run the probe checks on exactly that document.
 * Runs once per mount; nothing here runs per request. Never throws for a bad schema: every problem
 * becomes a `SchemaIssue`.
 */
export function prepareTools(
  tools: readonly AnyTool[],
  setup: PrepareSetup = DEFAULT_SETUP,
  mode: PrepareMode = { eager: true },
): Preparation {
  const names = checkToolNames(tools.map((t) => t.name));
  // The mount's `extend` is converted once, for every tool that takes it.
  const extendSide = setup.extend ? convertSide(setup.extend.schema) : undefined;
  // Unions the tools share are flattened once for all of them (what is prepared later, once per tool).
  const close = flattenAcrossDocuments();
  let prepared: Array<ReturnType<typeof prepareTool>>;
  try {
    prepared = tools.map((tool) => prepareTool(tool, setup, extendSide, mode));
  } finally {
    close();
  }
  const hook = mode.hook === false ? NO_FEATURES : setup.features;
  const views = mode.hook === false ? [] : checkAppViews(tools, hook.surface);
  // A profile name is checked per document; one unknown name is reported once per mount, not once per tool.
  const collect = () =>
    onceEach([...names, ...prepared.flatMap((p) => p.issues()), ...hook.issues, ...views], 'unknown-profile');
  return {
    tools: prepared.map((p) => p.tool),
    issues: collect(),
    allIssues() {
      for (const { tool } of prepared) for (const p of setup.policy.projection.served) tool.documents(p);
      return collect();
    },
    surface: hook.surface,
    projections: { default: setup.policy.projection.default, served: setup.policy.projection.served },
  };
}

/**
 * One tool, step by step: its slices, their conversion, the input documents and their checks, the output
 * document, its access rule. Each step adds its issues to `issues`, in that order; any step can make the tool
 * unservable.
 */
function prepareTool(
  tool: AnyTool,
  setup: PrepareSetup,
  extendSide: ConvertedSide | undefined,
  mode: PrepareMode,
): { tool: PreparedTool; issues: () => SchemaIssue[] } {
  const slices = slicesOf(tool, setup.extend);
  const sides = convertSides(tool, slices, extendSide);
  const converted = conversionIssues(tool.name, sides);
  const input = converted.ok ? serveInput(tool.name, sides, setup.policy, mode) : notServed();
  const output = tool.output ? serveOutput(tool.name, tool.output, setup.policy) : NO_OUTPUT;
  const access = settleAccess(tool.name, tool.scopes, setup.authenticates);
  const fields = checkToolFields(tool);
  const documents = (projection: ProjectionName): ToolDocuments | undefined => {
    const inputSchema = input.at(projection);
    if (inputSchema === undefined) return undefined;
    const outputSchema = output.outputSchemas?.[projection] ?? output.outputSchema;
    return { inputSchema, ...(outputSchema && { outputSchema }) };
  };
  const prepared: PreparedTool = {
    tool,
    name: tool.name,
    documents: perProjection(documents),
    requiredKeys: input.requiredKeys,
    ...(access.scopes && { scopes: access.scopes }),
    ...slices,
    servable: converted.ok && input.servable && output.servable && access.servable,
  };
  // Each step's issues in that order: conversion, input (per projection), output, access, fields.
  return {
    tool: prepared,
    issues: () => [...converted.issues, ...input.issues(), ...output.issues, ...access.issues, ...fields],
  };
}

/** Each slice converted to JSON Schema (the input side), in the order the documents merge them. */
function convertSides(
  tool: AnyTool,
  slices: Pick<PreparedTool, 'input' | 'extend'>,
  extendSide?: ConvertedSide,
): ConvertedSides {
  const sides: ConvertedSides = [];
  if (tool.params) sides.push({ slice: 'params', side: convertSide(tool.params) });
  sides.push({ slice: 'input', side: convertSide(slices.input) });
  if (slices.extend && extendSide) sides.push({ slice: 'extend', side: extendSide });
  return sides;
}

/** The fields each slice could not be converted at; a tool with any is not served. */
function conversionIssues(tool: string, sides: ConvertedSides): { ok: boolean; issues: SchemaIssue[] } {
  const issues: SchemaIssue[] = [];
  let ok = true;
  for (const { slice, side } of sides) {
    if (side.converted.ok) continue;
    for (const field of side.converted.fields) {
      const message = `${slice} schema cannot be converted to JSON Schema: ${field.message}`;
      issues.push(schemaIssue(tool, field.path, 'conversion-failed', message));
    }
    ok = false;
  }
  return { ok, issues };
}

/** A tool's `scopes`, settled. Access is part of what is served: a tool whose rule cannot be built is not served unscoped. */
function settleAccess(
  tool: string,
  scopes: unknown,
  authenticates: boolean,
): { scopes?: SettledScopes; servable: boolean; issues: SchemaIssue[] } {
  const access = checkToolScopes(tool, scopes);
  const issues = [...access.issues];
  if (access.scopes && !authenticates) issues.push(scopesWithoutAuth(tool));
  return { ...(access.scopes && { scopes: access.scopes }), servable: access.issues.length === 0, issues };
}

/**
 * A scoped tool on a mount without `auth`: a request counts as authenticated only when the framework in front
 * hands over `authInfo`, so without one the tool is hidden and its calls get 401. A warning, not an error: the
 * upstream may well pass it.
 */
function scopesWithoutAuth(tool: string): SchemaIssue {
  return {
    tool,
    path: '/scopes',
    code: 'scopes-without-auth',
    message: `tool "${tool}" has scopes, but the mount has no auth option: unless the framework in front passes authInfo (Express's req.auth, Hono's c.get('authInfo'), the fetch handler's extras.authInfo), every caller is unauthenticated, so the tool is left out of tools/list (unless access.listUnauthorizedTools) and its calls get 401; add access: { auth: { verify } } to check bearer tokens in the mount`,
    severity: 'warning',
    side: 'tool',
  };
}
