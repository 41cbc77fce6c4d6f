/**
 * The Cloudflare Workers example: the shared tools as the Worker's default export.
 * `mcp()` runs at module scope, so preparation and the startup probe happen once per isolate.
 * Every path serves MCP (pass `path: '/mcp'` to serve one). Start it with `npm run example:worker`
 * (wrangler dev: workerd on http://127.0.0.1:8787/mcp).
 */
import { mcp } from 'mcp-mount/fetch';
import { options, tools } from '../../shared/tools.js';

export default mcp(tools, options);
