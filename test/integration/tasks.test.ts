/**
 * Tool calls as tasks (2026-07-28, `io.modelcontextprotocol/tasks`) over real HTTP on the in-memory store:
 * the lifecycle against the plain call's result, cancel reaching the handler's signal, era gating (as a
 * property: no 2025-era or non-declaring request ever gets a task), isolation between callers, and expiry.
 */
import { acceptedContent, inputRequired, ProtocolError } from '@modelcontextprotocol/server';
import {
  CancelTaskResultV2Schema,
  CreateTaskResultV2Schema,
  GetTaskResultV2Schema,
} from '@modelcontextprotocol/ext-tasks/core/v2';
import fc from 'fast-check';
import { defineTool, type McpMountOptions } from 'mcp-mount';
import { createMemoryTaskStore } from 'mcp-mount/tasks/memory';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { propertyRuns } from '../support/property-runs.js';
import { type Running, serveTools } from '../support/server.js';
import { call, pollTask, rpc, TASKS } from '../support/tasks.js';

/** A gate a test opens: a handler waits on it, so a task is seen `working` for as long as the test wants. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}
let gates = new Map<string, ReturnType<typeof gate>>();
const gateFor = (key: string) => {
  const g = gates.get(key) ?? gate();
  gates.set(key, g);
  return g;
};
const aborts: Array<{ key: string; reason: string }> = [];

const Report = z.object({ rows: z.number(), title: z.string() });
const report = defineTool({
  name: 'report',
  input: z.object({ key: z.string(), rows: z.number() }),
  output: Report,
  task: { support: 'optional', inlineMs: 0, ttlMs: 60_000, pollIntervalMs: 250 },
  handler: async ({ input }) => {
    if (input.key !== 'now') await gateFor(input.key).opened;
    return { rows: input.rows, title: `report ${input.key}` };
  },
});
const quick = defineTool({
  name: 'quick',
  task: { support: 'optional', inlineMs: 5_000 },
  handler: () => 'done at once',
});
const failing = defineTool({
  name: 'failing',
  task: { support: 'required' },
  handler: () => ({ content: [{ type: 'text' as const, text: 'the job failed' }], isError: true }),
});
const protocolError = defineTool({
  name: 'protocol_error',
  task: { support: 'optional', inlineMs: 0 },
  handler: () => {
    throw new ProtocolError(-32000, 'upstream refused the job', { retryAfter: 5 });
  },
});
const waiting = defineTool({
  name: 'waiting',
  input: z.object({ key: z.string() }),
  task: { support: 'optional', inlineMs: 0 },
  handler: async ({ input }, ctx) => {
    await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
    aborts.push({ key: input.key, reason: String((ctx.signal.reason as Error)?.message ?? ctx.signal.reason) });
    gateFor(`aborted ${input.key}`).open();
    return 'stopped';
  },
});
const shortLived = defineTool({
  name: 'short_lived',
  task: { support: 'optional', inlineMs: 0, ttlMs: 300 },
  handler: () => 'soon gone',
});
const plain = defineTool({ name: 'plain', handler: () => 'plain' });
const Confirm = z.object({ confirm: z.boolean() });
const twoQuestions = defineTool({
  name: 'two_questions',
  task: { support: 'optional', inlineMs: 0 },
  handler: (_args, ctx) => {
    const responses = ctx.mcp.mcpReq.inputResponses;
    const first = acceptedContent(responses, 'first', Confirm);
    const second = acceptedContent(responses, 'second', Confirm);
    if (first && second) return `answers ${first.confirm} ${second.confirm}`;
    const ask = (message: string) => inputRequired.elicit({ message, requestedSchema: Confirm });
    return inputRequired({ inputRequests: { first: ask('First?'), second: ask('Second?') } });
  },
});
const progressive = defineTool({
  name: 'progressive',
  task: { support: 'optional', inlineMs: 50 },
  handler: async (_args, ctx) => {
    // Set before the call became a task: kept, and written once it is one.
    await ctx.task?.status('step 1 of 2');
    await gateFor('progressive').opened;
    await ctx.task?.status('step 2 of 2');
    await gateFor('progressive-2').opened;
    return `task context ${ctx.task === undefined ? 'absent' : 'present'}`;
  },
});
const tools = [report, quick, failing, protocolError, waiting, shortLived, plain, twoQuestions, progressive];

const TOKENS: Record<string, object> = {
  ada: { clientId: 'app', scopes: [], extra: { sub: 'ada' } },
  bob: { clientId: 'app', scopes: [], extra: { sub: 'bob' } },
};
const auth = (who: string) => ({ headers: { authorization: `Bearer ${who}` } });
const options: McpMountOptions = {
  access: {
    auth: {
      verify: (token) => (TOKENS[token] ? { token, expiresAt: 'never', ...TOKENS[token] } : undefined) as never,
    },
  },
  // A lease long enough that no loaded machine lapses it between heartbeats (a lapse is the unit tests' and
  // the Redis crash test's, on clocks they control); short enough that a cancel reaches a handler in 3 s.
  tasks: { store: createMemoryTaskStore(), leaseMs: 9_000 },
  observe: { logger: { error() {}, warn() {}, info() {} } as never },
};

let mount: Running;
beforeAll(async () => {
  mount = await serveTools(tools, options);
});
afterAll(() => mount.close());

/** An answer without what the encoding adds to every answer (`resultType`, the server's `_meta`). */
function bare(result: Record<string, unknown>) {
  const { resultType: _r, _meta: _m, ...rest } = result;
  return rest;
}

