/**
 * Requests the protocol says to refuse, refused on each per-request server with the code its revision names
 * where the SDK's own answer differs (the table, with the source of each rule: docs/design/protocol-edges.md):
 * - a list request with a `cursor`: no list here is paginated (the SDK's `McpServer` and the cached
 *   `tools/list` send every item at once), so every cursor is one the server never issued: `-32602` (MCP
 *   server/utilities/pagination, both revisions), where the SDK answered with the whole list.
 *
 * Leans on one SDK internal, the `Server`'s map of request handlers (`_requestHandlers`), each wrapped once
 * every handler is in place.
 */
import { type McpRequestContext, type McpServer, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { isPlainObject } from '../../json-schema/types.js';

type Era = McpRequestContext['era'];
type Handler = (request: { method: string; params?: unknown }, ctx: unknown) => unknown;

/** The lists a client pages through with `cursor`. */
const LISTS: ReadonlySet<string> = new Set([
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
]);

const CURSOR_REFUSED = 'Invalid cursor: this server sends every item in one page and never issues a cursor';

/**
 * Wraps every request handler `server` holds. Call once the server holds all its handlers (the hook has run,
 * the tools are registered).
 */
export function guardEdges(server: McpServer, _era: Era): void {
  const handlers = (server.server as unknown as { _requestHandlers?: unknown })._requestHandlers;
  if (handlers instanceof Map) {
    for (const [method, handler] of handlers as Map<string, Handler>) handlers.set(method, gated(method, handler));
  }
}

/** The handler, behind the refusals the SDK does not make (above). */
function gated(method: string, handler: Handler): Handler {
  const listing = LISTS.has(method);
  return async (request, ctx) => {
    if (listing && isPlainObject(request.params) && request.params.cursor !== undefined) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, CURSOR_REFUSED);
    }
    return handler(request, ctx);
  };
}
