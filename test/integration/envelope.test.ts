/**
 * tools/call envelopes the SDK's request schema would refuse before any tool sees them, sent raw over HTTP
 * (clients never send these; models behind proxies do): null, text and other non-object `arguments`.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { CallEvent } from '../../src/core/serve/options.js';
import { echoTool } from '../support/echo.js';
import { serveTools } from '../support/server.js';

async function call(url: string, args: unknown, withArgs = true) {
  const params: Record<string, unknown> = { name: 't' };
  if (withArgs) params.arguments = args;
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params }),
  });
  const text = await response.text();
  const data = text.startsWith('event:')
    ? text
        .split('\n')
        .find((l) => l.startsWith('data: '))!
        .slice(6)
    : text;
  return { status: response.status, body: JSON.parse(data) };
}

describe('tools/call envelope', () => {
  it('answers non-object arguments with isError naming the root, and keeps serving', async () => {
    const calls: CallEvent[] = [];
    const running = await serveTools([echoTool('t', z.object({ a: z.array(z.number()) }))], {
      observe: { onCall: (e) => calls.push(e) },
    });
    try {
      for (const bad of [[1, 2], 5, true, '[1]', 'not json']) {
        const { status, body } = await call(running.url, bad);
        expect(status).toBe(200);
        expect(body.result?.isError, JSON.stringify(body)).toBe(true);
        expect(body.result.content[0].text).toContain('(root): expected an object of arguments');
      }
      const repaired = await call(running.url, '{"a":"[1,2]"}');
      expect(repaired.body.result.isError ?? false).toBe(false);
      expect(JSON.parse(repaired.body.result.content[0].text).repairs).toEqual([
        { path: '', from: 'json-string' },
        { path: 'a', from: 'json-string' },
      ]);
      // A failing call still reports the envelope repair to operators.
      const failing = await call(running.url, '{"a":"[\\"x\\"]"}');
      expect(failing.body.result.isError).toBe(true);
      expect(calls.at(-1)).toMatchObject({
        ok: false,
        repairs: expect.arrayContaining([{ path: '', from: 'json-string' }]),
      });
      expect((await call(running.url, null)).body.result.content[0].text).toContain('a: required');
      expect((await call(running.url, undefined, false)).body.result.content[0].text).toContain('a: required');
    } finally {
      await running.close();
    }
  });
});
