/** The MCP endpoint at `/mcp` on the Node.js runtime: the shared tools as route handlers. */
import { mcp } from 'mcp-mount/next';
import { options, tools } from '../../../shared/tools';

export const { GET, POST, DELETE, OPTIONS } = mcp(tools, options);
