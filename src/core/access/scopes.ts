/**
 * A tool's `scopes` as the SDK's per-tool `scopeChallenge`: a call whose token lacks them gets HTTP 403
 * `insufficient_scope` before the handler runs, on both eras (the SDK checks it before dispatch). Built
 * once per tool. See docs/decisions/0012-access-control.md.
 */
import { type AuthInfo, requireScopes, type ScopeChallengeHandler } from '@modelcontextprotocol/server';
import type { SettledScopes } from '../probe/index.js';

export interface ScopeRule {
  /** The scopes a challenge names: all of an all-of rule, the first of an any-of rule. */
  readonly requested: readonly [string, ...string[]];
  /** True when `authInfo` carries what the rule asks (never without `authInfo`). */
  permits(authInfo: AuthInfo | undefined): boolean;
  /** For `registerTool`: the step-up challenge, or undefined when permitted. */
  readonly challenge: ScopeChallengeHandler;
}

/**
 * The rule for a tool's scopes as the preparation settled them (`PreparedTool.scopes`), or undefined when it
 * has none. Does not check them again: the probe did (`checkToolScopes`, issue `invalid-scopes`), and the
 * mount fails before it registers anything when they cannot mean anything.
 */
export function scopeRule(scopes: SettledScopes | undefined): ScopeRule | undefined {
  if (scopes === undefined) return undefined;
  const { anyOf } = scopes;
  const names = [...scopes.names] as [string, ...string[]];
  if (anyOf) {
    const permits = (authInfo: AuthInfo | undefined) =>
      authInfo !== undefined && names.some((s) => authInfo.scopes.includes(s));
    // One scope is asked for (the first, the least a client needs); the description lists the others.
    const challenge = { scopes: [names[0]] as [string], errorDescription: `Requires one of: ${names.join(' ')}` };
    return { requested: [names[0]], permits, challenge: ({ authInfo }) => (permits(authInfo) ? undefined : challenge) };
  }
  // The SDK's own all-of handler; it leaves a request without `authInfo` to the authentication gate,
  // which here answers 401 before the SDK is reached, so such a request is challenged too if it gets here.
  const sdk = requireScopes(...names);
  const permits = (authInfo: AuthInfo | undefined) =>
    authInfo !== undefined && names.every((s) => authInfo.scopes.includes(s));
  return {
    requested: names,
    permits,
    challenge: (context) => (context.authInfo === undefined ? { scopes: names } : sdk(context)),
  };
}
