/** Tools for the adapters' edge cases: what reached the handler, a slow call, a throwing handler, a bad schema. */
import { type AnyTool, defineTool } from 'mcp-mount';
import { z } from 'zod';

/** Returns what the adapter handed the tool: the request URL, auth info, host extras. */
export const contextTool = defineTool({
  name: 'context',
  description: 'What reached the handler.',
  input: z.object({}),
  handler: (_args, ctx) => {
    const host = ctx.host as { req?: { originalUrl?: string }; env?: unknown; ctx?: { waitUntil?: unknown } };
    return {
      url: ctx.request?.url ?? null,
      authInfo: ctx.authInfo ?? null,
      hostKeys: Object.keys(host).sort(),
      originalUrl: host.req?.originalUrl ?? null,
      env: host.env ?? null,
      waitUntil: typeof host.ctx?.waitUntil === 'function',
    };
  },
}) as AnyTool;

export const boomTool = defineTool({
  name: 'boom',
  description: 'Always throws.',
  input: z.object({}),
  handler: () => {
    throw new Error('boom from the tool');
  },
}) as AnyTool;

/** An `access.auth.verify` for tests: every token is an API key of client `app`, whose subject is the token. */
export const subjectKeys = (token: string) => ({
  token,
  clientId: 'app',
  scopes: [],
  expiresAt: 'never' as const,
  extra: { sub: token },
});

/** `name` waits `ms` milliseconds (its argument), then answers `done`: a call that takes a while. */
export function sleepTool(name = 'slow') {
  return defineTool({
    name,
    input: z.object({ ms: z.number() }),
    handler: async ({ input }) => {
      await new Promise((resolve) => setTimeout(resolve, input.ms));
      return 'done';
    },
  });
}

/** Tells `onStart` it runs, waits until the call is aborted (or 20 s) and tells `onAbort`. */
export function slowTool(onAbort: (reason: unknown) => void, onStart: () => void = () => {}): AnyTool {
  return defineTool({
    name: 'slow',
    description: 'Waits for the client to go away.',
    input: z.object({}),
    handler: async (_args, ctx) => {
      onStart();
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 20_000);
        ctx.signal.addEventListener(
          'abort',
          () => {
            clearTimeout(timer);
            onAbort(ctx.signal.reason);
            resolve();
          },
          { once: true },
        );
      });
      return 'done';
    },
  }) as AnyTool;
}

/** A tool whose input no JSON Schema can describe (`z.date()`): an error-level probe issue. */
export const datedTool = defineTool({
  name: 'dated',
  input: z.object({ when: z.date() }),
  handler: () => 'never served',
}) as AnyTool;

/** Headers of a 2025-era JSON-RPC POST. */
export const jsonRpcHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** A raw JSON-RPC request body. */
export function rpc(method: string, params?: unknown, id = 1): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
}

/**
 * A streamed body (no Content-Length) of exactly `limit + 1` bytes in 64 KiB chunks: over the limit only
 * at its last byte, so the server has read all of it when it answers 413, and nothing is left on the
 * connection to race the answer (a server closing on unread bytes resets the connection).
 */
export function overLimitStream(limit: number): ReadableStream<Uint8Array> {
  const chunk = new Uint8Array(64 * 1024).fill(0x78);
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent > limit) return controller.close();
      const next = sent + chunk.byteLength <= limit ? chunk : chunk.subarray(0, limit + 1 - sent);
      controller.enqueue(next);
      sent += next.byteLength;
    },
  });
}
