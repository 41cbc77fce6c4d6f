/**
 * The core never leaves anything on a signal that outlives the request: the SDK sees a signal of ours,
 * which follows the incoming one only until the response has been sent.
 */
import { getEventListeners } from 'node:events';
import { defineTool } from 'mcp-mount';
import { createMcpFetchHandler } from 'mcp-mount/adapter';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const call = (name: string, args: unknown) =>
  JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } });

describe('the exchange and the incoming signal', () => {
  it('leaves no abort listener on a signal shared by many requests (keep-alive runtimes)', async () => {
    const add = defineTool({
      name: 'add',
      input: z.object({ a: z.number(), b: z.number() }),
      handler: ({ input }) => input.a + input.b,
    });
    const handler = createMcpFetchHandler([add]);
    const shared = new AbortController();
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      for (let i = 0; i < 300; i++) {
        const request = new Request('http://x/mcp', { method: 'POST', headers, body: call('add', { a: i, b: 1 }) });
        // A runtime that hands every request on a connection the same signal.
        Object.defineProperty(request, 'signal', { value: shared.signal });
        const response = await handler.fetch(request);
        expect(await response.text()).toContain(`"text":"${i + 1}"`);
      }
      for (const method of ['GET', 'DELETE']) {
        const request = new Request('http://x/mcp', { method, headers });
        Object.defineProperty(request, 'signal', { value: shared.signal });
        expect((await handler.fetch(request)).status).toBe(405);
      }
    } finally {
      process.off('warning', onWarning);
    }
    expect(getEventListeners(shared.signal, 'abort')).toHaveLength(0);
    expect(warnings).not.toContain('MaxListenersExceededWarning');
  });

  it('still aborts the tool when the client goes away mid-call, then lets go of the signal', async () => {
    let started!: () => void;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    let aborted!: () => void;
    const abortSeen = new Promise<void>((resolve) => {
      aborted = resolve;
    });
    const wait = defineTool({
      name: 'wait',
      input: z.object({}),
      handler: (_, ctx) =>
        new Promise((resolve) => {
          ctx.signal.addEventListener('abort', () => {
            aborted();
            resolve('stopped');
          });
          started();
        }),
    });
    const handler = createMcpFetchHandler([wait]);
    const client = new AbortController();
    const request = new Request('http://x/mcp', { method: 'POST', headers, body: call('wait', {}) });
    Object.defineProperty(request, 'signal', { value: client.signal });
    const pending = handler.fetch(request);
    await running;
    client.abort();
    const response = await pending;
    await response.text().catch(() => undefined);
    // Waited for, not polled for a second: a loaded machine may take longer, and never is the test's timeout.
    await abortSeen;
    expect(getEventListeners(client.signal, 'abort')).toHaveLength(0);
  });
});
