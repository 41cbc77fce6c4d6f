/** Responses the mount writes itself, before or beside the SDK: the same shape on every concern's refusal. */

/**
 * A JSON-RPC error response for a request refused before it reached the MCP server: `id` is the request's,
 * where it was read and is one (a string or a number), else `null`.
 */
export function jsonRpcError(
  status: number,
  code: number,
  message: string,
  id: string | number | null = null,
): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } }), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

/**
 * The mark of a response whose body the mount wrote as one string (`wholeBody`): a property of its own, not
 * a `WeakSet` entry, which every answer would leave for the collector to weigh as an ephemeron.
 */
const WHOLE_BODY: unique symbol = Symbol('mcp-mount.wholeBody');

type Marked = Response & { [WHOLE_BODY]?: true };

/** Marks `response` as one whose body is a complete string, for `whenSent`; returns it. */
export function wholeBody(response: Response): Response {
  (response as Marked)[WHOLE_BODY] = true;
  return response;
}

/**
 * The response, with `done` called once it has been sent: at once for a complete (non-streaming) body, and
 * for an event stream when it ends, fails or is cancelled by the client.
 */
export function whenSent(response: Response, done: () => void): Response {
  // A body the mount wrote whole is sent at once; its `body` is not read (on the Node bridge that would make
  // the answer a stream, sent chunked).
  if ((response as Marked)[WHOLE_BODY] === true) {
    done();
    return response;
  }
  const stream = response.body;
  if (!stream || !isEventStream(response.headers.get('content-type'))) {
    done();
    return response;
  }
  const reader = stream.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done: ended, value } = await reader.read();
        if (ended) {
          done();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        done();
        controller.error(error);
      }
    },
    cancel(reason) {
      done();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

function isEventStream(contentType: string | null): boolean {
  return contentType?.split(';')[0]?.trim().toLowerCase() === 'text/event-stream';
}
