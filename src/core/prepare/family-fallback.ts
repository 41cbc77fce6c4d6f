/**
 * What a choosing mount serves one client family when that family's own document for a tool fails the
 * family's check: the default projection's document where the family's check accepts it, else nothing (the
 * tool is left out for that family alone). docs/decisions/0019-auto-starts-on-what-flat-serves.md.
 */
import type { SchemaIssue } from '../probe/issue.js';
import { isProfileProjection, type ProjectionName } from '../projection/names.js';
import type { PreparePolicy } from './settle.js';

/** One projection's document for a tool, with its issues from the checks. */
export interface CheckedDocument {
  projection: ProjectionName;
  schema: unknown;
  servable: boolean;
  issues: SchemaIssue[];
}

/** What a family is served for the tool, and the issues to report for it. */
export interface FamilyDocument {
  schema?: unknown;
  issues: SchemaIssue[];
}

/**
 * `doc`'s family, as served: its own document when its checks find no error; else, on a choosing mount under
 * `projection.errors: 'fall-back'` (the default) and for any projection but the default, the
 * default projection's document if `recheck` (that document under this family's checks) finds no error, or
 * the tool left out for the family; either way one `projection-fallback` warning says which, and the family's
 * own errors become warnings (they describe a document nobody is served). An error the default document has
 * as well (same code, same pointer) is the tool's, not the family's, and stays an error. Under `'fail'`, or for the default
 * projection, the errors stand: they fail the mount under `policy: 'throw'`, and under `'warn'` or `'skip'` a
 * profile's document its own check refuses is not served.
 */
export function familyDocument(
  tool: string,
  doc: CheckedDocument,
  fallback: { projection: ProjectionName; schema: unknown; issues: SchemaIssue[] } | undefined,
  recheck: (schema: unknown) => SchemaIssue[],
  policy: PreparePolicy,
): FamilyDocument {
  const errors = doc.issues.filter((i) => i.severity === 'error');
  if (errors.length === 0) return { ...(doc.servable && { schema: doc.schema }), issues: doc.issues };
  const choosing = policy.projection.served.length > 1 && doc.projection !== policy.projection.default;
  if (!choosing || policy.projection.errors === 'fail') {
    const refused = isProfileProjection(doc.projection);
    return { ...(doc.servable && !refused && { schema: doc.schema }), issues: doc.issues };
  }
  // An error the default document has too is the tool's own, not this family's: it stays an error.
  const shared = new Set(fallback?.issues.filter((i) => i.severity === 'error').map(issueKey));
  const demoted = doc.issues.map(
    (i): SchemaIssue => (i.severity === 'error' && !shared.has(issueKey(i)) ? { ...i, severity: 'warning' } : i),
  );
  const accepted = fallback !== undefined && !recheck(fallback.schema).some((i) => i.severity === 'error');
  const what = errors.map((e) => `${e.code} at ${e.path || '(root)'}`).join(', ');
  const served = accepted
    ? `its clients are served the ${fallback.projection} document instead, which the ${doc.projection} check accepts`
    : `the tool is left out for its clients (no document of this mount passes the ${doc.projection} check)`;
  const issue: SchemaIssue = {
    tool,
    path: '',
    code: 'projection-fallback',
    message: `tool "${tool}": the ${doc.projection} document fails its own check (${what}); ${served}. Other clients are unaffected; set projection.errors: 'fail' to fail the mount instead`,
    severity: 'warning',
    side: 'input',
    projection: doc.projection,
  };
  return { ...(accepted && { schema: fallback.schema }), issues: [...demoted, issue] };
}

const issueKey = (i: SchemaIssue) => `${i.code} ${i.path}`;
