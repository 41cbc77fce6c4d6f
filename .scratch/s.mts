import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod';
const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 's', version: '1' } };
function post(era, method, params = {}, headers = {}) {
  const h = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(era === 'modern' ? { 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...(params.name ? { 'mcp-name': params.name } : {}) } : {}), ...headers };
  return new Request('http://localhost/mcp', { method: 'POST', headers: h, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: era === 'modern' ? { ...params, _meta: META } : params }) });
}
for (const era of ['modern', 'legacy']) {
  let seen;
  const sdk = createMcpHandler((rc) => { seen = rc.requestInfo; const s = new McpServer({ name: 's', version: '1' }); return s; });
  const req = post(era, 'tools/list');
  const body = JSON.parse(await req.clone().text());
  await (await sdk.fetch(req, { parsedBody: body })).text();
  console.log(era, 'same request with parsedBody:', seen === req);
  const r2 = await sdk.fetch(post(era, 'tools/call', { name: 'x', arguments: {} }));
  console.log(era, 'toolless call:', r2.status, await r2.text());
}
const reported = [];
const sdk = createMcpHandler(() => new McpServer({ name: 's', version: '1' }), { onerror: (e) => reported.push(e.message) });
for (const r of [
  post('legacy', 'tools/list', {}, { accept: 'application/json' }),
  new Request('http://localhost/mcp', { method: 'POST', headers: { 'content-type': 'text/plain', accept: 'application/json, text/event-stream' }, body: '{}' }),
  new Request('http://localhost/mcp', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{not json' }),
  new Request('http://localhost/mcp', { method: 'GET', headers: { accept: 'text/event-stream' } }),
  new Request('http://localhost/mcp', { method: 'DELETE' }),
]) { const res = await sdk.fetch(r); console.log(r.method, res.status, (await res.text()).slice(0, 120)); }
console.log(reported);
