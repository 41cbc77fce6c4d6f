/**
 * Reading a request's JSON-RPC message before the SDK does: under a byte limit that counts the bytes actually
 * read, once, so that the envelope step can fix it before the SDK's request schema sees it.
 */
import { type AuthInfo, isJsonContentType } from '@modelcontextprotocol/server';
import { jsonRpcError } from '../http/responses.js';
import { observeError } from '../observe/observe.js';
import type { RequestClient } from '../observe/options.js';
import { refusedWith } from '../observe/refusal.js';
import type { Observer } from '../observe/settle.js';

/** What reading a request's message came to. */
export type MessageRead =
  /** The parsed message: the envelope step reads it, and the SDK gets it as `parsedBody`. */
  | { kind: 'message'; message: unknown }
  /** Nothing the core reads: the SDK answers the request from its own reading (`body`, when the bytes were read). */
  | { kind: 'sdk'; body?: string }
  /** Refused here, before the SDK. */
  | { kind: 'answered'; response: Response };

/**
 * The message of a POST: the one a framework already parsed (`parsedBody`, whose JSON text must fit
 * `maxRequestBodyBytes` too), else the body read under `maxRequestBodyBytes` and parsed as JSON. A request
 * that is no POST, not JSON (`parsedBody` or not), or not parseable is left to the SDK (405, 415, parse
 * error); a body already read, too large, or failing mid-read is answered here. Not `async`: a request the
 * SDK reads, or a parsed body, is answered at once; a body read in one step costs one reaction on the read,
 * not a chain of async functions.
 */
export function readMessage(
  request: Request,
  parsedBody: unknown,
  maxBytes: number,
  observer: Observer,
  authInfo?: AuthInfo,
  client?: RequestClient,
): MessageRead | Promise<MessageRead> {
  if (request.method !== 'POST') return SDK_READS;
  // Not JSON at all: the SDK answers 415 without anything being read, a body parsed elsewhere included.
  if (!isJsonContentType(request.headers.get('content-type'))) return SDK_READS;
  if (parsedBody !== undefined) {
    const parsed = parsedMessage(parsedBody, maxBytes, observer);
    return parsed === TOO_LARGE ? tooLargeAnswer(maxBytes, observer, authInfo, client) : parsed;
  }
  // Something before the core read it (a middleware's `await request.json()`): no bytes are left. `body` is
  // not touched here: on the Node bridge that alone builds a web stream over the socket (a locked but unread
  // body is told apart once a read fails, in readBody).
  if (request.bodyUsed) return { kind: 'answered', response: bodyAlreadyRead(observer) };
  return readBody(request, maxBytes).then((body) => {
    if (!body.ok && body.status === 409) return { kind: 'answered', response: bodyAlreadyRead(observer) };
    if (!body.ok && body.status === 413) return tooLargeAnswer(maxBytes, observer, authInfo, client);
    if (!body.ok) {
      observeError(observer, body.error, { phase: 'body' });
      return {
        kind: 'answered',
        response: jsonRpcError(400, -32700, 'Parse error: the request body could not be read'),
      };
    }
    try {
      return { kind: 'message', message: JSON.parse(body.text) };
    } catch {
      // Not JSON: the SDK answers it (parse error or 415) from a fresh copy of the bytes.
      return { kind: 'sdk', body: body.text };
    }
  });
}

/** A request whose body the core does not read: one answer for all of them. */
const SDK_READS: MessageRead = Object.freeze({ kind: 'sdk' });

/**
 * A message a framework parsed, held to `maxRequestBodyBytes` as if its bytes were read here: its JSON text
 * is measured (a parser with a higher limit, or none, must not let a larger message past the mount's).
 * `TOO_LARGE` when it does not fit: the caller answers the 413, as for a body read too large.
 */
function parsedMessage(parsedBody: unknown, maxBytes: number, observer: Observer): MessageRead | typeof TOO_LARGE {
  let text: string | undefined;
  try {
    text = JSON.stringify(parsedBody);
  } catch (error) {
    observeError(observer, error, { phase: 'body' });
  }
  if (text === undefined) {
    return { kind: 'answered', response: jsonRpcError(400, -32700, 'Parse error: the parsed body is not JSON') };
  }
  if (new TextEncoder().encode(text).byteLength > maxBytes) return TOO_LARGE;
  return { kind: 'message', message: parsedBody };
}

const TOO_LARGE = 'too-large';

