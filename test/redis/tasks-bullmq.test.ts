/**
 * The BullMQ recipe of docs/guide/tasks.md, for real: mount A hands each task to a BullMQ queue
 * (`tasks.run`), a BullMQ Worker runs it through the consumer of another mount object (same tools, same
 * Redis task store, its own connections), and a client polls mount B over HTTP. On a real `redis-server`:
 * the task completes with the plain call's result, a cancel on B reaches the worker's handler, and a job
 * delivered twice runs its handler once.
 */
import { type Job, Queue, Worker } from 'bullmq';
import { defineTool, type McpMountOptions, type TaskJob, type TaskRunReport } from 'mcp-mount';
import { createMcpFetchHandler } from 'mcp-mount/adapter';
import { createRedisTaskStore } from 'mcp-mount/tasks/redis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { latch } from '../support/latch.js';
import { type RunningRedis, startRedis } from '../support/redis-server.js';
import { type Running, serveTools } from '../support/server.js';
import { call, pollTask, rpc } from '../support/tasks.js';

const QUEUE = 'mcp-tasks';
const PREFIX = 'bullmq-recipe:';

let started = latch();
let release = latch();
let aborted = latch<string>();
let runs = 0;

const render = defineTool({
  name: 'render',
  input: z.object({ scene: z.string(), wait: z.boolean().default(false) }),
  task: { support: 'required', ttlMs: 60_000 },
  handler: async ({ input }, ctx) => {
    runs += 1;
    await ctx.task?.status(`rendering ${input.scene}`);
    if (input.wait) {
      started.open();
      ctx.signal.addEventListener('abort', () => aborted.open(String((ctx.signal.reason as Error)?.message)));
      await Promise.race([release.opened, new Promise((resolve) => ctx.signal.addEventListener('abort', resolve))]);
    }
    return { content: [{ type: 'text' as const, text: `rendered ${input.scene}` }] };
  },
});

let redis: RunningRedis;
let queue: Queue<TaskJob>;
let worker: Worker<TaskJob, TaskRunReport>;
let a: Running;
let b: Running;
/** Each BullMQ job's outcome (the consumer's report), by job id, once the worker finished it. */
const reports = new Map<string, ReturnType<typeof latch<TaskRunReport>>>();
const reportLatch = (jobId: string) => {
  const l = reports.get(jobId) ?? latch<TaskRunReport>();
  reports.set(jobId, l);
  return l;
};
const reportOf = (jobId: string) => reportLatch(jobId).opened;
const headers = { authorization: 'Bearer ada' };

beforeAll(async () => {
  redis = await startRedis();
  const connection = { host: '127.0.0.1', port: redis.port };
  const options = async (run?: (job: TaskJob) => Promise<void>): Promise<McpMountOptions> => ({
    access: {
      auth: {
        verify: (token) => ({ token, clientId: 'app', scopes: [], expiresAt: 'never', extra: { sub: token } }),
      },
    },
    tasks: {
      store: createRedisTaskStore({ client: await redis.client(), prefix: PREFIX }),
      leaseMs: 3_000,
      ...(run && { run }),
    },
  });
  queue = new Queue<TaskJob>(QUEUE, { connection });
  // The recipe's hook: one job per task, its id the task's (BullMQ then drops a second add of the same task).
  a = await serveTools(
    [render],
    await options(async (job) => {
      await queue.add('task', job, { jobId: job.taskId });
    }),
  );
  b = await serveTools([render], await options());
  // The queue's worker, another replica: a mount object of its own, same tools, same store.
  const consumer = createMcpFetchHandler([render], await options());
  worker = new Worker<TaskJob, TaskRunReport>(QUEUE, (job: Job<TaskJob>) => consumer.runTask(job.data), {
    connection: { ...connection, maxRetriesPerRequest: null },
    concurrency: 2,
  });
  worker.on('completed', (job, report) => reportLatch(job.id!).open(report));
  await worker.waitUntilReady();
});
afterAll(async () => {
  await worker?.close();
  await queue?.close();
  await Promise.all([a?.close(), b?.close()]);
  await redis?.stop();
});
beforeEach(() => {
  started = latch();
  release = latch();
  aborted = latch<string>();
  runs = 0;
});

describe('the BullMQ recipe', () => {
  it("runs a call made on A in the BullMQ worker; a client polling B over HTTP reads completed with the plain call's result", async () => {
    const created = (await call(a.url, 'render', { scene: 'intro' }, { headers })).message.result;
    expect(created).toMatchObject({ resultType: 'task', status: 'working' });
    // The durable create: B reads the task before any worker has touched it.
    const seen = (await rpc(b.url, 'tasks/get', { taskId: created.taskId }, { headers })).message.result;
    expect(seen.taskId).toBe(created.taskId);
    expect(await reportOf(created.taskId)).toEqual({ ran: true, status: 'completed' });
    const finished = await pollTask(b.url, created.taskId, { headers });
    expect(finished).toMatchObject({
      status: 'completed',
      statusMessage: 'rendering intro',
      result: { content: [{ type: 'text', text: 'rendered intro' }], resultType: 'complete' },
    });
    expect(runs).toBe(1);
  });

  it('cancel on B while the worker runs the handler: its signal aborts, the job reports cancelled, the task stays cancelled', async () => {
    const created = (await call(a.url, 'render', { scene: 'long', wait: true }, { headers })).message.result;
    await started.opened;
    await rpc(b.url, 'tasks/cancel', { taskId: created.taskId }, { headers });
    expect(await aborted.opened).toBe('Task cancelled by the client');
    expect(await reportOf(created.taskId)).toEqual({ ran: true, status: 'cancelled' });
    expect((await rpc(b.url, 'tasks/get', { taskId: created.taskId }, { headers })).message.result.status).toBe(
      'cancelled',
    );
  });

  it('runs the handler once for a job delivered twice: the second delivery finds it held, a third settled', async () => {
    const created = (await call(a.url, 'render', { scene: 'twice', wait: true }, { headers })).message.result;
    await started.opened;
    const job = { taskId: created.taskId, tool: 'render' };
    // A redelivery: the same task's job under another id (BullMQ keeps one job per id).
    await queue.add('task', job, { jobId: `${created.taskId}-again` });
    expect(await reportOf(`${created.taskId}-again`)).toEqual({ ran: false, reason: 'held' });
    release.open();
    expect(await reportOf(created.taskId)).toEqual({ ran: true, status: 'completed' });
    await queue.add('task', job, { jobId: `${created.taskId}-late` });
    expect(await reportOf(`${created.taskId}-late`)).toEqual({ ran: false, reason: 'settled' });
    expect(runs).toBe(1);
    expect((await pollTask(b.url, created.taskId, { headers })).result.content[0].text).toBe('rendered twice');
  });
});
