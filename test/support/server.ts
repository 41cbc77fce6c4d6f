/**
 * Real HTTP for tests: a Hono app with the mcp-mount middleware on @hono/node-server at port 0,
 * and both official MCP clients connected to it.
 */

import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import type { AnyTool, McpMountOptions } from 'mcp-mount';
import { mcp } from 'mcp-mount/hono';
import { connectors, type McpClient } from '../../examples/shared/clients.js';

export interface Running {
  url: string;
  close(): Promise<void>;
}

/** Serves a fetch handler on 127.0.0.1 at a free port. */
export async function listen(fetch: (request: Request) => Response | Promise<Response>): Promise<Running> {
  const server = serve({ fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Mounts `tools` on a Hono app at /mcp and serves it. */
export async function serveTools(tools: readonly AnyTool[], options: McpMountOptions = {}): Promise<Running> {
  const app = new Hono();
  app.all('/mcp', mcp(tools, options));
  return listen(app.fetch);
}

/** A served mount with one connected client of each era; `each` runs a body once per client. */
export async function withClients(
  tools: readonly AnyTool[],
  options: McpMountOptions,
  body: (client: McpClient) => Promise<void>,
): Promise<void> {
  const running = await serveTools(tools, options);
  try {
    for (const connect of connectors) {
      const client = await connect(running.url);
      try {
        await body(client);
      } finally {
        await client.close();
      }
    }
  } finally {
    await running.close();
  }
}

/** All text of a tool result. */
export function textOf(result: { content: Array<{ type: string; text?: string }> }): string {
  return result.content.map((c) => c.text ?? '').join('\n');
}
