/** The `tasks` options: the store every replica shares, and what a task's run holds (docs/guide/tasks.md). */
import type { TaskStore } from './store.js';

/**
 * Long-running tool calls as tasks of the 2026-07-28 tasks extension (docs/design/tasks.md, ADR 0031 and
 * 0036). A tool opts in with `task` in `defineTool`; this group gives the mount its store.
 *
 * @example
 * ```ts
 * import { createRedisTaskStore } from 'mcp-mount/tasks/redis';
 * mcp(tools, { access: { auth: { verify } }, tasks: { store: createRedisTaskStore({ client: new Redis(url) }) } });
 * ```
 */
export interface TasksOptions {
  /**
   * Where tasks live: `createMemoryTaskStore()` (`mcp-mount/tasks/memory`, one process),
   * `createRedisTaskStore({ client })` (`mcp-mount/tasks/redis`, every replica), or
   * `createDurableObjectTaskStore({ namespace })` (`mcp-mount/tasks/durable-object`, Workers). Required.
   */
  store: TaskStore;
  /**
   * How long a running task's hold on it (its lease) lasts without a heartbeat, in milliseconds: the process
   * running it heartbeats every third of it, and learns of a `tasks/cancel` at the next one. A process that
   * dies leaves its tasks to be read `failed` once this has passed. Default 30,000.
   */
  leaseMs?: number;
  /** Most tasks one caller may have open (not terminal) at once; one more is answered `isError`. Default none. */
  maxOpen?: number;
  /**
   * The owner of an anonymous caller's tasks (a request without `authInfo`): an API key's hash, a session
   * the platform vouches for, or a constant for a mount whose callers all may see each other's tasks. Runs
   * once per task request; undefined: this caller gets plain calls (and `-32021` from a `'required'` tool),
   * and its `tasks/*` read as unknown. Without it, only authenticated callers get tasks: an anonymous mount
   * opts in here. An authenticated caller's tasks are bound to its token's issuer, client id and subject.
   */
  anonymousOwner?: (context: { request: Request; host: unknown }) => string | undefined;
  /**
   * Hands each task to a queue instead of running it in the process that accepted the call. Called once per
   * task, after the task is stored (a `tasks/get` of its id already succeeds on every replica) and before the
   * CreateTaskResult is answered, with a small JSON-serialisable `TaskJob`: add it to your queue. The queue's
   * worker calls `handler.runTask(job)` on a mount serving the same tools and store, which claims the task
   * (once, however often the job is delivered), parses the stored arguments and runs the handler.
   *
   * With `run`, a call that may become a task (a 2026-07-28 client that declared the extension) becomes one at
   * once: the tool's `inlineMs` is not waited for. The arguments are checked here as for any call (an invalid
   * call is answered `isError`, no task made), and parsed again by the consumer, whose parse the handler gets.
   * A hook that throws or rejects leaves the task `failed` (with a masked error id; `onError` hears the error,
   * phase `task`); the client still gets the task. Default: none, the task runs where the call landed.
   *
   * @example
   * ```ts
   * const queue = new Queue('mcp-tasks', { connection });
   * tasks: { store, run: (job) => queue.add('task', job, { jobId: job.taskId }).then(() => undefined) }
   * ```
   */
  run?: (job: TaskJob) => Promise<void> | void;
}

/**
 * What `tasks.run` hands a queue: which task, and which tool runs it (for routing and logs). JSON-serialisable
 * and small: the arguments and the caller stay in the task store, where the consumer's claim reads them.
 */
export interface TaskJob {
  /** The task's id, as the client sees it. */
  readonly taskId: string;
  /** The tool's name. */
  readonly tool: string;
}
