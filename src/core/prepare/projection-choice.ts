/**
 * Per `tools/list`: who the client says it is, and the projection the mount's `projection` option picks for
 * it (docs/decisions/0014-per-client-projections.md).
 */

import type { ProjectionName } from '../projection/names.js';
import type { ClientIdentity, ProjectionRequest } from './client-identity.js';
import type { ProjectionPolicy } from './settle.js';

const CLIENT_INFO = 'io.modelcontextprotocol/clientInfo';
const PROTOCOL_VERSION = 'io.modelcontextprotocol/protocolVersion';

/**
 * The identity a request carries: `clientInfo` from the 2026-07-28 `_meta`, or from `initialize` params; the
 * `User-Agent` header, which is all a 2025-era stateless `tools/list` has. Values that are not strings are
 * left out: they come from the client and mean nothing here.
 */
export function clientIdentity(request: Request, message: unknown): ClientIdentity {
  const params = isRecord(message) && isRecord(message.params) ? message.params : {};
  const meta = isRecord(params._meta) ? params._meta : {};
  const info = isRecord(meta[CLIENT_INFO]) ? meta[CLIENT_INFO] : isRecord(params.clientInfo) ? params.clientInfo : {};
  const userAgent = request.headers.get('user-agent') ?? undefined;
  return {
    ...(typeof info.name === 'string' && { name: info.name }),
    ...(typeof info.version === 'string' && { version: info.version }),
    ...(userAgent !== undefined && { userAgent }),
    era: typeof meta[PROTOCOL_VERSION] === 'string' ? '2026-07-28' : '2025',
  };
}

/**
 * The projection `client`'s `tools/list` is served: the mount's function (given the client and the request it
 * came on) or `'auto'` table, asked once the SDK has accepted the request (so a malformed request gets the
 * SDK's 400, never the function).
 * @throws TypeError when the `projection` function returns a projection the mount does not serve.
 */
export function chooseProjection(
  policy: ProjectionPolicy,
  client: ClientIdentity,
  request: Request,
  host?: unknown,
): ProjectionName {
  const { choose, served } = policy;
  if (!choose) return policy.default;
  const chosen = choose(client, projectionRequest(request, host));
  if (!served.includes(chosen)) {
    throw new TypeError(
      `mcp-mount: the projection function returned ${String(chosen)}, which is not one of ${served.join(', ')}`,
    );
  }
  return chosen;
}

/** What the projection function sees of the request: read-only, and nothing it could consume. */
function projectionRequest(request: Request, host: unknown): ProjectionRequest {
  return Object.freeze({
    url: new URL(request.url),
    headers: request.headers,
    ...(host !== undefined && { host }),
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
