/** The MCP endpoint at `/mcp` on the Node.js runtime: the shared tools as route handlers. */
import { createMcpHandler } from 'mcp-mount/next';
import { options, tools } from '../../../shared/tools';

export const { GET, POST, DELETE } = createMcpHandler(tools, options);
