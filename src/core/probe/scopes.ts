/**
 * A tool's `scopes`, read once at construction (docs/decisions/0012-access-control.md): the settled rule the
 * per-tool scope challenge is built from, or the issues that say why it cannot be built. The grammar check
 * is the SDK's own (`requireScopes`), so whatever passes here registers.
 */
import { requireScopes } from '@modelcontextprotocol/server';
import { isPlainObject } from '../json-schema/types.js';
import { shortLiteral } from '../messages/describe.js';
import type { SchemaIssue } from './issue.js';

/** A tool's scopes, settled: every one of `names` is needed, or (`anyOf`) one of them. Frozen. */
export interface SettledScopes {
  readonly anyOf: boolean;
  readonly names: readonly [string, ...string[]];
}

const FORMS = 'a non-empty list of scopes, { allOf: [...] } or { anyOf: [...] }';

/**
 * Reads `tool`'s `scopes` (undefined: none). Accepted: a non-empty list (every scope needed), `{ allOf: [...] }`
 * (the same), `{ anyOf: [...] }` (one of them), each scope in the OAuth scope-token grammar (RFC 6749 section
 * 3.3, one or more printable ASCII characters other than space, `"` and `\`; the SDK's `requireScopes` check).
 * Anything else gives `invalid-scopes` errors naming the tool, with `side: 'tool'` and a pointer into the
 * definition: one at `/scopes` (or `/scopes/anyOf`) for a wrong form or an empty list, else one per bad scope
 * (`/scopes/1`, `/scopes/anyOf/0`), so every one is fixed in one pass. Never throws.
 */
export function checkToolScopes(tool: string, scopes: unknown): { scopes?: SettledScopes; issues: SchemaIssue[] } {
  if (scopes === undefined) return { issues: [] };
  const problem = (path: string, message: string): SchemaIssue => ({
    tool,
    path,
    code: 'invalid-scopes',
    message: `tool "${tool}": ${message}`,
    severity: 'error',
    side: 'tool',
  });
  const form = formOf(scopes);
  if (!form) {
    return { issues: [problem('/scopes', `scopes must be ${FORMS}, got ${shortLiteral(scopes)}`)] };
  }
  const { list, at, anyOf } = form;
  if (!Array.isArray(list)) {
    return { issues: [problem(at, `scopes must be ${FORMS}; ${at.slice(1)} is ${shortLiteral(list)}`)] };
  }
  if (list.length === 0) {
    return {
      issues: [
        problem(at, 'scopes is empty: list at least one scope, or leave scopes out for a tool any caller may use'),
      ],
    };
  }
  const issues = list.flatMap((scope: unknown, i): SchemaIssue[] => {
    if (typeof scope !== 'string') return [problem(`${at}/${i}`, `scope ${i} is ${shortLiteral(scope)}, not a string`)];
    if (inGrammar(scope)) return [];
    // A token's `scope` claim is space-separated; the list is not: each scope is its own entry.
    const split = /\s/.test(scope.trim())
      ? `; list each scope on its own, e.g. ${shortLiteral(scope.trim().split(/\s+/))}`
      : '';
    return [
      problem(
        `${at}/${i}`,
        `scope ${shortLiteral(scope)} is outside the OAuth scope-token grammar (RFC 6749 section 3.3: printable ASCII without spaces, quotes or backslashes), so no token can carry it${split}`,
      ),
    ];
  });
  if (issues.length > 0) return { issues };
  return { scopes: Object.freeze({ anyOf, names: Object.freeze([...list]) as [string, ...string[]] }), issues };
}

/** Which of the three forms `scopes` has, and where its list sits; undefined for none of them. */
function formOf(scopes: unknown): { list: unknown; at: string; anyOf: boolean } | undefined {
  if (Array.isArray(scopes)) return { list: scopes, at: '/scopes', anyOf: false };
  if (!isPlainObject(scopes)) return undefined;
  // One key exactly: `{ allOf, anyOf }` would leave it open which of the two the author meant.
  const keys = Object.keys(scopes);
  if (keys.length !== 1 || (keys[0] !== 'allOf' && keys[0] !== 'anyOf')) return undefined;
  return { list: scopes[keys[0]], at: `/scopes/${keys[0]}`, anyOf: keys[0] === 'anyOf' };
}

/** The SDK's check, one scope at a time so that the issue can name the scope. */
function inGrammar(scope: string): boolean {
  try {
    requireScopes(scope);
    return true;
  } catch {
    return false;
  }
}
