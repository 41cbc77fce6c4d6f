/**
 * The access options (Origin and Host checks, bearer auth), settled once per mount into the frozen
 * policies the per-request checks read. See docs/decisions/0012-access-control.md.
 */
import { requireScopes } from '@modelcontextprotocol/server';
import { hookOption, optionKeys, stringList } from '../settle/checks.js';
import { positiveInteger } from '../settle/positive-integer.js';
import type {
  AccessOptions,
  AuthOptions,
  CorsOptions,
  VisibilityContext,
  VisibleFeatures,
  VisibleTools,
} from './options.js';
import { type TokenCache, tokenCache } from './token-cache.js';

/** The keys `access` takes: one list, tied to `AccessOptions` by the compiler. */
export const ACCESS_KEYS = optionKeys<AccessOptions>()([
  'checkOrigin',
  'origins',
  'hosts',
  'cors',
  'auth',
  'visibleTools',
  'listUnauthorizedTools',
  'visibleFeatures',
]);

/** What every access check runs with: `access`, settled. Frozen. */
export interface AccessPolicy {
  /** `checkOrigin`, `origins`, `hosts`. */
  readonly origin: OriginPolicy;
  /** `cors`, settled; undefined when off. */
  readonly cors?: CorsPolicy;
  /** `auth`, defaulted; undefined without it. */
  readonly auth?: AuthPolicy;
  readonly listUnauthorizedTools: boolean;
  readonly visibleTools?: (context: VisibilityContext) => VisibleTools | Promise<VisibleTools>;
  readonly visibleFeatures?: (context: VisibilityContext) => VisibleFeatures | Promise<VisibleFeatures>;
}

/**
 * Settles `access`: the Origin and Host checks, CORS, auth, and which tools and features a request sees.
 * @throws TypeError naming the option whose value cannot mean anything (see each part's settle below).
 * @example `settleAccess({ hosts: ['api.example.com'], auth: { verify } })`
 */
export function settleAccess(access: AccessOptions): AccessPolicy {
  hookOption('access.visibleTools', access.visibleTools);
  hookOption('access.visibleFeatures', access.visibleFeatures);
  const cors = settleCorsPolicy(access);
  const auth = settleAuthPolicy(access);
  return Object.freeze({
    origin: settleOriginPolicy(access),
    ...(cors && { cors }),
    ...(auth && { auth }),
    listUnauthorizedTools: access.listUnauthorizedTools === true,
    ...(access.visibleTools && { visibleTools: access.visibleTools }),
    ...(access.visibleFeatures && { visibleFeatures: access.visibleFeatures }),
  });
}

/** What the Origin and Host checks run with. */
export interface OriginPolicy {
  /** `access.checkOrigin`: false turns every check off. */
  readonly check: boolean;
  /** Exact origins from `access.origins`, serialized as `<scheme>://<host>[:<port>]`. */
  readonly origins: ReadonlySet<string>;
  /** `'<scheme>://*'` entries from `access.origins`, as the SDK's `validateOriginHeader` takes them. */
  readonly schemes: readonly string[];
  /** `access.hosts`, normalized hostnames; undefined when `Host` is not checked. */
  readonly hosts?: readonly string[];
}

/** What the bearer-auth gate runs with: `access.auth`, defaulted. */
export interface AuthPolicy {
  readonly verify: AuthOptions['verify'];
  readonly required: boolean;
  readonly requiredScopes: readonly string[];
  readonly resourceMetadataUrl?: string;
  /** `cache`: undefined when off. */
  readonly cache?: TokenCache;
  /** `retryAfterSeconds`, default 5. */
  readonly retryAfterSeconds: number;
}

/** What CORS answers with: header values joined once. */
export interface CorsPolicy {
  /** Lower-case request headers a preflight may ask for (plus any `mcp-param-*`). */
  readonly allowHeaders: ReadonlySet<string>;
  readonly exposeHeaders: string;
  readonly maxAge: string;
  readonly credentials: boolean;
}

