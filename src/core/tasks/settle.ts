/**
 * The `tasks` options and each tool's `task`, settled once per mount into small frozen policies, and what a
 * request reads with them: whether a call runs as a task (`taskRoute`) and whose tasks a caller sees
 * (`callerOwner`).
 */
import type { AuthInfo } from '@modelcontextprotocol/server';
import type { ToolTaskOptions } from '../model/tool.js';
import { hookOption, oneOf, optionKeys } from '../settle/checks.js';
import { positiveInteger } from '../settle/positive-integer.js';
import type { TasksOptions } from './options.js';
import { type TaskStore, taskOwner } from './store.js';

/** The keys `tasks` takes: one list, tied to `TasksOptions` by the compiler. */
export const TASKS_KEYS = optionKeys<TasksOptions>()(['store', 'leaseMs', 'maxOpen', 'anonymousOwner', 'run']);

/** The keys a tool's `task` takes. */
const TOOL_TASK_KEYS = optionKeys<ToolTaskOptions>()(['support', 'inlineMs', 'ttlMs', 'pollIntervalMs', 'timeoutMs']);

const DEFAULT_LEASE_MS = 30_000;
const DEFAULT_TTL_MS = 3_600_000;
const DEFAULT_POLL_INTERVAL_MS = 1_000;
const DEFAULT_INLINE_MS = { optional: 500, required: 0 } as const;

/** The mount's tasks: its store and what a run holds. Frozen. */
export interface TasksPolicy {
  readonly store: TaskStore;
  /** The lease a running task holds, in milliseconds. */
  readonly leaseMs: number;
  /** A heartbeat every third of the lease. */
  readonly heartbeatMs: number;
  readonly maxOpen?: number;
  readonly anonymousOwner?: TasksOptions['anonymousOwner'];
  /** Hands each task to a queue; undefined: the default run, in the process that accepted the call. */
  readonly run?: TasksOptions['run'];
}

/** One tool's `task`, defaulted. Frozen. */
export interface ToolTaskPolicy {
  readonly support: 'optional' | 'required';
  readonly inlineMs: number;
  readonly ttlMs: number | null;
  readonly pollIntervalMs: number;
  readonly timeoutMs?: number;
}

/**
 * Settles `tasks`; undefined when the mount runs none.
 * @throws TypeError when `store` is missing or lacks a step, or a count is not a positive integer.
 * @example `settleTasks({ store: createMemoryTaskStore(), leaseMs: 15_000 })?.heartbeatMs // 5000`
 */
export function settleTasks(tasks: TasksOptions | undefined): TasksPolicy | undefined {
  if (tasks === undefined) return undefined;
  const { store } = tasks;
  const steps = ['create', 'get', 'answer', 'requestCancel', 'claim', 'heartbeat', 'update', 'settle'] as const;
  if (typeof store !== 'object' || store === null || steps.some((s) => typeof store[s] !== 'function')) {
    throw new TypeError(
      'mcp-mount: tasks.store must be a task store (createMemoryTaskStore, createRedisTaskStore, createDurableObjectTaskStore)',
    );
  }
  hookOption('tasks.anonymousOwner', tasks.anonymousOwner);
  hookOption('tasks.run', tasks.run);
  const leaseMs = positiveInteger('tasks.leaseMs', tasks.leaseMs, DEFAULT_LEASE_MS);
  return Object.freeze({
    store,
    leaseMs,
    heartbeatMs: Math.max(1, Math.floor(leaseMs / 3)),
    ...(tasks.maxOpen !== undefined && { maxOpen: positiveInteger('tasks.maxOpen', tasks.maxOpen) }),
    ...(tasks.anonymousOwner && { anonymousOwner: tasks.anonymousOwner }),
    ...(tasks.run && { run: tasks.run }),
  });
}

/**
 * Settles one tool's `task`; undefined for a tool that never runs as a task.
 * @throws TypeError naming the tool for a value that means nothing, `task` beside `execution`, or
 *   `support: 'required'` on a mount without `tasks` (no call of it could ever succeed).
 */
