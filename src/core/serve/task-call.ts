/**
 * A `tools/call` of a tool with `task`, around the SDK's own handling of it (docs/design/tasks.md; ADR 0036):
 * refused `-32021` when the tool must run as a task and this request cannot have one, a plain call when it
 * may not, and otherwise run by `runTaskCall`, whose CreateTaskResult is the request's answer when the call
 * outlasts its inline wait. The executor runs the handler as always, on the signal and timeout this gives it
 * (`TaskSlot`), and leaves here a JSON-RPC error the handler threw, which fails the task.
 */
import { type AuthInfo, type CallToolResult, ProtocolError, type ServerContext } from '@modelcontextprotocol/server';
import { errorResult, maskedText } from '../observe/failure.js';
import { observeError } from '../observe/observe.js';
import type { Observer } from '../observe/settle.js';
import { observeTask, type TaskHappening, type TaskWatch } from '../observe/task.js';
import type { RequestTrace } from '../observe/telemetry.js';
import { queuedCall } from '../tasks/job.js';
import { cancelTask, getTask, isTaskRequestError, type TaskAsker, updateTask } from '../tasks/requests.js';
import {
  type CallOutcome,
  handToQueue,
  type QueueCall,
  type RunEvent,
  runTaskCall,
  type TaskRun,
} from '../tasks/run.js';
import { type CallerTasks, callerOwner, type TasksPolicy, type ToolTaskPolicy, taskRoute } from '../tasks/settle.js';
import type { JsonObject } from '../tasks/store.js';
import { createTaskResult, declaresTasks, missingTasksCapability } from '../tasks/wire.js';
import type { CheckedCall } from './input-carrier.js';
import type { ToolResult } from './result.js';
import type { TaskMethods } from './sdk/tasks.js';
import type { Retry } from './sdk/tools-call.js';

/** What the executor reads and writes for a call that may run as a task. */
export interface TaskSlot {
  /** Set once the call runs under `runTaskCall`: the signal its handler gets instead of the request's. */
  signal?: AbortSignal;
  /** The task's own timeout, replacing the tool's `timeoutMs` inside a task. */
  timeoutMs?: number;
  /** A JSON-RPC error the handler threw (an SDK `ProtocolError`): a task ends `failed` with it. */
  thrown?: ProtocolError;
  /** The id `onError` got for `thrown`: the `errorId` of the task's `failed` event. */
  errorId?: string;
  /** Sets the task's status message: the handler's `ctx.task.status`. */
  status?: (message: string) => Promise<void>;
  /**
   * Set when the call goes to a queue (`tasks.run`): the executor hands it the checked call (and who made it)
   * instead of running the handler; what it resolves to is not the request's answer (`around` makes that).
   */
  queue?: (call: CheckedCall, authInfo: AuthInfo | undefined) => Promise<ToolResult>;
}

/** What one task-capable call runs with. */
export interface TaskCallSetup {
  readonly tasks: TasksPolicy | undefined;
  readonly tool: ToolTaskPolicy;
  readonly name: string;
  readonly observer: Observer;
  /** The platform's `waitUntil` (`FetchExtras.waitUntil`): a task's run outlives the response through it. */
  readonly keep?: (rest: Promise<unknown>) => void;
  /** Who called and which request, for `observe.onTask`. */
  readonly authInfo?: AuthInfo;
  readonly requestId?: string | number;
  /** The request's span, when traced: told of the task made. */
  readonly trace?: RequestTrace;
}

/**
 * The call's slot, and what runs around the SDK's handling of it (`next`): the answer the request gets.
 * @throws ProtocolError `-32021` (Missing Required Client Capability) for a `'required'` tool this request
 *   cannot run as a task.
 */
