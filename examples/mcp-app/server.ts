/**
 * `npx tsx examples/mcp-app/server.ts`: the order-status app on Hono at http://127.0.0.1:3030/mcp. Open it in
 * the MCP Inspector (`npx @modelcontextprotocol/inspector`, Streamable HTTP, that URL), call `order_status`,
 * and the Inspector renders the view with the result.
 */
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { mcp } from 'mcp-mount/hono';
import { options, tools } from './app.js';

const app = new Hono();
app.all('/mcp', mcp(tools, options));
serve({ fetch: app.fetch, port: 3030, hostname: '127.0.0.1' }, () =>
  console.log('order-status MCP App on http://127.0.0.1:3030/mcp'),
);
