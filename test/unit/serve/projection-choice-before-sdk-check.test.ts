/**
 * The `projection` function runs before the SDK has checked the request: a request the SDK refuses with 400
 * (an invalid 2026-07-28 `_meta` envelope) becomes a 500 when the function throws for an unknown client, and
 * `onError` reports a server bug for a client's malformed request. The function must run only once the SDK
 * has accepted the request.
 */
import { createMcpFetchHandler, defineTool } from 'mcp-mount';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const tool = defineTool({
  name: 'note',
  input: z.object({ text: z.string().nullable().optional() }),
  handler: () => 'ok',
});
const SILENT = { warn: () => {}, error: () => {} };

function post(body: unknown, headers: Record<string, string>): Request {
  return new Request('http://localhost/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });
}

describe('choosing the projection per request', () => {
  it('a request the SDK refuses is refused (400), not turned into a 500 by the projection function', async () => {
    const errors: unknown[] = [];
    const handler = createMcpFetchHandler([tool], {
      logger: SILENT,
      onError: (error) => errors.push(error),
      projection: (client) => {
        if (client.name !== 'known-agent') throw new Error('unknown client');
        return 'flat';
      },
    });
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
      // `icons` must be an array: the SDK refuses this envelope.
      'io.modelcontextprotocol/clientInfo': { name: 'someone', version: '1', icons: 5 },
    };
    const response = await handler.fetch(
      post(
        { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta } },
        { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' },
      ),
    );
    expect(response.status).toBe(400);
    // The SDK reports the envelope it refused; the projection function was never asked.
    expect(errors.map(String).filter((e) => e.includes('unknown client'))).toEqual([]);
  });
});