/** A tool result as the plain call answers it, without the server's `_meta` the encoding adds. */
function withoutMeta(result: Record<string, unknown>) {
  const { _meta: _m, ...rest } = result;
  return rest;
}

describe('the task lifecycle', () => {
  it('create, get working, completed with the result a plain call gives (structuredContent included)', async () => {
    gates = new Map();
    const created = await call(mount.url, 'report', { key: 'a', rows: 3 }, auth('ada'));
    const task = created.message.result;
    expect(CreateTaskResultV2Schema.safeParse(task).success).toBe(true);
    expect(task).toMatchObject({ resultType: 'task', status: 'working', ttlMs: 60_000, pollIntervalMs: 250 });
    for (const key of ['content', 'task', 'result', 'error', 'inputRequests', 'requestState', 'ttl', 'pollInterval']) {
      expect(task).not.toHaveProperty(key);
    }
    const working = await rpc(mount.url, 'tasks/get', { taskId: task.taskId }, auth('ada'));
    expect(working.message.result).toMatchObject({ resultType: 'complete', taskId: task.taskId, status: 'working' });
    expect(GetTaskResultV2Schema.safeParse(working.message.result).success).toBe(true);
    gateFor('a').open();
    const done = await pollTask(mount.url, task.taskId, auth('ada'));
    expect(GetTaskResultV2Schema.safeParse(done).success).toBe(true);
    const synchronous = await call(mount.url, 'report', { key: 'now', rows: 3 }, { ...auth('ada'), declare: false });
    expect(done.status).toBe('completed');
    expect(done.result).toEqual({
      ...withoutMeta(synchronous.message.result),
      content: [{ type: 'text', text: JSON.stringify({ rows: 3, title: 'report a' }) }],
      structuredContent: { rows: 3, title: 'report a' },
    });
    expect(bare(synchronous.message.result).structuredContent).toEqual({ rows: 3, title: 'report now' });
    expect(done).not.toHaveProperty('error');
  });

  it('answers a call that finishes within the inline wait as a plain call, with no task', async () => {
    const answer = await call(mount.url, 'quick', {}, auth('ada'));
    expect(answer.message.result).toMatchObject({ resultType: 'complete', content: [{ text: 'done at once' }] });
    expect(answer.message.result).not.toHaveProperty('taskId');
  });

  it('completes with an isError result; fails with the JSON-RPC error the handler threw, and no result', async () => {
    const failed = await call(mount.url, 'failing', {}, auth('ada'));
    const isError = await pollTask(mount.url, failed.message.result.taskId, auth('ada'));
    expect(isError).toMatchObject({
      status: 'completed',
      result: { isError: true, content: [{ text: 'the job failed' }] },
    });
    const thrown = await call(mount.url, 'protocol_error', {}, auth('ada'));
    const error = await pollTask(mount.url, thrown.message.result.taskId, auth('ada'));
    expect(error.status).toBe('failed');
    expect(error.error).toEqual({ code: -32000, message: 'upstream refused the job', data: { retryAfter: 5 } });
    expect(error).not.toHaveProperty('result');
    expect(GetTaskResultV2Schema.safeParse(error).success).toBe(true);
  });
});

