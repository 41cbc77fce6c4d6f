/**
 * The OAuth 2.0 Protected Resource Metadata document (RFC 9728) an MCP server publishes so that a client
 * refused with 401 can find its authorization server (the MCP authorization spec).
 */
import {
  buildOAuthProtectedResourceMetadata,
  getOAuthProtectedResourceMetadataUrl,
  type OAuthMetadata,
  type OAuthProtectedResourceMetadata,
} from '@modelcontextprotocol/server';

export interface ProtectedResourceMetadataOptions {
  /**
   * The MCP endpoint's public URL, as clients reach it (behind a proxy: the proxy's), e.g.
   * `'https://api.example.com/mcp'`. It is the document's `resource` and decides where it is served.
   */
  resource: string | URL;
  /**
   * Issuer URLs of the authorization servers whose tokens this server accepts (at least one). HTTPS
   * except on `localhost`/`127.0.0.1`, without query or fragment: the SDK's issuer rule.
   */
  authorizationServers: readonly string[];
  /** `scopes_supported`: the scopes tools and `requiredScopes` use. */
  scopesSupported?: readonly string[];
  /** `resource_name`, for people. */
  resourceName?: string;
  /** `resource_documentation`: a URL for people. */
  resourceDocumentation?: string;
}

export interface ProtectedResourceMetadata {
  /** Where to serve it: `/.well-known/oauth-protected-resource` plus the resource's path. */
  readonly path: string;
  /** The document's full URL: pass it as `auth.resourceMetadataUrl` so 401s point at it. */
  readonly url: string;
  /** The JSON document (`resource`, `authorization_servers`, `bearer_methods_supported`, ...). */
  readonly document: OAuthProtectedResourceMetadata;
  /**
   * Answers a request routed to `path`: the document for GET and HEAD (readable from any origin, as
   * metadata is public), 204 for a CORS preflight, 405 otherwise.
   */
  fetch(request: Request): Response;
}

/**
 * Builds the protected-resource metadata for an MCP endpoint, once. The document comes from the SDK's
 * `buildOAuthProtectedResourceMetadata` (which checks each issuer), extended to every authorization
 * server and to `bearer_methods_supported: ['header']`; the path from `getOAuthProtectedResourceMetadataUrl`.
 *
 * @throws TypeError when `resource` is not an absolute URL or there is no authorization server; the SDK's
 *   `Error` for an issuer it refuses.
 * @example
 * const metadata = protectedResourceMetadata({
 *   resource: 'https://api.example.com/mcp',
 *   authorizationServers: ['https://auth.example.com'],
 *   scopesSupported: ['notes:read', 'notes:write'],
 * });
 * app.get(metadata.path, (c) => metadata.fetch(c.req.raw));                       // Hono
 * app.all('/mcp', mcp(tools, { access: { auth: { verify, resourceMetadataUrl: metadata.url } } }));
 */
export function protectedResourceMetadata(options: ProtectedResourceMetadataOptions): ProtectedResourceMetadata {
  let resource: URL;
  try {
    resource = new URL(options.resource);
  } catch {
    throw new TypeError(
      `mcp-mount: protectedResourceMetadata: resource must be an absolute URL, got ${String(options.resource)}`,
    );
  }
  const servers = [...(options.authorizationServers ?? [])];
  if (servers.length === 0) {
    throw new TypeError('mcp-mount: protectedResourceMetadata: authorizationServers must name at least one issuer');
  }
  const documents = servers.map((issuer) =>
    buildOAuthProtectedResourceMetadata({
      oauthMetadata: { issuer } as OAuthMetadata, // only `issuer` is read
      resourceServerUrl: resource,
      ...(options.scopesSupported && { scopesSupported: [...options.scopesSupported] }),
      ...(options.resourceName !== undefined && { resourceName: options.resourceName }),
      ...(options.resourceDocumentation !== undefined && {
        serviceDocumentationUrl: new URL(options.resourceDocumentation),
      }),
    }),
  );
  const document = Object.freeze({
    ...stripUndefined(documents[0] as OAuthProtectedResourceMetadata),
    authorization_servers: documents.flatMap((d) => d.authorization_servers),
    bearer_methods_supported: ['header'],
  }) as OAuthProtectedResourceMetadata;
  const url = getOAuthProtectedResourceMetadataUrl(resource);
  const body = JSON.stringify(document);
  return Object.freeze({
    path: new URL(url).pathname,
    url,
    document,
    fetch: (request: Request) => answer(request, body),
  });
}

const METHODS = 'GET, HEAD, OPTIONS';

function answer(request: Request, body: string): Response {
  const cors = { 'access-control-allow-origin': '*' };
  if (request.method === 'OPTIONS') {
    const requested = request.headers.get('access-control-request-headers');
    return new Response(null, {
      status: 204,
      headers: {
        ...cors,
        'access-control-allow-methods': METHODS,
        ...(requested !== null && { 'access-control-allow-headers': requested }),
      },
    });
  }
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return Response.json(
      {
        error: 'method_not_allowed',
        error_description: `The method ${request.method} is not allowed for this endpoint`,
      },
      { status: 405, headers: { ...cors, allow: METHODS } },
    );
  }
  return new Response(request.method === 'HEAD' ? null : body, {
    headers: { ...cors, 'content-type': 'application/json' },
  });
}

function stripUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
