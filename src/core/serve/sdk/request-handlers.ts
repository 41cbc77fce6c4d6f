/**
 * The SDK `Server`'s request handlers by method (its private `_requestHandlers` map): the one internal the two
 * seams that wrap a handler lean on, the edge guard (edges.ts) and the task wrap of `tools/call`
 * (tools-call.ts); docs/design/sdk-seams.md, each pinned by its contract test.
 */
import type { McpServer } from '@modelcontextprotocol/server';

/** The map `server` answers requests from, or undefined where the SDK keeps none there (an SDK change). */
export function requestHandlers<Handler>(server: McpServer): Map<string, Handler> | undefined {
  const handlers = (server.server as unknown as { _requestHandlers?: unknown })._requestHandlers;
  return handlers instanceof Map ? (handlers as Map<string, Handler>) : undefined;
}