describe('the status message', () => {
  it('is what ctx.task.status last set, kept from before the call became a task; a plain call has no ctx.task', async () => {
    gates = new Map();
    const { taskId } = (await call(mount.url, 'progressive', {}, auth('ada'))).message.result;
    const first = await pollTask(mount.url, taskId, auth('ada'), (t) => t.statusMessage !== undefined);
    expect(first).toMatchObject({ status: 'working', statusMessage: 'step 1 of 2' });
    gateFor('progressive').open();
    const second = await pollTask(mount.url, taskId, auth('ada'), (t) => t.statusMessage === 'step 2 of 2');
    expect(second.status).toBe('working');
    gateFor('progressive-2').open();
    const done = await pollTask(mount.url, taskId, auth('ada'));
    expect(done.result.content[0].text).toBe('task context present');
    const plainCall = await call(mount.url, 'progressive', {}, { ...auth('ada'), declare: false });
    expect(plainCall.message.result.content[0].text).toBe('task context absent');
  });
});

describe('input inside a task', () => {
  it("stores the handler's input requests, keeps the task input_required until tasks/update answered every key, then resumes the handler with the answers", async () => {
    const send = { ...auth('ada'), capabilities: { elicitation: {} } };
    const { taskId } = (await call(mount.url, 'two_questions', {}, send)).message.result;
    const asking = await pollTask(mount.url, taskId, send, (t) => t.status !== 'working');
    expect(asking.status).toBe('input_required');
    expect(Object.keys(asking.inputRequests).sort()).toEqual(['first', 'second']);
    expect(asking.inputRequests.first).toMatchObject({ method: 'elicitation/create', params: { message: 'First?' } });
    expect(GetTaskResultV2Schema.safeParse(asking).success).toBe(true);
    const accept = { action: 'accept', content: { confirm: true } };
    const ack = await rpc(mount.url, 'tasks/update', { taskId, inputResponses: { first: accept } }, send);
    expect(bare(ack.message.result)).toEqual({});
    const half = (await rpc(mount.url, 'tasks/get', { taskId }, send)).message.result;
    expect(half.status).toBe('input_required');
    expect(Object.keys(half.inputRequests)).toEqual(['second']);
    const unknownKey = await rpc(
      mount.url,
      'tasks/update',
      { taskId, inputResponses: { 'unknown-key': accept } },
      send,
    );
    expect(bare(unknownKey.message.result)).toEqual({});
    await rpc(
      mount.url,
      'tasks/update',
      { taskId, inputResponses: { second: { action: 'accept', content: { confirm: false } } } },
      send,
    );
    const done = await pollTask(mount.url, taskId, send);
    expect(done).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'text', text: 'answers true false' }] },
    });
  });
});

describe('tasks/cancel', () => {
  it('settles cancelled at once, aborts the running handler at its next heartbeat, and acks a finished task alike', async () => {
    const created = await call(mount.url, 'waiting', { key: 'c1' }, auth('ada'));
    const { taskId } = created.message.result;
    const ack = await rpc(mount.url, 'tasks/cancel', { taskId }, auth('ada'));
    expect(CancelTaskResultV2Schema.safeParse(ack.message.result).success).toBe(true);
    expect(bare(ack.message.result)).toEqual({});
    expect(ack.message.result.resultType).toBe('complete');
    expect((await rpc(mount.url, 'tasks/get', { taskId }, auth('ada'))).message.result.status).toBe('cancelled');
    // The abort reaches the handler at the runner's next heartbeat: waited for, not timed.
    await gateFor('aborted c1').opened;
    expect(aborts.filter((a) => a.key === 'c1')).toEqual([{ key: 'c1', reason: 'Task cancelled by the client' }]);
    // What the handler returned after the cancel changes nothing.
    await new Promise((r) => setTimeout(r, 50));
    expect((await rpc(mount.url, 'tasks/get', { taskId }, auth('ada'))).message.result.status).toBe('cancelled');
    const again = await rpc(mount.url, 'tasks/cancel', { taskId }, auth('ada'));
    expect(bare(again.message.result)).toEqual({});
  });
});

