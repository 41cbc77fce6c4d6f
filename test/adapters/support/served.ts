/**
 * Tools served by each adapter that runs in this Node process, the way a team mounts it: Hono's route,
 * Express's router, and the fetch adapter's handler on a Node server. For tests that send the same requests
 * through all three.
 */
import express from 'express';
import { Hono } from 'hono';
import type { AnyTool, McpMountOptions } from 'mcp-mount';
import { mcp as expressMcp } from 'mcp-mount/express';
import { mcp as fetchMcp } from 'mcp-mount/fetch';
import { mcp as honoMcp } from 'mcp-mount/hono';
import { listen } from '../../support/server.js';
import { listenApp } from './listen.js';

export type ServeOn = (
  tools: readonly AnyTool[],
  options?: McpMountOptions,
) => Promise<{ url: string; close(): Promise<void> }>;

export const nodeAdapters: Readonly<Record<'hono' | 'express' | 'fetch', ServeOn>> = {
  hono: async (tools, options) => {
    const app = new Hono();
    app.all('/mcp', honoMcp(tools, options));
    return listen(app.fetch);
  },
  express: async (tools, options) => {
    const app = express();
    app.use('/mcp', expressMcp(tools, options));
    return listenApp(app);
  },
  fetch: async (tools, options) => listen(fetchMcp(tools, options).fetch),
};
