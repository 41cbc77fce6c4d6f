/** The conformance fixture on Next.js's Edge runtime. */
import { mcp } from 'mcp-mount/next';
import { options, tools } from '../../../../fixture';

export const runtime = 'edge';
export const { GET, POST, DELETE } = mcp(tools, options);
