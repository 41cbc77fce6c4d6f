import type { Preparation } from '../model/prepared.js';
import type { AnyTool, AnyZodObject } from '../model/tool.js';
import { type PrepareSetup, prepareTools } from '../prepare/prepare.js';
import { reportOf, type ValidationReport } from '../prepare/report.js';
import type { SchemaIssue, SchemaIssueCode } from '../probe/issue.js';
import { prepareSetup, settleOptions } from './config.js';
import type { McpMountOptions } from './options.js';

export type { ProjectionReport, ServedTool, ValidationReport } from '../prepare/report.js';

/**
 * The startup probe: vets exactly the schemas that ship, through the same preparation as the mount
 * (`prepareTools`), with the same options. Never throws. See docs/design/probe.md.
 *
 * @param tools the tools, as given to `createMcpFetchHandler`
 * @param options the mount's options, whole: it reads `projection` (or `flattenUnionInput`), `extend`,
 *   `schemaValidation` and `features`, and `access.auth`, whose absence makes each tool with `scopes` a
 *   `scopes-without-auth` warning. An option the mount would refuse is an `invalid-option` issue.
 * @returns `{ ok, issues, tools, projection, projections }`; `projections[p].tools[i].inputSchema` deep-equals
 *   what `tools/list` serves a client of projection `p`, and `tools` is the default projection's
 *
 * @example
 * ```ts
 * import { formatSchemaIssues, validateMcpSchemas } from 'mcp-mount';
 *
 * const report = validateMcpSchemas(tools, { flattenUnionInput: true, schemaValidation: { profiles: ['gemini'] } });
 * if (!report.ok) throw new Error(formatSchemaIssues(report.issues));
 * ```
 */
export function validateMcpSchemas<S extends AnyZodObject = AnyZodObject>(
  tools: readonly AnyTool[],
  options: McpMountOptions<S> = {},
): ValidationReport {
  let setup: PrepareSetup;
  try {
    setup = prepareSetup(settleOptions(options));
  } catch (error) {
    return failedReport('invalid-option', error);
  }
  let preparation: Preparation;
  try {
    preparation = prepareTools(tools, setup);
  } catch (error) {
    // A bug of ours must not take the caller's deploy check down with a stack trace: report it.
    return failedReport('internal-error', error);
  }
  return reportOf(preparation);
}

/** A report of one error that stopped the check before any tool was looked at. */
function failedReport(code: SchemaIssueCode, error: unknown): ValidationReport {
  const message = error instanceof Error ? error.message : String(error);
  const issues: SchemaIssue[] = [{ tool: '*', path: '', code, message, severity: 'error' }];
  return { ok: false, issues, tools: [], projection: 'faithful', projections: {} };
}
