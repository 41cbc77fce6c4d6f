/**
 * A `tools/call` costs one tool, whatever the tool count: on the direct path no server is built at all; on the
 * SDK's path the per-request server holds the called tool alone; `tools/list` registers none and still lists
 * them all, from the cache (tool-list.ts), and a message of another method (`ping`, `initialize`) none; an
 * unknown name still gets the SDK's own unknown-tool answer.
 */
import { McpServer } from '@modelcontextprotocol/server';
import { defineTool } from 'mcp-mount';
import { createMcpFetchHandler } from 'mcp-mount/adapter';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { forceSdkPath } from '../../../src/core/serve/handler.js';

const tools = Array.from({ length: 40 }, (_, i) =>
  defineTool({ name: `t${i}`, input: z.object({ n: z.number() }), handler: ({ input }) => input.n + i }),
);
const direct = createMcpFetchHandler(tools);
const handler = createMcpFetchHandler(tools);
forceSdkPath(handler);
const post = (message: unknown, through = handler) =>
  through.fetch(
    new Request('http://x/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(message),
    }),
  );

/** The JSON-RPC message of an answer: a JSON body, or the data of its one event. */
const messageOf = (text: string): unknown =>
  JSON.parse(text.startsWith('{') ? text : text.slice(text.indexOf('data: ') + 6));

describe('the per-request server', () => {
  afterEach(() => vi.restoreAllMocks());

  it('is not built for a plain tools/call on the direct path', async () => {
    const registered = vi.spyOn(McpServer.prototype, 'registerTool');
    const call = await post(
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 't7', arguments: { n: 1 } } },
      direct,
    );
    expect(await call.text()).toContain('"text":"8"');
    expect(registered).not.toHaveBeenCalled();
  });

  it('registers only the called tool for tools/call, and none for tools/list, which lists every tool', async () => {
    const registered = vi.spyOn(McpServer.prototype, 'registerTool');
    const call = await post({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 't7', arguments: { n: 1 } },
    });
    expect(await call.text()).toContain('"text":"8"');
    expect(registered.mock.calls.map((c) => c[0])).toEqual(['t7']);

    registered.mockClear();
    const list = await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    expect((await list.text()).match(/"name":"t\d+"/g)).toHaveLength(40);
    expect(registered).not.toHaveBeenCalled();
  });

  it('still costs one tool with scopes and visibleTools: one registration, one predicate question', async () => {
    let asked = 0;
    const scoped = tools.map((t, i) => (i % 2 ? { ...t, scopes: ['s'] } : t));
    const gated = createMcpFetchHandler(scoped, {
      access: {
        visibleTools: () => () => {
          asked++;
          return true;
        },
      },
    });
    forceSdkPath(gated);
    const registered = vi.spyOn(McpServer.prototype, 'registerTool');
    const authInfo = { token: 't', clientId: 'c', scopes: ['s'] };
    const call = await gated.fetch(
      new Request('http://x/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 't7', arguments: { n: 1 } },
        }),
      }),
      { authInfo },
    );
    expect(await call.text()).toContain('"text":"8"');
    expect(registered.mock.calls.map((c) => c[0])).toEqual(['t7']);
    expect(asked).toBe(1);
  });

  it('registers none for a message of another method, and still declares the tools capability', async () => {
    const registered = vi.spyOn(McpServer.prototype, 'registerTool');
    const ping = await post({ jsonrpc: '2.0', id: 4, method: 'ping' });
    expect(messageOf(await ping.text())).toMatchObject({ id: 4, result: {} });
    const init = await post({
      jsonrpc: '2.0',
      id: 5,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
    });
    const initialized = messageOf(await init.text()) as { result: { capabilities: { tools?: unknown } } };
    expect(initialized.result.capabilities.tools).toEqual({ listChanged: false });
    expect(registered).not.toHaveBeenCalled();

    // A batch still holds what its caller may see.
    const batch = await post([{ jsonrpc: '2.0', id: 6, method: 'ping' }]);
    await batch.text();
    expect(registered.mock.calls.length).toBeGreaterThan(0);
  });

  it('answers an unknown tool the way the SDK does', async () => {
    const response = await post({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'nope', arguments: {} },
    });
    expect(await response.text()).toMatch(/Tool nope not found/);
  });
});
