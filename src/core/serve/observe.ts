/** The observer hooks (`onCall`, `onError`): they see every call and error and never change a response. */
import type { MountConfig } from '../mount/config.js';
import type { ErrorInfo } from '../mount/options.js';
import type { Repair } from '../repair/index.js';

/** One finished `tools/call`, as the executor knows it. */
export interface CallRecord {
  tool: string;
  ok: boolean;
  error?: string;
  /** The id shown to the client for a masked failure. */
  errorId?: string;
  repairs: readonly Repair[];
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
      ...(record.errorId !== undefined && { errorId: record.errorId }),
      repairs: record.repairs,
      durationMs: performance.now() - record.started,
    });
  } catch (error) {
    config.logger.error('mcp-mount: onCall threw', error);
  }
}

/** Calls `onError`; a throwing hook is logged, never passed on. */
export function observeError(config: MountConfig, error: unknown, info: ErrorInfo = {}): void {
  if (!config.onError) return;
  try {
    config.onError(error, info);
  } catch (hookError) {
    config.logger.error('mcp-mount: onError threw', hookError);
  }
}
