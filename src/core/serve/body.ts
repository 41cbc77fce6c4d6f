/** Reading a request body under a byte limit that counts the bytes actually read. */
import type { MountConfig } from '../mount/config.js';
import { observeError } from './observe.js';

export type BodyRead =
  | { ok: true; text: string }
  | { ok: false; status: 413 }
  | { ok: false; status: 400; error: unknown };

/**
 * Reads `request`'s body as UTF-8 text, stopping as soon as more than `maxBytes` bytes arrive.
 * `Content-Length` is not trusted (a lying or absent header changes nothing); the stream is cancelled
 * at the limit so an oversized upload is not read to its end. A stream that fails mid-read (the client
 * went away, a broken chunked encoding) gives `status: 400`, never a throw.
 */
export async function readBodyLimited(request: Request, maxBytes: number): Promise<BodyRead> {
  if (!request.body) return { ok: true, text: '' };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch (error) {
      return { ok: false, status: 400, error };
    }
    const { done, value } = chunk;
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      // Not awaited: some runtimes' body streams never settle `cancel()` (Next.js's Edge sandbox), and
      // the 413 must not wait on it.
      reader.cancel().catch(() => undefined);
      return { ok: false, status: 413 };
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { ok: true, text: new TextDecoder().decode(bytes) };
}

/** A JSON-RPC error response for a request refused before it reached the MCP server. */
export function jsonRpcError(status: number, code: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } }), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

/**
 * The answer to a request whose body was read before it reached the core: a JSON-RPC 500 (-32603) saying
 * so. The fault is the app's, not the client's, so its owner is told how to fix it: `onError` when set,
 * else `logger.error` (a misconfiguration must not pass unseen).
 */
export function bodyAlreadyRead(config: MountConfig): Response {
  const error = new Error(
    'mcp-mount: the request body was already read before the MCP handler got the request; hand on an ' +
      'unread Request (read a `request.clone()` instead) or the parsed JSON as `extras.parsedBody`',
  );
  if (config.onError) observeError(config, error);
  else config.logger.error(error.message);
  return jsonRpcError(500, -32603, 'Internal server error: the request body was already read');
}
