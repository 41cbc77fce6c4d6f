/**
 * The wire shapes built from store views, held to the tasks extension's own schemas
 * (`@modelcontextprotocol/ext-tasks` 0.2, `core/v2`) for every status, and to what the conformance scenarios
 * check beyond them (no legacy keys, no `requestState`, ISO times); and the declaration check against
 * ext-tasks's own.
 */
import {
  CancelTaskResultV2Schema,
  CreateTaskResultV2Schema,
  GetTaskResultV2Schema,
  hasTaskClientCapabilityV2,
  UpdateTaskResultV2Schema,
} from '@modelcontextprotocol/ext-tasks/core/v2';
import { describe, expect, it } from 'vitest';
import { createMemoryTaskStore } from '../../../src/core/tasks/memory.js';
import { LAPSED_ERROR, type TaskView, taskOwner } from '../../../src/core/tasks/store.js';
import {
  createTaskResult,
  declaresTasks,
  getTaskResult,
  missingTasksCapability,
  TASKS_EXTENSION,
  taskAck,
} from '../../../src/core/tasks/wire.js';

let clock = Date.UTC(2026, 6, 28, 12, 0, 0, 250);
const store = createMemoryTaskStore({ now: () => clock });
const owner = taskOwner({ subject: 'wire' });

/** One view per status, made through the store's own steps. */
async function views(): Promise<Record<TaskView['status'], TaskView>> {
  const make = async () => {
    const created = await store.create({ owner, ttlMs: 60_000, pollIntervalMs: 1_000, call: null, leaseMs: 5_000 });
    if (!created.ok) throw new Error('not created');
    return created;
  };
  const working = await make();
  await store.update(working.lease!, { statusMessage: 'step 2 of 5' });
  const asking = await make();
  const elicit = { method: 'elicitation/create', params: { message: 'Sure?', requestedSchema: { type: 'object' } } };
  await store.update(asking.lease!, { inputRequests: { confirm: elicit } });
  const done = await make();
  await store.settle(done.lease!, {
    status: 'completed',
    result: { content: [{ type: 'text', text: 'ok' }], structuredContent: { n: 1 }, isError: false },
  });
  const cancelled = await make();
  await store.requestCancel(owner, cancelled.task.taskId);
  const lapsed = await make();
  clock += 1;
  const get = async (id: string) => (await store.get(owner, id))!;
  const result = {
    working: await get(working.task.taskId),
    input_required: await get(asking.task.taskId),
    completed: await get(done.task.taskId),
    cancelled: await get(cancelled.task.taskId),
    failed: undefined as unknown as TaskView,
  };
  clock += 10_000;
  result.failed = await get(lapsed.task.taskId);
  expect(result.failed.error).toEqual(LAPSED_ERROR);
  return result;
}

describe('tasks wire', () => {
  it('builds a CreateTaskResult the extension schema accepts: flat, ISO times, no legacy or foreign keys', async () => {
    const created = await store.create({ owner, ttlMs: null, call: null });
    if (!created.ok) throw new Error('not created');
    const wire = createTaskResult(created.task);
    expect(CreateTaskResultV2Schema.safeParse(wire).success).toBe(true);
    expect(wire).toEqual({
      resultType: 'task',
      taskId: created.task.taskId,
      status: 'working',
      createdAt: new Date(created.task.createdAt).toISOString(),
      lastUpdatedAt: new Date(created.task.createdAt).toISOString(),
      ttlMs: null,
    });
  });

  it('builds a tasks/get result the extension schema accepts for every status, with only that status’s payload', async () => {
    const byStatus = await views();
    for (const [status, view] of Object.entries(byStatus)) {
      const wire = getTaskResult(view);
      const parsed = GetTaskResultV2Schema.safeParse(wire);
      expect(parsed.success, `${status}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
      expect(wire.resultType).toBe('complete');
      expect(wire.status).toBe(status);
      for (const key of ['ttl', 'pollInterval', 'requestState', 'task'])
        expect(wire, `${status} ${key}`).not.toHaveProperty(key);
      expect('inputRequests' in wire).toBe(status === 'input_required');
      expect('result' in wire).toBe(status === 'completed');
      expect('error' in wire).toBe(status === 'failed');
      expect(wire.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(wire.pollIntervalMs).toBe(1_000);
    }
    expect(getTaskResult(byStatus.working).statusMessage).toBe('step 2 of 5');
    expect(getTaskResult(byStatus.completed).result).toEqual({
      content: [{ type: 'text', text: 'ok' }],
      structuredContent: { n: 1 },
      isError: false,
    });
  });

  it('acknowledges tasks/update and tasks/cancel with an empty complete result', () => {
    expect(taskAck()).toEqual({ resultType: 'complete' });
    expect(UpdateTaskResultV2Schema.safeParse(taskAck()).success).toBe(true);
    expect(CancelTaskResultV2Schema.safeParse(taskAck()).success).toBe(true);
  });

  it('names the missing capability in -32021 the way the conformance scenario reads it', () => {
    const error = missingTasksCapability();
    expect(error.code).toBe(-32021);
    expect(error.data).toEqual({ requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } });
  });

  it('reads a declaration as ext-tasks does, and accepts settings a later revision may add', () => {
    const withExtension = (value: unknown) => ({
      _meta: { 'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS_EXTENSION]: value } } },
    });
    const cases: unknown[] = [
      undefined,
      null,
      {},
      { _meta: null },
      { _meta: { 'io.modelcontextprotocol/clientCapabilities': {} } },
      { _meta: { 'io.modelcontextprotocol/clientCapabilities': { extensions: {} } } },
      withExtension({}),
      withExtension(null),
      withExtension(true),
      withExtension([]),
    ];
    for (const params of cases)
      expect(declaresTasks(params), JSON.stringify(params)).toBe(hasTaskClientCapabilityV2(params));
    expect(declaresTasks(withExtension({ future: true }))).toBe(true);
    // Only own keys count (ext-tasks reads inherited ones too): a parsed body has none, a prototype is not sent.
    const inherited = Object.create({
      'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS_EXTENSION]: {} } },
    });
    expect(declaresTasks({ _meta: inherited })).toBe(false);
  });
});
