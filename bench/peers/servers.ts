/**
 * The servers of the peer benchmark, one per process: `node --import tsx bench/peers/server.ts <key> <port>`
 * runs the one named here. Each serves the same 50 union tools (tools.ts: bench/fixtures/object-union-tools.ts,
 * built with the Zod copy the server converts with) at `/mcp` on 127.0.0.1, and answers a call with the text of
 * `answer(input)`. Each is set up the way the library's own documentation sets up a stateless server on Node;
 * every fetch-style handler is served the same way (`serve` of @hono/node-server, no router).
 *
 * Each entry imports its library when it starts, so a process loads only its own server's code.
 */
import * as zod from 'zod';
import { answer, TOOLS } from '../fixtures/object-union-calls.js';
import { objectUnionTools } from '../fixtures/object-union-tools.js';
import type { BenchTool } from '../fixtures/union-tools.js';

type FetchHandler = (request: Request) => Response | Promise<Response>;

/** Starts the server on `port` (127.0.0.1); resolves once it listens. */
type Start = (port: number) => Promise<void>;

const text = (input: unknown) => ({ content: [{ type: 'text' as const, text: JSON.stringify(answer(input)) }] });
/** The tools built with the root package's Zod: mcp-mount's and the plain SDK's (bench/fixtures/plain-sdk.ts). */
const rootTools = (): BenchTool[] => objectUnionTools(TOOLS);
/** The tools built with this folder's Zod, the copy every peer here converts and parses with. */
const peerTools = (): BenchTool[] => objectUnionTools(TOOLS, zod);

async function serveFetch(fetch: FetchHandler, port: number): Promise<void> {
  const { serve } = await import('@hono/node-server');
  await new Promise<void>((resolve) => {
    serve({ fetch, port, hostname: '127.0.0.1' }, () => resolve());
  });
}

/**
 * mcp-mount from the checkout at `dir`: its build (`dist/`, what a team runs from npm; run.ts builds it
 * first), or its sources through tsx (`src`), which renames every closure as it is made (esbuild's
 * `keepNames`) and so charges each call for a transpiler's work no user runs.
 */
function mountServer(label: string, dir: string, from: 'dist' | 'src', options: object = {}) {
  const start: Start = async (port) => {
    const [entry, index] = from === 'dist' ? ['dist/adapter.js', 'dist/index.js'] : ['src/adapter.ts', 'src/index.ts'];
    const { createMcpFetchHandler } = await import(`${dir}/${entry}`);
    const { defineTool } = await import(`${dir}/${index}`);
    const tools = rootTools().map((t) => defineTool({ ...t, handler: ({ input }: { input: unknown }) => answer(input) }));
    const handler = createMcpFetchHandler(tools, options);
    await serveFetch((request) => handler.fetch(request), port);
  };
  return { label, start, from, dir };
}

const ROOT = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');

