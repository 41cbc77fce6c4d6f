/**
 * A call whose answer is still to come after one keep-alive interval is answered on an event stream from
 * then on (`protocol.keepAliveMs`; docs/decisions/0038-long-calls-without-tasks.md). A 2026-07-28 call under
 * `responseMode: 'auto'` is answered with one JSON body when its result is ready, and the client's connection
 * carries no byte until then: a proxy that cuts idle connections cuts a long call. The Streamable HTTP
 * transport lets a server answer any request with a stream instead, and a client must read either; so the
 * mount opens the stream itself, with the headers and `: keepalive` comments the SDK's streams carry, and
 * writes the answer as the stream's message frame when it comes, byte for byte what the SDK's own
 * `responseMode: 'sse'` would have sent. An answer that is already a stream (the SDK's, once a notification
 * opened one) is passed through after the comments sent so far.
 */
import { jsonRpcError } from '../http/responses.js';
import { observeError } from '../observe/observe.js';
import type { Observer } from '../observe/settle.js';

/**
 * The headers of the SDK's event streams (its per-request and legacy transports write the same four). Each
 * answer gets its own copy: @hono/node-server 1.x keeps a Response's init headers object and adds
 * `Content-Length` to it as it writes the answer.
 */
export const STREAM_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
});

/**
 * A 2025-era call's event stream that ends without a message, as the SDK's legacy serving answers a call whose
 * exchange was torn down before its result (a cancelled call on the direct path: direct/call.ts).
 */
export function unansweredStream(): Response {
  return new Response('', { status: 200, headers: { ...STREAM_HEADERS } });
}

/** The comment the SDK's streams send at each interval. */
const COMMENT = new TextEncoder().encode(': keepalive\n\n');

/**
 * `answer`, or, when it has not come within `intervalMs`, an event stream opened then: a comment at once and
 * at every interval after, then the answer's own frames. `intervalMs` > 0.
 */
export function streamedWhenLong(
  answer: Promise<Response>,
  intervalMs: number,
  observer: Observer,
): Promise<Response> {
  // One timer and one reaction on the answer: every call pays for this, and nearly every call beats the timer.
  return new Promise<Response>((resolve, reject) => {
    let late = false;
    const timer = setTimeout(() => {
      late = true;
      resolve(new Response(keptAlive(answer, intervalMs, observer), { status: 200, headers: { ...STREAM_HEADERS } }));
    }, intervalMs);
    (timer as { unref?: () => void }).unref?.();
    answer.then(
      (response) => {
        if (late) return;
        clearTimeout(timer);
        resolve(response);
      },
      // Once late, the stream reports a rejection itself (`answered`).
      (error: unknown) => {
        if (late) return;
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

function keptAlive(answer: Promise<Response>, intervalMs: number, observer: Observer): ReadableStream<Uint8Array> {
  let interval: ReturnType<typeof setInterval> | undefined;
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  let cancelled = false;
  const stop = () => clearInterval(interval);
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(COMMENT);
      interval = setInterval(() => {
        try {
          controller.enqueue(COMMENT);
        } catch {
          stop();
        }
      }, intervalMs);
      (interval as { unref?: () => void }).unref?.();
      void answered(answer, observer).then(async (response) => {
        stop();
        if (cancelled) return void (await response.body?.cancel().catch(() => {}));
        try {
          await forward(response, controller, (r) => {
            reader = r;
          });
          controller.close();
        } catch (error) {
          if (!cancelled) controller.error(error);
        }
      });
    },
    cancel(reason) {
      cancelled = true;
      stop();
      return reader?.cancel(reason);
    },
  });
}

/** The answer, or a JSON-RPC 500 naming an error id where the request path would have answered one. */
async function answered(answer: Promise<Response>, observer: Observer): Promise<Response> {
  try {
    return await answer;
  } catch (error) {
    const errorId = observeError(observer, error, { phase: 'request' });
    return jsonRpcError(500, -32603, `Internal server error (error id ${errorId})`);
  }
}

/**
 * Writes `response` into the open stream: an event stream's bytes as they come, a JSON body as one `message`
 * event (JSON text as the SDK and the direct path write it holds no line break), and nothing for an answer without a body (the exchange was
 * torn down: a cancelled call, a closed mount).
 */
async function forward(
  response: Response,
  controller: ReadableStreamDefaultController<Uint8Array>,
  reading: (reader: ReadableStreamDefaultReader<Uint8Array>) => void,
): Promise<void> {
  if (!response.body) return;
  const type = response.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
  if (type === 'text/event-stream') {
    const reader = response.body.getReader();
    reading(reader);
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      controller.enqueue(value);
    }
  }
  const text = await response.text();
  if (text) controller.enqueue(new TextEncoder().encode(`event: message\ndata: ${text}\n\n`));
}
