import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { type NodeIncomingMessageLike, toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, type McpMountHandler } from '../../core/handler.js';
import type { McpMountOptions } from '../../core/options.js';
import type { AnyTool } from '../../core/tools.js';

/** The parts of an Express (4 or 5) request the middleware reads; typed structurally so `express` stays optional. */
type ExpressRequest = IncomingMessage & {
  originalUrl?: string;
  path?: string;
  route?: unknown;
  body?: unknown;
  /** Validated auth info set by upstream middleware (the SDK's `requireBearerAuth` convention). */
  auth?: unknown;
};
type Next = (error?: unknown) => void;

const DEFAULT_MAX_BODY = 4 * 1024 * 1024;

/**
 * Express middleware serving `tools` as an MCP endpoint: `app.use('/mcp', mcp(tools, options))`.
 * Preparation and the startup probe run here, once. Each request goes through the SDK's Node bridge
 * (`toNodeHandler` of `@modelcontextprotocol/node`: web `Request` in, `Response` streamed back with
 * backpressure, aborted when the client goes away) to the core. The `Request` keeps the full URL
 * (`req.originalUrl`, mount path included). A body that `express.json()` (or `raw`/`text`) already read
 * is re-sent to the core, which counts its bytes under `maxRequestBodyBytes` like any other.
 * `req.auth` reaches tools as `ctx.authInfo`; `req` and `res` as `ctx.host.req`, `ctx.host.res`.
 * Under `app.use`, paths below the mount (`/mcp/other`) go to `next()`.
 *
 * @throws McpMountSchemaError at construction, as `createMcpHandler` does.
 */
export function mcp(
  tools: readonly AnyTool[],
  options: McpMountOptions = {},
): ((req: IncomingMessage, res: ServerResponse, next: Next) => void) & { handler: McpMountHandler } {
  const handler = createMcpHandler(tools, options);
  const maxRequestBodySize = options.maxRequestBodyBytes ?? DEFAULT_MAX_BODY;
  const onerror = (error: Error) => observe(options, error);

  const middleware = (incoming: IncomingMessage, res: ServerResponse, next: Next) => {
    const req = incoming as ExpressRequest;
    // `app.use('/mcp', …)` strips the mount: serve the mount itself, hand deeper paths on.
    if (!req.route && req.path !== undefined && req.path !== '/' && req.path !== '') return next();
    const bridge = toNodeHandler(
      {
        fetch: (request, o) => handler.fetch(request, { authInfo: o?.authInfo, host: { req: incoming, res } }),
      },
      { maxRequestBodySize, onerror },
    );
    bridge(nodeRequest(req), res).catch((error: unknown) => {
      observe(options, error);
      if (!res.headersSent) next(error);
      else res.destroy();
    });
  };
  return Object.assign(middleware, { handler });
}

/** What the bridge reads: the full URL, and the body from the stream or from what a body parser left. */
function nodeRequest(req: ExpressRequest): NodeIncomingMessageLike {
  const url = req.originalUrl ?? req.url;
  const base = { method: req.method, url, auth: req.auth as never };
  if (!bodyConsumed(req)) {
    return { ...base, headers: req.headers, [Symbol.asyncIterator]: () => req[Symbol.asyncIterator]() };
  }
  const bytes = bodyBytes(req.body);
  const headers: IncomingHttpHeaders = { ...req.headers };
  delete headers['content-length'];
  delete headers['content-encoding'];
  delete headers['transfer-encoding'];
  return {
    ...base,
    headers,
    async *[Symbol.asyncIterator]() {
      if (bytes.byteLength > 0) yield bytes;
    },
  };
}

/** True when something (a body parser) already drained the request stream. */
function bodyConsumed(req: ExpressRequest): boolean {
  return req.readableEnded || (req.complete && !req.readable);
}

/** The bytes of a body a parser already read: JSON for parsed values, as-is for `raw`/`text`. */
function bodyBytes(body: unknown): Uint8Array {
  if (body === undefined) return new Uint8Array();
  if (body instanceof Uint8Array) return body;
  return new TextEncoder().encode(typeof body === 'string' ? body : JSON.stringify(body));
}

function observe(options: McpMountOptions, error: unknown) {
  try {
    options.onError?.(error, {});
  } catch (hookError) {
    (options.logger ?? console).error('mcp-mount: onError threw', hookError);
  }
}

export type { McpMountOptions } from '../../core/options.js';
