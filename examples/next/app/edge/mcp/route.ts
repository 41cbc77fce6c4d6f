/** The same endpoint at `/edge/mcp` on the Edge runtime: the same tools, the same mount line. */
import { mcp } from 'mcp-mount/next';
import { options, tools } from '../../../../shared/tools';

export const runtime = 'edge';

export const { GET, POST, DELETE, OPTIONS } = mcp(tools, options);
