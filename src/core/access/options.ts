/** The `access` options: who may call, from where, and which tools and features they see. */
import type { AuthInfo } from '@modelcontextprotocol/server';
import type { AnyTool } from '../model/tool.js';

/** Who may call, from where, and which tools they see (docs/decisions/0012-access-control.md). */
export interface AccessOptions {
  /**
   * Origin and Host validation against DNS rebinding and cross-site requests (the MCP transport spec:
   * servers MUST validate `Origin`). Default true. A request whose `Origin` is present and not allowed gets
   * 403 with a JSON-RPC error before its body is read; a request without `Origin` (non-browser clients)
   * passes. Allowed, besides `origins`: localhost origins (any port) when the server is addressed as
   * localhost (`Host` is `localhost`, `127.0.0.1` or `[::1]`), and the server's own origin (the host and port
   * `Host` names) when a rebinding cannot fake it (over HTTPS, at an IP address, or with `hosts` set). Decided
   * from `Origin`, `Host` and these options only, never from the URL a runtime built from the request target.
   * `false` turns every check off: right only behind a proxy or gateway that already checks `Origin` and `Host`.
   * See docs/decisions/0012-access-control.md.
   */
  checkOrigin?: boolean;
  /**
   * Origins allowed to call from a browser: exact origins (`'https://app.example.com'`, scheme, host and
   * port compared; no path) and `'<scheme>://*'` for every origin of a non-web scheme, as the SDK allows
   * (`'chrome-extension://*'`, `'moz-extension://*'`; not `http://*` or `https://*`). Default none.
   * @throws TypeError at construction for any other entry.
   */
  origins?: readonly string[];
  /**
   * Hostnames (no scheme, no port; IPv6 in brackets) the `Host` header must name, e.g.
   * `['localhost', '127.0.0.1', '[::1]']` for a server bound to localhost, or your public name. Default:
   * `Host` is not checked. With it set, a request naming another host gets 403 (the SDK's
   * `validateHostHeader` rule), and same-origin browser requests pass over plain HTTP too.
   * @throws TypeError at construction for an entry with a scheme, a port or a path, or an empty list.
   */
  hosts?: readonly string[];
  /**
   * CORS for browser clients, answered by the core on every adapter: `true`, or options. A preflight
   * (`OPTIONS` with `Access-Control-Request-Method`) from an origin the Origin check allows gets 204 with
   * the MCP request headers allowed; every response to such an origin says `Access-Control-Allow-Origin`
   * and exposes `Mcp-Session-Id`, `Mcp-Protocol-Version` and `WWW-Authenticate`. The origins are exactly
   * those the Origin check lets in (`origins` and its defaults), so CORS never lets in more; an
   * origin it refuses gets 403, preflight included. Default off. With `checkOrigin: false` every origin
   * is answered (the proxy in front decided).
   */
  cors?: boolean | CorsOptions;
  /**
   * Bearer authentication for every MCP request. Default none: `ctx.authInfo` is what the host passed
   * (Express's `req.auth`, Hono's `c.get('authInfo')`), unchecked. With it, that upstream value, when
   * present, counts as authenticated (still held to `requiredScopes`); otherwise the request's bearer token
   * is verified.
   */
  auth?: AuthOptions;
  /**
   * Which tools this request may see and call, decided per request (roles, tenants, plans): tool names
   * (an array or a `Set`) or a predicate over the tool definitions. A hidden tool is left out of
   * `tools/list`, and a call to it gets the same answer as an unknown tool. Runs once per request, after
   * authentication; on `tools/call` only the called tool is looked up. Default: every tool. A throw is a
   * 500 that `onError` sees.
   * @example access: { visibleTools: ({ authInfo }) => (authInfo?.extra?.role === 'admin' ? adminTools : userTools) }
   */
  visibleTools?: (context: VisibilityContext) => VisibleTools | Promise<VisibleTools>;
  /**
   * List tools whose `scopes` the caller lacks in `tools/list` anyway (their calls still get 403). Default
   * false: a client sees what it may call. Applies to what `features` registers too: a prompt, resource or
   * resource template whose SDK `scopeChallenge` refuses the caller is left out of its list unless this is set.
   */
  listUnauthorizedTools?: boolean;
  /**
   * `visibleTools` for what the `features` hook registers: which prompts, resources and resource templates
   * this request may see, by name (an array or a `Set`) or a predicate over `{ kind, name, uri }`. A hidden
   * one is left out of its list, and a `prompts/get` or `resources/read` of it gets the SDK's not-found
   * answer, as for one never registered. Runs once per request the hook serves, after authentication.
   * Default: all of them. A throw is a 500 that `onError` sees. Per-item scopes are the SDK's own
   * `scopeChallenge` on `registerPrompt`/`registerResource` (e.g. `requireScopes('notes:read')`): a caller
   * it refuses does not see the item listed (unless `listUnauthorizedTools`) and its get or read gets 403
   * `insufficient_scope`, a caller without a token included. See docs/decisions/0023-one-access-model.md.
   * @example access: { visibleFeatures: ({ authInfo }) => (item) => item.kind !== 'prompt' || isStaff(authInfo) }
   */
  visibleFeatures?: (context: VisibilityContext) => VisibleFeatures | Promise<VisibleFeatures>;
}

