import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 's', version: '1' } };
const reported = [];
const mk = () => { const s = new McpServer({ name: 's', version: '1' }, { capabilities: { tools: { listChanged: false } } }); return s; };
const sdk = createMcpHandler(mk, { onerror: (e) => reported.push(e.message) });
async function send(label, headers, body, parsed = true) {
  const req = new Request('http://localhost/mcp', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(body) });
  const before = reported.length;
  const res = await sdk.fetch(req, parsed ? { parsedBody: body } : {});
  console.log(label, res.status, (await res.text()).replace(/\n/g, ' ').slice(0, 110), '=>', reported.slice(before));
}
await send('modern wrong mcp-method', { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call' }, { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: META } });
await send('modern missing header', {}, { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: META } });
await send('legacy accept json only', { accept: 'application/json' }, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
await send('legacy accept sse only', { accept: 'text/event-stream' }, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
await send('legacy batch 1000', {}, Array.from({ length: 1000 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'ping' })));
await send('legacy invalid request', {}, { jsonrpc: '2.0', id: 1 });
await send('legacy not jsonrpc', {}, { hello: 1 });
await send('legacy initialize twice batch', {}, [{ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }, { jsonrpc: '2.0', id: 2, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }]);
await send('modern toolless call', { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'x' }, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x', arguments: {}, _meta: META } });
await send('legacy toolless call', {}, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x', arguments: {} } });
await send('legacy toolless list', {}, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
