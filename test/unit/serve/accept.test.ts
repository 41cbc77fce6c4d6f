/** `Accept` negotiation (accept.ts): which answer each `Accept` value gets, and the SDK's `Accept` beside it. */
import { describe, expect, it } from 'vitest';
import { acceptPlan, asAccepted } from '../../../src/core/serve/sdk/accept.js';

const BOTH = 'application/json, text/event-stream';

describe('acceptPlan', () => {
  it.each([
    [BOTH, undefined, false],
    ['text/event-stream, application/json', undefined, false],
    ['*/*', BOTH, true],
    ['application/json', BOTH, true],
    ['application/*', BOTH, true],
    [null, BOTH, true],
    ['', BOTH, true],
    ['application/json, text/*', BOTH, true],
    ['Application/JSON; charset=utf-8', BOTH, true],
    ['application/json, text/event-stream;q=0', BOTH, true],
    ['text/event-stream', BOTH, false],
    ['application/json;q=0, text/event-stream', BOTH, false],
    ['text/event-stream, */*', BOTH, false],
    ['text/html', undefined, false],
    ['application/json;q=0', undefined, false],
  ])('%s', (accept, sdkAccept, json) => {
    const plan = acceptPlan(accept);
    expect(plan.sdkAccept).toBe(sdkAccept);
    expect(plan.json).toBe(json);
  });
});

describe('asAccepted', () => {
  it('collapses an event stream into the JSON-RPC response it carried, dropping notifications', async () => {
    const stream = [
      'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}\n\n',
      'event: message\ndata: {"jsonrpc":"2.0","id":3,"result":{"ok":true}}\n\n',
    ].join('');
    const sse = new Response(stream, {
      status: 202,
      statusText: 'Accepted',
      headers: { 'content-type': 'text/event-stream' },
    });
    const answer = await asAccepted(sse, { json: true });
    expect([answer.status, answer.statusText]).toEqual([202, 'Accepted']);
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(await answer.json()).toEqual({ jsonrpc: '2.0', id: 3, result: { ok: true } });
  });

  it('leaves a JSON answer, and any answer to a client that takes SSE, as it is', async () => {
    const json = new Response('{}', { headers: { 'content-type': 'application/json' } });
    expect(await asAccepted(json, { json: true })).toBe(json);
    const sse = new Response('data: {}\n\n', { headers: { 'content-type': 'text/event-stream' } });
    expect(await asAccepted(sse, { json: false })).toBe(sse);
  });
});
