/** Which startup issues stop a mount, under which `schemaValidation.policy`, and which tools are served. */
import type { SchemaIssueCode } from '../probe/issue.js';
import type { MountConfig } from './config.js';
import type { Preparation, PreparedTool } from './prepare.js';
import { formatSchemaIssues, type ValidationReport } from './report.js';
import { McpMountSchemaError } from './schema-error.js';

/**
 * Issue codes that fail the mount under every policy, because no way of serving the rest is what the author
 * meant: a bad or duplicate name makes registration ambiguous; a key two slices claim cannot be split; a tool
 * whose `scopes` cannot mean anything would be served either unguarded or not at all; a `server` hook that
 * throws or registers a tool breaks the requests it runs for. The table: docs/design/probe.md, Issue codes.
 */
export const FATAL_UNDER_EVERY_POLICY: ReadonlySet<SchemaIssueCode> = new Set<SchemaIssueCode>([
  'invalid-tool-name',
  'duplicate-tool-name',
  'key-conflict',
  'invalid-scopes',
  'server-hook-threw',
  'server-hook-registers-tool',
]);

/**
 * Applies the policy to a preparation and returns the tools to serve.
 * - An error-level issue whose code is in `FATAL_UNDER_EVERY_POLICY` fails the mount, whatever the policy.
 * - `'throw'`: any error-level issue fails the mount, with one error listing all of them.
 * - `'warn'`: issues are logged once; tools that cannot be served are left out.
 * - `'skip'`: nothing is reported; tools that cannot be served are still left out.
 *
 * @throws McpMountSchemaError as above: under `'throw'` listing every error, else the fatal ones.
 */
export function servedTools(preparation: Preparation, report: ValidationReport, config: MountConfig): PreparedTool[] {
  const { policy } = config.validation;
  const errors = report.issues.filter((i) => i.severity === 'error');
  const fatal = errors.filter((i) => FATAL_UNDER_EVERY_POLICY.has(i.code));
  if (fatal.length > 0) throw new McpMountSchemaError(policy === 'throw' ? errors : fatal);
  if (policy === 'throw' && errors.length > 0) throw new McpMountSchemaError(errors);
  if (policy === 'warn' && report.issues.length > 0) {
    const left = preparation.tools.filter((t) => !t.servable).map((t) => t.name);
    config.logger.warn(
      `mcp-mount: schema issues (policy 'warn')${left.length ? `; not served: ${left.join(', ')}` : ''}\n${formatSchemaIssues(report.issues)}`,
    );
  }
  return preparation.tools.filter((t) => t.servable);
}
