/** The observer hooks (`onCall`, `onError`): they see every call and error and never change a response. */
import type { IgnoredKey } from '../messages/ignored-keys.js';
import type { MountConfig } from '../mount/config.js';
import type { Repair } from '../repair/index.js';

/** One finished `tools/call`, as the executor knows it. */
export interface CallRecord {
  tool: string;
  ok: boolean;
  error?: string;
  repairs: readonly Repair[];
  ignoredKeys: readonly IgnoredKey[];
  /** `performance.now()` when the argument check began. */
  started: number;
}

/** Calls `onCall`; a throwing hook is logged, never passed on. */
export function observeCall(config: MountConfig, record: CallRecord): void {
  if (!config.onCall) return;
  try {
    config.onCall({
      tool: record.tool,
      ok: record.ok,
      error: record.error,
      repairs: record.repairs,
      ignoredKeys: record.ignoredKeys,
      durationMs: performance.now() - record.started,
    });
  } catch (error) {
    config.logger.error('mcp-mount: onCall threw', error);
  }
}

/** Calls `onError`; a throwing hook is logged, never passed on. */
export function observeError(config: MountConfig, error: unknown, tool?: string): void {
  if (!config.onError) return;
  try {
    config.onError(error, { tool });
  } catch (hookError) {
    config.logger.error('mcp-mount: onError threw', hookError);
  }
}
