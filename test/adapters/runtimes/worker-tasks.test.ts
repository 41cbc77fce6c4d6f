/**
 * A task run in workerd by the Worker that accepted its call, past the response that answered it: the fetch
 * adapter hands the run to `ctx.waitUntil`, so a client polling afterwards reads the task completed (with the
 * status message the handler set after the response), not cut with the request and read failed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, pollTask } from '../../support/tasks.js';
import { type RunningProcess, startWrangler } from '../support/processes.js';

let worker: RunningProcess;

beforeAll(async () => {
  worker = await startWrangler('test/adapters/runtimes/fixtures/tasks-worker/wrangler.jsonc');
});
afterAll(() => worker?.stop());

describe('a task on the fetch adapter in workerd', () => {
  it('runs on after the response through ctx.waitUntil, to completed', async () => {
    const url = `${worker.origin}/mcp`;
    const created = (await call(url, 'slow', {})).message.result;
    expect(created).toMatchObject({ resultType: 'task', status: 'working' });
    const done = await pollTask(url, created.taskId, {}, undefined, 30_000);
    expect(done).toMatchObject({
      status: 'completed',
      statusMessage: 'half way',
      result: { content: [{ type: 'text', text: 'slow done' }] },
    });
  });
});
