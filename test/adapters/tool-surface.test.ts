/**
 * Every field of the MCP Tool object a definition carries (`title`, `icons`, `annotations`, `_meta`,
 * `execution`, the output schema) is listed as given, byte-identical on every adapter in each era, over real
 * HTTP with both official clients; the same in every projection's report and in the lockfile.
 */
import express from 'express';
import { Hono } from 'hono';
import { type AnyTool, defineTool, validateMcpSchemas } from 'mcp-mount';
import { mcp as expressMcp } from 'mcp-mount/express';
import { mcp as fetchMcp } from 'mcp-mount/fetch';
import { mcp as honoMcp } from 'mcp-mount/hono';
import { writeSchemaLock } from 'mcp-mount/lockfile';
import { mcp as nextMcp } from 'mcp-mount/next';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { listen } from '../support/server.js';
import { connect, eras } from './support/clients.js';
import { listenApp } from './support/listen.js';

const FIELDS = {
  title: 'Show an order',
  icons: [{ src: 'https://example.com/order.png', mimeType: 'image/png', sizes: ['48x48'], theme: 'light' as const }],
  annotations: { readOnlyHint: true, openWorldHint: false },
  _meta: { 'com.example/team': 'orders', 'openai/widgetAccessible': true },
  execution: { taskSupport: 'forbidden' as const },
};
const showOrder = defineTool({
  name: 'show_order',
  ...FIELDS,
  input: z.discriminatedUnion('by', [
    z.object({ by: z.literal('id'), id: z.string() }),
    z.object({ by: z.literal('email'), email: z.string() }),
  ]),
  output: z.object({ total: z.number() }),
  handler: () => ({ total: 1 }),
});
const tools = [showOrder] as AnyTool[];
const options = { projection: 'flat' as const };

const adapters: Record<string, () => Promise<{ url: string; close(): Promise<void> }>> = {
  hono: () => {
    const app = new Hono();
    app.all('/mcp', honoMcp(tools, options));
    return listen(app.fetch);
  },
  express: () => {
    const app = express();
    app.use('/mcp', expressMcp(tools, options));
    return listenApp(app);
  },
  fetch: () => {
    const worker = fetchMcp(tools, options);
    return listen((r) => worker.fetch(r));
  },
  next: () => {
    const routes = nextMcp(tools, options);
    return listen((r) => routes.POST(r, { params: Promise.resolve({}) }));
  },
};

describe('the whole Tool object', () => {
  it.each(eras)('is listed as given, byte-identical on every adapter (client %s)', async (era) => {
    const bodies: Record<string, string> = {};
    for (const [name, start] of Object.entries(adapters)) {
      const server = await start();
      const client = await connect(era, server.url);
      try {
        // 2026-07-28 has no tasks in its Tool (the SDK leaves `execution` off that revision's wire).
        const expected = era === 'v2' ? without(FIELDS, 'execution') : FIELDS;
        const [listed] = (await client.listTools()).tools as any[];
        expect(listed).toMatchObject({ name: 'show_order', ...expected });
        expect(listed.outputSchema).toMatchObject({ type: 'object', properties: { total: { type: 'number' } } });
        bodies[name] = await client.lastBody('tools/list');
        // What the server sent, whatever the client keeps.
        const sent = JSON.parse(/^data: (.*)$/m.exec(bodies[name])?.[1] ?? bodies[name]).result.tools[0];
        expect(sent).toMatchObject(expected);
      } finally {
        await client.close();
        await server.close();
      }
    }
    // The same bytes from every adapter, up to the JSON-RPC id each client chose.
    expect(new Set(Object.values(bodies)).size, JSON.stringify(bodies)).toBe(1);
  });

  it('is the same in every projection the report lists, and recorded in the lockfile', () => {
    const report = validateMcpSchemas(tools, { projection: 'auto' });
    expect(report.ok).toBe(true);
    const projections = Object.values(report.projections);
    expect(projections.length).toBeGreaterThan(1);
    for (const p of projections) expect(p!.tools[0]).toMatchObject(FIELDS);
    const lock = JSON.parse(writeSchemaLock(report, { projection: 'auto' }));
    const locked = Object.values(lock.projections as Record<string, { tools: unknown[] }>).map((p) => p.tools[0]);
    for (const tool of locked) expect(tool).toMatchObject(FIELDS);
  });
});

function without<T extends object>(value: T, key: string): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([k]) => k !== key)) as Partial<T>;
}
