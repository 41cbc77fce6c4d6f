/**
 * The Origin and Host checks every request passes before anything else is read (the MCP transport spec:
 * servers MUST validate `Origin` against DNS rebinding). The rules and messages are the SDK's
 * (`validateOriginHeader`, `validateHostHeader`, the localhost lists); this file only decides which of
 * its allowlists apply to a request. Every decision rests on the request's headers (`Origin`, `Host`) and the
 * configuration, never on the URL a runtime built from the request target: given an absolute-form target
 * (`POST https://evil.example/mcp HTTP/1.1`), Node's servers make that the request's URL, whatever `Host`
 * says and whatever `access.hosts` allows. See docs/decisions/0012-access-control.md.
 */
import {
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  validateHostHeader,
  validateOriginHeader,
} from '@modelcontextprotocol/server';
import { jsonRpcError } from '../http/responses.js';
import { boundedText } from '../messages/bounded.js';
import type { OriginPolicy } from './settle.js';

/** The outcome: refused with a 403, or allowed, with the browser origin that was let in (for CORS). */
export type OriginCheck = { ok: true; origin?: string } | { ok: false; response: Response; reason: 'origin' | 'host' };

const LOCALHOST_HOSTS = localhostAllowedHostnames();
const LOCALHOST_ORIGINS = localhostAllowedOrigins();
const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/**
 * Checks `Host` (when `access.hosts` is set) and `Origin`. A request without `Origin` passes the Origin
 * check: browsers send one on every request that is not a plain GET or HEAD, and only browsers are the
 * threat. Costs a header read or two; a URL parse only for a request that carries `Origin`.
 */
export function checkOrigin(policy: OriginPolicy, request: Request): OriginCheck {
  const origin = request.headers.get('origin') || undefined;
  if (!policy.check) return { ok: true, origin };
  const hostHeader = request.headers.get('host');
  // Runtimes that speak HTTP/2 may hand over `:authority` in the URL and no `Host` header (HTTP/1.1 requires
  // one, and Node refuses a request without it).
  const host = () => hostHeader ?? new URL(request.url).host;
  if (policy.hosts) {
    const result = validateHostHeader(host(), policy.hosts as string[]);
    if (!result.ok) return { ok: false, response: refusal(result.message), reason: 'host' };
  }
  if (origin === undefined || originAllowed(policy, origin, host())) return { ok: true, origin };
  // The SDK's own words: with nothing on its list, it refuses any present Origin.
  const result = validateOriginHeader(origin, []);
  return { ok: false, response: refusal(result.ok ? `Invalid Origin: ${origin}` : result.message), reason: 'origin' };
}

/** Characters of a refused header a 403 quotes: a header can be as long as the runtime allows (16 KiB on Node). */
const QUOTED_HEADER_CHARS = 256;

/** The 403 the SDK's `originValidationResponse` and `hostHeaderValidationResponse` send, its quote bounded. */
function refusal(message: string): Response {
  return jsonRpcError(403, -32000, boundedText(message, QUOTED_HEADER_CHARS));
}

function originAllowed(policy: OriginPolicy, origin: string, host: string): boolean {
  // Parses the value (an unparsable one, like the opaque `null`, is refused) and matches `<scheme>://*`.
  const parsed = validateOriginHeader(origin, policy.schemes as string[]);
  if (parsed.ok) return true;
  if (parsed.errorCode === 'invalid_origin_header') return false;
  const url = new URL(origin);
  const serialized = `${url.protocol}//${url.host}`;
  if (policy.origins.has(serialized)) return true;
  // Addressed as localhost, the localhost origins are allowed (any port, as the SDK's lists are).
  if (validateHostHeader(host, LOCALHOST_HOSTS).ok && validateOriginHeader(origin, LOCALHOST_ORIGINS).ok) return true;
  // Same origin: the browser's origin names the host the request was sent to (`Host`). A rebinding page has
  // the same origin as the server it rebinds to, so this holds only where the name cannot be rebound: over
  // HTTPS (the browser checked a certificate for that name, so it reached this server or its TLS proxy), at
  // an IP address (a rebinding needs a DNS name), or when `access.hosts` already vouched for the name.
  if (url.host !== hostOf(url.protocol, host)) return false;
  return (
    url.protocol === 'https:' || IPV4.test(url.hostname) || url.hostname.startsWith('[') || policy.hosts !== undefined
  );
}

/**
 * `host` (a `Host` value) as an origin of `scheme` serializes it (lower case, its default port left out), or ''
 * when it is not a bare host and port.
 */
export function hostOf(scheme: string, host: string): string {
  let url: URL;
  try {
    url = new URL(`${scheme}//${host}`);
  } catch {
    return '';
  }
  const bare = url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password;
  return bare ? url.host : '';
}
