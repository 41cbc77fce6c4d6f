/**
 * CORS for browser clients (`cors`), for the origins the Origin check already let in, and no others:
 * a preflight is answered here, and every response to such an origin gets its CORS headers.
 * See docs/decisions/0012-access-control.md.
 */
import type { CorsPolicy } from './settle.js';

const METHODS = 'GET, POST, DELETE, OPTIONS';

/** A CORS preflight: `OPTIONS` naming the method it asks for. */
export function isPreflight(request: Request): boolean {
  return request.method === 'OPTIONS' && request.headers.has('access-control-request-method');
}

/**
 * 204 allowing `origin` the MCP methods and the requested headers that are allowed (a header left out
 * makes the browser refuse the request, as it should).
 */
export function preflight(policy: CorsPolicy, origin: string, request: Request): Response {
  const requested = (request.headers.get('access-control-request-headers') ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter((h) => h !== '' && (policy.allowHeaders.has(h) || h.startsWith('mcp-param-')));
  const headers = new Headers({
    'access-control-allow-origin': origin,
    'access-control-allow-methods': METHODS,
    'access-control-max-age': policy.maxAge,
    vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
  });
  if (requested.length > 0) headers.set('access-control-allow-headers', requested.join(', '));
  if (policy.credentials) headers.set('access-control-allow-credentials', 'true');
  return new Response(null, { status: 204, headers });
}

/** The response with CORS headers for `origin` (and `Vary: Origin` whenever CORS is on). */
export function withCors(policy: CorsPolicy | undefined, origin: string | undefined, response: Response): Response {
  if (!policy) return response;
  let target = response;
  try {
    target.headers.append('vary', 'Origin');
  } catch {
    // Immutable headers (a response from `fetch`): the same body under headers of our own.
    target = new Response(response.body, response);
    target.headers.append('vary', 'Origin');
  }
  if (origin === undefined) return target;
  target.headers.set('access-control-allow-origin', origin);
  target.headers.set('access-control-expose-headers', policy.exposeHeaders);
  if (policy.credentials) target.headers.set('access-control-allow-credentials', 'true');
  return target;
}
