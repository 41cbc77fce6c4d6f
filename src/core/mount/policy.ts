/** Which startup issues stop a mount, under which `schemaValidation.policy`, and which tools are served. */
import type { MountConfig } from './config.js';
import { nameIssues, type Preparation, type PreparedTool } from './prepare.js';
import { formatSchemaIssues, type ValidationReport } from './report.js';
import { McpMountSchemaError } from './schema-error.js';
import { FATAL_HOOK_CODES } from './server-hook.js';

/**
 * Applies the policy to a preparation and returns the tools to serve.
 * - Invalid or duplicate names, a key claimed by two slices, and a `server` hook that throws or registers a
 *   tool always fail the mount (whatever the policy).
 * - `'throw'`: any error-level issue fails the mount, with one error listing all of them.
 * - `'warn'`: issues are logged once; tools that cannot be served are left out.
 * - `'skip'`: nothing is reported; tools that cannot be served are still left out.
 *
 * @throws McpMountSchemaError as above.
 */
export function servedTools(preparation: Preparation, report: ValidationReport, config: MountConfig): PreparedTool[] {
  const { policy } = config.validation;
  const errors = report.issues.filter((i) => i.severity === 'error');
  const fatal = [
    ...nameIssues(report.issues),
    ...report.issues.filter((i) => i.code === 'key-conflict' || FATAL_HOOK_CODES.has(i.code)),
  ];
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