export function settleToolTask(
  tool: { name: string; task?: unknown; execution?: unknown },
  tasks: TasksPolicy | undefined,
): ToolTaskPolicy | undefined {
  const { task, name } = tool;
  if (task === undefined) return undefined;
  const what = `tool ${name}: task`;
  if (typeof task !== 'object' || task === null || Array.isArray(task)) {
    throw new TypeError(`mcp-mount: ${what} must be an object ({ support: 'optional' | 'required', ... })`);
  }
  for (const key of Object.keys(task)) {
    if (!(TOOL_TASK_KEYS as readonly string[]).includes(key)) {
      throw new TypeError(`mcp-mount: ${what}.${key} is not an option; task takes ${TOOL_TASK_KEYS.join(', ')}`);
    }
  }
  if (tool.execution !== undefined) {
    throw new TypeError(`mcp-mount: ${what} and execution are both given; leave execution out (task derives it)`);
  }
  const options = task as ToolTaskOptions;
  if (options.support === undefined) throw new TypeError(`mcp-mount: ${what}.support is required`);
  const support = oneOf(`${what}.support`, options.support, ['optional', 'required'], 'optional');
  if (support === 'required' && tasks === undefined) {
    throw new TypeError(`mcp-mount: ${what}.support is 'required', but the mount has no tasks.store to run it`);
  }
  const ttlMs = options.ttlMs === null ? null : positiveInteger(`${what}.ttlMs`, options.ttlMs, DEFAULT_TTL_MS);
  return Object.freeze({
    support,
    inlineMs: nonNegativeInteger(`${what}.inlineMs`, options.inlineMs, DEFAULT_INLINE_MS[support]),
    ttlMs,
    pollIntervalMs: positiveInteger(`${what}.pollIntervalMs`, options.pollIntervalMs, DEFAULT_POLL_INTERVAL_MS),
    ...(options.timeoutMs !== undefined && { timeoutMs: positiveInteger(`${what}.timeoutMs`, options.timeoutMs) }),
  });
}

/** What decides how one `tools/call` runs: the request's era, whether it declared the extension, its owner. */
export interface CallerTasks {
  /** Served on the 2026-07-28 revision (the extension exists only there). */
  readonly modern: boolean;
  /** The request declared `io.modelcontextprotocol/tasks` in its `_meta` client capabilities. */
  readonly declared: boolean;
  /** Whose tasks this caller's are (`callerOwner`); undefined: this caller gets no tasks. */
  readonly owner?: string;
}

/**
 * How a call of a tool runs: `'plain'` (a result, as always), `'task'` (a task when it outlasts the inline
 * wait), or `'refuse'` (`-32021`: the tool must run as a task and this request cannot have one). Only a
 * 2026-07-28 request that declared the extension, from a caller with an owner, on a mount with a store, ever
 * gets `'task'`.
 */
export function taskRoute(
  tool: ToolTaskPolicy | undefined,
  tasks: TasksPolicy | undefined,
  caller: CallerTasks,
): 'plain' | 'task' | 'refuse' {
  if (tool === undefined) return 'plain';
  const eligible = tasks !== undefined && caller.modern && caller.declared && caller.owner !== undefined;
  if (eligible) return 'task';
  return tool.support === 'required' ? 'refuse' : 'plain';
}

/**
 * The owner key of a caller's tasks: an authenticated caller's token (its issuer `extra.iss`, client id and
 * subject `extra.sub`), else what `anonymousOwner` returns for this request, else undefined (no tasks).
 * A token with none of the three has no owner either: it would share one with every such token.
 * @throws what `anonymousOwner` throws (the request is then answered 500, as with other hooks).
 */
export function callerOwner(
  policy: TasksPolicy,
  authInfo: AuthInfo | undefined,
  request: Request,
  host: unknown,
): string | undefined {
  if (authInfo) return tokenOwner(authInfo);
  const key = policy.anonymousOwner?.({ request, host });
  return typeof key === 'string' && key !== '' ? taskOwner({ anonymous: key }) : undefined;
}

/**
 * The owner key of an authenticated caller: its token's issuer (`extra.iss`), client id and subject
 * (`extra.sub`), as `taskOwner` keys them; undefined for a token with none of the three (it would share one
 * key with every such token). What ties a caller's tasks, and its in-flight calls (serve/in-flight.ts), to it.
 */
export function tokenOwner(authInfo: AuthInfo): string | undefined {
  const extra = authInfo.extra ?? {};
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
  const issuer = text(extra.iss);
  const clientId = text(authInfo.clientId);
  const subject = text(extra.sub);
  if (issuer === undefined && clientId === undefined && subject === undefined) return undefined;
  return taskOwner({
    ...(issuer && { issuer }),
    ...(clientId && { clientId }),
    ...(subject && { subject }),
  });
}

function nonNegativeInteger(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new TypeError(`mcp-mount: ${name} must be a non-negative integer (milliseconds), got ${String(value)}`);
  }
  return value;
}
