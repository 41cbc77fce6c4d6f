/**
 * The `server` identity as each era's client reads it: `name`, `version` and `title` in the `serverInfo` of
 * `initialize` (2025) and `server/discover` (2026-07-28), `instructions` beside them; a `title` never set is
 * never sent; a `title` that is not a string fails the mount.
 */
import { defineTool } from 'mcp-mount';
import { createMcpFetchHandler } from 'mcp-mount/adapter';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { connectSdk, sdkEras } from '../support/sdk-clients.js';
import { serveTools } from '../support/server.js';

const ping = defineTool({ name: 'ping', input: z.object({}), handler: () => 'pong' });

describe.each(sdkEras)('the server identity, %s client', (era) => {
  it('reaches the client as serverInfo, title included, with the instructions', async () => {
    const running = await serveTools([ping], {
      server: { name: 'notes', version: '1.2.0', title: 'Team notes', instructions: 'Search first.' },
    });
    const sdk = await connectSdk(era, running.url);
    try {
      expect(sdk.client.getServerVersion()).toEqual({ name: 'notes', version: '1.2.0', title: 'Team notes' });
      expect(sdk.client.getInstructions()).toBe('Search first.');
    } finally {
      await sdk.close();
      await running.close();
    }
  });

  it('sends no title when none is set', async () => {
    const running = await serveTools([ping], { server: { name: 'notes' } });
    const sdk = await connectSdk(era, running.url);
    try {
      expect(sdk.client.getServerVersion()).toEqual({ name: 'notes', version: '0.0.0' });
    } finally {
      await sdk.close();
      await running.close();
    }
  });
});

describe('server.title', () => {
  it('that is not a string fails the mount, naming the option', () => {
    expect(() => createMcpFetchHandler([ping], { server: { title: 7 as never } })).toThrow(
      'mcp-mount: server.title must be a string, got 7',
    );
  });
});
