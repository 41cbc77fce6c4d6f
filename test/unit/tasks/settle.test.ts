/**
 * The `tasks` options and a tool's `task`, settled at construction: defaults, every refusal naming what it
 * refuses, the route each call takes, and whose tasks a caller's are.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../../src/core/model/tool.js';
import { settleOptions } from '../../../src/core/serve/config.js';
import { createMcpFetchHandler } from '../../../src/core/serve/create-handler.js';
import { createMemoryTaskStore } from '../../../src/core/tasks/memory.js';
import {
  callerOwner,
  settleTasks,
  settleToolTask,
  type TasksPolicy,
  type ToolTaskPolicy,
  taskRoute,
} from '../../../src/core/tasks/settle.js';
import { taskOwner } from '../../../src/core/tasks/store.js';

const store = createMemoryTaskStore();
const policy = settleTasks({ store })!;
const request = new Request('http://localhost/mcp', { method: 'POST' });

describe('tasks options', () => {
  it('defaults the lease to 30 s with a heartbeat at a third, and freezes the policy', () => {
    expect(policy).toEqual({ store, leaseMs: 30_000, heartbeatMs: 10_000 });
    expect(Object.isFrozen(policy)).toBe(true);
    expect(settleTasks(undefined)).toBeUndefined();
    expect(settleTasks({ store, leaseMs: 9, maxOpen: 3 })).toMatchObject({ leaseMs: 9, heartbeatMs: 3, maxOpen: 3 });
    const run = () => undefined;
    expect(settleTasks({ store, run })).toEqual({ store, leaseMs: 30_000, heartbeatMs: 10_000, run });
  });

  it('refuses what cannot mean anything, naming the option', () => {
    expect(() => settleTasks({} as never)).toThrow(/tasks\.store must be a task store/);
    expect(() => settleTasks({ store: { get() {} } } as never)).toThrow(/tasks\.store/);
    expect(() => settleTasks({ store, leaseMs: 0 })).toThrow(/tasks\.leaseMs must be a positive integer/);
    expect(() => settleTasks({ store, maxOpen: 1.5 })).toThrow(/tasks\.maxOpen/);
    expect(() => settleTasks({ store, anonymousOwner: 'x' as never })).toThrow(
      /tasks\.anonymousOwner must be a function/,
    );
    expect(() => settleTasks({ store, run: {} as never })).toThrow(/tasks\.run must be a function/);
  });

  it('joins the mount as the `tasks` group, its keys checked like every group', () => {
    expect(settleOptions({ tasks: { store } }).tasks).toMatchObject({ leaseMs: 30_000 });
    expect(settleOptions({}).tasks).toBeUndefined();
    expect(() => settleOptions({ tasks: { store, leaseMS: 5 } as never })).toThrow(
      /tasks\.leaseMS is not an option \(did you mean tasks\.leaseMs\?\)/,
    );
    expect(() => settleOptions({ store } as never)).toThrow(/store is not an option \(it is tasks\.store\)/);
  });
});

describe("a tool's task", () => {
  // `null`: a mount without `tasks`.
  const settle = (task: unknown, tasks: TasksPolicy | null = policy, execution?: unknown) =>
    settleToolTask({ name: 'report', task, ...(execution !== undefined && { execution }) }, tasks ?? undefined);

  it('defaults: optional waits 500 ms inline, required none; an hour of TTL, a poll a second', () => {
    expect(settle(undefined)).toBeUndefined();
    expect(settle({ support: 'optional' })).toEqual({
      support: 'optional',
      inlineMs: 500,
      ttlMs: 3_600_000,
      pollIntervalMs: 1_000,
    });
    expect(settle({ support: 'required', ttlMs: null, timeoutMs: 60_000 })).toEqual({
      support: 'required',
      inlineMs: 0,
      ttlMs: null,
      pollIntervalMs: 1_000,
      timeoutMs: 60_000,
    });
    expect(Object.isFrozen(settle({ support: 'optional' }))).toBe(true);
  });

  it('refuses, naming the tool: a bad value, an unknown key, execution beside it, required without a store', () => {
    expect(() => settle('optional')).toThrow(/tool report: task must be an object/);
    expect(() => settle({})).toThrow(/tool report: task\.support is required/);
    expect(() => settle({ support: 'always' })).toThrow(/task\.support must be one of optional, required/);
    expect(() => settle({ support: 'optional', inlineMs: -1 })).toThrow(/task\.inlineMs must be a non-negative/);
    expect(() => settle({ support: 'optional', ttlMs: 0 })).toThrow(/task\.ttlMs must be a positive integer/);
    expect(() => settle({ support: 'optional', ttl: 5 })).toThrow(/task\.ttl is not an option/);
    expect(() => settle({ support: 'optional' }, policy, { taskSupport: 'optional' })).toThrow(/leave execution out/);
    expect(() => settle({ support: 'required' }, null)).toThrow(/'required', but the mount has no tasks\.store/);
    expect(settle({ support: 'optional' }, null)).toMatchObject({ support: 'optional' });
  });

  it('fails the mount for a required task tool on a mount without tasks', () => {
    const tool = defineTool({ name: 'report', task: { support: 'required' }, handler: () => 'ok' });
    expect(() => createMcpFetchHandler([tool])).toThrow(/tool report: task\.support is 'required'/);
    expect(() => createMcpFetchHandler([tool], { tasks: { store } })).not.toThrow();
    const typed = defineTool({
      name: 't',
      input: z.object({}),
      task: { support: 'optional', inlineMs: 0 },
      handler: () => 1,
    });
    expect(typed.task?.support).toBe('optional');
  });
});

describe('the route of a call', () => {
  const optional = settleToolTask({ name: 'o', task: { support: 'optional' } }, policy) as ToolTaskPolicy;
  const required = settleToolTask({ name: 'r', task: { support: 'required' } }, policy) as ToolTaskPolicy;
  const owner = taskOwner({ subject: 'ada' });

  it('is a task only for a 2026-07-28 request that declared the extension, from a caller with an owner', () => {
    for (const modern of [true, false]) {
      for (const declared of [true, false]) {
        for (const o of [owner, undefined]) {
          const caller = { modern, declared, ...(o && { owner: o }) };
          const eligible = modern && declared && o !== undefined;
          expect(taskRoute(optional, policy, caller)).toBe(eligible ? 'task' : 'plain');
          expect(taskRoute(required, policy, caller)).toBe(eligible ? 'task' : 'refuse');
          expect(taskRoute(undefined, policy, caller)).toBe('plain');
          expect(taskRoute(optional, undefined, caller)).toBe('plain');
        }
      }
    }
  });
});

describe("a caller's owner", () => {
  it("is the token's issuer, client id and subject; another part is another owner", () => {
    const a = callerOwner(policy, { token: 't', clientId: 'app', scopes: [], extra: { sub: 'ada' } }, request, {});
    const b = callerOwner(policy, { token: 'u', clientId: 'app', scopes: [], extra: { sub: 'bob' } }, request, {});
    const c = callerOwner(
      policy,
      { token: 't', clientId: 'app', scopes: [], extra: { sub: 'ada', iss: 'x' } },
      request,
      {},
    );
    expect(a).toBe(taskOwner({ clientId: 'app', subject: 'ada' }));
    expect(new Set([a, b, c]).size).toBe(3);
    expect(callerOwner(policy, { token: 't', clientId: '', scopes: [] }, request, {})).toBeUndefined();
  });

  it('is none for an anonymous caller unless the mount opted in with anonymousOwner', () => {
    expect(callerOwner(policy, undefined, request, {})).toBeUndefined();
    const open = settleTasks({ store, anonymousOwner: ({ request }) => request.headers.get('x-key') ?? undefined })!;
    expect(callerOwner(open, undefined, request, {})).toBeUndefined();
    const keyed = new Request('http://localhost/mcp', { headers: { 'x-key': 'k1' } });
    expect(callerOwner(open, undefined, keyed, {})).toBe(taskOwner({ anonymous: 'k1' }));
  });
});
