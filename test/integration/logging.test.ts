/**
 * `ctx.log` and `ctx.progress`: notifications sent on the exchange of the call, in both eras, as the
 * mount's `logging` and `responseMode` options and the client's own requests (level, progress token) say.
 */
import { defineTool, type McpMountOptions } from 'mcp-mount';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { connectSdk, type SdkEra, sdkEras } from '../support/sdk-clients.js';
import { type Running, serveTools, textOf } from '../support/server.js';

const work = defineTool({
  name: 'work',
  input: z.object({ steps: z.number() }),
  handler: async ({ input }, ctx) => {
    await ctx.log('debug', 'starting');
    for (let i = 1; i <= input.steps; i++) await ctx.progress(i, { total: input.steps, message: `step ${i}` });
    await ctx.log('warning', { done: input.steps }, 'worker');
    return 'done';
  },
});

const running: Running[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.close()));
});
/**
 * One call of `work`. `level` is how each era's client asks for a log level: a 2025-era client sends
 * `logging/setLevel` first, a 2026-07-28 client names it in the call's own `_meta`.
 */
async function call(era: SdkEra, options: McpMountOptions, level?: string) {
  const server = await serveTools([work], options);
  running.push(server);
  const client = await connectSdk(era, server.url);
  try {
    if (level && era === 'legacy') await client.client.setLoggingLevel(level);
    const meta = level && era === 'modern' ? { 'io.modelcontextprotocol/logLevel': level } : undefined;
    const progress: unknown[] = [];
    const result = await client.callTool('work', { steps: 2 }, (p) => progress.push(p), meta);
    return { text: textOf(result), progress, logs: client.logs };
  } finally {
    await client.close();
  }
}

describe.each(sdkEras.map((era) => [era]))('with the %s client', (era) => {
  it('reports progress to a client that asked for it', async () => {
    const { text, progress } = await call(era, {});
    expect(text).toBe('done');
    expect(progress).toEqual([
      { progress: 1, total: 2, message: 'step 1' },
      { progress: 2, total: 2, message: 'step 2' },
    ]);
  });

  it('sends no log message without logging: true', async () => {
    const { logs, text } = await call(era, {});
    expect(text).toBe('done');
    expect(logs).toEqual([]);
  });
});

describe('log messages under logging: true', () => {
  const starting = { level: 'debug', data: 'starting' };
  const finished = { level: 'warning', data: { done: 2 }, logger: 'worker' };

  it('reach a 2026-07-28 client at or above the level its request names, and none without one', async () => {
    expect((await call('modern', { protocol: { logging: true } }, 'info')).logs).toEqual([finished]);
    expect((await call('modern', { protocol: { logging: true } })).logs).toEqual([]);
  });

  it('reach a 2025-era client at every level: its logging/setLevel is answered, but ends with its own request', async () => {
    // Stateless serving: the level set lives on that request's server and is gone for the next call.
    expect((await call('legacy', { protocol: { logging: true } }, 'error')).logs).toEqual([starting, finished]);
  });

  it('are not offered without logging: true (logging/setLevel is method-not-found)', async () => {
    await expect(call('legacy', {}, 'info')).rejects.toThrow(/Method not found/i);
  });
});

describe("responseMode 'json'", () => {
  it('drops progress and log messages for a 2026-07-28 client and still answers; 2025-era clients still get them', async () => {
    const modern = await call('modern', { protocol: { responseMode: 'json', logging: true } }, 'debug');
    expect((await call('modern', { protocol: { logging: true } }, 'debug')).logs).toHaveLength(2);
    expect(modern).toEqual({ text: 'done', progress: [], logs: [] });
    const legacy = await call('legacy', { protocol: { responseMode: 'json', logging: true } }, 'debug');
    expect(legacy.progress).toHaveLength(2);
    expect(legacy.logs).toHaveLength(2);
  });
});
