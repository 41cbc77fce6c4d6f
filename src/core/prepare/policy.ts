/** Which startup issues stop a mount, under which `schemaValidation.policy`, and which tools are served. */

import type { Preparation, PreparedTool } from '../model/prepared.js';
import type { Observer } from '../observe/settle.js';
import { formatSchemaIssues } from '../probe/format-issues.js';
import type { SchemaIssue, SchemaIssueCode } from '../probe/issue.js';
import { McpMountSchemaError } from '../probe/schema-error.js';
import type { PreparePolicy } from './settle.js';

/**
 * Issue codes that fail the mount under every policy, because no way of serving the rest is what the author
 * meant: a bad or duplicate name makes registration ambiguous; a key two slices claim cannot be split; a tool
 * whose `scopes` cannot mean anything would be served either unguarded or not at all; a `features` hook that
 * throws or registers a tool breaks the requests it runs for. The table: docs/design/probe.md, Issue codes.
 * @internal exported for its tests alone
 */
export const FATAL_UNDER_EVERY_POLICY: ReadonlySet<SchemaIssueCode> = new Set<SchemaIssueCode>([
  'invalid-tool-name',
  'duplicate-tool-name',
  'key-conflict',
  'invalid-scopes',
  'server-hook-threw',
  'server-hook-registers-tool',
  // Documents that no longer describe a tool would serve it a document its parser does not match.
  'stale-documents',
]);

/**
 * Warnings about how the mount itself will behave, not about a client's document: logged once at
 * construction under `'throw'` too, since the mount starts and would otherwise behave in silence (a scoped
 * tool with no `auth` answers 401 to every caller without credentials).
 */
const LOGGED_AT_START: ReadonlySet<SchemaIssueCode> = new Set<SchemaIssueCode>([
  'scopes-without-auth',
  // A family served another document, or not served a tool, must hear of it even though the mount starts.
  'projection-fallback',
]);

/**
 * Applies the policy to the issues a preparation found at construction and returns the tools to serve (the
 * issues of a projection prepared later are `lateIssues`'s).
 * - An error-level issue whose code is in `FATAL_UNDER_EVERY_POLICY` fails the mount, whatever the policy.
 * - `'throw'`: any error-level issue fails the mount, with one error listing all of them.
 * - `'warn'`: issues are logged once; tools that cannot be served are left out.
 * - Under `'throw'`, a mount that starts logs its `LOGGED_AT_START` warnings once.
 * - `'skip'`: nothing is reported; tools that cannot be served are still left out.
 *
 * @throws McpMountSchemaError as above: under `'throw'` listing every error, else the fatal ones.
 */
export function servedTools(preparation: Preparation, prepare: PreparePolicy, observer: Observer): PreparedTool[] {
  const { policy } = prepare.validation;
  const { issues } = preparation;
  const errors = issues.filter((i) => i.severity === 'error');
  const fatal = errors.filter((i) => FATAL_UNDER_EVERY_POLICY.has(i.code));
  if (fatal.length > 0) throw new McpMountSchemaError(policy === 'throw' ? errors : fatal);
  if (policy === 'throw' && errors.length > 0) throw new McpMountSchemaError(errors);
  const atStart = issues.filter((i) => LOGGED_AT_START.has(i.code));
  if (policy === 'throw' && atStart.length > 0) {
    observer.logger.warn(`mcp-mount: the mount starts with these warnings\n${formatSchemaIssues(atStart)}`);
  }
  if (policy === 'warn' && issues.length > 0) {
    const left = preparation.tools.filter((t) => !t.servable).map((t) => t.name);
    observer.logger.warn(
      `mcp-mount: schema issues (policy 'warn')${left.length ? `; not served: ${left.join(', ')}` : ''}\n${formatSchemaIssues(issues)}`,
    );
  }
  return preparation.tools.filter((t) => t.servable);
}

/**
 * What a mount does with the issues of a projection prepared after construction, on first use: it cannot fail
 * any more, and the tool is already served that family the default document or left out for it
 * (`familyDocument`), so they are logged, as the policy would have logged them at construction: under
 * `'throw'` the errors (which would have failed it) and the `LOGGED_AT_START` warnings, under `'warn'` all of
 * them, under `'skip'` none. The issues of one request's preparation (every tool of a first `tools/list`) make
 * one log entry. `mcp-mount check` and `validateMcpSchemas` prepare every projection, so CI sees them first
 * (docs/decisions/0026-projections-prepared-on-first-use.md).
 */
export function lateIssues(prepare: PreparePolicy, observer: Observer): ((issues: SchemaIssue[]) => void) | undefined {
  const { policy } = prepare.validation;
  if (policy === 'skip') return undefined;
  const shown = (i: SchemaIssue) => policy === 'warn' || i.severity === 'error' || LOGGED_AT_START.has(i.code);
  let pending: SchemaIssue[] | undefined;
  const flush = () => {
    const issues = pending!;
    pending = undefined;
    const log = issues.some((i) => i.severity === 'error') ? observer.logger.error : observer.logger.warn;
    log.call(
      observer.logger,
      `mcp-mount: schema issues in a projection prepared on first use (mcp-mount check shows them before a deploy)\n${formatSchemaIssues(issues)}`,
    );
  };
  return (issues) => {
    const logged = issues.filter(shown);
    if (logged.length === 0) return;
    if (pending === undefined) {
      pending = [];
      queueMicrotask(flush);
    }
    pending.push(...logged);
  };
}
