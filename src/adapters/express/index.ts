/**
 * @module
 * Express (4 and 5) middleware for mcp-mount, through @hono/node-server's Node bridge (an optional peer to
 * install beside this entry). `req`/`res` reach tools as `ctx.host`, `req.auth` as `ctx.authInfo`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import type { AuthInfo } from '@modelcontextprotocol/server';
// Types only: nothing of `express` is loaded at run time, so it stays an optional peer.
import type { Request as ExpressRequestType, Response as ExpressResponseType } from 'express';
import type { z } from 'zod';
import { connectionAddress, createMcpFetchHandler, type McpFetchHandler } from '../../adapter.js';
import type { AnyZodObject, McpMountOptions, MountableTool, MountExtend } from '../../index.js';

/** The parts of an Express (4 or 5) request the middleware reads; typed structurally so `express` stays optional. */
type ExpressRequest = IncomingMessage & {
  originalUrl?: string;
  path?: string;
  route?: unknown;
  body?: unknown;
  /** Validated auth info set by upstream middleware (the SDK's `requireBearerAuth` convention). */
  auth?: AuthInfo;
};
type Next = (error?: unknown) => void;

const INTERNAL_ERROR = JSON.stringify({
  jsonrpc: '2.0',
  id: null,
  error: { code: -32603, message: 'Internal server error' },
});

/**
 * What a tool sees as `ctx.host` under Express: the request and response, with Express's own types. A
 * tool opts in with `defineTool.for<{ host: ExpressHost }>()`.
 */
export interface ExpressHost {
  req: ExpressRequestType;
  res: ExpressResponseType;
}

/**
 * Express middleware serving `tools` as an MCP endpoint: `app.use('/mcp', mcp(tools, options))`.
 * Preparation and the startup probe run here, once. Each request goes through @hono/node-server's Node
 * bridge (web `Request` in, with the body streamed and the signal aborted when the client goes away;
 * `Response` written back with backpressure) to the core, which reads the body under
 * `limits.maxRequestBodyBytes`, counting the bytes it reads. The `Request` keeps the full URL (`req.originalUrl`,
 * mount path included). A body that `express.json()` (or `raw`/`text`) already read is handed on as its
 * bytes and counted the same way. `req.auth` reaches tools as `ctx.authInfo`; `req` and `res` as
 * `ctx.host.req` and `ctx.host.res`. The socket's address is the audit events' `client.remoteAddress`. Under `app.use`, paths below the mount (`/mcp/other`) go to `next()`.
 *
 * @throws McpMountSchemaError at construction, as `createMcpFetchHandler` does.
 *
 * @example
 * ```ts
 * import express from 'express';
 * import { mcp } from 'mcp-mount/express';
 *
 * const app = express();
 * app.use('/mcp', mcp([searchNotes], { name: 'notes' }));
 * app.listen(3000);
 * ```
 */
export function mcp<S extends AnyZodObject = never, R = z.output<S>>(
  tools: readonly MountableTool<ExpressHost, NoInfer<MountExtend<S, R>>>[],
  options: McpMountOptions<S, R> = {},
): ((req: IncomingMessage, res: ServerResponse, next: Next) => void) & { handler: McpFetchHandler<ExpressHost> } {
  const handler = createMcpFetchHandler(tools, options);
  const listener = getRequestListener(
    (request, { incoming, outgoing }) => {
      const req = incoming as ExpressRequest;
      // Under Express these are its own request and response objects (the middleware runs inside the app).
      const host = { req, res: outgoing } as unknown as ExpressHost;
      const remoteAddress = connectionAddress(incoming);
      return handler.fetch(fullRequest(request, req), { authInfo: req.auth, host, remoteAddress });
    },
    // The core never rejects, so this sees only the bridge's own failures around it (e.g. a URL a middleware
    // rewrote into one that cannot be parsed): a JSON-RPC answer, and `onError` is told.
    { overrideGlobalObjects: false, errorHandler: (error) => internalError(options, error) },
  );

  const middleware = (incoming: IncomingMessage, res: ServerResponse, next: Next) => {
    const req = incoming as ExpressRequest;
    // `app.use('/mcp', …)` strips the mount: serve the mount itself, hand deeper paths on.
    if (!req.route && req.path !== undefined && req.path !== '/' && req.path !== '') return next();
    // The core never rejects; this only catches the bridge itself failing (e.g. a body stream it cannot
    // build), which still gets a JSON-RPC answer rather than Express's HTML error page.
    listener(incoming, res).catch((error) => {
      report(options, error);
      if (res.headersSent) return void res.destroy();
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(INTERNAL_ERROR);
    });
  };
  return Object.assign(middleware, { handler });
}

/**
 * A failure outside the core, logged as the core logs its own (`mcp-mount: request error (error id …)`) and
 * told to `onError`; a throwing hook is logged, never passed on.
 */
function report(options: McpMountOptions<any, any>, error: unknown): void {
  const logger = options.observe?.logger ?? console;
  const errorId = crypto.randomUUID();
  logger.error(`mcp-mount: request error (error id ${errorId}, in the Express bridge)`, error);
  try {
    options.observe?.onError?.(error, { phase: 'request', errorId });
  } catch (hookError) {
    logger.error('mcp-mount: onError threw', hookError);
  }
}

function internalError(options: McpMountOptions<any, any>, error: unknown): Response {
  report(options, error);
  return new Response(INTERNAL_ERROR, { status: 500, headers: { 'content-type': 'application/json' } });
}

/** The bridge's `Request` with the URL as the client sent it, and the body a parser may already have read. */
function fullRequest(request: Request, req: ExpressRequest): Request {
  const url = new URL(req.originalUrl ?? req.url ?? '/', request.url).href;
  const consumed = request.method !== 'GET' && request.method !== 'HEAD' && bodyConsumed(req);
  if (url === request.url && !consumed) return request;
  const headers = new Headers(request.headers);
  if (consumed) for (const name of ['content-length', 'content-encoding', 'transfer-encoding']) headers.delete(name);
  const body = consumed ? bodyBytes(req.body) : request.body;
  return new Request(url, {
    method: request.method,
    headers,
    body,
    signal: request.signal,
    duplex: 'half',
  } as RequestInit);
}

/** True when something (a body parser) already drained the request stream. */
function bodyConsumed(req: ExpressRequest): boolean {
  return req.readableEnded || (req.complete && !req.readable);
}

/** The bytes of a body a parser already read: JSON for parsed values, as they are for `raw`/`text`. */
function bodyBytes(body: unknown): Uint8Array<ArrayBuffer> {
  if (body instanceof Uint8Array) return new Uint8Array(body);
  return new TextEncoder().encode(typeof body === 'string' ? body : (JSON.stringify(body) ?? ''));
}

export type { McpMountOptions } from '../../index.js';