export function taskCall(setup: TaskCallSetup): {
  slot: TaskSlot;
  around: (
    callerOf: () => CallerTasks,
    parent: AbortSignal,
    next: (retry?: Retry) => Promise<unknown>,
  ) => Promise<unknown>;
} {
  const slot: TaskSlot = {};
  const around = async (
    callerOf: () => CallerTasks,
    parent: AbortSignal,
    next: (retry?: Retry) => Promise<unknown>,
  ) => {
    const caller = guarded(setup.observer, setup.name, callerOf);
    const route = taskRoute(setup.tool, setup.tasks, caller);
    if (route === 'refuse') {
      const error = missingTasksCapability();
      throw new ProtocolError(error.code, error.message, error.data);
    }
    if (route === 'plain') return next();
    const { tasks } = setup;
    if (tasks?.run) return queued(setup, { ...tasks, run: tasks.run }, slot, caller.owner!, next);
    const answer = await runTaskCall({
      tasks: setup.tasks!,
      tool: setup.tool,
      name: setup.name,
      owner: caller.owner!,
      call: { tool: setup.name },
      parent,
      ...runHooks(slot, setup.tool.timeoutMs, next, setup.observer, setup.name),
      told: teller(setup, slot),
      ...(setup.keep && { keep: setup.keep }),
    }).catch((error: unknown) => {
      throw forClient(setup.observer, setup.name, error);
    });
    if (answer.kind === 'inline') return answer.value;
    if (answer.kind === 'task') return createTaskResult(answer.view);
    return errorResult(`Tool ${setup.name}: this caller has too many open tasks; retry when one finishes`);
  };
  return { slot, around };
}

/**
 * A call handed to a queue (`tasks.run`): the SDK's handling runs as for any call (the scope challenge, the
 * argument check, a rate refusal), and once the executor reaches the handler it hands the call over instead
 * (`slot.queue`): the task is created unclaimed and given to the hook. The request is answered with the task;
 * a call refused before it reached the handler, with the SDK's answer.
 */
async function queued(
  setup: TaskCallSetup,
  tasks: QueueCall['tasks'],
  slot: TaskSlot,
  owner: string,
  next: () => Promise<unknown>,
): Promise<unknown> {
  const { observer, name } = setup;
  let handed: ReturnType<typeof handToQueue> | undefined;
  // The id `onError` got for a hook that threw, which failed the task.
  let failedId: string | undefined;
  slot.queue = (call, authInfo) => {
    handed = handToQueue({
      tasks,
      tool: setup.tool,
      name,
      owner,
      call: queuedCall(name, call.args, authInfo),
      failure: (error) => {
        const errorId = observeError(observer, error, { phase: 'task', tool: name });
        failedId = errorId;
        return { code: -32603, message: maskedText(observer, `Tool ${name}`, errorId, error) };
      },
      onTrouble: (error) => void observeError(observer, error, { phase: 'task', tool: name }),
    });
    // What the SDK makes of this is not sent: the request's answer is made from `handed` below.
    return handed.then(
      () => HANDED,
      () => HANDED,
    );
  };
  const value = await next().catch((error: unknown) => {
    if (!handed) throw error;
  });
  if (!handed) return value;
  const answer = await handed.catch((error: unknown) => {
    throw forClient(observer, name, error);
  });
  if (answer.kind === 'task') {
    const watch = created(setup, answer.view.taskId, 'queue');
    if (answer.view.status === 'failed' && failedId !== undefined) {
      observeTask(observer, watch, { kind: 'failed', status: 'failed', errorId: failedId });
    }
    return createTaskResult(answer.view);
  }
  return errorResult(`Tool ${name}: this caller has too many open tasks; retry when one finishes`);
}

/**
 * What a task's run tells, for `observe.onTask`: its creation (also to the request's span), then each thing it
 * did, as `happening` words it.
 */
function teller(setup: TaskCallSetup, slot: TaskSlot): (event: RunEvent) => void {
  let watch: TaskWatch | undefined;
  return (event) => {
    if (event.kind === 'created') watch = created(setup, event.taskId, event.via);
    else if (watch) observeTask(setup.observer, watch, happening(event.kind, slot));
  };
}