describe('era gating', () => {
  it('never answers a task to a 2025-era or non-declaring request; a required tool answers those -32021', async () => {
    const metas = fc.constantFrom<unknown>(
      undefined,
      null,
      true,
      [],
      'yes',
      { [TASKS]: null },
      { [TASKS]: [] },
      { 'io.modelcontextprotocol/other': {} },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          era: fc.constantFrom<'modern' | 'legacy'>('modern', 'legacy'),
          tool: fc.constantFrom('report', 'failing', 'plain', 'quick'),
          // A 2026-07-28 request that does not declare: no extensions, or a value that is no declaration.
          extensions: metas,
          // The 2025-era `task` hint, which never promotes a call.
          legacyHint: fc.boolean(),
        }),
        async ({ era, tool, extensions, legacyHint }) => {
          const params: Record<string, unknown> = {
            name: tool,
            arguments: tool === 'report' ? { key: 'now', rows: 1 } : {},
          };
          if (legacyHint) params.task = { ttl: 60_000, pollInterval: 500 };
          const headers = auth('ada').headers;
          const answer =
            era === 'legacy'
              ? await rpc(mount.url, 'tools/call', params, { era, headers })
              : await rpc(mount.url, 'tools/call', params, { declare: false, headers, extensions } as never);
          expect(answer.message.result?.resultType ?? 'none').not.toBe('task');
          expect(answer.text).not.toContain('"taskId"');
          // What is not a task: a plain result (never of the tool that must run as a task), `-32021` for
          // that tool, or the SDK's `-32602` for an envelope it refuses.
          if (answer.message.error) {
            expect([-32021, -32602]).toContain(answer.message.error.code);
            if (answer.message.error.code === -32021) {
              expect(tool).toBe('failing');
              expect(answer.message.error.data).toEqual({ requiredCapabilities: { extensions: { [TASKS]: {} } } });
            }
          } else {
            expect(tool).not.toBe('failing');
          }
        },
      ),
      { numRuns: propertyRuns(60, 20), seed: 35 },
    );
  });

  it('answers task requests from a non-declaring request -32021, and declares the extension to 2026-07-28 only', async () => {
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      const params = method === 'tasks/update' ? { taskId: 'gate-test', inputResponses: {} } : { taskId: 'gate-test' };
      const refused = await rpc(mount.url, method, params, { ...auth('ada'), declare: false });
      expect(refused.message.error?.code, method).toBe(-32021);
    }
    for (const method of ['tasks/result', 'tasks/list']) {
      expect((await rpc(mount.url, method, { taskId: 'x' }, auth('ada'))).message.error?.code, method).toBe(-32601);
    }
    const discover = await rpc(mount.url, 'server/discover', {}, auth('ada'));
    expect(discover.message.result.capabilities.extensions).toEqual({ [TASKS]: {} });
    expect(discover.message.result.capabilities).not.toHaveProperty('tasks');
    const legacy = await rpc(
      mount.url,
      'initialize',
      {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'old', version: '1' },
      },
      { era: 'legacy', ...auth('ada') },
    );
    expect(legacy.message.result.capabilities).not.toHaveProperty('extensions');
    expect(legacy.message.result.capabilities).not.toHaveProperty('tasks');
  });

  it("lists a task tool to 2025-era clients with execution.taskSupport 'forbidden', since they get plain calls", async () => {
    const listed = await rpc(mount.url, 'tools/list', {}, { era: 'legacy', ...auth('ada') });
    const byName = Object.fromEntries(listed.message.result.tools.map((t: any) => [t.name, t]));
    expect(byName.report.execution).toEqual({ taskSupport: 'forbidden' });
    expect(byName.failing.execution).toEqual({ taskSupport: 'forbidden' });
    expect(byName.plain).not.toHaveProperty('execution');
  });
});

describe('isolation', () => {
  it("answers another caller's task id byte for byte as an unknown one, on get, update and cancel", async () => {
    gates = new Map();
    const mine = (await call(mount.url, 'report', { key: 'iso', rows: 1 }, auth('ada'))).message.result.taskId;
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      const params = (taskId: string) => (method === 'tasks/update' ? { taskId, inputResponses: {} } : { taskId });
      const unknownId = `${mine.slice(0, -2)}xx`;
      const foreign = await rpc(mount.url, method, params(mine), { ...auth('bob'), id: 7 });
      const unknown = await rpc(mount.url, method, params(unknownId), { ...auth('bob'), id: 7 });
      expect(foreign.status).toBe(unknown.status);
      expect(foreign.text).toBe(unknown.text);
      expect(foreign.message.error).toEqual({ code: -32602, message: 'Unknown task' });
    }
    // Ada's task is untouched by Bob's cancel.
    expect((await rpc(mount.url, 'tasks/get', { taskId: mine }, auth('ada'))).message.result.status).toBe('working');
    gateFor('iso').open();
  });

  it('answers a poll without registering tools or running the features hook', async () => {
    let hookRuns = 0;
    const hooked = await serveTools(tools, {
      server: {
        features: () => {
          hookRuns++;
        },
      },
      tasks: { store: createMemoryTaskStore(), anonymousOwner: () => 'all' },
    });
    try {
      const before = hookRuns;
      const { taskId } = (await call(hooked.url, 'report', { key: 'now', rows: 1 })).message.result;
      await pollTask(hooked.url, taskId);
      await rpc(hooked.url, 'tasks/cancel', { taskId });
      expect(hookRuns).toBe(before);
    } finally {
      await hooked.close();
    }
  });

  it('gives an anonymous caller no tasks unless the mount opts in with anonymousOwner', async () => {
    const closed = await serveTools(tools, { tasks: { store: createMemoryTaskStore() } });
    const open = await serveTools(tools, {
      tasks: { store: createMemoryTaskStore(), anonymousOwner: () => 'everyone' },
    });
    try {
      const plainAnswer = await call(closed.url, 'report', { key: 'now', rows: 1 });
      expect(plainAnswer.message.result).toMatchObject({ resultType: 'complete', structuredContent: { rows: 1 } });
      expect((await call(closed.url, 'failing', {})).message.error?.code).toBe(-32021);
      const taskAnswer = await call(open.url, 'report', { key: 'now', rows: 1 });
      expect(taskAnswer.message.result.resultType).toBe('task');
    } finally {
      await Promise.all([closed.close(), open.close()]);
    }
  });
});

