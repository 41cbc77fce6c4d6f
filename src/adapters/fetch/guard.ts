import type { FetchExtras, McpMountHandler } from '../../core/handler.js';
import type { McpMountOptions } from '../../core/options.js';

/**
 * The core's `fetch`, made total: should it ever reject (a body stream that errors mid-read, a bug), the
 * client still gets a JSON-RPC error response (500, -32603) and `onError` sees the cause. Shared by the
 * fetch, Next.js and Express adapters so no runtime turns a rejection into its own HTML 500 or a hang.
 */
export function guarded(handler: McpMountHandler, options: McpMountOptions) {
  return async (request: Request, extras?: FetchExtras): Promise<Response> => {
    try {
      return await handler.fetch(request, extras);
    } catch (error) {
      observeError(options, error);
      return Response.json(
        { jsonrpc: '2.0', id: null, error: { code: -32603, message: 'Internal server error' } },
        { status: 500 },
      );
    }
  };
}

/** Calls `onError` (which observes and never changes a response); a throwing hook is logged. */
export function observeError(options: McpMountOptions, error: unknown) {
  try {
    options.onError?.(error, {});
  } catch (hookError) {
    (options.logger ?? console).error('mcp-mount: onError threw', hookError);
  }
}
