/**
 * Per-call timeouts (`timeoutMs` on a tool, `limits.timeoutMs` for the mount): the call's signal aborts at
 * the deadline and the call is answered then, whatever the handler does with the signal.
 */

import { positiveInteger } from '../settle/positive-integer.js';
import { LazySignal } from './lazy-signal.js';

/**
 * The deadline of one tool's calls, in milliseconds: its own `timeoutMs`, else `fallback` (`limits.timeoutMs`),
 * else undefined for none. @throws TypeError when the tool's own is not a positive integer.
 */
export function settledTimeout(tool: { name: string; timeoutMs?: unknown }, fallback: number | undefined) {
  const own = tool.timeoutMs;
  return own === undefined ? fallback : positiveInteger(`tool ${tool.name}: timeoutMs`, own);
}

/**
 * What running under a deadline came to: the run's value, or the deadline passed first; then `settled`
 * resolves when the abandoned run does, however it ends, so what the run holds (a concurrency slot) is kept
 * until then.
 */
export type Timed<T> = { timedOut: false; value: T } | { timedOut: true; settled: Promise<void> };

/**
 * Runs `run` with a signal that follows `parent` and aborts at `timeoutMs` (reason: a `TimeoutError`
 * `DOMException`), and settles at the deadline at the latest. A run that settles later is left to finish; its
 * outcome, a rejection included, is dropped, and the answer's `settled` tells when it is over. Without
 * `timeoutMs`, `run` gets `parent` itself. Signals are passed as readers and made on first read
 * (lazy-signal.ts): a run that never reads its signal costs no controller.
 */
export async function withTimeout<T>(
  timeoutMs: number | undefined,
  parent: () => AbortSignal,
  run: (signal: () => AbortSignal) => Promise<T>,
): Promise<Timed<T>> {
  if (timeoutMs === undefined) return { timedOut: false, value: await run(parent) };
  const lazy = new LazySignal(parent);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let settled: Promise<void> = Promise.resolve();
  const deadline = new Promise<Timed<T>>((resolve) => {
    timer = setTimeout(() => {
      // A client that left or cancelled before the deadline keeps its reason, as it would had the signal
      // been read and followed it (read now: the deadline is rare).
      const first = parent();
      lazy.abort(first.aborted ? first.reason : new DOMException(`timed out after ${timeoutMs} ms`, 'TimeoutError'));
      resolve({ timedOut: true, settled });
    }, timeoutMs);
  });
  const running = run(() => lazy.signal);
  settled = running.then(
    () => undefined,
    () => undefined,
  );
  try {
    return await Promise.race([running.then((value): Timed<T> => ({ timedOut: false, value })), deadline]);
  } finally {
    clearTimeout(timer);
    lazy.release();
  }
}

/** `Tool orders timed out after 2.5 s`: what the model is told. */
export function timedOutText(tool: string, timeoutMs: number): string {
  return `Tool ${tool} timed out after ${Number((timeoutMs / 1000).toFixed(3))} s`;
}
