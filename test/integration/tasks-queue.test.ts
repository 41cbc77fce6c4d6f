/**
 * Tasks handed to a queue (`tasks.run`) and run by a consumer (`runTask`) on another mount of the same tools
 * and store, over real HTTP on the in-memory store: the task exists before the hook hears of it, the consumer's
 * run completes it with the plain call's result, a job delivered twice runs once, a cancel reaches the
 * consumer's handler, input rounds work from the queue, a throwing hook fails the task masked, and invalid
 * arguments never reach the queue.
 */
import { acceptedContent, inputRequired } from '@modelcontextprotocol/server';
import { defineTool, type McpMountOptions, type TaskJob } from 'mcp-mount';
import { createMcpFetchHandler } from 'mcp-mount/adapter';
import { createMemoryTaskStore } from 'mcp-mount/tasks/memory';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { latch } from '../support/latch.js';
import { type Running, serveTools } from '../support/server.js';
import { call, pollTask, rpc } from '../support/tasks.js';

let started = latch();
let release = latch();
let aborted = latch<string>();
let runs = 0;
const Confirm = z.object({ confirm: z.boolean() });

const build = defineTool({
  name: 'build',
  input: z.object({ target: z.string(), wait: z.boolean().default(false) }),
  task: { support: 'optional', inlineMs: 5_000, ttlMs: 60_000 },
  handler: async ({ input }, ctx) => {
    runs += 1;
    await ctx.task?.status(`building ${input.target}`);
    if (input.wait) {
      started.open();
      ctx.signal.addEventListener('abort', () => aborted.open(String((ctx.signal.reason as Error)?.message)));
      await Promise.race([release.opened, new Promise((resolve) => ctx.signal.addEventListener('abort', resolve))]);
    }
    return `built ${input.target} for ${ctx.authInfo?.clientId}/${ctx.authInfo?.extra?.sub} token '${ctx.authInfo?.token}'`;
  },
});
const confirm = defineTool({
  name: 'confirm',
  task: { support: 'required' },
  handler: (_args, ctx) => {
    const answer = acceptedContent(ctx.mcp.mcpReq.inputResponses, 'go', Confirm);
    if (answer) return `confirmed ${answer.confirm}`;
    return inputRequired({ inputRequests: { go: inputRequired.elicit({ message: 'Go?', requestedSchema: Confirm }) } });
  },
});

const store = createMemoryTaskStore();
const jobs: TaskJob[] = [];
const errors: Array<{ phase: string; message: string }> = [];
let hook: (job: TaskJob) => Promise<void> | void = () => undefined;
let mount: Running;
let consumer: ReturnType<typeof createMcpFetchHandler>;
const auth = (sub: string) => ({ headers: { authorization: `Bearer ${sub}` } });

const options = (run?: (job: TaskJob) => Promise<void> | void): McpMountOptions => ({
  access: {
    auth: {
      verify: (token) => ({ token, clientId: 'app', scopes: [], expiresAt: 'never', extra: { sub: token } }),
    },
  },
  observe: {
    onError: (error, info) => void errors.push({ phase: info.phase, message: (error as Error).message }),
    logger: { error: () => undefined, warn: () => undefined },
  },
  tasks: { store, leaseMs: 900, ...(run && { run }) },
});

beforeAll(async () => {
  mount = await serveTools(
    [build, confirm],
    options((job) => {
      jobs.push(job);
      return hook(job);
    }),
  );
  // The queue's worker: a mount of its own, same tools, same store, no hook.
  consumer = createMcpFetchHandler([build, confirm], options());
});
afterAll(async () => {
  await mount?.close();
});
beforeEach(() => {
  started = latch();
  release = latch();
  aborted = latch<string>();
  runs = 0;
  jobs.length = 0;
  errors.length = 0;
  hook = () => undefined;
});