describe('expiry', () => {
  it('reads a task past its ttlMs exactly as an unknown id (-32602)', async () => {
    // The store's clock is the test's: the task expires when the test moves it, however slow the machine.
    const start = Date.now();
    let skipped = 0;
    const store = createMemoryTaskStore({ now: () => start + skipped });
    const own = await serveTools(tools, { ...options, tasks: { store, leaseMs: 9_000 } });
    try {
      const created = (await call(own.url, 'short_lived', {}, auth('ada'))).message.result;
      expect(created.ttlMs).toBe(300);
      await pollTask(own.url, created.taskId, auth('ada'));
      skipped = 400;
      const expired = await rpc(own.url, 'tasks/get', { taskId: created.taskId }, { ...auth('ada'), id: 9 });
      const unknown = await rpc(
        own.url,
        'tasks/get',
        { taskId: `${created.taskId.slice(0, -2)}xx` },
        { ...auth('ada'), id: 9 },
      );
      expect(expired.message.error).toEqual({ code: -32602, message: 'Unknown task' });
      expect(expired.text).toBe(unknown.text);
    } finally {
      await own.close();
    }
  });
});

describe('failures on the task path', () => {
  it("masks a store's failure and a throwing anonymousOwner behind an error id that onError hears; no text of theirs reaches the client", async () => {
    const errors: Array<{ phase: string; errorId: string; message: string }> = [];
    const broken = {
      ...createMemoryTaskStore(),
      create: async () => Promise.reject(new Error('connect ECONNREFUSED secret-redis:6379')),
      get: async () => Promise.reject(new Error('connect ECONNREFUSED secret-redis:6379')),
    };
    const observe = {
      logger: { error() {}, warn() {}, info() {} } as never,
      onError: (error: unknown, info: { phase: string; errorId: string }) =>
        errors.push({ phase: info.phase, errorId: info.errorId, message: (error as Error).message }),
    };
    const down = await serveTools(tools, { tasks: { store: broken, anonymousOwner: () => 'all' }, observe });
    const hook = await serveTools(tools, {
      tasks: {
        store: createMemoryTaskStore(),
        anonymousOwner: () => {
          throw new Error('secret hook detail');
        },
      },
      observe,
    });
    try {
      const created = await call(down.url, 'report', { key: 'x', rows: 1 });
      const read = await rpc(down.url, 'tasks/get', { taskId: 'abc' });
      const owned = await call(hook.url, 'report', { key: 'x', rows: 1 });
      for (const answer of [created, read, owned]) {
        expect(answer.message.error.code).toBe(-32603);
        expect(answer.message.error.message).toMatch(/failed \(error id [0-9a-f-]{36}\)$/);
        expect(answer.text).not.toContain('secret');
      }
      expect(errors.map((e) => [e.phase, e.message])).toEqual([
        ['task', 'connect ECONNREFUSED secret-redis:6379'],
        ['task', 'connect ECONNREFUSED secret-redis:6379'],
        ['task', 'secret hook detail'],
      ]);
      expect(created.message.error.message).toContain(errors[0]!.errorId);
    } finally {
      await Promise.all([down.close(), hook.close()]);
    }
  });
});

