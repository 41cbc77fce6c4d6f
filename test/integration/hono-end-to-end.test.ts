/**
 * The Hono example end to end over real HTTP: mounted on @hono/node-server, driven by both
 * official MCP clients.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { validateMcpSchemas } from 'mcp-mount';
import { createMcpFetchHandler } from 'mcp-mount/adapter';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../examples/hono/app.js';
import { connectors, type McpClient } from '../../examples/shared/clients.js';
import { options, sendMessage, tools } from '../../examples/shared/tools.js';
import { listen, type Running, textOf } from '../support/server.js';

const ajv = new Ajv2020({ strict: false, validateFormats: false });
let running: Running;
beforeAll(async () => {
  running = await listen(createApp().fetch);
});
afterAll(() => running.close());

describe.each(connectors.map((c) => [c.name, c] as const))('Hono example via %s', (_label, connect) => {
  let client: McpClient;
  beforeAll(async () => {
    client = await connect(running.url);
  });
  afterAll(() => client.close());

  it('advertises send_message as one flat object whose media accepts an object and an array', async () => {
    const { tools: listed } = await client.listTools();
    const schema = listed.find((t) => t.name === 'send_message')!.inputSchema as any;
    expect(JSON.stringify(schema)).not.toMatch(/"(oneOf|anyOf|allOf)"/);
    expect(schema.type).toBe('object');
    expect(schema.properties.type).toMatchObject({ type: 'string', enum: ['message', 'mediaGroup'] });
    expect(new Set([schema.properties.media.type].flat())).toEqual(new Set(['object', 'array']));
    expect(schema.required).toEqual(expect.arrayContaining(['chatId', 'type']));
    const validate = ajv.compile(schema);
    const message = { chatId: 'c', type: 'message', text: 'hi', media: { url: 'https://e.x/a.png' } };
    const group = {
      chatId: 'c',
      type: 'mediaGroup',
      media: [{ url: 'https://e.x/1.png' }, { url: 'https://e.x/2.png' }],
    };
    for (const value of [message, group]) {
      expect(validate(value), JSON.stringify(validate.errors)).toBe(true);
      const result = await client.callTool('send_message', value);
      expect(result.isError ?? false, textOf(result)).toBe(false);
    }
  });

  it('repairs a double-serialised media array and passes the parsed value to the handler', async () => {
    const media = JSON.stringify([{ url: 'https://e.x/1.png' }, { url: 'https://e.x/2.png' }]);
    const result = await client.callTool('send_message', { chatId: 'c-9', type: 'mediaGroup', media });
    expect(result.isError ?? false, textOf(result)).toBe(false);
    expect(JSON.parse(textOf(result))).toEqual({ sent: true, chatId: 'c-9', type: 'mediaGroup', attachments: 2 });
  });

  it('refuses media text that is not JSON, naming the path', async () => {
    const result = await client.callTool('send_message', { chatId: 'c', type: 'mediaGroup', media: 'not json' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/\bmedia\b/);
  });

  it('keeps a real text string that happens to hold JSON as a string', async () => {
    const text = '{"looks":"like json"}';
    const result = await client.callTool('publish_post', {
      title: 'T',
      content: { blocks: [{ kind: 'paragraph', text }] },
    });
    expect(result.isError ?? false, textOf(result)).toBe(false);
    expect(JSON.parse(textOf(result)).blocks).toEqual(['paragraph']);
  });

  it('answers an invalid call with isError naming the path, then serves the next call normally', async () => {
    const bad = await client.callTool('send_message', {
      chatId: 'c',
      type: 'mediaGroup',
      media: [{ url: 42 }, { url: 'https://e.x/2.png' }],
    });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toContain('media[0].url');
    const good = await client.callTool('search_notes', { query: 'zod' });
    expect(good.isError ?? false).toBe(false);
    expect(good.structuredContent).toEqual({ query: 'zod', results: [{ id: 'n-1', title: 'First note about zod' }] });
  });

  it('serves exactly the documents validateMcpSchemas reports', async () => {
    const report = validateMcpSchemas(tools, options);
    expect(report.ok).toBe(true);
    const { tools: listed } = await client.listTools();
    expect(listed.map((t) => t.name)).toEqual(report.tools.map((t) => t.name));
    for (const tool of report.tools) {
      const served = listed.find((t) => t.name === tool.name)!;
      expect(served.inputSchema).toEqual(tool.inputSchema);
      if (tool.outputSchema) expect(served.outputSchema).toEqual(tool.outputSchema);
    }
  });
});

describe('startup probe at mount', () => {
  it('reports a union input without flattenUnionInput, a z.date() and a duplicate name, and refuses to mount', async () => {
    const { z } = await import('zod');
    const { defineTool } = await import('mcp-mount');
    const dated = defineTool({ name: 'dated', input: z.object({ when: z.date() }), handler: () => 'ok' });
    const dup = defineTool({ name: 'search_notes', input: z.object({ q: z.string() }), handler: () => 'ok' });
    const bad = [sendMessage, dated, ...tools.slice(1), dup];
    const report = validateMcpSchemas(bad, {});
    expect(report.ok).toBe(false);
    const codes = report.issues.filter((i) => i.severity === 'error').map((i) => `${i.tool}@${i.path}`);
    expect(codes).toEqual(expect.arrayContaining(['send_message@', 'dated@/properties/when']));
    expect(report.issues.some((i) => i.tool === 'search_notes' && i.side === 'name')).toBe(true);
    expect(() => createMcpFetchHandler(bad, {})).toThrow(/send_message[\s\S]*dated[\s\S]*search_notes|search_notes/);
    try {
      createMcpFetchHandler(bad, {});
    } catch (error) {
      const text = String(error);
      for (const name of ['send_message', 'dated', 'search_notes']) expect(text).toContain(name);
    }
  });
});