/** A task made for this request's call: told to its span and to `onTask`; what its later events carry. */
function created(setup: TaskCallSetup, taskId: string, via: NonNullable<TaskHappening['via']>): TaskWatch {
  setup.trace?.taskCreated(taskId);
  const watch: TaskWatch = {
    taskId,
    tool: setup.name,
    since: performance.now(),
    ...(setup.authInfo && { authInfo: setup.authInfo }),
    ...(setup.requestId !== undefined && { requestId: setup.requestId }),
  };
  observeTask(setup.observer, watch, { kind: 'created', status: 'working', via });
  return watch;
}

/**
 * A run's event after the creation, as `onTask` words it: a lost lease leaves the task `failed`; a failure the
 * handler threw carries the id `onError` got for it.
 */
export function happening(kind: Exclude<RunEvent['kind'], 'created'>, slot: TaskSlot): TaskHappening {
  if (kind === 'lost') return { kind, status: 'failed' };
  if (kind === 'failed')
    return { kind, status: 'failed', ...(slot.errorId !== undefined && { errorId: slot.errorId }) };
  return { kind, status: kind };
}

/** What the executor returns for a call it handed to a queue (never sent). */
const HANDED: ToolResult = Object.freeze({ content: [] });

/**
 * What decides how a request's call runs: its era, whether its `_meta` declared the extension (the SDK lifts
 * the declaration into `envelope`), and, only for a request that could have a task, its caller's owner (so
 * `anonymousOwner` runs only then).
 */
export function callerTasks(
  tasks: TasksPolicy | undefined,
  era: 'modern' | 'legacy',
  envelope: unknown,
  who: { authInfo?: AuthInfo; request: Request; host: unknown },
): CallerTasks {
  const modern = era === 'modern';
  const declared = declaresTasks({ _meta: envelope });
  if (!tasks || !modern || !declared) return { modern, declared };
  const owner = callerOwner(tasks, who.authInfo, who.request, who.host);
  return { modern, declared, ...(owner !== undefined && { owner }) };
}

/**
 * How a call's task run drives it, the same in the accepting process and in a queue's consumer: `start` puts
 * the run's signal, status setter and the tool's task timeout in the call's slot and runs it; its outcome,
 * input rounds and resumption read what the handler returned; store trouble goes to `onError` (phase `task`).
 */
export function runHooks(
  slot: TaskSlot,
  timeoutMs: number | undefined,
  run: (retry?: Retry) => Promise<unknown>,
  observer: Observer,
  tool: string,
): Pick<TaskRun<unknown>, 'start' | 'outcome' | 'inputRequests' | 'resume' | 'onTrouble'> {
  return {
    start: (signal, status) => {
      slot.signal = signal;
      slot.status = status;
      if (timeoutMs !== undefined) slot.timeoutMs = timeoutMs;
      return run();
    },
    outcome: (value) => outcomeOf(value, slot),
    inputRequests: (value) => (isInputRequest(value) ? (value.inputRequests as Record<string, JsonObject>) : undefined),
    resume: (value, answers) =>
      run({
        inputResponses: answers,
        ...(isInputRequest(value) && typeof value.requestState === 'string' && { requestState: value.requestState }),
      }),
    onTrouble: ({ step, refused, error }) =>
      observeError(observer, error ?? new Error(`task ${step} refused: ${refused?.reason}`), { phase: 'task', tool }),
  };
}

/** A finished call as its task ends: failed with the JSON-RPC error the handler threw, else its result. */
function outcomeOf(value: unknown, slot: TaskSlot): CallOutcome {
  if (slot.thrown) {
    const { code, message, data } = slot.thrown;
    return { status: 'failed', error: { code, message, ...(data !== undefined && { data: data as JsonObject }) } };
  }
  if (
    typeof value === 'object' &&
    value !== null &&
    (value as { resultType?: unknown }).resultType === 'input_required'
  ) {
    // A round that carries only `requestState`: nothing a task could ask the client for.
    return {
      status: 'failed',
      error: { code: -32603, message: 'Task failed: the tool asked for no input it could be given' },
    };
  }
  // As the plain call's answer says it on 2026-07-28 (the SDK stamps `resultType` when it encodes an answer;
  // a task's result is stored before any encoding): clients decode the inlined result as a tool result.
  return { status: 'completed', result: { ...(value as CallToolResult as JsonObject), resultType: 'complete' } };
}

