import express from 'express';
import { mcp } from 'mcp-mount/express';
import { options, tools } from '../shared/tools.js';

/** The Express example app: the MCP endpoint at `/mcp`, next to the app's own routes. */
export function createApp() {
  const app = express();
  app.get('/', (_req, res) => {
    res.type('text/plain').send('mcp-mount Express example: MCP endpoint at /mcp');
  });
  app.use('/mcp', mcp(tools, options));
  return app;
}
