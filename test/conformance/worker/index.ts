/** The conformance fixture through the fetch adapter, as a Cloudflare Worker, at `/mcp`. */
import { mcp } from 'mcp-mount/fetch';
import { options, tools } from '../fixture.js';

export default mcp(tools, { ...options, path: '/mcp' });
