/**
 * One task-capable call as `runTaskCall` runs it, on the in-memory store with a clock the test moves: inline
 * within the wait, a task past it, the signal aborted when the lease is lost or the caller is over its cap,
 * a failing store, and what is reported as trouble. And a call handed to a queue (`handToQueue`): created
 * before the hook hears of it, failed when the hook throws unless a consumer's claim came first.
 */
import { describe, expect, it } from 'vitest';
import { createMemoryTaskStore } from '../../../src/core/tasks/memory.js';
import {
  type CallOutcome,
  handToQueue,
  type RunEvent,
  runTaskCall,
  type TaskCall,
} from '../../../src/core/tasks/run.js';
import { settleTasks, settleToolTask } from '../../../src/core/tasks/settle.js';
import { LAPSED_ERROR, type TaskStore, taskOwner } from '../../../src/core/tasks/store.js';

const owner = taskOwner({ subject: 'run' });
const until = async (done: () => boolean) => {
  for (let i = 0; i < 500 && !done(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(done()).toBe(true);
};

function setup(options: { store?: TaskStore; inlineMs?: number; leaseMs?: number; maxOpen?: number } = {}) {
  let clock = 1_000_000;
  const store = options.store ?? createMemoryTaskStore({ now: () => clock });
  const tasks = settleTasks({
    store,
    leaseMs: options.leaseMs ?? 30,
    ...(options.maxOpen !== undefined && { maxOpen: options.maxOpen }),
  })!;
  const tool = settleToolTask({ name: 't', task: { support: 'optional', inlineMs: options.inlineMs ?? 0 } }, tasks)!;
  const trouble: unknown[] = [];
  const signals: AbortSignal[] = [];
  const call = <T>(start: (signal: AbortSignal) => Promise<T>, outcome: (value: T) => CallOutcome): TaskCall<T> => ({
    tasks,
    tool,
    name: 't',
    owner,
    call: { tool: 't' },
    parent: new AbortController().signal,
    start: (signal) => {
      signals.push(signal);
      return start(signal);
    },
    outcome,
    onTrouble: (what) => trouble.push(what),
  });
  return { store, call, trouble, signals, advance: (ms: number) => (clock += ms) };
}

const completed = (text: string): CallOutcome => ({
  status: 'completed',
  result: { content: [{ type: 'text', text }] },
});
const never = (signal: AbortSignal) =>
  new Promise<string>((resolve) => signal.addEventListener('abort', () => resolve('stopped'), { once: true }));

describe('runTaskCall', () => {
  it('answers inline what finishes within the wait, and stores nothing', async () => {
    const { call, store } = setup({ inlineMs: 1_000 });
    const answer = await runTaskCall(call(async () => 'fast', completed));
    expect(answer).toEqual({ kind: 'inline', value: 'fast' });
    expect((store as ReturnType<typeof createMemoryTaskStore>).size()).toBe(0);
  });

  it('aborts the signal and reports trouble when a heartbeat finds the lease lapsed; the task reads failed', async () => {
    const { call, store, trouble, signals, advance } = setup({ leaseMs: 30 });
    const answer = await runTaskCall(call(never, completed));
    if (answer.kind !== 'task') throw new Error(`not a task: ${answer.kind}`);
    advance(1_000);
    await until(() => signals[0]!.aborted);
    expect((signals[0]!.reason as Error).message).toBe('Task lease lost');
    // One report, of the heartbeat the store refused (a lapsed lease reads `lost`); no settle is attempted.
    expect(trouble).toEqual([{ step: 'heartbeat', refused: { ok: false, reason: 'lost' } }]);
    const view = await store.get(owner, answer.view.taskId);
    expect(view).toMatchObject({ status: 'failed', error: LAPSED_ERROR });
  });

  it('tells its events in order, each end once: created at once for inlineMs 0, then lost when the lease lapses', async () => {
    const { call, signals, advance } = setup({ leaseMs: 30 });
    const told: RunEvent[] = [];
    const answer = await runTaskCall({ ...call(never, completed), told: (event) => void told.push(event) });
    if (answer.kind !== 'task') throw new Error(`not a task: ${answer.kind}`);
    expect(told).toEqual([{ kind: 'created', taskId: answer.view.taskId, via: 'immediate' }]);
    advance(1_000);
    await until(() => signals[0]!.aborted && told.length === 2);
    expect(told[1]).toEqual({ kind: 'lost' });
  });

  it('tells a call that outlasted its inline wait as created after it, then how its settle ended', async () => {
    const { call } = setup({ inlineMs: 1, leaseMs: 60_000 });
    let finish!: (value: string) => void;
    const told: RunEvent[] = [];
    const answer = await runTaskCall({
      ...call(() => new Promise<string>((resolve) => (finish = resolve)), completed),
      told: (event) => void told.push(event),
    });
    expect(answer.kind).toBe('task');
    expect(told).toMatchObject([{ kind: 'created', via: 'inline-wait' }]);
    finish('late');
    await until(() => told.length === 2);
    expect(told[1]).toEqual({ kind: 'completed' });
  });

  it('stops the call and makes no task when the caller has maxOpen open tasks', async () => {
    const { call, signals } = setup({ maxOpen: 1, leaseMs: 60_000 });
    expect((await runTaskCall(call(never, completed))).kind).toBe('task');
    const second = await runTaskCall(call(never, completed));
    expect(second).toEqual({ kind: 'full' });
    // Created at once (inlineMs 0): the second call never started.
    expect(signals).toHaveLength(1);
    const inline = setup({ maxOpen: 1, leaseMs: 60_000, inlineMs: 5, store: undefined });
    expect((await runTaskCall(inline.call(never, completed))).kind).toBe('task');
    expect(await runTaskCall(inline.call(never, completed))).toEqual({ kind: 'full' });
    expect(inline.signals[1]!.aborted).toBe(true);
  });

  it("rejects with the store's failure, after aborting the call's signal", async () => {
    const failing = { ...createMemoryTaskStore(), create: async () => Promise.reject(new Error('redis down')) };
    const { call, signals } = setup({ store: failing, inlineMs: 5 });
    await expect(runTaskCall(call(never, completed))).rejects.toThrow('redis down');
    expect(signals[0]!.aborted).toBe(true);
  });

  it('settles the outcome of a call that ends after it became a task', async () => {
    const { call, store } = setup({ leaseMs: 60_000 });
    let finish: ((value: string) => void) | undefined;
    const later = () =>
      new Promise<string>((resolve) => {
        finish = resolve;
      });
    const answer = await runTaskCall(call(later, completed));
    if (answer.kind !== 'task') throw new Error('not a task');
    expect(answer.view.status).toBe('working');
    finish!('late');
    let view = await store.get(owner, answer.view.taskId);
    for (let i = 0; i < 200 && view?.status === 'working'; i++) {
      await new Promise((r) => setTimeout(r, 5));
      view = await store.get(owner, answer.view.taskId);
    }
    expect(view).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'late' }] } });
  });
});