describe('tasks.run hands the task to a queue', () => {
  it('calls the hook once the task reads working on tasks/get, with { taskId, tool }, and runs no handler itself', async () => {
    const seen: unknown[] = [];
    hook = async (job) => {
      seen.push((await rpc(mount.url, 'tasks/get', { taskId: job.taskId }, auth('ada'))).message.result?.status);
    };
    const created = (await call(mount.url, 'build', { target: 'docs' }, auth('ada'))).message.result;
    expect(created).toMatchObject({ resultType: 'task', status: 'working' });
    expect(jobs).toEqual([{ taskId: created.taskId, tool: 'build' }]);
    expect(seen).toEqual(['working']);
    expect(runs).toBe(0);
  });

  it("the consumer's run completes the task with the plain call's result, the caller's token left out", async () => {
    const created = (await call(mount.url, 'build', { target: 'docs' }, auth('ada'))).message.result;
    expect(await consumer.runTask(jobs[0]!)).toEqual({ ran: true, status: 'completed' });
    const done = await pollTask(mount.url, created.taskId, auth('ada'));
    const plainCall = await call(mount.url, 'build', { target: 'docs' }, { ...auth('ada'), declare: false });
    const { _meta, ...plain } = plainCall.message.result;
    expect(plain.content[0].text).toBe("built docs for app/ada token 'ada'");
    expect(done.result).toEqual({
      ...plain,
      content: [{ type: 'text', text: "built docs for app/ada token ''" }],
    });
    expect(done.statusMessage).toBe('building docs');
  });

  it('runs a job delivered twice once: the second delivery is refused held while it runs, settled after', async () => {
    const created = (await call(mount.url, 'build', { target: 'twice', wait: true }, auth('ada'))).message.result;
    const first = consumer.runTask(jobs[0]!);
    await started.opened;
    expect(await consumer.runTask(jobs[0]!)).toEqual({ ran: false, reason: 'held' });
    release.open();
    expect(await first).toEqual({ ran: true, status: 'completed' });
    expect(await consumer.runTask(jobs[0]!)).toEqual({ ran: false, reason: 'settled' });
    expect(runs).toBe(1);
    expect((await pollTask(mount.url, created.taskId, auth('ada'))).status).toBe('completed');
  });

  it("a cancel on the accepting mount aborts the consumer's handler at its next heartbeat; the run reports cancelled", async () => {
    const created = (await call(mount.url, 'build', { target: 'site', wait: true }, auth('ada'))).message.result;
    const running = consumer.runTask(jobs[0]!);
    await started.opened;
    await rpc(mount.url, 'tasks/cancel', { taskId: created.taskId }, auth('ada'));
    expect(await aborted.opened).toBe('Task cancelled by the client');
    expect(await running).toEqual({ ran: true, status: 'cancelled' });
    expect((await rpc(mount.url, 'tasks/get', { taskId: created.taskId }, auth('ada'))).message.result.status).toBe(
      'cancelled',
    );
  });

  it('asks for input from the queue: the task reads input_required, tasks/update resumes the handler', async () => {
    const send = { ...auth('ada'), capabilities: { elicitation: {} } };
    const created = (await call(mount.url, 'confirm', {}, send)).message.result;
    const running = consumer.runTask(jobs[0]!);
    const asking = await pollTask(mount.url, created.taskId, send, (t) => t.status !== 'working');
    expect(asking.status).toBe('input_required');
    expect(asking.inputRequests.go).toMatchObject({ method: 'elicitation/create', params: { message: 'Go?' } });
    const accept = { action: 'accept', content: { confirm: true } };
    await rpc(mount.url, 'tasks/update', { taskId: created.taskId, inputResponses: { go: accept } }, send);
    expect(await running).toEqual({ ran: true, status: 'completed' });
    const done = await pollTask(mount.url, created.taskId, send);
    expect(done.result.content).toEqual([{ type: 'text', text: 'confirmed true' }]);
  });

  it("a hook that throws leaves the task failed behind an error id onError hears (phase task); the hook's text never reaches the client", async () => {
    hook = () => {
      throw new Error('queue at redis://secret-host is down');
    };
    const answer = await call(mount.url, 'build', { target: 'lost' }, auth('ada'));
    const created = answer.message.result;
    expect(created.resultType).toBe('task');
    expect(answer.text).not.toContain('secret-host');
    const read = await rpc(mount.url, 'tasks/get', { taskId: created.taskId }, auth('ada'));
    expect(read.message.result.status).toBe('failed');
    expect(read.message.result.error.message).toMatch(/^Tool build failed \(error id [\w-]+\)$/);
    expect(read.text).not.toContain('secret-host');
    expect(errors).toEqual([{ phase: 'task', message: 'queue at redis://secret-host is down' }]);
    // The job, if it was queued after all, finds the task settled.
    expect(await consumer.runTask(jobs[0]!)).toEqual({ ran: false, reason: 'settled' });
  });

  it('answers invalid arguments at once as the plain call does, and hands nothing to the queue', async () => {
    const answer = await call(mount.url, 'build', { target: 7 }, auth('ada'));
    expect(answer.message.result.isError).toBe(true);
    expect(answer.message.result.content[0].text).toContain('target');
    expect(jobs).toEqual([]);
  });

  it('fails a claimed task whose tool this mount does not run, masked; refuses a job without a taskId', async () => {
    const created = (await call(mount.url, 'build', { target: 'skew' }, auth('ada'))).message.result;
    const other = createMcpFetchHandler([confirm], options());
    expect(await other.runTask(jobs[0]!)).toEqual({ ran: true, status: 'failed' });
    const read = (await rpc(mount.url, 'tasks/get', { taskId: created.taskId }, auth('ada'))).message.result;
    expect(read.error.message).toMatch(/^Tool build failed \(error id [\w-]+\)$/);
    expect(errors.map((e) => e.phase)).toEqual(['task']);
    await expect(consumer.runTask({} as TaskJob)).rejects.toThrow(TypeError);
  });
});
