/**
 * What operators see of tasks, over real HTTP on the in-memory store: `observe.onTask` through a task's life
 * (created, input asked for, completed, failed with the `errorId` `onError` got, cancelled by its client), from
 * the process that accepted the call and from a queue consumer's `runTask`; a throwing hook changes nothing;
 * and the request's span (`observe.openTelemetry`, the real SDK) carries the task. Events are waited for
 * (latches), never timed.
 */
import { ProtocolError } from '@modelcontextprotocol/server';
import * as otel from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { defineTool, type ErrorInfo, type McpMountOptions, type TaskEvent, type TaskJob } from 'mcp-mount';
import { createMcpFetchHandler } from 'mcp-mount/adapter';
import { createMemoryTaskStore } from 'mcp-mount/tasks/memory';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { latch } from '../support/latch.js';
import { type Running, serveTools } from '../support/server.js';
import { call, pollTask, rpc } from '../support/tasks.js';

const spans = new InMemorySpanExporter();
otel.trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }));

let gates = new Map<string, ReturnType<typeof latch<void>>>();
const gateFor = (key: string) => {
  const g = gates.get(key) ?? latch();
  gates.set(key, g);
  return g;
};

const events: TaskEvent[] = [];
const errors: Array<{ error: unknown; info: ErrorInfo }> = [];
const logged: unknown[][] = [];
let waiters: Array<{ when: (e: TaskEvent) => boolean; open: (e: TaskEvent) => void }> = [];
let throwing = false;

/** The first event (seen already, or to come) that `when` holds for. */
function eventWhere(when: (e: TaskEvent) => boolean): Promise<TaskEvent> {
  const seen = events.find(when);
  if (seen) return Promise.resolve(seen);
  return new Promise((open) => waiters.push({ when, open }));
}
const eventsOf = (taskId: string) => events.filter((e) => e.taskId === taskId);
const ended = (taskId: string) =>
  eventWhere((e) => e.taskId === taskId && ['completed', 'failed', 'cancelled', 'lost'].includes(e.kind));

const gated = defineTool({
  name: 'gated',
  input: z.object({ key: z.string() }),
  task: { support: 'optional', inlineMs: 0 },
  handler: async ({ input }) => {
    await gateFor(input.key).opened;
    return `done ${input.key}`;
  },
});
const slow = defineTool({
  name: 'slow',
  input: z.object({ key: z.string() }),
  // Outlasts its inline wait: it waits on a gate the test opens only once the task exists.
  task: { support: 'optional', inlineMs: 20 },
  handler: async ({ input }) => {
    await gateFor(input.key).opened;
    return 'slow done';
  },
});
const refusing = defineTool({
  name: 'refusing',
  task: { support: 'optional', inlineMs: 0 },
  handler: () => {
    throw new ProtocolError(-32000, 'upstream refused the job');
  },
});
const waiting = defineTool({
  name: 'waiting',
  task: { support: 'optional', inlineMs: 0 },
  handler: (_args, ctx) =>
    new Promise<string>((resolve) => ctx.signal.addEventListener('abort', () => resolve('stopped'), { once: true })),
});
const asking = defineTool({
  name: 'asking',
  task: { support: 'required' },
  handler: (_args, ctx) => {
    if (ctx.mcp.mcpReq.inputResponses?.go) return 'went';
    const Go = z.object({ go: z.boolean() });
    return {
      resultType: 'input_required',
      inputRequests: { go: { method: 'elicitation/create', params: { message: 'Go?', requestedSchema: Go } } },
    } as never;
  },
});
const queuedTool = defineTool({
  name: 'queued',
  task: { support: 'required' },
  handler: () => 'ran from the queue',
});

const store = createMemoryTaskStore();
const jobs: TaskJob[] = [];
const auth = (sub: string) => ({ headers: { authorization: `Bearer ${sub}` } });
const options = (run?: (job: TaskJob) => void): McpMountOptions => ({
  access: {
    auth: {
      verify: (token) => ({ token, clientId: 'app', scopes: [], expiresAt: 'never', extra: { sub: token } }),
    },
  },
  observe: {
    onTask: (event) => {
      if (throwing) throw new Error('onTask broke');
      events.push(event);
      for (const w of waiters.filter((w) => w.when(event))) w.open(event);
      waiters = waiters.filter((w) => !w.when(event));
    },
    onError: (error, info) => void errors.push({ error, info }),
    logger: { error: (...args: unknown[]) => void logged.push(args), warn: () => undefined },
    openTelemetry: otel,
  },
  // A cancel reaches a run at its next heartbeat (a third of the lease); long enough that no loaded machine
  // lapses a lease between two beats.
  tasks: { store, leaseMs: 6_000, ...(run && { run }) },
});

