/**
 * The call's signal, made on first read (src/core/limits/lazy-signal.ts): nothing is made or read before,
 * and once read it says what happened before and follows its parent after.
 */
import { describe, expect, it, vi } from 'vitest';
import { LazySignal } from '../../../src/core/limits/lazy-signal.js';
import { withTimeout } from '../../../src/core/limits/timeout.js';

describe('LazySignal', () => {
  it('reads its parent only when the signal is first read', () => {
    const parent = new AbortController();
    const read = vi.fn(() => parent.signal);
    const lazy = new LazySignal(read);
    lazy.abort('recorded before any read');
    expect(read).not.toHaveBeenCalled();
    expect(lazy.signal.aborted).toBe(true);
    expect(lazy.signal.reason).toBe('recorded before any read');
    // Aborted before its first read: the parent is never needed.
    expect(read).not.toHaveBeenCalled();
  });

  it('is aborted with the parent’s reason when the parent aborted before the first read', () => {
    const parent = new AbortController();
    parent.abort('client gone');
    const lazy = new LazySignal(() => parent.signal);
    expect(lazy.signal.aborted).toBe(true);
    expect(lazy.signal.reason).toBe('client gone');
  });

  it('follows the parent after the first read, and the first reason wins', () => {
    const parent = new AbortController();
    const lazy = new LazySignal(() => parent.signal);
    const { signal } = lazy;
    expect(signal.aborted).toBe(false);
    parent.abort('client gone');
    expect(signal.reason).toBe('client gone');
    lazy.abort('later');
    expect(signal.reason).toBe('client gone');
  });

  it('stops following the parent once released, whether read before or after', () => {
    const before = new AbortController();
    const read = new LazySignal(() => before.signal);
    const early = read.signal;
    read.release();
    before.abort('after release');
    expect(early.aborted).toBe(false);

    const after = new AbortController();
    const unread = new LazySignal(() => after.signal);
    unread.release();
    after.abort('after release');
    expect(unread.signal.aborted).toBe(false);
  });
});

describe('withTimeout', () => {
  it('makes no signal for a run that never reads it', async () => {
    const parent = vi.fn(() => AbortSignal.abort());
    const Original = globalThis.AbortController;
    let made = 0;
    globalThis.AbortController = class extends Original {
      constructor() {
        super();
        made++;
      }
    };
    try {
      const unread = await withTimeout(60_000, parent, async () => 'done');
      expect(unread).toEqual({ timedOut: false, value: 'done' });
      expect([made, parent.mock.calls.length]).toEqual([0, 0]);
      // The count sees a signal that is read: the same run reading it makes one.
      const read = await withTimeout(60_000, parent, async (signal) => signal().aborted);
      expect(read).toEqual({ timedOut: false, value: true });
      expect([made, parent.mock.calls.length]).toEqual([1, 1]);
    } finally {
      globalThis.AbortController = Original;
    }
  });

  it('hands a run that reads its signal one that follows the parent', async () => {
    const parent = new AbortController();
    const timed = await withTimeout(
      60_000,
      () => parent.signal,
      async (signal) => {
        const seen = signal();
        parent.abort('client gone');
        return seen.reason;
      },
    );
    expect(timed).toEqual({ timedOut: false, value: 'client gone' });
  });

  it('keeps the reason of a client that left before the deadline, for a signal first read after it', async () => {
    const parent = new AbortController();
    parent.abort('client gone');
    let read: (() => AbortSignal) | undefined;
    const timed = await withTimeout(1, () => parent.signal, (signal) => {
      read = signal;
      return new Promise<never>(() => {});
    });
    expect(timed.timedOut).toBe(true);
    expect(read!().reason).toBe('client gone');
  });

  it('aborts an unread signal with a TimeoutError at the deadline when the client is still there', async () => {
    let read: (() => AbortSignal) | undefined;
    const timed = await withTimeout(1, () => new AbortController().signal, (signal) => {
      read = signal;
      return new Promise<never>(() => {});
    });
    expect(timed.timedOut).toBe(true);
    expect((read!().reason as DOMException).name).toBe('TimeoutError');
  });
});
