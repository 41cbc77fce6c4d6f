/**
 * What tasks do, told to `observe.onTask` (and to nothing else: a task's run outlives its request's span). The
 * caller is reported as `onCall` reports it (`callerOf`); a throwing hook is logged, never passed on.
 */
import type { AuthInfo } from '@modelcontextprotocol/server';
import { callerOf, observeError } from './observe.js';
import type { TaskEvent } from './options.js';
import type { Observer } from './settle.js';

/** One task's life as its run tells it: the task, and who made it, fixed once the task exists. */
export interface TaskWatch {
  readonly taskId: string;
  readonly tool: string;
  /** `performance.now()` when the task was created (for a queue consumer's run, claimed). */
  readonly since: number;
  readonly authInfo?: AuthInfo;
  readonly requestId?: string | number;
}

/** What one event adds to the task it belongs to. */
export type TaskHappening = Pick<TaskEvent, 'kind' | 'status' | 'via' | 'errorId'>;

/** Calls `onTask` with `what` happened to `watch`'s task; a throw is logged (phase `onTask`), never passed on. */
export function observeTask(observer: Observer, watch: TaskWatch, what: TaskHappening): void {
  if (!observer.onTask) return;
  const { taskId, tool, since, authInfo, requestId } = watch;
  const event: TaskEvent = {
    kind: what.kind,
    taskId,
    tool,
    status: what.status,
    ...(what.via !== undefined && { via: what.via }),
    ...(what.kind !== 'created' && { durationMs: performance.now() - since }),
    ...(what.errorId !== undefined && { errorId: what.errorId }),
    ...(authInfo && { caller: callerOf(authInfo) }),
    ...(requestId !== undefined && { requestId }),
  };
  try {
    observer.onTask(event);
  } catch (error) {
    observeError(observer, error, {
      phase: 'onTask',
      tool,
      ...(requestId !== undefined && { requestId }),
      ...(authInfo && { authInfo }),
    });
  }
}
