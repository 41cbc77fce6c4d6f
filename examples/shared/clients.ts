/**
 * Connects the two official MCP clients to a URL: the v2 client (`@modelcontextprotocol/client`) pinned to
 * 2026-07-28, and the 2025-era client (`@modelcontextprotocol/sdk` v1). Used by the demo and the tests, so
 * both exercise exactly what a user's client does, one per protocol era. (Left to its default, the v2 client
 * speaks 2025-11-25: 2026-07-28 is opt-in, through `versionNegotiation`.)
 */
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** The part of both clients the demo and tests use. */
export interface McpClient {
  readonly label: string;
  /** The protocol version the connection negotiated, e.g. `2026-07-28`. */
  readonly protocolVersion: string | undefined;
  listTools(): Promise<{
    tools: Array<{ name: string; inputSchema: Record<string, unknown>; outputSchema?: unknown }>;
  }>;
  callTool(name: string, args?: unknown): Promise<CallResult>;
  /** `resources/read`: the contents' text, joined. */
  readResource(uri: string): Promise<string>;
  /** `prompts/get`: the messages' text, joined. */
  getPrompt(name: string, args?: Record<string, string>): Promise<string>;
  close(): Promise<void>;
}

export interface CallResult {
  content: Array<{ type: string; text?: string }>;
  structuredContent?: unknown;
  isError?: boolean;
}

/** The v2 client's options for the 2026-07-28 era: without them it negotiates 2025-11-25. */
export const MODERN = { versionNegotiation: { mode: { pin: '2026-07-28' } } } as const;

/** The `clientInfo` name both clients send unless told otherwise: no client family's, so `'auto'` serves it `flat`. */
export const DEMO_CLIENT_NAME = 'mcp-mount-demo';

/**
 * How a client presents itself, for a mount whose `projection` option depends on it.
 * - `name`: the `clientInfo` name (in `initialize` and, under 2026-07-28, in every request's `_meta`).
 * - `userAgent`: the HTTP `User-Agent` header of every request, set through the transport's `requestInit`;
 *   the only hint a 2025-era stateless `tools/list` carries.
 */
export interface ClientPersona {
  name?: string;
  userAgent?: string;
}

const requestInit = (as: ClientPersona) =>
  as.userAgent === undefined ? {} : { requestInit: { headers: { 'User-Agent': as.userAgent } } };

export async function connectV2(url: string, as: ClientPersona = {}): Promise<McpClient> {
  const client = new ClientV2({ name: as.name ?? DEMO_CLIENT_NAME, version: '1.0.0' }, MODERN);
  await client.connect(new TransportV2(new URL(url), requestInit(as)));
  return wrap(label('client v2', as), client, client.getNegotiatedProtocolVersion());
}

export async function connectV1(url: string, as: ClientPersona = {}): Promise<McpClient> {
  const client = new ClientV1({ name: as.name ?? DEMO_CLIENT_NAME, version: '1.0.0' });
  const transport = new TransportV1(new URL(url), requestInit(as));
  await client.connect(transport);
  return wrap(label('client v1', as), client, transport.protocolVersion);
}

function label(base: string, as: ClientPersona): string {
  const said = [as.name && `as "${as.name}"`, as.userAgent && `User-Agent "${as.userAgent}"`].filter(Boolean);
  return said.length > 0 ? `${base} ${said.join(', ')}` : base;
}

export const connectors = [connectV2, connectV1] as const;

/** The `McpClient` face of a connected official client (either era), as the demo and the tests use it. */
export function wrap(label: string, client: any, protocolVersion: string | undefined): McpClient {
  return {
    label: `${label} (${protocolVersion ?? 'unknown'})`,
    protocolVersion,
    listTools: () => client.listTools(),
    callTool: (name, args) => client.callTool({ name, arguments: args }),
    readResource: async (uri) =>
      (await client.readResource({ uri })).contents.map((c: { text?: string }) => c.text ?? '').join('\n'),
    getPrompt: async (name, args) =>
      (await client.getPrompt({ name, arguments: args })).messages
        .map((m: { content: { text?: string } }) => m.content.text ?? '')
        .join('\n'),
    close: () => client.close(),
  };
}
