/**
 * Connects the two official MCP clients to a URL: the v2 client (`@modelcontextprotocol/client`, which
 * negotiates 2026-07-28) and the 2025-era client (`@modelcontextprotocol/sdk` v1). Used by the demo and
 * the tests, so both exercise exactly what a user's client does.
 */
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** The part of both clients the demo and tests use. */
export interface McpClient {
  readonly label: string;
  listTools(): Promise<{
    tools: Array<{ name: string; inputSchema: Record<string, unknown>; outputSchema?: unknown }>;
  }>;
  callTool(name: string, args?: unknown): Promise<CallResult>;
  close(): Promise<void>;
}

export interface CallResult {
  content: Array<{ type: string; text?: string }>;
  structuredContent?: unknown;
  isError?: boolean;
}

export async function connectV2(url: string): Promise<McpClient> {
  const client = new ClientV2({ name: 'mcp-mount-demo', version: '1.0.0' });
  await client.connect(new TransportV2(new URL(url)));
  return wrap('client v2 (2026-07-28)', client);
}

export async function connectV1(url: string): Promise<McpClient> {
  const client = new ClientV1({ name: 'mcp-mount-demo', version: '1.0.0' });
  await client.connect(new TransportV1(new URL(url)));
  return wrap('client v1 (2025-era)', client);
}

export const connectors = [connectV2, connectV1] as const;

function wrap(label: string, client: any): McpClient {
  return {
    label,
    listTools: () => client.listTools(),
    callTool: (name, args) => client.callTool({ name, arguments: args }),
    close: () => client.close(),
  };
}