describe('handToQueue', () => {
  const queue = (store: TaskStore, run: (job: { taskId: string; tool: string }) => Promise<void> | void) => {
    const tasks = settleTasks({ store, leaseMs: 60_000, run })!;
    const tool = settleToolTask({ name: 'q', task: { support: 'required' } }, tasks)!;
    return {
      tasks: { ...tasks, run },
      tool,
      name: 'q',
      owner,
      call: { tool: 'q', arguments: {} },
      failure: () => ({ code: -32603, message: 'Tool q failed (error id e1)' }),
    };
  };

  it('creates the task unclaimed before the hook hears of it; a consumer can claim it once', async () => {
    const store = createMemoryTaskStore();
    const heard: Array<string | undefined> = [];
    const answer = await handToQueue(
      queue(store, async (job) => void heard.push((await store.get(owner, job.taskId))?.status)),
    );
    expect(answer.kind).toBe('task');
    expect(heard).toEqual(['working']);
    const taskId = (answer as { view: { taskId: string } }).view.taskId;
    expect((await store.claim(taskId, 1_000)).ok).toBe(true);
    expect(await store.claim(taskId, 1_000)).toEqual({ ok: false, reason: 'held' });
  });

  it('fails the task when the hook throws, unless a consumer claimed it first: then its run stands', async () => {
    const store = createMemoryTaskStore();
    const failed = await handToQueue(
      queue(store, () => {
        throw new Error('queue down');
      }),
    );
    expect(failed).toMatchObject({
      kind: 'task',
      view: { status: 'failed', error: { code: -32603, message: 'Tool q failed (error id e1)' } },
    });
    const claimedFirst = await handToQueue(
      queue(store, async (job) => {
        await store.claim(job.taskId, 60_000);
        throw new Error('acknowledged late');
      }),
    );
    expect(claimedFirst).toMatchObject({ kind: 'task', view: { status: 'working' } });
  });
});
