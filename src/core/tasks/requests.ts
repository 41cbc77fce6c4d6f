/**
 * The extension's requests on a task, as the mount answers them (docs/design/tasks.md, Methods and results):
 * `tasks/get`, `tasks/update`, `tasks/cancel`, each bound to the caller's owner, and to the caller's access to
 * the task's tool as it is now, so that an unknown, expired or another caller's task, and one whose tool the
 * caller may no longer see or call, gets one and the same `-32602`. A request that did not declare the extension gets
 * `-32021`. Each returns the result, or throws a `TaskRequestError` for the JSON-RPC error.
 */
import type { TasksPolicy } from './settle.js';
import type { JsonObject, TaskView } from './store.js';
import { getTaskResult, missingTasksCapability, taskAck, UNKNOWN_TASK_ERROR } from './wire.js';

/** A JSON-RPC error a task request is answered with: meant for the client, sent as it is. */
class TaskRequestError extends Error {
  readonly code: number;
  readonly data?: JsonObject;
  constructor(error: { code: number; message: string; data?: JsonObject }) {
    super(error.message);
    this.code = error.code;
    if (error.data !== undefined) this.data = error.data;
  }
}

/** True for the errors these requests answer with on purpose (`-32021`, `-32602`), as opposed to a store's failure. */
export function isTaskRequestError(error: unknown): boolean {
  return error instanceof TaskRequestError;
}

/** Who asks, as a task request reads it. */
export interface TaskAsker {
  /** The request declared `io.modelcontextprotocol/tasks`. */
  readonly declared: boolean;
  /** The caller's owner key; undefined: it has no tasks. */
  readonly owner?: string;
  /**
   * Whether this request may still reach a task's tool (`TaskView.tool`; undefined for a task stored without
   * one): access is decided per request, and a caller who lost it (hidden by `visibleTools`, a token without
   * the tool's `scopes`) must learn nothing more of the task than of an unknown one. Left out: every tool.
   */
  readonly reaches?: (tool: string | undefined) => boolean;
}

/** `tasks/get`: the DetailedTask with its result, error or input requests inlined. */
export async function getTask(policy: TasksPolicy, asker: TaskAsker, taskId: string): Promise<JsonObject> {
  const owner = ownerOf(asker);
  const view = await policy.store.get(owner, taskId);
  if (view === undefined || !reachable(asker, view)) throw unknownTask();
  return getTaskResult(view);
}

/** `tasks/update`: answers to the task's pending input requests; keys not pending are ignored. */
export async function updateTask(
  policy: TasksPolicy,
  asker: TaskAsker,
  taskId: string,
  inputResponses: Readonly<Record<string, JsonObject>>,
): Promise<JsonObject> {
  const owner = ownerOf(asker);
  await checkReach(policy, asker, owner, taskId);
  if (!(await policy.store.answer(owner, taskId, inputResponses))) throw unknownTask();
  return taskAck();
}

/** `tasks/cancel`: the task is `cancelled` at once; its run learns of it at its next heartbeat. */
export async function cancelTask(policy: TasksPolicy, asker: TaskAsker, taskId: string): Promise<JsonObject> {
  const owner = ownerOf(asker);
  await checkReach(policy, asker, owner, taskId);
  if (!(await policy.store.requestCancel(owner, taskId))) throw unknownTask();
  return taskAck();
}

/** The asker's owner; `-32021` for a request that did not declare the extension, `-32602` for no owner. */
function ownerOf(asker: TaskAsker): string {
  if (!asker.declared) throw new TaskRequestError(missingTasksCapability());
  if (asker.owner === undefined) throw unknownTask();
  return asker.owner;
}

/**
 * Before a step that changes the task: `-32602` unless the asker may reach its tool. The store's steps are
 * bound to the owner alone, so the task is read first; access changing between that read and the step is the
 * same race as it changing just after the step.
 */
async function checkReach(policy: TasksPolicy, asker: TaskAsker, owner: string, taskId: string): Promise<void> {
  if (!asker.reaches) return;
  const view = await policy.store.get(owner, taskId);
  if (view === undefined || !reachable(asker, view)) throw unknownTask();
}

function reachable(asker: TaskAsker, view: TaskView): boolean {
  return asker.reaches === undefined || asker.reaches(view.tool);
}

function unknownTask(): TaskRequestError {
  return new TaskRequestError(UNKNOWN_TASK_ERROR);
}
