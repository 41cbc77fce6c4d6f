/**
 * The Origin and Host checks every request passes before anything else is read (the MCP transport spec:
 * servers MUST validate `Origin` against DNS rebinding). The rules and messages are the SDK's
 * (`validateOriginHeader`, `validateHostHeader`, the localhost lists); this file only decides which of
 * its allowlists apply to a request. See docs/decisions/0012-access-control.md.
 */
import {
  hostHeaderValidationResponse,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  originValidationResponse,
  validateHostHeader,
  validateOriginHeader,
} from '@modelcontextprotocol/server';
import { jsonRpcError } from '../http/responses.js';
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
  // Runtimes that speak HTTP/2 may hand over `:authority` in the URL and no `Host` header.
  const host = () => hostHeader ?? new URL(request.url).host;
  if (policy.hosts) {
    const result = validateHostHeader(host(), policy.hosts as string[]);
    if (!result.ok) {
      const refused = hostHeader === null ? undefined : hostHeaderValidationResponse(request, policy.hosts as string[]);
      return { ok: false, response: refused ?? jsonRpcError(403, -32000, result.message), reason: 'host' };
    }
  }
  if (origin === undefined || originAllowed(policy, origin, host(), request.url)) return { ok: true, origin };
  // The SDK's own refusal: with nothing on its list, it refuses any present Origin, with its message.
  const refused = originValidationResponse(request, []);
  return { ok: false, response: refused ?? jsonRpcError(403, -32000, `Invalid Origin: ${origin}`), reason: 'origin' };
}

function originAllowed(policy: OriginPolicy, origin: string, host: string, requestUrl: string): boolean {
  // Parses the value (an unparsable one, like the opaque `null`, is refused) and matches `<scheme>://*`.
  const parsed = validateOriginHeader(origin, policy.schemes as string[]);
  if (parsed.ok) return true;
  if (parsed.errorCode === 'invalid_origin_header') return false;
  const url = new URL(origin);
  const serialized = `${url.protocol}//${url.host}`;
  if (policy.origins.has(serialized)) return true;
  // Addressed as localhost, the localhost origins are allowed (any port, as the SDK's lists are).
  if (validateHostHeader(host, LOCALHOST_HOSTS).ok && validateOriginHeader(origin, LOCALHOST_ORIGINS).ok) return true;
  // Same origin. A rebinding page has the same origin as the server it rebinds to, so this holds only
  // where the name cannot be rebound: over HTTPS (the certificate binds the name), at an IP address (a
  // rebinding needs a DNS name), or when `access.hosts` already vouched for the name.
  const self = new URL(requestUrl);
  if (serialized !== `${self.protocol}//${self.host}`) return false;
  return (
    self.protocol === 'https:' ||
    IPV4.test(self.hostname) ||
    self.hostname.startsWith('[') ||
    policy.hosts !== undefined
  );
}