describe('access while polling', () => {
  // One owner (app, ada) under two tokens: the full one holds the tool's scope, the narrow one not. The tool is
  // hidden from any request that sends `x-hide`, as a `visibleTools` deciding by the request would.
  const ACCESS_TOKENS: Record<string, object> = {
    full: { clientId: 'app', scopes: ['reports:read'], extra: { sub: 'ada' } },
    narrow: { clientId: 'app', scopes: [], extra: { sub: 'ada' } },
  };
  const guarded = defineTool({
    name: 'guarded_report',
    scopes: ['reports:read'],
    input: z.object({ key: z.string() }),
    task: { support: 'optional', inlineMs: 0, ttlMs: 60_000 },
    handler: async ({ input }) => {
      await gateFor(input.key).opened;
      return `report ${input.key}`;
    },
  });
  let guardedMount: Running;
  beforeAll(async () => {
    guardedMount = await serveTools([guarded, plain], {
      access: {
        auth: {
          verify: (token) =>
            (ACCESS_TOKENS[token] ? { token, expiresAt: 'never', ...ACCESS_TOKENS[token] } : undefined) as never,
        },
        visibleTools: ({ request }) =>
          request.headers.get('x-hide') === null ? ['guarded_report', 'plain'] : ['plain'],
      },
      tasks: { store: createMemoryTaskStore(), leaseMs: 9_000 },
      observe: { logger: { error() {}, warn() {}, info() {} } as never },
    });
  });
  afterAll(() => guardedMount.close());

  const as = (token: string, hide = false) => ({
    headers: { authorization: `Bearer ${token}`, ...(hide && { 'x-hide': '1' }) },
    id: 7,
  });
  const params = (method: string, taskId: string) =>
    method === 'tasks/update' ? { taskId, inputResponses: {} } : { taskId };

  /**
   * Creates a task with access, then asks get, update and cancel of it as `send`: each answered byte for byte
   * as an unknown id is; and the task's owner, with access, still finds it working (no cancel reached it).
   */
  async function pollsAsUnknown(key: string, send: ReturnType<typeof as>) {
    gates = new Map();
    const created = await call(guardedMount.url, 'guarded_report', { key }, as('full'));
    const { taskId } = created.message.result;
    expect(created.message.result.status).toBe('working');
    const unknownId = `${taskId.slice(0, -2)}${taskId.endsWith('xx') ? 'yy' : 'xx'}`;
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      const denied = await rpc(guardedMount.url, method, params(method, taskId), send);
      const unknown = await rpc(guardedMount.url, method, params(method, unknownId), send);
      expect({ method, status: denied.status, text: denied.text }).toEqual({
        method,
        status: unknown.status,
        text: unknown.text,
      });
      expect(denied.message.error).toEqual({ code: -32602, message: 'Unknown task' });
    }
    const still = await rpc(guardedMount.url, 'tasks/get', { taskId }, as('full'));
    expect(still.message.result).toMatchObject({ taskId, status: 'working' });
    gateFor(key).open();
    expect((await pollTask(guardedMount.url, taskId, as('full'))).status).toBe('completed');
  }

  it("answers get, update and cancel as an unknown id once visibleTools hides the task's tool from its caller, and does not cancel it", async () => {
    await pollsAsUnknown('hidden', as('full', true));
  });

  it("answers get, update and cancel as an unknown id to a token of the task's owner without the tool's scopes, and does not cancel it", async () => {
    await pollsAsUnknown('narrow', as('narrow'));
  });

  it('keeps answering get, update and cancel to the caller who still sees the tool and holds its scopes', async () => {
    gates = new Map();
    const { taskId } = (await call(guardedMount.url, 'guarded_report', { key: 'kept' }, as('full'))).message.result;
    const got = await rpc(guardedMount.url, 'tasks/get', { taskId }, as('full'));
    expect(got.message.result).toMatchObject({ resultType: 'complete', taskId, status: 'working' });
    expect(got.message.result).not.toHaveProperty('tool');
    const updated = await rpc(guardedMount.url, 'tasks/update', { taskId, inputResponses: {} }, as('full'));
    expect(bare(updated.message.result)).toEqual({});
    const cancelled = await rpc(guardedMount.url, 'tasks/cancel', { taskId }, as('full'));
    expect(bare(cancelled.message.result)).toEqual({});
    expect((await rpc(guardedMount.url, 'tasks/get', { taskId }, as('full'))).message.result.status).toBe('cancelled');
    gateFor('kept').open();
  });
});
