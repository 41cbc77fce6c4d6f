/**
 * Per-call timeouts over real HTTP, with both official clients: a handler that never resolves is answered at
 * its deadline with `isError` "timed out after N s", its `ctx.signal` aborts with a `TimeoutError`, and the
 * audit trail and `onCall` hear of it; a tool's own `timeoutMs` wins over the mount's `limits.timeoutMs`.
 * No outcome here depends on how fast the machine is: a handler that must outlive something waits on a latch
 * the test opens, or never settles; none races a sleep.
 */
import { type CallEvent, defineTool, type RefusalEvent } from 'mcp-mount';
import { createMcpFetchHandler } from 'mcp-mount/adapter';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { latch } from '../support/latch.js';
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
/** Answers at once: no deadline can pass first, however slow the machine. */
const quick = defineTool({ name: 'quick', input: z.object({}), handler: () => 'done' });
/** Never settles and has no deadline of its own: only the mount's `limits.timeoutMs` ends its calls. */
const waits = defineTool({ name: 'waits', input: z.object({}), handler: () => new Promise<never>(() => {}) });

/** One turn of the event loop (not a timer): every promise continuation queued before it has run. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('timeouts', () => {
  it('answers a handler that never resolves at its deadline, aborts its signal, and reports it', async () => {
    const refusals: RefusalEvent[] = [];
    const calls: CallEvent[] = [];
    signals.length = 0;
    await withClients(
      [hangs, quick],
      { limits: { timeoutMs: 5_000 }, observe: { onRefusal: (e) => refusals.push(e), onCall: (e) => calls.push(e) } },
      async (client) => {
        const result = await client.callTool('hangs', {});
        expect(result.isError).toBe(true);
        // The tool's own 300 ms, not the mount's 5 s: the text names the deadline that ended the call.
        expect(textOf(result)).toBe('Tool hangs timed out after 0.3 s');
        const signal = signals.at(-1)!;
        expect(signal.aborted).toBe(true);
        expect((signal.reason as DOMException).name).toBe('TimeoutError');
        // Within the mount's deadline, a call runs to its end.
        expect(textOf(await client.callTool('quick', {}))).toBe('done');
      },
    );
    expect(refusals).toEqual([
      {
        reason: 'timeout',
        message: 'Tool hangs timed out after 0.3 s',
        method: 'tools/call',
        tool: 'hangs',
        requestId: expect.anything(),
        client: { remoteAddress: '127.0.0.1', userAgent: expect.any(String) },
      },
      expect.objectContaining({ reason: 'timeout', tool: 'hangs' }),
    ]);
    expect(calls.map((e) => [e.tool, e.ok, e.error])).toEqual([
      ['hangs', false, 'Tool hangs timed out after 0.3 s'],
      ['quick', true, undefined],
      ['hangs', false, 'Tool hangs timed out after 0.3 s'],
      ['quick', true, undefined],
    ]);
  });

  it("applies the mount's limits.timeoutMs to tools without their own", async () => {
    await withClients([waits], { limits: { timeoutMs: 100 } }, async (client) => {
      expect(textOf(await client.callTool('waits', {}))).toBe('Tool waits timed out after 0.1 s');
    });
  });

  it('holds the concurrency slot of a call past its deadline until its handler settles', async () => {
    let running = 0;
    let most = 0;
    // Each call's handler waits on the gate set when it starts, and opens `settled` as it ends: the test,
    // not a timer, decides when an abandoned handler finishes.
    let gate = latch();
    let settled = latch();
    const lingers = defineTool({
      name: 'lingers',
      input: z.object({}),
      timeoutMs: 50,
      handler: async () => {
        const [mine, done] = [gate, settled];
        running += 1;
        most = Math.max(most, running);
        await mine.opened;
        running -= 1;
        done.open();
        return 'late';
      },
    });
    await withClients([lingers], { limits: { concurrency: 1, rate: { key: () => 'one' } } }, async (client) => {
      /** A call answered at its deadline while its handler waits on a shut gate; returns what lets it end. */
      const abandoned = async () => {
        gate = latch();
        settled = latch();
        const [mine, done] = [gate, settled];
        expect(textOf(await client.callTool('lingers', {}))).toBe('Tool lingers timed out after 0.05 s');
        return async () => {
          mine.open();
          await done.opened;
          // The slot is given back in the promise continuations after the handler settles.
          await turn();
        };
      };
      const finish = await abandoned();
      // The abandoned handler still runs (its gate is shut): the caller's one slot is taken.
      for (let i = 0; i < 5; i += 1) {
        expect(textOf(await client.callTool('lingers', {}))).toMatch(/already running; retry when one finishes/);
      }
      // Once it settles, the slot is free again.
      await finish();
      await (await abandoned())();
    });
    expect(most).toBe(1);
    expect(running).toBe(0);
  });

  it('refuses at construction a timeout that is not a positive integer', () => {
    const bad = defineTool({ name: 'bad', timeoutMs: 0, handler: () => 'x' });
    expect(() => createMcpFetchHandler([bad])).toThrow(
      'mcp-mount: tool bad: timeoutMs must be a positive integer, got 0',
    );
    expect(() => createMcpFetchHandler([quick], { limits: { timeoutMs: 1.5 } })).toThrow(/limits\.timeoutMs/);
  });
});