/** CORS details; the allowed origins are the Origin check's (see `cors`). */
export interface CorsOptions {
  /**
   * Request headers to allow beyond the MCP ones (`Content-Type`, `Accept`, `Authorization`,
   * `Mcp-Protocol-Version`, `Mcp-Method`, `Mcp-Name`, `Mcp-Session-Id`, `Last-Event-ID`, any `Mcp-Param-*`).
   */
  allowHeaders?: readonly string[];
  /** Response headers to expose beyond `Mcp-Session-Id`, `Mcp-Protocol-Version`, `WWW-Authenticate`. */
  exposeHeaders?: readonly string[];
  /** How long a browser may cache a preflight, in seconds. Default 600. */
  maxAgeSeconds?: number;
  /** `Access-Control-Allow-Credentials: true`, for cookie-authenticated browser clients. Default false. */
  credentials?: boolean;
}

/**
 * Bearer authentication (RFC 6750) in front of every MCP request, on the SDK's `requireBearerAuth` rules
 * (the MCP authorization spec; docs/decisions/0012-access-control.md). A missing or invalid token gets 401
 * with `WWW-Authenticate: Bearer ... resource_metadata="<url>"` (RFC 9728), a token without
 * `requiredScopes` 403 `insufficient_scope`. Preflight (`OPTIONS`) requests are not authenticated.
 *
 * @example
 * const jwks = createRemoteJWKSet(new URL('https://auth.example.com/.well-known/jwks.json'));
 * mcp(tools, {
 *   access: {
 *     auth: {
 *       async verify(token) {
 *         const { payload } = await jwtVerify(token, jwks, { issuer: 'https://auth.example.com', audience: 'https://api.example.com/mcp' });
 *         return { token, clientId: String(payload.client_id), scopes: String(payload.scope ?? '').split(' '), expiresAt: payload.exp, extra: { sub: payload.sub } };
 *       },
 *     },
 *   },
 * });
 */
export interface AuthOptions {
  /**
   * Verifies a bearer token (the `Authorization: Bearer <token>` value) and returns the SDK's `AuthInfo`
   * for it, or `undefined` when it is not valid (401 `invalid_token`). A throw is an outage, "I could not
   * check" (an unreachable JWKS or introspection endpoint): 503 with `Retry-After`, the error to `onError`
   * (phase `auth`), so clients keep their tokens and retry. Two throws answer otherwise: the SDK's
   * `OAuthError` with `invalid_token` means invalid (401), any other `OAuthError` answers as the SDK maps it.
   * So a JWT library's "bad signature" or "expired" throw must become `undefined` (see docs/guide/auth.md).
   * `expiresAt` (seconds since the epoch, e.g. the JWT's `exp`) must be set, as the SDK requires, or be
   * `'never'` for a token that does not expire (an API key): said per token, so a JWT that lost its `exp`
   * is still refused. Tools then see `expiresAt` undefined. `extra.sub`, when a string, is the subject the
   * hooks report.
   */
  verify: (token: string, request: Request) => VerifiedToken | undefined | Promise<VerifiedToken | undefined>;
  /**
   * Remember each valid token's `verify` answer, keyed by the SHA-256 of the token (the token itself is not
   * kept as a key), until the token expires or `maxAgeSeconds` pass, whichever is first; the least recently
   * used entry goes past `maxEntries`. Only valid answers are kept; a cached answer skips `verify`, so it must
   * not depend on the request. Each request gets its own copy, whatever the answer's shape (so a tool that
   * changes `ctx.authInfo` changes no later request); an answer holding what cannot be copied (a `Promise`, a
   * `WeakMap`) is not kept. `true` is `{}`. Default off: a revoked token stays accepted until its entry
   * ends.
   * @throws TypeError at construction for a limit that is not a positive integer.
   */
  cache?: boolean | { maxEntries?: number; maxAgeSeconds?: number };
  /** What `Retry-After` says, in seconds, on the 503 for a `verify` that could not check. Default 5. */
  retryAfterSeconds?: number;
  /**
   * A request without a token gets 401. Default true. With `false` it is served unauthenticated
   * (`ctx.authInfo` undefined; tools with `scopes` stay hidden and answer 401), while an invalid token
   * still gets 401.
   */
  required?: boolean;
  /** Scopes every token must carry (all of them), else 403 `insufficient_scope`. Needs `required`. */
  requiredScopes?: readonly string[];
  /**
   * The protected-resource metadata URL to advertise in challenges (RFC 9728), e.g. the `url` of
   * `protectedResourceMetadata(...)`. Default: `/.well-known/oauth-protected-resource` plus the request's
   * path, on the host `Host` names (never the authority of an absolute-form request target), with the scheme
   * the runtime reports; set it when a proxy changes the scheme, the host or the path.
   */
  resourceMetadataUrl?: string;
}

/** What `verify` returns: the SDK's `AuthInfo`, or one for a token that never expires (an API key). */
export type VerifiedToken = AuthInfo | (Omit<AuthInfo, 'expiresAt'> & { expiresAt: 'never' });

/** What `visibleTools` decides from. */
export interface VisibilityContext {
  /** The caller, when authenticated (`access.auth`, or what the host passed). */
  authInfo?: AuthInfo;
  /** The HTTP request. */
  request: Request;
  /** What the adapter hands tools as `ctx.host` (`{}` when none). */
  host: unknown;
}

/** `visibleTools`' answer: the visible tools' names, or a predicate over tool definitions. */
export type VisibleTools = readonly string[] | ReadonlySet<string> | ((tool: AnyTool) => boolean);

/** One thing the `features` hook registered, as `visibleFeatures` is asked about it. */
export interface FeatureItem {
  kind: 'prompt' | 'resource' | 'resource-template';
  /** The name it was registered under. */
  name: string;
  /** A resource's URI, or a resource template's URI template. */
  uri?: string;
}

/** `visibleFeatures`' answer: the visible items' names, or a predicate over them. */
export type VisibleFeatures = readonly string[] | ReadonlySet<string> | ((item: FeatureItem) => boolean);
