/**
 * The projection is chosen per `tools/list` from the request (ADR 0014). A 2025-era JSON-RPC batch holding a
 * `tools/list` (the SDK serves it, 200) is served the default projection whatever the client: `methodOf`
 * reads single messages only, so a Cursor-identified client is listed `flat`'s type lists, which Cursor refuses.
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
    const handler = createMcpFetchHandler([tool], { projection: 'auto', logger: SILENT });
    const headers = { 'user-agent': 'Cursor/1.0', 'mcp-protocol-version': '2025-06-18' };
    const list = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
    const single = await listedSchema(await handler.fetch(post(list, headers)));
    const batched = await handler.fetch(post([list], headers));
    expect(batched.status).toBe(200);
    expect(await listedSchema(batched)).toEqual(single);
    expect(single).toEqual(handler.report.projections.cursor!.tools[0]!.inputSchema);
  });
});
