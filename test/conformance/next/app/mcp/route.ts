/** The conformance fixture on Next.js's Node.js runtime. */
import { mcp } from 'mcp-mount/next';
import { options, tools } from '../../../fixture';

export const { GET, POST, DELETE } = mcp(tools, options);
