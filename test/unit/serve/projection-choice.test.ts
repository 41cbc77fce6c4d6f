/**
 * The projection is chosen per `tools/list` from the request (ADR 0014): a 2025-era JSON-RPC batch holding a
 * `tools/list` is chosen for like a single one, and the choice runs only once the SDK has accepted the
 * request, so a malformed one gets the SDK's 400 whatever the projection function would say.
 */
import { defineTool } from 'mcp-mount';
import { createMcpFetchHandler } from 'mcp-mount/adapter';
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

/** The inputSchema of the only tool in a `tools/list` answer (JSON or one SSE event). */
async function listedSchema(response: Response): Promise<unknown> {
  const text = await response.text();
  const json = text.startsWith('event:') ? text.slice(text.indexOf('data: ') + 6).trim() : text;
  const parsed = JSON.parse(json);
  const message = Array.isArray(parsed) ? parsed[0] : parsed;
  return message.result.tools[0].inputSchema;
}

describe('choosing the projection per request', () => {
  it("a 2025-era batch's tools/list from a Cursor User-Agent is listed the cursor projection", async () => {
    const handler = createMcpFetchHandler([tool], { projection: 'auto', observe: { logger: SILENT } });
    // 2025-03-26, the last revision with batches (a 2025-06-18 batch is refused).
    const headers = { 'user-agent': 'Cursor/1.0', 'mcp-protocol-version': '2025-03-26' };
    const list = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
    const single = await listedSchema(await handler.fetch(post(list, headers)));
    const batched = await handler.fetch(post([list], headers));
    expect(batched.status).toBe(200);
    expect(await listedSchema(batched)).toEqual(single);
    expect(single).toEqual(handler.report.projections.cursor!.tools[0]!.inputSchema);
  });

  it('a request the SDK refuses is refused (400), not turned into a 500 by the projection function', async () => {
    const errors: unknown[] = [];
    const handler = createMcpFetchHandler([tool], {
      observe: { logger: SILENT, onError: (error) => errors.push(error) },
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
