/**
 * The three client libraries teams ship MCP tools through, each used the way its docs say: connect to a URL,
 * list the tools, convert them with the library's own API, call one through that API. What each returns is
 * what the library would hand a model: the tool's schema after the library's own conversion.
 */
import { createMCPClient } from '@ai-sdk/mcp';
import { MultiServerMCPClient } from '@langchain/mcp-adapters';
import { MCPClient } from '@mastra/mcp';

/** One tool as a library presents it: the JSON Schema a model is shown, and the library's execute path. */
export interface LibraryTool {
  schema: Record<string, unknown>;
  call(args: Record<string, unknown>): Promise<unknown>;
}

export interface LibrarySession {
  tools: Map<string, LibraryTool>;
  close(): Promise<void>;
}

export type LibraryName = 'ai-sdk' | 'langchain' | 'mastra';

export const LIBRARIES: Record<LibraryName, (url: string) => Promise<LibrarySession>> = {
  /** Vercel AI SDK: `createMCPClient(...).tools()`, each tool's `inputSchema.jsonSchema` and `execute`. */
  'ai-sdk': async (url) => {
    const client = await createMCPClient({ transport: { type: 'http', url } });
    const tools = new Map<string, LibraryTool>();
    for (const [name, tool] of Object.entries(await client.tools())) {
      const t = tool as unknown as { inputSchema: { jsonSchema: unknown }; execute: (...a: unknown[]) => unknown };
      tools.set(name, {
        schema: (await t.inputSchema.jsonSchema) as Record<string, unknown>,
        call: async (args) => t.execute(args, { toolCallId: 'call-1', messages: [] }),
      });
    }
    return { tools, close: () => client.close() };
  },
  /** LangChain: `MultiServerMCPClient.getTools()` (loadMcpTools), the StructuredTool's `schema` and `invoke`. */
  langchain: async (url) => {
    const client = new MultiServerMCPClient({
      mcpServers: { mount: { url, transport: 'http' } },
      prefixToolNameWithServerName: false,
      throwOnLoadError: true,
    });
    const tools = new Map<string, LibraryTool>();
    for (const tool of await client.getTools()) {
      tools.set(tool.name, {
        schema: tool.schema as Record<string, unknown>,
        call: (args) => tool.invoke(args),
      });
    }
    return { tools, close: () => client.close() };
  },
  /** Mastra: `MCPClient.listTools()` (names `<server key>_<tool>`), its JSON Schema form and `execute`. */
  mastra: async (url) => {
    const client = new MCPClient({ id: `mcp-mount-${url}`, servers: { mount: { url: new URL(url) } } });
    const tools = new Map<string, LibraryTool>();
    for (const [key, tool] of Object.entries(await client.listTools())) {
      const t = tool as unknown as {
        inputSchema: { '~standard': { jsonSchema: { input(o: object): Record<string, unknown> } } };
        execute: (input: unknown, context: unknown) => Promise<unknown>;
      };
      tools.set(key.replace(/^mount_/, ''), {
        schema: t.inputSchema['~standard'].jsonSchema.input({ target: 'draft-2020-12' }),
        call: (args) => t.execute(args, {}),
      });
    }
    return { tools, close: () => client.disconnect() };
  },
};
