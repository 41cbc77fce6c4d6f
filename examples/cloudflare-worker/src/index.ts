/**
 * The Cloudflare Workers example: the shared tools as the Worker's default export, served from build-time
 * documents. The build (wrangler.jsonc's `build.command`, `mcp-mount check --emit`) converts, projects and
 * probes them, and fails on a schema error; at startup the Worker only stamps each tool's top-level keys and
 * compares them with the documents (docs/guide/cloudflare-workers.md). Every path serves MCP (pass
 * `path: '/mcp'` to serve one). Start it with `npm run example:worker` (wrangler dev: workerd on
 * http://127.0.0.1:8787/mcp).
 */
import { mcp } from 'mcp-mount/fetch/prebuilt';
import { options, tools } from '../../shared/tools.js';
import documents from './mcp-documents.js';

export default mcp(tools, { ...options, documents });
