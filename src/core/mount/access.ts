/**
 * The access options (Origin and Host checks, bearer auth), settled once per mount into the frozen
 * policies the per-request checks read. See docs/decisions/0008-access-control.md.
 */
import { requireScopes } from '@modelcontextprotocol/server';
import type { AuthOptions, McpMountOptions } from './options.js';

/** What the Origin and Host checks run with. */
export interface OriginPolicy {
  /** `originCheck`: false turns every check off. */
  readonly check: boolean;
  /** Exact origins from `allowedOrigins`, serialized as `<scheme>://<host>[:<port>]`. */
  readonly origins: ReadonlySet<string>;
  /** `'<scheme>://*'` entries from `allowedOrigins`, as the SDK's `validateOriginHeader` takes them. */
  readonly schemes: readonly string[];
  /** `allowedHosts`, normalized hostnames; undefined when `Host` is not checked. */
  readonly hosts?: readonly string[];
}

/** What the bearer-auth gate runs with: `auth`, defaulted. */
export interface AuthPolicy {
  readonly verify: AuthOptions['verify'];
  readonly required: boolean;
  readonly requiredScopes: readonly string[];
  readonly resourceMetadataUrl?: string;
}

const WILDCARD = /^([a-z][a-z0-9+.-]*):\/\/\*$/;

/**
 * Settles `originCheck`, `allowedOrigins` and `allowedHosts`.
 *
 * @throws TypeError naming the option and the entry that cannot mean anything: an `allowedOrigins` entry
 *   that is neither an origin nor a non-web `<scheme>://*`, an `allowedHosts` entry with a scheme, a port
 *   or a path, an empty `allowedHosts`.
 */
export function settleOriginPolicy(options: McpMountOptions<any>): OriginPolicy {
  if (options.originCheck !== undefined && typeof options.originCheck !== 'boolean') {
    throw new TypeError('mcp-mount: originCheck must be a boolean');
  }
  const origins = new Set<string>();
  const schemes: string[] = [];
  for (const entry of list('allowedOrigins', options.allowedOrigins)) {
    const wildcard = WILDCARD.exec(entry);
    if (wildcard) {
      // The SDK honours `<scheme>://*` for non-web schemes only: websites are listed one by one.
      if (wildcard[1] === 'http' || wildcard[1] === 'https') {
        throw new TypeError(
          `mcp-mount: allowedOrigins: ${entry} would allow every website; list each origin (e.g. https://app.example.com)`,
        );
      }
      schemes.push(entry);
      continue;
    }
    origins.add(serializedOrigin(entry));
  }
  const hosts =
    options.allowedHosts === undefined ? undefined : list('allowedHosts', options.allowedHosts).map(hostname);
  if (hosts?.length === 0) throw new TypeError('mcp-mount: allowedHosts must name at least one hostname');
  return Object.freeze({
    check: options.originCheck !== false,
    origins,
    schemes: Object.freeze(schemes),
    ...(hosts && { hosts: Object.freeze(hosts) }),
  });
}

function list(option: string, value: unknown): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) {
    throw new TypeError(`mcp-mount: ${option} must be an array of strings`);
  }
  return [...value];
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
      `mcp-mount: allowedOrigins: ${entry} is not an origin; give scheme, host and port only (e.g. https://app.example.com) or <scheme>://* (e.g. chrome-extension://*); to allow every origin, set originCheck: false`,
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
      `mcp-mount: allowedHosts: ${entry} is not a hostname; give the name only, without scheme or port (IPv6 in brackets: [::1])`,
    );
  }
  return url.hostname;
}

/**
 * Settles `auth`.
 *
 * @throws TypeError naming the field: `verify` not a function, `required` not a boolean, a scope outside
 *   the OAuth scope-token grammar (the SDK's rule), `requiredScopes` without `required`,
 *   `resourceMetadataUrl` not an absolute http(s) URL.
 */
export function settleAuthPolicy(options: McpMountOptions<any>): AuthPolicy | undefined {
  const auth = options.auth;
  if (auth === undefined) return undefined;
  if (typeof auth !== 'object' || auth === null || typeof auth.verify !== 'function') {
    throw new TypeError('mcp-mount: auth.verify must be a function (token, request) => AuthInfo | undefined');
  }
  if (auth.required !== undefined && typeof auth.required !== 'boolean') {
    throw new TypeError('mcp-mount: auth.required must be a boolean');
  }
  const required = auth.required !== false;
  const requiredScopes = list('auth.requiredScopes', auth.requiredScopes);
  if (requiredScopes.length > 0) {
    checkScopes('auth.requiredScopes', requiredScopes);
    if (!required)
      throw new TypeError(
        'mcp-mount: auth.requiredScopes needs auth.required: a request without a token has no scopes',
      );
  }
  const { resourceMetadataUrl } = auth;
  if (resourceMetadataUrl !== undefined && !/^https?:$/.test(parseUrl(resourceMetadataUrl)?.protocol ?? '')) {
    throw new TypeError(
      `mcp-mount: auth.resourceMetadataUrl must be an absolute http(s) URL, got ${String(resourceMetadataUrl)}`,
    );
  }
  return Object.freeze({
    verify: auth.verify,
    required,
    requiredScopes: Object.freeze(requiredScopes),
    ...(resourceMetadataUrl !== undefined && { resourceMetadataUrl }),
  });
}

/** Scopes as the SDK's `requireScopes` accepts them (the OAuth scope-token grammar), or a TypeError. */
export function checkScopes(option: string, scopes: readonly string[]): void {
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
