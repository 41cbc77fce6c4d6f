/**
 * The bearer-auth gate in front of every MCP request (`auth`), on the SDK's `verifyBearerToken` rules (its
 * header parsing, resource, expiry and scope checks) and its 401/403 challenges with `resource_metadata`
 * (`bearerAuthChallengeResponse`; RFC 6750, RFC 9728): what the SDK's `requireBearerAuth` gate does, with one
 * answer more, a 503 for a `verify` that could not check. See docs/decisions/0012-access-control.md and
 * docs/decisions/0020-honest-auth-outcomes.md.
 */
import {
  type AuthInfo,
  bearerAuthChallengeResponse,
  getOAuthProtectedResourceMetadataUrl,
  OAuthError,
  OAuthErrorCode,
  verifyBearerToken,
} from '@modelcontextprotocol/server';
import { observeError } from '../observe/observe.js';
import type { RefusalReason, RequestClient } from '../observe/options.js';
import { refusedWith } from '../observe/refusal.js';
import type { Observer } from '../observe/settle.js';
import type { VerifiedToken } from './options.js';
import { hostOf } from './origin.js';
import type { AccessPolicy, AuthPolicy } from './settle.js';

export type AuthCheck = { ok: true; authInfo?: AuthInfo } | { ok: false; response: Response };

/** `verify` threw something other than an `OAuthError`: it could not check the token. */
class VerifyUnavailable extends Error {}

/**
 * Who is calling. Without `auth`, whatever the host passed (`upstream`), unchecked. With it: the
 * upstream value when present, held to `requiredScopes`; else the request's bearer token, verified; no
 * token passes only when `required` is false. Every refusal reaches `onRefusal`, once.
 */
export function authenticate(
  access: AccessPolicy,
  observer: Observer,
  request: Request,
  upstream?: AuthInfo,
  client?: RequestClient,
): AuthCheck | Promise<AuthCheck> {
  const auth = access.auth;
  // Without `auth` the answer is known at once: a request pays no turn of the event loop for it.
  if (!auth) return { ok: true, authInfo: upstream };
  return authenticated(auth, observer, request, upstream, client);
}

async function authenticated(
  auth: AuthPolicy,
  observer: Observer,
  request: Request,
  upstream: AuthInfo | undefined,
  client: RequestClient | undefined,
): Promise<AuthCheck> {
  const resourceMetadataUrl = metadataUrl(auth, request);
  const requiredScopes = [...auth.requiredScopes];
  if (upstream) {
    if (requiredScopes.every((scope) => upstream.scopes.includes(scope))) return { ok: true, authInfo: upstream };
    const error = new OAuthError(OAuthErrorCode.InsufficientScope, 'Insufficient scope');
    const response = bearerAuthChallengeResponse(error, { requiredScopes, resourceMetadataUrl });
    return refused(observer, response, 'insufficient-scope', client, upstream);
  }
  const header = request.headers.get('authorization');
  if (!auth.required && header === null) return { ok: true };
  // As the SDK's `requireBearerAuth` reads it: the first credentials of the header.
  const credentials = (header ?? '').split(',')[0] || undefined;
  try {
    const verifier = { verifyAccessToken: (token: string) => verified(auth, token, request) };
    const authInfo = await verifyBearerToken(credentials, { verifier, requiredScopes, resourceMetadataUrl });
    return { ok: true, authInfo: withoutNever(authInfo) };
  } catch (error) {
    if (error instanceof VerifyUnavailable) return unavailable(observer, auth, error.cause, client);
    const response = bearerAuthChallengeResponse(error, { requiredScopes, resourceMetadataUrl });
    const reason = error instanceof OAuthError ? reasonOf(error, credentials) : 'invalid-token';
    return refused(observer, response, reason, client);
  }
}

/**
 * A 401 for a call that needs scopes and came without a token (`required: false`), naming the scopes to
 * ask for, so the client can authenticate and retry.
 */
