import type { McpMountOptions } from '../../core/mount/options.js';
import { type FetchExtras, type McpMountHandler, observeError } from '../../core/serve/handler.js';

/**
 * The core's `fetch`, made total: should it ever reject (a body stream that errors mid-read, a bug), the
 * client still gets a JSON-RPC error response (500, -32603) and `onError` sees the cause. Shared by the
 * fetch, Next.js and Express adapters so no runtime turns a rejection into its own HTML 500 or a hang.
 *
 * With `closeOnTooLarge` (fetch and Next.js), a 413 also says `Connection: close`, as the SDK's own Node
 * bridge does: the rest of the oversized body was never read, so the connection must not carry another
 * request (`next start` otherwise trips over the leftover bytes; runtimes that own the connection, like
 * workerd, drop the header). The Express bridge drains what is left instead, and keeps the connection.
 */
export function guarded(handler: McpMountHandler, options: McpMountOptions, { closeOnTooLarge = false } = {}) {
  return async (request: Request, extras?: FetchExtras): Promise<Response> => {
    try {
      const response = await handler.fetch(request, extras);
      if (!closeOnTooLarge || response.status !== 413) return response;
      const headers = new Headers(response.headers);
      headers.set('connection', 'close');
      return new Response(response.body, { status: 413, statusText: response.statusText, headers });
    } catch (error) {
      observeError(options, error);
      return Response.json(
        { jsonrpc: '2.0', id: null, error: { code: -32603, message: 'Internal server error' } },
        { status: 500 },
      );
    }
  };
}
