import type { JsonSchema } from '../../../src/core/json-schema/types.js';
import { checkDocument } from '../../../src/core/probe/index.js';
import type { SchemaIssue } from '../../../src/core/probe/issue.js';
import type { CheckContext } from '../../../src/core/probe/types.js';

/** The input document as the mount converts it (before its own ref inlining and flattening). */
export { toJson as toDoc } from '../../support/documents.js';

export function check(doc: JsonSchema, ctx: Partial<CheckContext> = {}): SchemaIssue[] {
  return checkDocument(doc, { tool: 't', side: 'input', flattenRequested: false, options: {}, ...ctx });
}

/** Issues with this code, optionally from one profile; `undefined` profile means base checks only. */
export function withCode(issues: SchemaIssue[], code: string, profile?: string): SchemaIssue[] {
  return issues.filter((i) => i.code === code && i.profile === profile);
}

/** Pointers of the issues with this code (and profile), sorted. */
export function pathsOf(issues: SchemaIssue[], code: string, profile?: string): string[] {
  return withCode(issues, code, profile)
    .map((i) => i.path)
    .sort();
}

/** The one issue at `path` with `code`; fails when there is not exactly one. */
export function only(issues: SchemaIssue[], code: string, path: string, profile?: string): SchemaIssue {
  const found = withCode(issues, code, profile).filter((i) => i.path === path);
  if (found.length !== 1) {
    throw new Error(
      `expected one ${code}${profile ? `[${profile}]` : ''} at ${JSON.stringify(path)}, got ${found.length}:\n${JSON.stringify(issues, null, 2)}`,
    );
  }
  return found[0]!;
}

/** Base issues only (no profile), as `code@path` strings, for "no issue" assertions that print what was found. */
export function baseFindings(issues: SchemaIssue[]): string[] {
  return issues.filter((i) => !i.profile).map((i) => `${i.code}@${i.path}`);
}

/** `DU`-style tagged union used across cases. */
export { DU } from '../../support/unions.js';