let mount: Running;
let queueMount: Running;
let consumer: ReturnType<typeof createMcpFetchHandler>;
beforeAll(async () => {
  mount = await serveTools([gated, slow, refusing, waiting, asking], options());
  queueMount = await serveTools(
    [queuedTool],
    options((job) => void jobs.push(job)),
  );
  consumer = createMcpFetchHandler([queuedTool], options());
});
afterAll(async () => {
  await mount.close();
  await queueMount.close();
});
beforeEach(() => {
  spans.reset();
  gates = new Map();
  throwing = false;
});

describe('observe.onTask', () => {
  it("fires created (immediate, for inlineMs 0) then completed, with the duration, the caller and the call's request id", async () => {
    const created = await call(mount.url, 'gated', { key: 'life' }, { ...auth('ada'), id: 41 });
    const { taskId } = created.message.result;
    const first = await eventWhere((e) => e.taskId === taskId);
    expect(first).toEqual({
      kind: 'created',
      taskId,
      tool: 'gated',
      status: 'working',
      via: 'immediate',
      caller: { clientId: 'app', subject: 'ada' },
      requestId: 41,
    });
    gateFor('life').open();
    const end = await ended(taskId);
    expect(end).toMatchObject({ kind: 'completed', status: 'completed', tool: 'gated', requestId: 41 });
    expect(end.durationMs).toBeGreaterThanOrEqual(0);
    expect(end).not.toHaveProperty('errorId');
    expect(eventsOf(taskId).map((e) => e.kind)).toEqual(['created', 'completed']);
    expect((await pollTask(mount.url, taskId, auth('ada'))).status).toBe('completed');
  });

  it('tells a task made because the call outlasted its inline wait apart (via inline-wait)', async () => {
    const created = await call(mount.url, 'slow', { key: 'late' }, auth('ada'));
    const { taskId } = created.message.result;
    expect(await eventWhere((e) => e.taskId === taskId)).toMatchObject({ kind: 'created', via: 'inline-wait' });
    gateFor('late').open();
    expect((await ended(taskId)).kind).toBe('completed');
  });

  it('fires failed with the errorId onError got for the error the handler threw', async () => {
    const { taskId } = (await call(mount.url, 'refusing', {}, auth('ada'))).message.result;
    const end = await ended(taskId);
    expect(end).toMatchObject({ kind: 'failed', status: 'failed', tool: 'refusing' });
    expect(end.errorId).toEqual(expect.any(String));
    const reported = errors.find((e) => e.info.errorId === end.errorId);
    expect(reported?.info).toMatchObject({ phase: 'handler', tool: 'refusing' });
    expect((await pollTask(mount.url, taskId, auth('ada'))).status).toBe('failed');
  });

  it('fires cancelled once the run learns of the cancel its client sent, and nothing after it', async () => {
    const { taskId } = (await call(mount.url, 'waiting', {}, auth('ada'))).message.result;
    await eventWhere((e) => e.taskId === taskId && e.kind === 'created');
    await rpc(mount.url, 'tasks/cancel', { taskId }, auth('ada'));
    const end = await ended(taskId);
    expect(end).toMatchObject({ kind: 'cancelled', status: 'cancelled', tool: 'waiting' });
    expect(end.durationMs).toBeGreaterThanOrEqual(0);
    expect(eventsOf(taskId).map((e) => e.kind)).toEqual(['created', 'cancelled']);
  });

  it('fires input_required when the task asks its client, then completed once answered', async () => {
    const send = { ...auth('ada'), capabilities: { elicitation: {} } };
    const { taskId } = (await call(mount.url, 'asking', {}, send)).message.result;
    expect(await eventWhere((e) => e.taskId === taskId && e.kind === 'input_required')).toMatchObject({
      status: 'input_required',
      tool: 'asking',
    });
    await pollTask(mount.url, taskId, send, (t) => t.status === 'input_required');
    await rpc(mount.url, 'tasks/update', { taskId, inputResponses: { go: { action: 'accept', content: {} } } }, send);
    expect((await ended(taskId)).kind).toBe('completed');
    expect(eventsOf(taskId).map((e) => e.kind)).toEqual(['created', 'input_required', 'completed']);
  });

  it('logs a throwing hook (phase onTask) and leaves the task to complete as ever', async () => {
    throwing = true;
    const before = errors.length;
    const { taskId } = (await call(mount.url, 'gated', { key: 'thrown' }, auth('ada'))).message.result;
    gateFor('thrown').open();
    const done = await pollTask(mount.url, taskId, auth('ada'));
    expect(done).toMatchObject({ status: 'completed', result: { content: [{ text: 'done thrown' }] } });
    const hookErrors = errors.slice(before).filter((e) => e.info.phase === 'onTask');
    // The creation's at once; the completion's by the time the run has settled, which `tasks/get` saw.
    expect(hookErrors.length).toBeGreaterThanOrEqual(1);
    expect(hookErrors[0]!.info).toMatchObject({ tool: 'gated', caller: { clientId: 'app', subject: 'ada' } });
    expect(logged.some(([line]) => String(line).startsWith('mcp-mount: onTask hook error (error id'))).toBe(true);
  });

  it('tells a call handed to a queue (via queue), and the consumer runTask its completion', async () => {
    const { taskId } = (await call(queueMount.url, 'queued', {}, auth('bob'))).message.result;
    expect(await eventWhere((e) => e.taskId === taskId)).toMatchObject({
      kind: 'created',
      via: 'queue',
      tool: 'queued',
      caller: { clientId: 'app', subject: 'bob' },
    });
    const job = jobs.find((j) => j.taskId === taskId)!;
    expect(await consumer.runTask(job)).toEqual({ ran: true, status: 'completed' });
    const end = await ended(taskId);
    expect(end).toMatchObject({ kind: 'completed', tool: 'queued', caller: { clientId: 'app', subject: 'bob' } });
    // The consumer's run is no request: no request id.
    expect(end).not.toHaveProperty('requestId');
  });
});

