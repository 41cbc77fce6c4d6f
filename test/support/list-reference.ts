/**
 * The SDK's own `tools/list` for the tools a mount serves: a plain `McpServer` registering the documents
 * `validateMcpSchemas` reports through carriers, served by the SDK's handler (the cached list's reference).
 */
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import type { ServedTool } from 'mcp-mount';
import { carrier } from '../../src/core/serve/sdk/carrier.js';

const pass = (value: unknown) => ({ value });

/** The SDK alone, registering the reported documents through carriers, as the mount registered them before. */
export function reference(listed: readonly ServedTool[], responseMode: 'json' | 'sse') {
  return createMcpHandler(
    () => {
      const server = new McpServer(
        { name: 'cache', version: '1.2.3' },
        { capabilities: { tools: { listChanged: false } } },
      );
      for (const t of listed) {
        const registered = server.registerTool(
          t.name,
          {
            title: t.title,
            description: t.description,
            inputSchema: carrier(t.inputSchema, pass),
            outputSchema: t.outputSchema && carrier(t.outputSchema, pass),
            annotations: t.annotations,
            icons: t.icons ? [...t.icons] : undefined,
            _meta: t._meta,
          } as never,
          () => ({ content: [] }),
        );
        if (t.execution) registered.execution = t.execution;
      }
      return server;
    },
    { responseMode },
  );
}