/** The request headers MCP clients send (the 2026-07-28 standard headers and the 2025-era ones). */
const MCP_REQUEST_HEADERS = [
  'content-type',
  'accept',
  'authorization',
  'mcp-protocol-version',
  'mcp-method',
  'mcp-name',
  'mcp-session-id',
  'last-event-id',
];
const MCP_RESPONSE_HEADERS = ['Mcp-Session-Id', 'Mcp-Protocol-Version', 'WWW-Authenticate'];
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

const WILDCARD = /^([a-z][a-z0-9+.-]*):\/\/\*$/;

/**
 * Settles `access.checkOrigin`, `access.origins` and `access.hosts`.
 *
 * @throws TypeError naming the option and the entry that cannot mean anything: an `origins` entry that is
 *   neither an origin nor a non-web `<scheme>://*`, a `hosts` entry with a scheme, a port or a path, an
 *   empty `hosts`.
 */
function settleOriginPolicy(options: AccessOptions): OriginPolicy {
  if (options.checkOrigin !== undefined && typeof options.checkOrigin !== 'boolean') {
    throw new TypeError('mcp-mount: access.checkOrigin must be a boolean');
  }
  const origins = new Set<string>();
  const schemes: string[] = [];
  for (const entry of stringList('access.origins', options.origins)) {
    const wildcard = WILDCARD.exec(entry);
    if (wildcard) {
      // The SDK honours `<scheme>://*` for non-web schemes only: websites are listed one by one.
      if (wildcard[1] === 'http' || wildcard[1] === 'https') {
        throw new TypeError(
          `mcp-mount: access.origins: ${entry} would allow every website; list each origin (e.g. https://app.example.com)`,
        );
      }
      schemes.push(entry);
      continue;
    }
    origins.add(serializedOrigin(entry));
  }
  const hosts = options.hosts === undefined ? undefined : stringList('access.hosts', options.hosts).map(hostname);
  if (hosts?.length === 0) throw new TypeError('mcp-mount: access.hosts must name at least one hostname');
  return Object.freeze({
    check: options.checkOrigin !== false,
    origins,
    schemes: Object.freeze(schemes),
    ...(hosts && { hosts: Object.freeze(hosts) }),
  });
}

/** `https://App.example.com:443/` → `https://app.example.com`: how browsers serialize an `Origin`. */
function serializedOrigin(entry: string): string {
  let url: URL | undefined;
  try {
    url = new URL(entry);
  } catch {}
  const bare =
    url &&
    url.host !== '' &&
    !url.username &&
    !url.password &&
    !url.search &&
    !url.hash &&
    ['', '/'].includes(url.pathname);
  if (!url || !bare) {
    throw new TypeError(
      `mcp-mount: access.origins: ${entry} is not an origin; give scheme, host and port only (e.g. https://app.example.com) or <scheme>://* (e.g. chrome-extension://*); to allow every origin, set access.checkOrigin: false`,
    );
  }
  return `${url.protocol}//${url.host}`;
}

/** A hostname as `validateHostHeader` compares it (lower case, IPv6 in brackets), or a TypeError. */
function hostname(entry: string): string {
  let url: URL | undefined;
  try {
    url = new URL(`http://${entry}`);
  } catch {}
  if (url?.port !== '' || url.host !== entry.toLowerCase() || entry.includes('/')) {
    throw new TypeError(
      `mcp-mount: access.hosts: ${entry} is not a hostname; give the name only, without scheme or port (IPv6 in brackets: [::1])`,
    );
  }
  return url.hostname;
}

/**
 * Settles `access.auth`.
 *
 * @throws TypeError naming the field: `verify` not a function, `required` not a boolean, a scope outside
 *   the OAuth scope-token grammar (the SDK's rule), `requiredScopes` without `required`,
 *   `resourceMetadataUrl` not an absolute http(s) URL, a `cache` or `retryAfterSeconds` limit that is not a
 *   positive integer.
 * @internal exported for its tests alone
 */
