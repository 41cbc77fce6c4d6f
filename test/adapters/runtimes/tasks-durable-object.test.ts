/**
 * The Durable Object task store in workerd (`wrangler dev`, local only, on loopback): the shared contract,
 * each step sent from here to a test Worker that runs it through `createDurableObjectTaskStore` and a real
 * `TaskStoreObject` (test/adapters/runtimes/fixtures/tasks-worker); and what only it does: the alarm removes an
 * expired task that nobody reads.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TaskStore } from '../../../src/core/tasks/store.js';
import { taskOwner } from '../../../src/core/tasks/store.js';
import { taskStoreContract } from '../../support/task-store-contract.js';
import { type RunningProcess, startWrangler } from '../support/processes.js';

let worker: RunningProcess;

beforeAll(async () => {
  worker = await startWrangler('test/adapters/runtimes/fixtures/tasks-worker/wrangler.jsonc');
});
afterAll(() => worker?.stop());

/** A `TaskStore` whose every step runs in the Worker. */
const remote = new Proxy({} as TaskStore, {
  get:
    (_, method) =>
    async (...args: unknown[]) => {
      const response = await fetch(`${worker.origin}/store`, {
        method: 'POST',
        body: JSON.stringify({ method, args }),
      });
      const body = (await response.json()) as { value?: unknown; error?: string; type?: string };
      if (body.error !== undefined) throw body.type === 'TypeError' ? new TypeError(body.error) : new Error(body.error);
      return body.value ?? undefined;
    },
});

const keys = async (taskId: string): Promise<string[]> =>
  (await fetch(`${worker.origin}/keys?taskId=${encodeURIComponent(taskId)}`)).json() as Promise<string[]>;

taskStoreContract('Durable Object', {
  store: () => remote,
  advance: (ms) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
  // A real clock on a shared machine: a unit of margin is 400 ms.
  unit: 400,
  stored: async (taskId) => (await keys(taskId)).length,
  idPattern: /^[A-Za-z0-9_-]{43}\.[A-Za-z0-9_-]{22}$/,
  randomPart: (taskId) => taskId.split('.')[1]!,
});

describe('the Durable Object task store', () => {
  it('removes an expired task by its alarm, with no step reading it', async () => {
    const owner = taskOwner({ subject: 'alarm' });
    const created = (await remote.create({ owner, ttlMs: 300, call: null, leaseMs: 60_000 })) as {
      ok: true;
      task: { taskId: string };
    };
    expect(await keys(created.task.taskId)).toHaveLength(3);
    await expect.poll(() => keys(created.task.taskId), { timeout: 10_000, interval: 200 }).toEqual([]);
  });

  it('keeps one owner in one object: ids of one owner share their object part, two owners differ', async () => {
    const ada = taskOwner({ subject: 'ada' });
    const bob = taskOwner({ subject: 'bob' });
    const shard = async (owner: string) =>
      ((await remote.create({ owner, ttlMs: 60_000, call: null })) as { task: { taskId: string } }).task.taskId.split(
        '.',
      )[0];
    expect(await shard(ada)).toBe(await shard(ada));
    expect(await shard(ada)).not.toBe(await shard(bob));
  });
});
