/**
 * Per-call timeouts over real HTTP, with both official clients: a handler that never resolves is answered at
 * its deadline with `isError` "timed out after N s", its `ctx.signal` aborts with a `TimeoutError`, and the
 * audit trail and `onCall` hear of it; a tool's own `timeoutMs` wins over the mount's `limits.timeoutMs`.
 */
import { type CallEvent, defineTool, type RefusalEvent } from 'mcp-mount';
import { createMcpFetchHandler } from 'mcp-mount/adapter';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { sleepTool } from '../adapters/support/tools.js';
import { textOf, withClients } from '../support/server.js';

const signals: AbortSignal[] = [];
const hangs = defineTool({
  name: 'hangs',
  input: z.object({}),
  timeoutMs: 300,
  handler: (_args, ctx) => {
    signals.push(ctx.signal);
    return new Promise<never>(() => {});
  },
});
const slowish = sleepTool('slowish');

describe('timeouts', () => {
  it('answers a handler that never resolves at its deadline, aborts its signal, and reports it', async () => {
    const refusals: RefusalEvent[] = [];
    const calls: CallEvent[] = [];
    signals.length = 0;
    await withClients(
      [hangs, slowish],
      { limits: { timeoutMs: 5_000 }, observe: { onRefusal: (e) => refusals.push(e), onCall: (e) => calls.push(e) } },
      async (client) => {
        const started = performance.now();
        const result = await client.callTool('hangs', {});
        const elapsed = performance.now() - started;
        expect(result.isError).toBe(true);
        expect(textOf(result)).toBe('Tool hangs timed out after 0.3 s');
        // The tool's own 300 ms, not the mount's 5 s; a margin for a loaded machine.
        expect(elapsed).toBeGreaterThanOrEqual(290);
        expect(elapsed).toBeLessThan(3_000);
        const signal = signals.at(-1)!;
        expect(signal.aborted).toBe(true);
        expect((signal.reason as DOMException).name).toBe('TimeoutError');
        // Within the mount's default, a call runs to its end.
        expect(textOf(await client.callTool('slowish', { ms: 50 }))).toBe('done');
      },
    );
    expect(refusals).toEqual([
      {
        reason: 'timeout',
        message: 'Tool hangs timed out after 0.3 s',
        method: 'tools/call',
        tool: 'hangs',
        requestId: expect.anything(),
      },
      expect.objectContaining({ reason: 'timeout', tool: 'hangs' }),
    ]);
    expect(calls.map((e) => [e.tool, e.ok, e.error])).toEqual([
      ['hangs', false, 'Tool hangs timed out after 0.3 s'],
      ['slowish', true, undefined],
      ['hangs', false, 'Tool hangs timed out after 0.3 s'],
      ['slowish', true, undefined],
    ]);
  });

  it("applies the mount's limits.timeoutMs to tools without their own", async () => {
    await withClients([slowish], { limits: { timeoutMs: 100 } }, async (client) => {
      expect(textOf(await client.callTool('slowish', { ms: 2_000 }))).toBe('Tool slowish timed out after 0.1 s');
    });
  });

  it('holds the concurrency slot of a call past its deadline until its handler settles', async () => {
    let running = 0;
    let most = 0;
    const lingers = defineTool({
      name: 'lingers',
      input: z.object({}),
      timeoutMs: 50,
      handler: async () => {
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 600));
        running -= 1;
        return 'late';
      },
    });
    await withClients([lingers], { limits: { concurrency: 1, rate: { key: () => 'one' } } }, async (client) => {
      expect(textOf(await client.callTool('lingers', {}))).toBe('Tool lingers timed out after 0.05 s');
      // The abandoned handler still runs: the caller's one slot is taken.
      for (let i = 0; i < 5; i += 1) {
        expect(textOf(await client.callTool('lingers', {}))).toMatch(/already running; retry when one finishes/);
      }
      // Once it settles, the slot is free again.
      await new Promise((resolve) => setTimeout(resolve, 800));
      expect(textOf(await client.callTool('lingers', {}))).toBe('Tool lingers timed out after 0.05 s');
      await new Promise((resolve) => setTimeout(resolve, 800));
    });
    expect(most).toBe(1);
  });

  it('refuses at construction a timeout that is not a positive integer', () => {
    const bad = defineTool({ name: 'bad', timeoutMs: 0, handler: () => 'x' });
    expect(() => createMcpFetchHandler([bad])).toThrow(
      'mcp-mount: tool bad: timeoutMs must be a positive integer, got 0',
    );
    expect(() => createMcpFetchHandler([slowish], { limits: { timeoutMs: 1.5 } })).toThrow(/limits\.timeoutMs/);
  });
});