export const SERVERS: Record<string, { label: string; start: Start; from?: 'dist' | 'src'; dir?: string; extra?: true }> = {
  'mcp-mount': mountServer('mcp-mount (default)', ROOT, 'dist'),
  // `BENCH_VARIANTS=key=/path/to/checkout,...`: mcp-mount from other checkouts of this repository (a `git
  // worktree` of an earlier commit, with node_modules), each built and served as a server of its own, for A/B
  // runs across commits.
  ...Object.fromEntries(
    (process.env.BENCH_VARIANTS ?? '')
      .split(',')
      .filter(Boolean)
      .map((variant) => {
        const [key = '', dir = ''] = variant.split('=');
        return [key, mountServer(`mcp-mount at ${key}`, dir, 'dist')];
      }),
  ),
  'mcp-mount-flat': mountServer('mcp-mount (flattenUnionInput)', ROOT, 'dist', { flattenUnionInput: true }),
  // Only when named in BENCH_SERVERS: the sources as the other benchmarks run them.
  'mcp-mount-src': { ...mountServer('mcp-mount (sources through tsx)', ROOT, 'src'), extra: true },
  'plain-sdk': {
    label: 'plain SDK v2, a server per request',
    start: async (port) => {
      // The root package's SDK v2 and Zod, as bench/fixtures/plain-sdk.ts serves them to the other benchmarks.
      const { plainSdkHandler } = await import('../fixtures/plain-sdk.js');
      const handler = plainSdkHandler(rootTools(), answer);
      await serveFetch((request) => handler.fetch(request), port);
    },
  },
  'mcp-handler': {
    label: 'mcp-handler 2.4 (SDK v2)',
    start: async (port) => {
      const { createMcpHandler } = await import('mcp-handler');
      const tools = peerTools();
      const handler = createMcpHandler((server) => {
        for (const t of tools) {
          server.registerTool(t.name, { description: t.description, inputSchema: t.input as never }, ((
            input: unknown,
          ) => text(input)) as never);
        }
      });
      await serveFetch(handler, port);
    },
  },
  fastmcp: {
    label: 'fastmcp 4.20 (stateless)',
    start: async (port) => {
      // fastmcp runs its own Node HTTP server (mcp-proxy's), so it is started its own way.
      const { FastMCP } = await import('fastmcp');
      const server = new FastMCP({ name: 'fastmcp', version: '0.0.0' });
      for (const t of peerTools()) {
        server.addTool({
          name: t.name,
          description: t.description,
          parameters: t.input as never,
          execute: async (input: unknown) => JSON.stringify(answer(input)),
        });
      }
      await server.start({
        transportType: 'httpStream',
        httpStream: { port, host: '127.0.0.1', endpoint: '/mcp', stateless: true },
      });
    },
  },
  'hono-mcp': {
    label: '@hono/mcp 0.3 (SDK v1, one shared server)',
    start: async (port) => {
      // As @hono/mcp's README sets it up: one McpServer and one transport for every request.
      const { McpServer } = await import('@modelcontextprotocol/sdk/server/mcp.js');
      const { StreamableHTTPTransport } = await import('@hono/mcp');
      const { Hono } = await import('hono');
      const server = new McpServer({ name: 'hono-mcp', version: '0.0.0' });
      for (const t of peerTools()) {
        server.registerTool(t.name, { description: t.description, inputSchema: t.input as never }, ((input: unknown) =>
          text(input)) as never);
      }
      const transport = new StreamableHTTPTransport();
      const app = new Hono();
      app.all('/mcp', async (c) => {
        if (!server.isConnected()) await server.connect(transport);
        return transport.handleRequest(c);
      });
      await serveFetch(app.fetch, port);
    },
  },
  tmcp: {
    label: 'tmcp 1.20',
    start: async (port) => {
      const { McpServer } = await import('tmcp');
      const { ZodJsonSchemaAdapter } = await import('@tmcp/adapter-zod');
      const { HttpTransport } = await import('@tmcp/transport-http');
      const server = new McpServer(
        { name: 'tmcp', version: '0.0.0', description: 'peer benchmark' },
        { adapter: new ZodJsonSchemaAdapter(), capabilities: { tools: { listChanged: true } } },
      );
      for (const t of peerTools()) {
        server.tool({ name: t.name, description: t.description, schema: t.input as never }, (async (input: unknown) =>
          text(input)) as never);
      }
      const transport = new HttpTransport(server, { path: '/mcp' });
      await serveFetch(
        async (request) => (await transport.respond(request)) ?? new Response(null, { status: 404 }),
        port,
      );
    },
  },
  'mcp-lite': {
    label: 'mcp-lite 0.10',
    start: async (port) => {
      const { McpServer, StreamableHttpTransport } = await import('mcp-lite');
      const mcp = new McpServer({
        name: 'mcp-lite',
        version: '0.0.0',
        schemaAdapter: (schema) => zod.toJSONSchema(schema as zod.ZodType),
      });
      for (const t of peerTools()) {
        mcp.tool(t.name, {
          description: t.description,
          inputSchema: t.input as never,
          handler: (input) => text(input),
        });
      }
      const handler = new StreamableHttpTransport().bind(mcp);
      await serveFetch(handler, port);
    },
  },
  raw: {
    label: 'raw route (parse the body, send fixed bytes)',
    start: async (port) => {
      // The floor of any fetch-style server here: reads and parses the body, and answers bytes captured from
      // mcp-mount's own answer to the same request (set over `POST /__answer` before each scenario), with
      // this request's id spliced in.
      let answer = { contentType: 'application/json', head: '', tail: '' };
      await serveFetch(async (request) => {
        if (new URL(request.url).pathname === '/__answer') {
          answer = await request.json();
          return new Response(null, { status: 204 });
        }
        const { id } = (await request.json()) as { id: number };
        return new Response(answer.head + id + answer.tail, { headers: { 'content-type': answer.contentType } });
      }, port);
    },
  },
};