/** The 413, reported to the audit trail. */
async function tooLargeAnswer(
  maxBytes: number,
  observer: Observer,
  authInfo: AuthInfo | undefined,
  client: RequestClient | undefined,
): Promise<MessageRead> {
  const refusal = { reason: 'too-large' as const, ...(authInfo && { authInfo }), ...(client && { client }) };
  return {
    kind: 'answered',
    response: await refusedWith(observer, tooLarge(maxBytes), refusal),
  };
}

type BodyRead =
  | { ok: true; text: string }
  | { ok: false; status: 413 }
  | { ok: false; status: 400; error: unknown }
  /** The body was locked by a reader before the core got the request. */
  | { ok: false; status: 409 };

/**
 * Reads `request`'s body as UTF-8 text under `maxBytes` (ADR 0039). A body that declares a length within the
 * limit (`Content-Length`, without `Transfer-Encoding`) is read in one step: the HTTP layer that framed it
 * delivers no more than that length, so memory stays bounded by the limit, and the bytes read are still
 * counted (a Request built in process with a header that understates its body is refused like any other). On
 * the Node bridge (@hono/node-server) the one-step read takes the bytes straight from the socket, where a
 * stream costs a web `ReadableStream` and a `Request` per call. Any other body is read as a stream, stopping
 * at the limit.
 */
function readBody(request: Request, maxBytes: number): Promise<BodyRead> {
  const declared = declaredLength(request.headers);
  if (declared === undefined || declared > maxBytes) return readBodyLimited(request, maxBytes);
  const failed = (error: unknown): BodyRead =>
    request.body?.locked && !request.bodyUsed ? { ok: false, status: 409 } : { ok: false, status: 400, error };
  let read: Promise<ArrayBuffer>;
  try {
    read = request.arrayBuffer();
  } catch (error) {
    return Promise.resolve(failed(error));
  }
  return read.then(
    (bytes): BodyRead =>
      bytes.byteLength > maxBytes ? { ok: false, status: 413 } : { ok: true, text: decoder.decode(bytes) },
    failed,
  );
}

const decoder = new TextDecoder();

/**
 * The body length a request declares, where the bytes that arrive are those the header counted: a
 * `Content-Length` of digits only, on a request without `Transfer-Encoding` or `Content-Encoding`. A body
 * decoded in front of the mount (a middleware that decompresses an upload into a new `Request`) keeps the
 * header of the bytes it was sent as, and is read as a stream under the limit.
 */
function declaredLength(headers: Headers): number | undefined {
  const length = headers.get('content-length');
  if (length === null || !DIGITS.test(length.trim())) return undefined;
  if (headers.has('transfer-encoding') || headers.has('content-encoding')) return undefined;
  return Number(length.trim());
}

const DIGITS = /^\d{1,15}$/;

/**
 * Reads `request`'s body stream as UTF-8 text, stopping as soon as more than `maxBytes` bytes arrive: a
 * body of no declared length, or one declaring more than the limit (a claim alone refuses nothing); the
 * stream is cancelled at the limit so an oversized upload is not read to its end. A stream that fails mid-read (the client
 * went away, a broken chunked encoding) gives `status: 400`, never a throw.
 */
async function readBodyLimited(request: Request, maxBytes: number): Promise<BodyRead> {
  if (!request.body) return { ok: true, text: '' };
  if (request.body.locked) return { ok: false, status: 409 };
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
  return { ok: true, text: decoder.decode(bytes) };
}

/**
 * The answer to a request whose body was read before it reached the core: a JSON-RPC 500 (-32603) saying
 * so. The fault is the app's, not the client's, so its owner is told how to fix it: through `logger.error`
 * and `onError`, like every unexpected error (a misconfiguration must not pass unseen).
 */
function bodyAlreadyRead(observer: Observer): Response {
  const error = new Error(
    'mcp-mount: the request body was already read before the MCP handler got the request; hand on an ' +
      'unread Request (read a `request.clone()` instead) or the parsed JSON as `extras.parsedBody`',
  );
  const errorId = observeError(observer, error, { phase: 'request' });
  return jsonRpcError(500, -32603, `Internal server error: the request body was already read (error id ${errorId})`);
}

/**
 * 413 with the SDK's own code and text, so clients see one answer whichever check fired. It says
 * `Connection: close`: the rest of the body was never read, so the connection cannot carry another
 * request (Node servers would otherwise read the leftover bytes as the next request, and the client's
 * next call on that socket fails). Runtimes that own the connection, like workerd, drop the header.
 */
function tooLarge(maxBytes: number): Response {
  const response = jsonRpcError(413, -32000, `Payload Too Large: Request body must not exceed ${maxBytes} bytes`);
  response.headers.set('connection', 'close');
  return response;
}