export function settleAuthPolicy(options: AccessOptions): AuthPolicy | undefined {
  const auth = options.auth;
  if (auth === undefined) return undefined;
  if (typeof auth !== 'object' || auth === null || typeof auth.verify !== 'function') {
    throw new TypeError('mcp-mount: access.auth.verify must be a function (token, request) => AuthInfo | undefined');
  }
  if (auth.required !== undefined && typeof auth.required !== 'boolean') {
    throw new TypeError('mcp-mount: access.auth.required must be a boolean');
  }
  const required = auth.required !== false;
  const requiredScopes = stringList('access.auth.requiredScopes', auth.requiredScopes);
  if (requiredScopes.length > 0) {
    checkScopes('access.auth.requiredScopes', requiredScopes);
    if (!required)
      throw new TypeError(
        'mcp-mount: access.auth.requiredScopes needs access.auth.required: a request without a token has no scopes',
      );
  }
  const { resourceMetadataUrl } = auth;
  if (resourceMetadataUrl !== undefined && !/^https?:$/.test(parseUrl(resourceMetadataUrl)?.protocol ?? '')) {
    throw new TypeError(
      `mcp-mount: access.auth.resourceMetadataUrl must be an absolute http(s) URL, got ${String(resourceMetadataUrl)}`,
    );
  }
  const cache = settleTokenCache(auth.cache);
  return Object.freeze({
    verify: auth.verify,
    required,
    requiredScopes: Object.freeze(requiredScopes),
    ...(resourceMetadataUrl !== undefined && { resourceMetadataUrl }),
    ...(cache && { cache }),
    retryAfterSeconds: positiveInteger('access.auth.retryAfterSeconds', auth.retryAfterSeconds, 5),
  });
}

/** `access.auth.cache`: off, `true` (10,000 entries, 300 s at most), or its limits. */
function settleTokenCache(cache: AuthOptions['cache']): TokenCache | undefined {
  if (cache === undefined || cache === false) return undefined;
  if (cache !== true && (typeof cache !== 'object' || cache === null)) {
    throw new TypeError('mcp-mount: access.auth.cache must be true, false or { maxEntries, maxAgeSeconds }');
  }
  const given = cache === true ? {} : cache;
  return tokenCache(
    positiveInteger('access.auth.cache.maxEntries', given.maxEntries, 10_000),
    positiveInteger('access.auth.cache.maxAgeSeconds', given.maxAgeSeconds, 300),
  );
}

/** Scopes as the SDK's `requireScopes` accepts them (the OAuth scope-token grammar), or a TypeError. */
function checkScopes(option: string, scopes: readonly string[]): void {
  try {
    requireScopes(...(scopes as [string, ...string[]]));
  } catch (error) {
    throw new TypeError(`mcp-mount: ${option}: ${(error as Error).message} (got ${JSON.stringify(scopes)})`);
  }
}

function parseUrl(value: unknown): URL | undefined {
  try {
    return typeof value === 'string' ? new URL(value) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Settles `access.cors`.
 *
 * @throws TypeError for a header that is not a header name, or `maxAgeSeconds` not a non-negative integer.
 * @internal exported for its tests alone
 */
export function settleCorsPolicy(options: AccessOptions): CorsPolicy | undefined {
  const cors = options.cors;
  if (cors === undefined || cors === false) return undefined;
  if (cors !== true && (typeof cors !== 'object' || cors === null)) {
    throw new TypeError('mcp-mount: access.cors must be true, false or an options object');
  }
  const given: CorsOptions = cors === true ? {} : cors;
  const headers = (option: string, value: readonly string[] | undefined) => {
    const names = stringList(`access.cors.${option}`, value);
    const bad = names.find((n) => !HEADER_NAME.test(n));
    if (bad !== undefined)
      throw new TypeError(`mcp-mount: access.cors.${option}: ${JSON.stringify(bad)} is not a header name`);
    return names;
  };
  const maxAge = given.maxAgeSeconds ?? 600;
  if (!Number.isSafeInteger(maxAge) || maxAge < 0) {
    throw new TypeError(`mcp-mount: access.cors.maxAgeSeconds must be a non-negative integer, got ${String(maxAge)}`);
  }
  return Object.freeze({
    allowHeaders: new Set([
      ...MCP_REQUEST_HEADERS,
      ...headers('allowHeaders', given.allowHeaders).map((h) => h.toLowerCase()),
    ]),
    exposeHeaders: [...MCP_RESPONSE_HEADERS, ...headers('exposeHeaders', given.exposeHeaders)].join(', '),
    maxAge: String(maxAge),
    credentials: given.credentials === true,
  });
}
