import { Hono } from 'hono';
import { mcp } from 'mcp-mount/hono';
import { options, tools } from '../shared/tools.js';

/** The Hono example app: the MCP endpoint at `/mcp`, next to the app's own routes. */
export function createApp() {
  const app = new Hono();
  app.get('/', (c) => c.text('mcp-mount Hono example: MCP endpoint at /mcp'));
  app.all('/mcp', mcp(tools, options));
  return app;
}
