/**
 * The `server` option: resources, resource templates, prompts and completions registered with the SDK's own
 * API beside the mount's tools, served to both eras; the hook skipped for the requests only tools answer;
 * and what the startup probe finds in it.
 */
import { completable, McpServer, ResourceTemplate } from '@modelcontextprotocol/server';
import { defineTool, McpMountSchemaError, type ServerHook, validateMcpSchemas } from 'mcp-mount';
import { createMcpFetchHandler } from 'mcp-mount/adapter';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { connectSdk, sdkEras } from '../support/sdk-clients.js';
import { type Running, serveTools, textOf } from '../support/server.js';

const echo = defineTool({ name: 'echo', input: z.object({ text: z.string() }), handler: ({ input }) => input.text });

const hookRuns: Array<string | undefined> = [];
const surface: ServerHook = (server, ctx) => {
  hookRuns.push(ctx.probe ? 'probe' : ctx.method);
  server.registerResource('readme', 'docs://readme', { mimeType: 'text/markdown' }, (uri) => ({
    contents: [{ uri: uri.href, text: '# Notes' }],
  }));
  server.registerResource(
    'note',
    new ResourceTemplate('notes://{id}', {
      list: undefined,
      complete: { id: (value) => ['1', '2', '10'].filter((id) => id.startsWith(value)) },
    }),
    { mimeType: 'text/plain' },
    (uri, { id }) => ({ contents: [{ uri: uri.href, text: `note ${id}` }] }),
  );
  server.registerPrompt(
    'summarize',
    {
      argsSchema: z.object({ topic: completable(z.string(), (v) => ['cats', 'cars'].filter((t) => t.startsWith(v))) }),
    },
    ({ topic }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Summarize ${topic}` } }] }),
  );
};

let running: Running;
beforeAll(async () => {
  running = await serveTools([echo], { server: { features: surface } });
});
afterAll(() => running.close());

describe.each(sdkEras.map((era) => [era]))('the server hook with the %s client', (era) => {
  it('serves its resources, templates, prompts and completions beside the tools, with honest capabilities', async () => {
    const client = await connectSdk(era, running.url);
    try {
      expect(client.client.getServerCapabilities()).toMatchObject({
        tools: { listChanged: false },
        resources: { listChanged: false },
        prompts: { listChanged: false },
        completions: {},
      });
      const { tools } = await client.client.listTools();
      expect(tools.map((t: { name: string }) => t.name)).toEqual(['echo']);
      const { resources } = await client.client.listResources();
      expect(resources).toEqual([{ name: 'readme', uri: 'docs://readme', mimeType: 'text/markdown' }]);
      const { resourceTemplates } = await client.client.listResourceTemplates();
      expect(resourceTemplates).toEqual([{ name: 'note', uriTemplate: 'notes://{id}', mimeType: 'text/plain' }]);
      const read = await client.client.readResource({ uri: 'notes://7' });
      expect(read.contents).toEqual([{ uri: 'notes://7', text: 'note 7' }]);
      const prompt = await client.client.getPrompt({ name: 'summarize', arguments: { topic: 'cats' } });
      expect(prompt.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Summarize cats' } }]);
      const topics = await client.client.complete({
        ref: { type: 'ref/prompt', name: 'summarize' },
        argument: { name: 'topic', value: 'ca' },
      });
      expect(topics.completion.values).toEqual(['cats', 'cars']);
      const ids = await client.client.complete({
        ref: { type: 'ref/resource', uri: 'notes://{id}' },
        argument: { name: 'id', value: '1' },
      });
      expect(ids.completion.values).toEqual(['1', '10']);
      expect(textOf(await client.callTool('echo', { text: 'hi' }))).toBe('hi');
    } finally {
      await client.close();
    }
  });
});

describe('where the hook runs', () => {
  it('runs once at construction, then for every request but tools/call and tools/list', async () => {
    hookRuns.length = 0;
    const registered = vi.spyOn(McpServer.prototype, 'registerResource');
    try {
      const handler = createMcpFetchHandler([echo], { server: { features: surface } });
      expect(hookRuns).toEqual(['probe']);
      const post = (method: string, params: unknown) =>
        handler.fetch(
          new Request('http://x/mcp', {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
            body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
          }),
        );
      registered.mockClear();
      await (await post('tools/call', { name: 'echo', arguments: { text: 'x' } })).text();
      await (await post('tools/list', {})).text();
      expect(registered).not.toHaveBeenCalled();
      await (await post('resources/list', {})).text();
      expect(registered).toHaveBeenCalledTimes(2);
      expect(hookRuns).toEqual(['probe', 'resources/list']);
    } finally {
      registered.mockRestore();
    }
  });
});

describe('the startup probe over the hook', () => {
  it('fails the mount, whatever the policy, when the hook registers a tool or throws', () => {
    const registersTool: ServerHook = (server) => {
      server.registerTool('sneaky', {}, () => ({ content: [] }));
    };
    const throws: ServerHook = () => {
      throw new Error('no database at construction');
    };
    for (const server of [registersTool, throws]) {
      expect(() =>
        createMcpFetchHandler([echo], { server: { features: server }, schemaValidation: { policy: 'warn' } }),
      ).toThrow(McpMountSchemaError);
    }
    expect(validateMcpSchemas([echo], { server: { features: registersTool } }).issues).toMatchObject([
      { tool: 'sneaky', side: 'server', code: 'server-hook-registers-tool', severity: 'error' },
    ]);
    expect(validateMcpSchemas([echo], { server: { features: throws } }).issues).toMatchObject([
      { side: 'server', code: 'server-hook-threw', message: expect.stringContaining('no database') },
    ]);
  });

  it('reports prompt arguments that can never receive the string a client sends, and unreadable resource URIs', () => {
    const server: ServerHook = (s) => {
      s.registerPrompt(
        'count',
        { argsSchema: z.object({ n: z.number(), ok: z.coerce.number(), t: z.string() }) },
        () => ({
          messages: [],
        }),
      );
      s.registerResource('bad', 'not a url', {}, () => ({ contents: [] }));
      s.registerResource('spaced', 'file:///a b', {}, () => ({ contents: [] }));
    };
    const report = validateMcpSchemas([echo], { server: { features: server } });
    expect(report.ok).toBe(false);
    expect(report.issues.map((i) => [i.side, i.tool, i.path, i.code])).toEqual([
      ['prompt', 'count', '/arguments/n', 'prompt-argument-not-string'],
      ['resource', 'bad', '', 'resource-uri-not-canonical'],
      ['resource', 'spaced', '', 'resource-uri-not-canonical'],
    ]);
    expect(() => createMcpFetchHandler([echo], { server: { features: server } })).toThrow(
      /prompt "count": argument "n" accepts no string/,
    );
    // Under 'warn' they are reported and the mount serves.
    const warn = vi.fn();
    createMcpFetchHandler([echo], {
      server: { features: server },
      schemaValidation: { policy: 'warn' },
      observe: { logger: { warn, error: vi.fn() } },
    });
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('resource-uri-not-canonical'));
  });
});
