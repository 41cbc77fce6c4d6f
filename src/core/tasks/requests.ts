/**
 * The extension's requests on a task, as the mount answers them (docs/design/tasks.md, Methods and results):
 * `tasks/get`, `tasks/update`, `tasks/cancel`, each bound to the caller's owner, so that an unknown, expired or
 * another caller's task gets one and the same `-32602`. A request that did not declare the extension gets
 * `-32021`. Each returns the result, or throws a `TaskRequestError` for the JSON-RPC error.
 */
import type { TasksPolicy } from './settle.js';
import type { JsonObject } from './store.js';
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
}

/** `tasks/get`: the DetailedTask with its result, error or input requests inlined. */
export async function getTask(policy: TasksPolicy, asker: TaskAsker, taskId: string): Promise<JsonObject> {
  const owner = ownerOf(asker);
  const view = await policy.store.get(owner, taskId);
  if (view === undefined) throw unknownTask();
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
  if (!(await policy.store.answer(owner, taskId, inputResponses))) throw unknownTask();
  return taskAck();
}

/** `tasks/cancel`: the task is `cancelled` at once; its run learns of it at its next heartbeat. */
export async function cancelTask(policy: TasksPolicy, asker: TaskAsker, taskId: string): Promise<JsonObject> {
  const owner = ownerOf(asker);
  if (!(await policy.store.requestCancel(owner, taskId))) throw unknownTask();
  return taskAck();
}

/** The asker's owner; `-32021` for a request that did not declare the extension, `-32602` for no owner. */
function ownerOf(asker: TaskAsker): string {
  if (!asker.declared) throw new TaskRequestError(missingTasksCapability());
  if (asker.owner === undefined) throw unknownTask();
  return asker.owner;
}

function unknownTask(): TaskRequestError {
  return new TaskRequestError(UNKNOWN_TASK_ERROR);
}
