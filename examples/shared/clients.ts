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

export async function connectV2(url: string): Promise<McpClient> {
  const client = new ClientV2({ name: 'mcp-mount-demo', version: '1.0.0' }, MODERN);
  await client.connect(new TransportV2(new URL(url)));
  return wrap('client v2', client, client.getNegotiatedProtocolVersion());
}

export async function connectV1(url: string): Promise<McpClient> {
  const client = new ClientV1({ name: 'mcp-mount-demo', version: '1.0.0' });
  const transport = new TransportV1(new URL(url));
  await client.connect(transport);
  return wrap('client v1', client, transport.protocolVersion);
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
