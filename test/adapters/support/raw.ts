/**
 * One HTTP request with exactly the headers given, `Host` included (fetch always sends the URL's own
 * `Host`; a DNS rebinding does not), over node:http.
 */
import { request } from 'node:http';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

export function rawRequest(
  url: string,
  { method = 'POST', headers = {}, body }: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, setHost: !('host' in headers) }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        text += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * The two probes of the MCP conformance suite's DNS rebinding scenario, for a 2025-era and a 2026-07-28
 * client: `Host` and `Origin` both set to `hostOrOrigin` on a request any server must accept.
 */
export function rebindingProbe(url: string, hostOrOrigin: string, era: '2025-11-25' | '2026-07-28') {
  const clientInfo = { name: 'rebinding-probe', version: '1.0.0' };
  const message =
    era === '2026-07-28'
      ? {
          jsonrpc: '2.0',
          id: 1,
          method: 'server/discover',
          params: {
            _meta: {
              'io.modelcontextprotocol/protocolVersion': era,
              'io.modelcontextprotocol/clientInfo': clientInfo,
              'io.modelcontextprotocol/clientCapabilities': {},
            },
          },
        }
      : { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: era, capabilities: {}, clientInfo } };
  return rawRequest(url, {
    headers: {
      host: hostOrOrigin,
      origin: `http://${hostOrOrigin}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': era,
      'mcp-method': message.method,
    },
    body: JSON.stringify(message),
  });
}