export function authenticationRequired(access: AccessPolicy, request: Request, scopes: readonly string[]): Response {
  const error = new OAuthError(OAuthErrorCode.InvalidToken, 'Authentication required');
  const resourceMetadataUrl = access.auth ? metadataUrl(access.auth, request) : undefined;
  return bearerAuthChallengeResponse(error, { requiredScopes: [...scopes], resourceMetadataUrl });
}

/**
 * `verify`'s answer as the SDK's verifier gives it: an `AuthInfo` (through the cache when on), or a thrown
 * `OAuthError` for an invalid token. A token that never expires is handed to the SDK's expiry rule as
 * `Infinity`, which it accepts; anything else `verify` throws is the outage marker.
 */
async function verified(auth: AuthPolicy, token: string, request: Request): Promise<AuthInfo> {
  const cached = await auth.cache?.get(token);
  if (cached) return cached;
  let answer: VerifiedToken | undefined;
  try {
    answer = await auth.verify(token, request);
  } catch (error) {
    if (error instanceof OAuthError) throw error;
    throw new VerifyUnavailable('verify could not check the token', { cause: error });
  }
  if (!answer) throw new OAuthError(OAuthErrorCode.InvalidToken, 'Invalid token');
  const info: AuthInfo = answer.expiresAt === 'never' ? { ...answer, expiresAt: Number.POSITIVE_INFINITY } : answer;
  // Kept only once the SDK's rules would pass it: a token past its expiry is never cached.
  if (auth.cache && typeof info.expiresAt === 'number' && info.expiresAt > Date.now() / 1000) {
    await auth.cache.set(token, info);
  }
  return info;
}

/** Tools see a never-expiring token's `expiresAt` as undefined, not `Infinity`. */
function withoutNever(info: AuthInfo): AuthInfo {
  if (info.expiresAt !== Number.POSITIVE_INFINITY) return info;
  const { expiresAt: _, ...rest } = info;
  return rest;
}

/** 503 with `Retry-After`: the client keeps its token and retries; the cause goes to the owner. */
function unavailable(
  observer: Observer,
  auth: AuthPolicy,
  cause: unknown,
  client: RequestClient | undefined,
): Promise<AuthCheck> {
  observeError(observer, cause, { phase: 'auth' });
  const error = new OAuthError(
    OAuthErrorCode.TemporarilyUnavailable,
    'The access token could not be checked right now; retry later',
  );
  const response = Response.json(error.toResponseObject(), {
    status: 503,
    headers: { 'retry-after': String(auth.retryAfterSeconds) },
  });
  return refused(observer, response, 'auth-unavailable', client, undefined, auth.retryAfterSeconds);
}

function reasonOf(error: OAuthError, credentials: string | undefined): RefusalReason {
  if (error.code === OAuthErrorCode.InsufficientScope) return 'insufficient-scope';
  return credentials === undefined ? 'missing-token' : 'invalid-token';
}

async function refused(
  observer: Observer,
  response: Response,
  reason: RefusalReason,
  client: RequestClient | undefined,
  authInfo?: AuthInfo,
  retryAfterSeconds?: number,
): Promise<AuthCheck> {
  const extra = {
    ...(authInfo && { authInfo }),
    ...(retryAfterSeconds !== undefined && { retryAfterSeconds }),
    ...(client && { client }),
  };
  return { ok: false, response: await refusedWith(observer, response, { reason, ...extra }) };
}

/**
 * `resourceMetadataUrl`, or the RFC 9728 location for the endpoint (the SDK's helper): on the host the request
 * names in `Host` (checked against `access.hosts` when set), never the authority of the URL a runtime built
 * from an absolute-form request target, which nothing checks; the scheme and path are the request's.
 */
function metadataUrl(auth: AuthPolicy, request: Request): string {
  if (auth.resourceMetadataUrl !== undefined) return auth.resourceMetadataUrl;
  const url = new URL(request.url);
  const host = request.headers.get('host');
  const named = host === null ? '' : hostOf(url.protocol, host);
  if (named !== '') url.host = named;
  url.search = '';
  url.hash = '';
  return getOAuthProtectedResourceMetadataUrl(url);
}
