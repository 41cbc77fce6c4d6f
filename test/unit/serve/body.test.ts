/** The core's own body handling, before the SDK: byte limit, broken streams, content type. */
import { runInNewContext } from 'node:vm';
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

  it('reads a body whose promise is of another realm, as the Edge runtime hands out its host’s', async () => {
    // Within this handler's 64-byte limit.
    const message = { jsonrpc: '2.0', id: 7, method: 'tools/list' };
    const body = JSON.stringify(message);
    // A declared length within the limit: the body is read in one step (`arrayBuffer`), as over HTTP.
    const request = new Request('http://x/mcp', {
      method: 'POST',
      headers: { ...headers, 'content-length': String(body.length) },
      body,
    });
    // The body is read (and used up) as the runtime reads it; the promise handed back is of another realm,
    // no instance of this realm's Promise, as the Edge sandbox hands out its host's.
    const read = Request.prototype.arrayBuffer;
    let foreign: unknown;
    Object.defineProperty(request, 'arrayBuffer', {
      value: () => {
        foreign = runInNewContext('(async () => await read)()', { read: read.call(request) });
        return foreign;
      },
    });
    const response = await handler.fetch(request);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('"id":7');
    expect(foreign instanceof Promise).toBe(false);
  });
});
