/**
 * The tasks extension's wire (2026-07-28, `io.modelcontextprotocol/tasks`; docs/design/tasks.md, The wire),
 * built from store views: the results of `tools/call` as a task, `tasks/get`, `tasks/update` and
 * `tasks/cancel`, the errors, and whether a request declared the extension. Pure functions: the serving layer
 * calls them; nothing here reads a request or a store.
 */
import type { JsonObject, TaskView } from './store.js';

/** The extension's id, the key under `capabilities.extensions` and a request's declared extensions. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** The `_meta` key under which a 2026-07-28 request declares its client capabilities. */
const CLIENT_CAPABILITIES_META = 'io.modelcontextprotocol/clientCapabilities';

/**
 * True when a request's params declare the tasks extension:
 * `_meta["io.modelcontextprotocol/clientCapabilities"].extensions["io.modelcontextprotocol/tasks"]` is an
 * object. The extension defines no settings yet (`{}`); an object with keys is still a declaration, so a
 * client of a later revision is not refused; `null`, `true` or an array is not one.
 */
export function declaresTasks(params: unknown): boolean {
  const meta = objectAt(params, '_meta');
  const capabilities = objectAt(meta, CLIENT_CAPABILITIES_META);
  const extensions = objectAt(capabilities, 'extensions');
  return objectAt(extensions, TASKS_EXTENSION) !== undefined;
}

/** The Task fields of a view: ISO 8601 times, `ttlMs`, `pollIntervalMs` when set, and nothing else. */
function taskFields(view: TaskView): JsonObject {
  return {
    taskId: view.taskId,
    status: view.status,
    ...(view.statusMessage !== undefined && { statusMessage: view.statusMessage }),
    createdAt: new Date(view.createdAt).toISOString(),
    lastUpdatedAt: new Date(view.lastUpdatedAt).toISOString(),
    ttlMs: view.ttlMs,
    ...(view.pollIntervalMs !== undefined && { pollIntervalMs: view.pollIntervalMs }),
  };
}

/** A `tools/call` answered with a task: the flat CreateTaskResult (`resultType: "task"` and the Task fields). */
export function createTaskResult(view: TaskView): JsonObject {
  return { resultType: 'task', ...taskFields(view) };
}

/**
 * The `tasks/get` result: the DetailedTask (Task fields, and `inputRequests`, `result` or `error` by status)
 * with `resultType: "complete"`.
 */
export function getTaskResult(view: TaskView): JsonObject {
  return {
    resultType: 'complete',
    ...taskFields(view),
    ...(view.status === 'input_required' && { inputRequests: { ...view.inputRequests } }),
    ...(view.status === 'completed' && view.result !== undefined && { result: view.result }),
    ...(view.status === 'failed' && view.error !== undefined && { error: { ...view.error } }),
  } as JsonObject;
}

/** The answer to `tasks/update` and `tasks/cancel`: an empty result, never the task's fields. */
export function taskAck(): JsonObject {
  return { resultType: 'complete' };
}

/**
 * The error for an unknown, expired or someone else's task (`-32602`): one text for all three, so that the
 * answer does not tell them apart.
 */
export const UNKNOWN_TASK_ERROR: Readonly<{ code: number; message: string }> = Object.freeze({
  code: -32602,
  message: 'Unknown task',
});

/**
 * The error for a request that did not declare the extension: `tasks/*`, or a `tools/call` of a tool that
 * must run as a task (`-32021`, Missing Required Client Capability), with the capability it needs.
 */
export function missingTasksCapability(): { code: number; message: string; data: JsonObject } {
  return {
    code: -32021,
    message: `Missing required client capability: extension ${TASKS_EXTENSION}`,
    data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
  };
}

function objectAt(value: unknown, key: string): Record<string, unknown> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  if (!Object.hasOwn(value, key)) return undefined;
  const child = (value as Record<string, unknown>)[key];
  return typeof child === 'object' && child !== null && !Array.isArray(child)
    ? (child as Record<string, unknown>)
    : undefined;
}
