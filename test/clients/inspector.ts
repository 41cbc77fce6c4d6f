/**
 * The MCP Inspector's CLI (`@modelcontextprotocol/inspector --cli`, Node >= 22) against a real mount: the
 * MCP App example's `order_status` (its `ui://` view) beside a tool carrying every field of the MCP Tool
 * object. The Inspector must list both exactly as the mount serves them to a plain HTTP client, read the
 * view back with the MCP Apps MIME type, and call the tool to its structured result.
 */
import { execFile } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual, promisify } from 'node:util';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { defineTool } from 'mcp-mount';
import { mcp } from 'mcp-mount/hono';
import { z } from 'zod';
import { options, tools, VIEW_URI } from '../../examples/mcp-app/app.js';

const inspectorBin = join(dirname(fileURLToPath(import.meta.url)), 'node_modules/.bin/inspector');

const labelled = defineTool({
  name: 'label_order',
  title: 'Label an order',
  description: 'Prints a shipping label',
  icons: [{ src: 'https://example.com/label.png', mimeType: 'image/png', sizes: ['48x48'] }],
  annotations: { destructiveHint: false, idempotentHint: true },
  _meta: { 'example.com/team': 'shipping' },
  input: z.object({ orderId: z.string() }),
  handler: ({ input }) => `label for ${input.orderId}`,
});

/** The Inspector CLI's JSON answer to one method at `url`. */
async function inspect(url: string, ...args: string[]): Promise<Record<string, unknown>> {
  const { stdout } = await promisify(execFile)(inspectorBin, ['--cli', url, '--transport', 'http', ...args], {
    timeout: 60_000,
  });
  return JSON.parse(stdout) as Record<string, unknown>;
}

/** What a 2025-era stateless HTTP `tools/list` gets, by tool name: the reference the Inspector must match. */
async function listedOverHttp(url: string): Promise<Map<string, unknown>> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });
  const body = (await response.json()) as { result: { tools: Array<{ name: string }> } };
  return new Map(body.result.tools.map((t) => [t.name, t]));
}

/** The Inspector's checks, each a name and whether it held. */
export async function inspectorChecks(): Promise<Array<[string, boolean]>> {
  const app = new Hono();
  app.all('/mcp', mcp([...tools, labelled], options));
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  try {
    const reference = await listedOverHttp(url);
    const listed = (await inspect(url, '--method', 'tools/list')).tools as Array<{ name: string }>;
    const byName = new Map(listed.map((t) => [t.name, t]));
    const read = await inspect(url, '--method', 'resources/read', '--uri', VIEW_URI);
    const view = (read.contents as Array<{ mimeType?: string; text?: string }> | undefined)?.[0];
    const called = await inspect(
      url,
      '--method',
      'tools/call',
      '--tool-name',
      'order_status',
      '--tool-arg',
      'orderId=A-7',
    );
    return [
      [
        'inspector: lists label_order with title, icons, annotations and _meta as served',
        isDeepStrictEqual(byName.get('label_order'), reference.get('label_order')) &&
          reference.get('label_order') !== undefined,
      ],
      [
        'inspector: lists order_status with its ui view in _meta as served',
        isDeepStrictEqual(byName.get('order_status'), reference.get('order_status')) &&
          reference.get('order_status') !== undefined,
      ],
      [
        'inspector: reads the ui:// view as text/html;profile=mcp-app',
        view?.mimeType === 'text/html;profile=mcp-app' && /<html/i.test(view.text ?? ''),
      ],
      [
        'inspector: calls order_status to its structured result',
        isDeepStrictEqual(called.structuredContent, { orderId: 'A-7', status: 'shipped', eta: '2026-12-04' }),
      ],
    ];
  } catch (error) {
    return [[`inspector: runs (${(error as Error).message.split('\n')[0]})`, false]];
  } finally {
    server.close();
  }
}
