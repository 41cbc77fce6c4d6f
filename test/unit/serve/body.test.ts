/** The core's own body handling, before the SDK: byte limit, broken streams, content type. */
import { createMcpFetchHandler } from 'mcp-mount/adapter';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { echoTool } from '../../support/echo.js';

const handler = createMcpFetchHandler([echoTool('t', z.object({ a: z.string() }))], {
  limits: { maxRequestBodyBytes: 64 },
});
const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

function streamed(chunks: Array<Uint8Array | Error>, extra: Record<string, string> = {}): Request {
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = chunks.shift();
      if (next === undefined) controller.close();
      else if (next instanceof Error) controller.error(next);
      else controller.enqueue(next);
    },
  });
  return new Request('http://x/mcp', {
    method: 'POST',
    headers: { ...headers, ...extra },
    body,
    duplex: 'half',
  } as RequestInit);
}

describe('request bodies', () => {
  it('answers 413 by bytes read, whatever Content-Length says', async () => {
    const bytes = new TextEncoder().encode(
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', pad: 'x'.repeat(80) }),
    );
    const response = await handler.fetch(streamed([bytes.slice(0, 40), bytes.slice(40)], { 'content-length': '10' }));
    expect(response.status).toBe(413);
    expect((await response.json()).error.code).toBe(-32000);
  });

  it('answers 400, not a throw, when the body stream fails mid-read', async () => {
    const response = await handler.fetch(streamed([new TextEncoder().encode('{"jsonrpc":'), new Error('reset')]));
    expect(response.status).toBe(400);
    expect((await response.json()).error.code).toBe(-32700);
  });

  it('leaves a non-JSON content type to the SDK, which answers 415 without reading the body', async () => {
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new TextEncoder().encode('x'.repeat(1000)));
      },
    });
    const request = new Request('http://x/mcp', {
      method: 'POST',
      headers: { ...headers, 'content-type': 'text/plain' },
      body,
      duplex: 'half',
    } as RequestInit);
    const response = await handler.fetch(request);
    expect(response.status).toBe(415);
    expect(pulled).toBeLessThanOrEqual(1);
  });

  it('holds a parsedBody to the byte limit and the JSON content type, as a body it reads itself', async () => {
    const request = (type: string) =>
      new Request('http://x/mcp', { method: 'POST', headers: { ...headers, 'content-type': type } });
    const small = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    const large = { ...small, pad: 'x'.repeat(80) };
    expect((await handler.fetch(request('application/json'), { parsedBody: small })).status).toBe(200);
    const tooLarge = await handler.fetch(request('application/json'), { parsedBody: large });
    expect(tooLarge.status).toBe(413);
    expect((await tooLarge.json()).error.code).toBe(-32000);
    expect((await handler.fetch(request('text/plain'), { parsedBody: small })).status).toBe(415);
  });
});