describe('spans of task requests', () => {
  const finished = (method: string) =>
    spans.getFinishedSpans().filter((s) => s.attributes['mcp.method.name'] === method);

  it('a tools/call that made a task carries mcp.task.id and a task.created event', async () => {
    const { taskId } = (await call(mount.url, 'gated', { key: 'span' }, auth('ada'))).message.result;
    const [span] = finished('tools/call');
    expect(span!.name).toBe('tools/call gated');
    expect(span!.attributes['mcp.task.id']).toBe(taskId);
    expect(span!.events.map((e) => [e.name, e.attributes?.['mcp.task.id']])).toEqual([['task.created', taskId]]);
    gateFor('span').open();
    await ended(taskId);
  });

  it('tasks/get and tasks/cancel are spans named by their method, with the task id and the status it has', async () => {
    const { taskId } = (await call(mount.url, 'waiting', {}, auth('ada'))).message.result;
    await rpc(mount.url, 'tasks/get', { taskId }, auth('ada'));
    await rpc(mount.url, 'tasks/cancel', { taskId }, auth('ada'));
    const [get] = finished('tasks/get');
    expect(get!.name).toBe('tasks/get');
    expect(get!.attributes).toMatchObject({ 'mcp.task.id': taskId, 'mcp.task.status': 'working' });
    const [cancel] = finished('tasks/cancel');
    expect(cancel!.name).toBe('tasks/cancel');
    expect(cancel!.attributes).toMatchObject({ 'mcp.task.id': taskId, 'mcp.task.status': 'cancelled' });
    await ended(taskId);
  });

  it('escapes a task id the client sent on the span, and names the span by the method alone', async () => {
    // A backslash: what a header can carry of the characters the escaping rewrites.
    await rpc(mount.url, 'tasks/get', { taskId: 'no\\such' }, auth('ada'));
    const [get] = finished('tasks/get');
    expect(get!.name).toBe('tasks/get');
    expect(get!.attributes['mcp.task.id']).toBe('no\\\\such');
    expect(get!.attributes).not.toHaveProperty('mcp.task.status');
  });
});
