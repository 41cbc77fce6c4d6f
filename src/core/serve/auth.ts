/**
 * The bearer-auth gate in front of every MCP request (`auth`), built on the SDK's `requireBearerAuth`:
 * its header parsing, expiry and scope rules, and its 401/403 challenges with `resource_metadata`
 * (RFC 6750, RFC 9728). See docs/decisions/0012-access-control.md.
 */
import {
  type AuthInfo,
  bearerAuthChallengeResponse,
  getOAuthProtectedResourceMetadataUrl,
  OAuthError,
  OAuthErrorCode,
  requireBearerAuth,
} from '@modelcontextprotocol/server';
import type { AuthPolicy } from '../mount/access.js';
import type { MountConfig } from '../mount/config.js';
import { observeError } from './observe.js';

export type AuthCheck = { ok: true; authInfo?: AuthInfo } | { ok: false; response: Response };

/**
 * Who is calling. Without `auth`, whatever the host passed (`upstream`), unchecked. With it: the
 * upstream value when present, held to `requiredScopes`; else the request's bearer token, verified; no
 * token passes only when `required` is false.
 */
export async function authenticate(config: MountConfig, request: Request, upstream?: AuthInfo): Promise<AuthCheck> {
  const auth = config.auth;
  if (!auth) return { ok: true, authInfo: upstream };
  const resourceMetadataUrl = metadataUrl(auth, request);
  const requiredScopes = [...auth.requiredScopes];
  if (upstream) {
    if (requiredScopes.every((scope) => upstream.scopes.includes(scope))) return { ok: true, authInfo: upstream };
    const error = new OAuthError(OAuthErrorCode.InsufficientScope, 'Insufficient scope');
    return { ok: false, response: bearerAuthChallengeResponse(error, { requiredScopes, resourceMetadataUrl }) };
  }
  if (!auth.required && !request.headers.has('authorization')) return { ok: true };
  const gate = requireBearerAuth({
    verifier: { verifyAccessToken: (token) => verified(config, auth, token, request) },
    requiredScopes,
    resourceMetadataUrl,
  });
  const outcome = await gate(request);
  return outcome instanceof Response ? { ok: false, response: outcome } : { ok: true, authInfo: outcome };
}

/**
 * A 401 for a call that needs scopes and came without a token (`required: false`), naming the scopes to
 * ask for, so the client can authenticate and retry.
 */
export function authenticationRequired(config: MountConfig, request: Request, scopes: readonly string[]): Response {
  const error = new OAuthError(OAuthErrorCode.InvalidToken, 'Authentication required');
  const resourceMetadataUrl = config.auth ? metadataUrl(config.auth, request) : undefined;
  return bearerAuthChallengeResponse(error, { requiredScopes: [...scopes], resourceMetadataUrl });
}

/** `verify`'s answer as the SDK's verifier gives it: an `AuthInfo`, or a thrown `OAuthError`. */
async function verified(config: MountConfig, auth: AuthPolicy, token: string, request: Request): Promise<AuthInfo> {
  let info: AuthInfo | undefined;
  try {
    info = await auth.verify(token, request);
  } catch (error) {
    if (error instanceof OAuthError) throw error;
    // A JWT library throws for a bad signature or an expired token: the client's problem, a 401. The
    // cause (and a JWKS outage, which would also land here) is for the owner, through onError.
    observeError(config, error);
    throw new OAuthError(OAuthErrorCode.InvalidToken, 'Invalid token');
  }
  if (!info) throw new OAuthError(OAuthErrorCode.InvalidToken, 'Invalid token');
  return info;
}

/** `resourceMetadataUrl`, or the RFC 9728 location for the request's own URL (the SDK's helper). */
function metadataUrl(auth: AuthPolicy, request: Request): string {
  if (auth.resourceMetadataUrl !== undefined) return auth.resourceMetadataUrl;
  const url = new URL(request.url);
  url.search = '';
  return getOAuthProtectedResourceMetadataUrl(url);
}
