/**
 * Bearer tokens for the examples and tests: JWTs verified with `jose` against a JWKS, the way a resource
 * server checks tokens from its authorization server, and a local development issuer that signs them.
 * In production, `jwks` is `createRemoteJWKSet(new URL('<issuer>/.well-known/jwks.json'))`.
 */
import type { AuthInfo } from '@modelcontextprotocol/server';
import {
  createLocalJWKSet,
  errors,
  exportJWK,
  generateKeyPair,
  type JWTVerifyGetKey,
  jwtVerify,
  type KeyObject,
  SignJWT,
} from 'jose';

export interface JwtVerifierOptions {
  /** Where the signing keys come from: `createRemoteJWKSet(...)` or `createLocalJWKSet(...)`. */
  jwks: JWTVerifyGetKey;
  /** The authorization server's issuer (`iss`). */
  issuer: string;
  /** This server's resource identifier (`aud`, RFC 8707): tokens for other servers are refused. */
  audience: string;
}

/** jose's errors that mean "this token is not valid" (401); any other throw is an outage (503). */
const INVALID_TOKEN = [
  errors.JWTClaimValidationFailed,
  errors.JWTExpired,
  errors.JWTInvalid,
  errors.JWSInvalid,
  errors.JWSSignatureVerificationFailed,
  errors.JWKSNoMatchingKey,
  errors.JWKSMultipleMatchingKeys,
  errors.JOSEAlgNotAllowed,
  errors.JOSENotSupported,
];

/**
 * `auth.verify` for JWT access tokens: checks the signature, `iss`, `aud` and `exp`, then maps the claims to
 * the SDK's `AuthInfo`: `scope` (space-separated) to `scopes`, `client_id` (or `azp`) to `clientId`, `exp` to
 * `expiresAt`, `sub` to `extra.sub`. A token jose refuses is `undefined` (401); a JWKS that cannot be fetched
 * (a timeout, a network error, a bad response) is thrown, which mcp-mount answers with 503 and `Retry-After`.
 */
export function jwtVerifier({ jwks, issuer, audience }: JwtVerifierOptions) {
  return async (token: string): Promise<AuthInfo | undefined> => {
    let payload: Awaited<ReturnType<typeof jwtVerify>>['payload'];
    try {
      ({ payload } = await jwtVerify(token, jwks, { issuer, audience }));
    } catch (error) {
      if (INVALID_TOKEN.some((kind) => error instanceof kind)) return undefined;
      throw error;
    }
    const clientId = [payload.client_id, payload.azp, payload.sub].find((v) => typeof v === 'string');
    return {
      token,
      clientId: (clientId as string | undefined) ?? 'unknown',
      scopes: typeof payload.scope === 'string' ? payload.scope.split(' ').filter(Boolean) : [],
      expiresAt: payload.exp,
      extra: { sub: payload.sub },
    };
  };
}

export interface DevIssuer {
  issuer: string;
  /** The public keys, as an authorization server's `jwks_uri` would serve them. */
  jwks: JWTVerifyGetKey;
  /** A signed access token for `audience`, valid for `expiresIn` (jose's syntax, default `'1h'`). */
  sign(claims: { sub: string; client_id?: string; scope?: string }, options?: SignOptions): Promise<string>;
}

export interface SignOptions {
  audience?: string;
  /** `'1h'`, or seconds since the epoch (a past value gives an expired token). */
  expiresIn?: string | number;
  /** Sign with another key (a forged token: its signature does not verify). */
  key?: KeyObject | CryptoKey;
}

/** A local ES256 issuer for development and tests: never use its tokens anywhere else. */
export async function devIssuer(issuer: string, audience: string): Promise<DevIssuer> {
  const { publicKey, privateKey } = await generateKeyPair('ES256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'dev-1', alg: 'ES256', use: 'sig' };
  return {
    issuer,
    jwks: createLocalJWKSet({ keys: [jwk] }),
    sign: (claims, options = {}) =>
      new SignJWT({ client_id: 'dev-client', ...claims })
        .setProtectedHeader({ alg: 'ES256', kid: 'dev-1' })
        .setIssuer(issuer)
        .setAudience(options.audience ?? audience)
        .setIssuedAt()
        .setExpirationTime(options.expiresIn ?? '1h')
        .sign(options.key ?? privateKey),
  };
}
