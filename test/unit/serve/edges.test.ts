/**
 * The refusals serve/sdk/edges.ts adds in front of the SDK's handlers, in process: the text of a -32602 for
 * params the spec refuses names the path, and stays short whatever keys the client chose; a failure of the
 * server's own is still -32603. And the one place an error code differs between the eras.
 */
import { ResourceTemplate } from '@modelcontextprotocol/server';
import { defineTool, type ServerHook } from 'mcp-mount';
import { createMcpFetchHandler } from 'mcp-mount/adapter';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { eraErrorCode } from '../../../src/core/serve/sdk/edges.js';

const echo = defineTool({ name: 'echo', input: z.object({ text: z.string() }), handler: ({ input }) => input.text });
const features: ServerHook = (server) => {
  server.registerPrompt('summarize', { argsSchema: z.object({ topic: z.string() }) }, ({ topic }) => ({
    messages: [{ role: 'user', content: { type: 'text', text: topic } }],
  }));
  server.registerResource('broken', new ResourceTemplate('broken://{id}', { list: undefined }), {}, () => {
    throw new Error('the database is down');
  });
};
const mount = createMcpFetchHandler([echo], {
  server: { features },
  observe: { logger: { warn() {}, error() {} } },
});

async function errorOf(method: string, params: Record<string, unknown>): Promise<{ code: number; message: string }> {
  const response = await mount.fetch(
    new Request('http://localhost/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    }),
  );
  return JSON.parse(await response.text()).error;
}

describe('params the spec refuses', () => {
  it('are -32602 naming the path and what was wrong, not -32603 with the schema issues', async () => {
    const error = await errorOf('prompts/get', { name: 'summarize', arguments: { topic: 5 } });
    expect(error).toEqual({
      code: -32602,
      message:
        'Invalid params for prompts/get: params.arguments.topic: Invalid input: expected string, received number',
    });
  });

  it('keep the text short whatever keys the client chose', async () => {
    const key = 'k'.repeat(10_000);
    const error = await errorOf('prompts/get', {
      name: 'summarize',
      arguments: { [key]: 1, other: 2, third: 3, x: 4 },
    });
    expect(error.code).toBe(-32602);
    expect(error.message.length).toBeLessThan(700);
    expect(error.message).toMatch(/; and 1 more$/);
  });

  it('leave a failure of the server itself as it was (-32603, masked)', async () => {
    const error = await errorOf('resources/read', { uri: 'broken://1' });
    expect(error.code).toBe(-32603);
    expect(error.message).toMatch(/^Resource broken failed \(error id [0-9a-f-]+\)$/);
  });
});

describe('eraErrorCode', () => {
  const notFound = { code: -32602, data: { uri: 'docs://nothing' } };

  it('gives a 2025-era resource not found -32002, and a 2026-07-28 one the SDK code, -32602', () => {
    expect(eraErrorCode('legacy', notFound)).toBe(-32002);
    expect(eraErrorCode('modern', notFound)).toBe(-32602);
  });

  it('leaves every other error as it is: data with more than the uri, no data, another code', () => {
    expect(eraErrorCode('legacy', { code: -32602, data: { uri: 'not a uri', reason: 'invalid_uri' } })).toBe(-32602);
    expect(eraErrorCode('legacy', { code: -32602 })).toBe(-32602);
    expect(eraErrorCode('legacy', { code: -32602, data: { uri: 5 } })).toBe(-32602);
    expect(eraErrorCode('legacy', { code: -32603, data: { uri: 'docs://nothing' } })).toBe(-32603);
  });
});
