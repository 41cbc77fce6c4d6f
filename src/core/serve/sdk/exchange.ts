/**
 * One exchange's hold on the incoming request, given up when the response ends.
 *
 * The SDK's stateless serving adds an `abort` listener to the request's signal and never removes it once
 * the exchange is over. Where that signal outlives the request (a runtime that hands out one signal per
 * keep-alive connection, or a caller that reuses one), every request leaves a listener, and with it the
 * whole per-request server, behind. So the SDK never sees the incoming signal: it gets a request of ours
 * whose signal follows the incoming one until the response has been sent, and is then cut loose.
 */

export interface Exchange {
  /** What the SDK is handed: the same method, URL and headers, our signal, and `body` when given. */
  request: Request;
  /** Cuts our signal loose from the incoming one; safe to call more than once. */
  release(): void;
}

/**
 * Opens an exchange for `incoming`. `body` is set only when the SDK must read the bytes itself; `headers`,
 * when the SDK must see others than the client sent (accept.ts); `cancelled`, a signal our signal follows too
 * (a call the client cancelled: in-flight.ts).
 */
export function openExchange(
  incoming: Request,
  body?: string,
  headers: Headers = incoming.headers,
  cancelled?: AbortSignal,
): Exchange {
  const controller = new AbortController();
  const fromIncoming = follow(controller, incoming.signal);
  const fromCancel = cancelled && follow(controller, cancelled);
  const release = fromCancel
    ? () => {
        fromIncoming();
        fromCancel();
      }
    : fromIncoming;
  const request = new Request(incoming.url, {
    method: incoming.method,
    headers,
    body,
    signal: controller.signal,
  });
  return { request, release };
}

/** Aborts `controller` when `source` aborts, until the returned function is called. */
function follow(controller: AbortController, source: AbortSignal | undefined): () => void {
  if (!source) return () => {};
  if (source.aborted) {
    controller.abort(source.reason);
    return () => {};
  }
  const abort = () => controller.abort(source.reason);
  source.addEventListener('abort', abort, { once: true });
  return () => source.removeEventListener('abort', abort);
}
