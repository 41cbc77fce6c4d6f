/**
 * The Cloudflare Queues recipe for tasks (examples/cloudflare-worker/tasks-queue, the Workers guide's recipe)
 * run as written in workerd under `wrangler dev` (local queues and Durable Objects): the call is answered with a
 * task at once, `tasks.run` sends the job to the queue, the same Worker's `queue` handler runs it with
 * `handler.runTask` and acks, and a poll reads the task completed with the handler's last status message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, pollTask } from '../../support/tasks.js';
import { type RunningProcess, startWrangler } from '../support/processes.js';

let worker: RunningProcess;

beforeAll(async () => {
  worker = await startWrangler('examples/cloudflare-worker/tasks-queue/wrangler.jsonc');
});
afterAll(() => worker?.stop());

describe('tasks handed to Cloudflare Queues in workerd', () => {
  it('runs the job in the queue consumer through runTask, to completed', async () => {
    const url = `${worker.origin}/mcp`;
    const created = (await call(url, 'crawl', { site: 'https://example.com', pages: 3 })).message.result;
    expect(created).toMatchObject({ resultType: 'task', status: 'working' });
    const done = await pollTask(url, created.taskId, {}, undefined, 30_000);
    expect(done).toMatchObject({
      status: 'completed',
      statusMessage: 'page 3 of 3',
      result: { content: [{ type: 'text', text: 'crawled 3 pages of https://example.com' }] },
    });
  });
});
