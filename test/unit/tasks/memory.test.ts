/**
 * The in-memory task store against the shared contract, on a clock the test moves (so leases and TTLs lapse
 * without waiting); and what only it does: a record is freed at its expiry.
 */
import { describe, expect, it } from 'vitest';
import { createMemoryTaskStore } from '../../../src/core/tasks/memory.js';
import { taskOwner } from '../../../src/core/tasks/store.js';
import { taskStoreContract } from '../../support/task-store-contract.js';

let clock = Date.UTC(2026, 6, 28);
const store = createMemoryTaskStore({ now: () => clock });

taskStoreContract('in memory', {
  store: () => store,
  advance: async (ms) => {
    clock += ms;
  },
  unit: 1_000,
  stored: async (taskId) => (store.holds(taskId) ? 1 : 0),
});

describe('the in-memory store', () => {
  it('frees an expired record at its expiry, without a read', async () => {
    const own = createMemoryTaskStore();
    const owner = taskOwner({ anonymous: 'k' });
    const created = await own.create({ owner, ttlMs: 20, call: { big: 'x'.repeat(1000) } });
    expect(own.size()).toBe(1);
    await expect.poll(() => own.size(), { timeout: 5_000 }).toBe(0);
    expect(created.ok && (await own.get(owner, created.task.taskId))).toBeUndefined();
  });

  it('keeps a task whose TTL is longer than a timer can wait (30 days)', async () => {
    const own = createMemoryTaskStore();
    const owner = taskOwner({ anonymous: 'k' });
    const created = await own.create({ owner, ttlMs: 30 * 24 * 3600 * 1000, call: null });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(created.ok && own.holds(created.task.taskId)).toBe(true);
  });

  it('hands out copies: changing what create took or get gave changes nothing stored', async () => {
    const own = createMemoryTaskStore();
    const owner = taskOwner({ anonymous: 'k' });
    const call = { tool: 'x', arguments: { list: [1] } };
    const created = await own.create({ owner, ttlMs: null, call, leaseMs: 60_000 });
    if (!created.ok) throw new Error('not created');
    call.arguments.list.push(2);
    const result = { content: [{ type: 'text', text: 'a' }] };
    await own.settle(created.lease!, { status: 'completed', result });
    result.content[0]!.text = 'changed';
    const seen = await own.get(owner, created.task.taskId);
    (seen!.result!.content as { text: string }[])[0]!.text = 'changed again';
    expect((await own.get(owner, created.task.taskId))?.result).toEqual({ content: [{ type: 'text', text: 'a' }] });
  });
});
