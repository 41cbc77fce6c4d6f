/**
 * The two official MCP clients (v2 `@modelcontextprotocol/client`, 2025-era `@modelcontextprotocol/sdk`),
 * connected through a fetch that keeps every raw response body, so tests can compare the exact bytes a
 * server sent (e.g. `tools/list` across adapters), not only what the client decoded.
 */
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type McpClient, MODERN, wrap } from '../../../examples/shared/clients.js';

export type Era = 'v2' | 'v1';
export const eras: readonly Era[] = ['v2', 'v1'];

/** One HTTP exchange as the client saw it on the wire. */
export interface Exchange {
  /** JSON-RPC method of the request body (`''` for GET/DELETE or non-JSON bodies). */
  method: string;
  status: number;
  /** The raw response body, read from a clone (resolves when the server ends the response). */
  body: Promise<string>;
}

export interface RecordingClient extends McpClient {
  readonly era: Era;
  readonly exchanges: Exchange[];
  /** The raw body of the last response to a request with this JSON-RPC method. */
  lastBody(method: string): Promise<string>;
}

/** A fetch to send the client's requests through: the network by default, or a handler in-process. */
export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/**
 * Connects the client of `era` to `url`. With `token`, the v2 client sends it through its auth provider
 * and the 2025-era client through its request headers, the two ways an app hands a client a token.
 */
export async function connect(
  era: Era,
  url: string,
  send: FetchLike = fetch,
  { token }: { token?: string } = {},
): Promise<RecordingClient> {
  const exchanges: Exchange[] = [];
  const recordingFetch = async (input: string | URL | Request, init?: RequestInit) => {
    const response = await send(input, init);
    const body = response.clone().text();
    // A stream the client aborts on close (the 2025-era GET stream) rejects: nobody waits for those.
    body.catch(() => undefined);
    exchanges.push({ method: methodOf(init?.body), status: response.status, body });
    return response;
  };
  let client: any;
  let protocolVersion: string | undefined;
  if (era === 'v2') {
    client = new ClientV2({ name: 'mcp-mount-adapter-tests', version: '1.0.0' }, MODERN);
    const authProvider = token === undefined ? undefined : { token: async () => token };
    await client.connect(new TransportV2(new URL(url), { fetch: recordingFetch, authProvider }));
    protocolVersion = client.getNegotiatedProtocolVersion();
  } else {
    client = new ClientV1({ name: 'mcp-mount-adapter-tests', version: '1.0.0' });
    const requestInit = token === undefined ? undefined : { headers: { authorization: `Bearer ${token}` } };
    const transport = new TransportV1(new URL(url), { fetch: recordingFetch, requestInit });
    await client.connect(transport);
    protocolVersion = transport.protocolVersion;
  }
  return {
    ...wrap(`client ${era}`, client, protocolVersion),
    era,
    exchanges,
    async lastBody(method) {
      const exchange = exchanges.findLast((e) => e.method === method);
      if (!exchange) throw new Error(`no ${method} exchange recorded`);
      return exchange.body;
    },
  };
}

function methodOf(body: unknown): string {
  if (typeof body !== 'string') return '';
  try {
    const message = JSON.parse(body);
    return typeof message?.method === 'string' ? message.method : '';
  } catch {
    return '';
  }
}
