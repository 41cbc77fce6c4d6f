import { Hono } from 'hono';
import type { McpMountOptions } from 'mcp-mount';
import { mcp } from 'mcp-mount/hono';
import { options, tools } from '../shared/tools.js';

/** The Hono example app: the MCP endpoint at `/mcp` (mounted with `mountOptions`), next to the app's own routes. */
export function createApp(mountOptions: McpMountOptions = options) {
  const app = new Hono();
  app.get('/', (c) => c.text('mcp-mount Hono example: MCP endpoint at /mcp'));
  app.all('/mcp', mcp(tools, mountOptions));
  return app;
}
