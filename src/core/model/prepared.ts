/**
 * A tool as a mount serves it once prepared, whether by the preparation (prepare/) or from build-time
 * documents (documents/): its documents per projection, its slices, its settled scopes. Both produce it, and
 * serve/ reads nothing else of either.
 */
import type { JsonSchema } from '../json-schema/types.js';
import type { SettledScopes } from '../probe/index.js';
import type { SchemaIssue } from '../probe/issue.js';
import type { ProjectionName } from '../projection/names.js';
import type { ServerSurface } from './features.js';
import type { ToolSlices } from './slices.js';
import type { AnyTool } from './tool.js';

/** What one projection lists a tool with: its `inputSchema`, and its `outputSchema` when it declares `output`. */
export interface ToolDocuments {
  /** Deep-frozen. */
  inputSchema: JsonSchema;
  /** Deep-frozen; present when the tool declares `output`. */
  outputSchema?: JsonSchema;
}

/** A tool after preparation: what `tools/list` serves and what `tools/call` parses with. */
export interface PreparedTool extends ToolSlices {
  tool: AnyTool;
  name: string;
  /**
   * What `projection` lists the tool with, or undefined where it is not listed (its root is no object there,
   * the mount does not serve that projection, or its document failed that projection's check). Prepared when
   * first asked for, then memoised (docs/decisions/0026-projections-prepared-on-first-use.md).
   */
  documents(projection: ProjectionName): ToolDocuments | undefined;
  /** Top-level keys the tool requires (of its own document, not a profile's). */
  requiredKeys: readonly string[];
  /**
   * False when the tool cannot be served at all (conversion failed, key conflict, no projection with an
   * object root, `scopes` that cannot mean anything). A tool whose root is an object in some projections only
   * is listed in those.
   */
  servable: boolean;
  /** The tool's `scopes`, settled by the probe (`checkToolScopes`); undefined for a tool without any. */
  scopes?: SettledScopes;
}

export interface Preparation {
  tools: PreparedTool[];
  /**
   * The issues found at construction: every tool's own, and those of the projections prepared then (the
   * default one; every one under `projection.prepare: 'at-startup'`). What the mount's policy acts on.
   */
  issues: SchemaIssue[];
  /** Prepares every served projection of every tool now, and returns every issue, in the report's order. */
  allIssues(): SchemaIssue[];
  /** What the `features` hook registered in its run at construction (nothing without the option). */
  surface: ServerSurface;
  /** The projections prepared, in the mount's order, and the default one (`config.projection`). */
  projections: { default: ProjectionName; served: readonly ProjectionName[] };
}