/** A round of input requests (an `InputRequiredResult`) with its `inputRequests`. */
function isInputRequest(value: unknown): value is { inputRequests: object; requestState?: unknown } {
  if (typeof value !== 'object' || value === null) return false;
  const { resultType, inputRequests } = value as { resultType?: unknown; inputRequests?: unknown };
  return resultType === 'input_required' && typeof inputRequests === 'object' && inputRequests !== null;
}

/**
 * `tasks/get`, `tasks/update` and `tasks/cancel` for one request: each reads the request's declaration and its
 * caller's owner, then the store (tasks/requests.ts), and answers a task whose tool this request may no longer
 * reach (`reaches`: `ToolSet.reaches`, from this request's visibility and token) as an unknown one. `trace`:
 * the request's span, told the task's status.
 */
export function taskMethods(
  tasks: TasksPolicy,
  observer: Observer,
  who: { authInfo?: AuthInfo; request: Request; host: unknown },
  reaches?: (tool: string | undefined) => boolean,
  trace?: RequestTrace,
): TaskMethods {
  const asker = (ctx: ServerContext): TaskAsker => {
    const caller = callerTasks(tasks, 'modern', ctx.mcpReq.envelope, who);
    return {
      declared: caller.declared,
      ...(caller.owner !== undefined && { owner: caller.owner }),
      ...(reaches && { reaches }),
    };
  };
  const answer = async (step: () => Promise<JsonObject>) => {
    try {
      return await step();
    } catch (error) {
      throw isTaskRequestError(error) ? error : forClient(observer, undefined, error);
    }
  };
  // The span's `mcp.task.status`: what `tasks/get` read; for an update or a cancel (whose answer is an empty
  // ack), the task read back, which costs a store read only when the request is traced.
  const told = (result: JsonObject) => {
    if (typeof result.status === 'string') trace?.taskStatus(result.status);
    return result;
  };
  const readBack = async (taskId: string, ctx: ServerContext, ack: JsonObject) => {
    if (!trace) return ack;
    // The step was done: a read that fails now leaves the span without a status, not the client without its ack.
    const read = await getTask(tasks, asker(ctx), taskId).catch(() => undefined);
    if (read) told(read);
    return ack;
  };
  return {
    get: (taskId, ctx) => answer(async () => told(await getTask(tasks, asker(ctx), taskId))),
    update: (taskId, responses, ctx) =>
      answer(async () => readBack(taskId, ctx, await updateTask(tasks, asker(ctx), taskId, responses))),
    cancel: (taskId, ctx) => answer(async () => readBack(taskId, ctx, await cancelTask(tasks, asker(ctx), taskId))),
  };
}

/** `callerOf()`, with a throw (the `anonymousOwner` hook's) answered as `forClient` answers it. */
function guarded(observer: Observer, tool: string, callerOf: () => CallerTasks): CallerTasks {
  try {
    return callerOf();
  } catch (error) {
    throw forClient(observer, tool, error);
  }
}

/**
 * What the client is told of an error on a task's path: a JSON-RPC error the SDK or the handler meant for it as
 * it is; anything else (the store failed, a hook threw) reported to `onError` (phase `task`) and masked behind
 * its id (`-32603`), so no store's or hook's text reaches a client unless `exposeErrors` says so.
 */
function forClient(observer: Observer, tool: string | undefined, error: unknown): unknown {
  if (error instanceof ProtocolError) return error;
  const errorId = observeError(observer, error, { phase: 'task', ...(tool !== undefined && { tool }) });
  return new ProtocolError(
    -32603,
    maskedText(observer, tool === undefined ? 'Task request' : `Tool ${tool}`, errorId, error),
  );
}
