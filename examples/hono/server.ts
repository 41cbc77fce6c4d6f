/** Starts the Hono example: `npx tsx examples/hono/server.ts` (PORT defaults to 3000). */
import { serve } from '@hono/node-server';
import { createApp } from './app.js';

const port = Number(process.env.PORT ?? 3000);
serve({ fetch: createApp().fetch, port, hostname: '127.0.0.1' }, (info) => {
  console.log(`MCP endpoint: http://127.0.0.1:${info.port}/mcp`);
});
