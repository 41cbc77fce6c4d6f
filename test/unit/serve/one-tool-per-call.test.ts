/**
 * A `tools/call` costs one tool, whatever the tool count: on the direct path no server is built at all; on the
 * SDK's path the per-request server holds the called tool alone; `tools/list` registers none and still lists
 * them all, from the cache (tool-list.ts); an unknown name still gets the SDK's own unknown-tool answer.
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
