/**
 * The consumer's side of `tasks.run` (ADR 0037): a queue's worker hands `runTask` the job the hook was given;
 * the task is claimed with a lease (the store's fenced claim: a job delivered twice runs once), the stored
 * arguments go through the tool's input carrier (the repair and the one Zod parse the handler gets), and the
 * handler runs through the executor under the default run (`runLeased`: heartbeats, status, input rounds, the
 * settle), as the process that accepted the call would have run it.
 */
import type { AuthInfo, ServerContext } from '@modelcontextprotocol/server';
import { maskedText } from '../observe/failure.js';
import { observeError } from '../observe/observe.js';
import type { Observer } from '../observe/settle.js';
import { observeTask, type TaskWatch } from '../observe/task.js';
import type { ProjectionPolicy } from '../prepare/settle.js';
import { readQueuedCall } from '../tasks/job.js';
import type { TaskJob } from '../tasks/options.js';
import { type RunEnd, runLeased } from '../tasks/run.js';
import type { TasksPolicy } from '../tasks/settle.js';
import type { Lease, Refused } from '../tasks/store.js';
import { checkArguments } from './direct/call.js';
import { noMessage } from './envelope.js';
import type { Registration } from './registration.js';
import type { FetchExtras, RequestState } from './request-state.js';
import type { Retry } from './sdk/tools-call.js';
import { happening, runHooks, type TaskSlot } from './task-call.js';

/**
 * What `runTask` did with a job: ran the task to its end (`status`: how it settled, `cancelled` when the client
 * cancelled it while it ran, `lost` when the store refused or failed its settle or its lease lapsed), or did not
 * run it (`reason`: `held`, another worker holds it; `settled`, it ended already, a job delivered again;
 * `unknown`, no such task, or it expired; `lost`, its claim came too late and it reads `failed`).
 */
export type TaskRunReport =
  | { readonly ran: true; readonly status: RunEnd }
  | { readonly ran: false; readonly reason: Refused['reason'] };

/** What the consumer reads of its mount. */
export interface ConsumerSetup {
  readonly tasks?: TasksPolicy;
  readonly observer: Observer;
  readonly projection: ProjectionPolicy;
}

/** `McpFetchHandler.runTask` for a mount's registrations. */
export function taskConsumer(
  setup: ConsumerSetup,
  registrations: readonly Registration[],
): (job: TaskJob, extras?: Pick<FetchExtras, 'host'>) => Promise<TaskRunReport> {
  return async (job, extras) => {
    const { tasks, observer } = setup;
    if (!tasks) throw new TypeError('mcp-mount: runTask needs a mount with tasks.store');
    const taskId = (job as { taskId?: unknown } | null | undefined)?.taskId;
    if (typeof taskId !== 'string' || taskId === '') {
      throw new TypeError('mcp-mount: runTask takes the job tasks.run was given ({ taskId, tool })');
    }
    const claimed = await tasks.store.claim(taskId, tasks.leaseMs);
    if (!claimed.ok) return { ran: false, reason: claimed.reason };
    const stored = readQueuedCall(claimed.call);
    const r = stored && registrations.find((each) => each.name === stored.tool && each.task !== undefined);
    if (!stored || !r) {
      // A task of a tool this mount does not serve (a deploy between the call and its run), or not a queued one.
      const error = new Error('mcp-mount: runTask was handed a task of a tool this mount does not run as a task');
      return { ran: true, status: await failClaimed(tasks, observer, claimed.lease, error, stored?.tool) };
    }
    return { ran: true, status: await runClaimed(setup, r, stored, taskId, claimed.lease, extras) };
  };
}

/** Runs a claimed queued call under the default run, as the process that accepted it would have. */
function runClaimed(
  setup: ConsumerSetup,
  r: Registration,
  stored: NonNullable<ReturnType<typeof readQueuedCall>>,
  taskId: string,
  lease: Lease,
  extras: Pick<FetchExtras, 'host'> | undefined,
): Promise<RunEnd> {
  const tasks = setup.tasks!;
  const { observer } = setup;
  const state: RequestState = {
    ...noMessage(setup.projection),
    ...(stored.authInfo && { authInfo: stored.authInfo }),
    extras: { ...(extras?.host !== undefined && { host: extras.host }) },
  };
  const slot: TaskSlot = {};
  // What `onTask` hears of this run: the task as claimed, its caller read from the stored call.
  const watch: TaskWatch = {
    taskId,
    tool: r.name,
    since: performance.now(),
    ...(stored.authInfo && { authInfo: stored.authInfo }),
  };
  const once = async (retry?: Retry) => {
    const checked = await checkArguments(r, state, stored.arguments);
    if ('refused' in checked) return checked.refused;
    return r.run(checked.value, queuedContext(taskId, slot.signal!, stored.authInfo, retry), state, slot);
  };
  return runLeased(
    {
      tasks,
      ...runHooks(slot, r.task!.timeoutMs, once, observer, r.name),
      told: (event) => {
        if (event.kind !== 'created') observeTask(observer, watch, happening(event.kind, slot));
      },
    },
    lease,
  );
}

/** Settles a claimed task `failed` with `error` masked (`onError` hears it, phase `task`). */
async function failClaimed(
  tasks: TasksPolicy,
  observer: Observer,
  lease: Lease,
  error: Error,
  tool: string | undefined,
): Promise<RunEnd> {
  const errorId = observeError(observer, error, { phase: 'task', ...(tool !== undefined && { tool }) });
  const message = maskedText(observer, tool === undefined ? 'Task' : `Tool ${tool}`, errorId, error);
  const settled = await tasks.store.settle(lease, { status: 'failed', error: { code: -32603, message } });
  return settled.ok ? 'failed' : 'lost';
}

/**
 * `ctx.mcp` for a call a queue's consumer runs: no client is connected to it, so nothing can be sent to one
 * (`send`, `notify`, `elicitInput`, `requestSampling` reject; `ctx.log` sends nothing, as in any task, whose
 * client reads its status message instead). A round's answers are there as a retry carries them.
 */
function queuedContext(
  taskId: string,
  signal: AbortSignal,
  authInfo: AuthInfo | undefined,
  retry: Retry | undefined,
): ServerContext {
  const unconnected = () =>
    Promise.reject(
      new Error('mcp-mount: a task run by a queue has no connection to its client; ask with inputRequired'),
    );
  const { requestState } = retry ?? {};
  const mcpReq = {
    id: taskId,
    method: 'tools/call',
    _meta: undefined,
    requestState: () => requestState,
    ...(retry && { inputResponses: { ...retry.inputResponses } }),
    signal,
    send: unconnected,
    notify: unconnected,
    log: () => Promise.resolve(),
    elicitInput: unconnected,
    requestSampling: unconnected,
  };
  return {
    sessionId: undefined,
    mcpReq,
    http: { ...(authInfo && { authInfo }), req: undefined, closeSSE: undefined, closeStandaloneSSE: undefined },
  } as unknown as ServerContext;
}
