/**
 * The task store contract (src/core/tasks/store.ts), one suite that every backend runs: in memory
 * (test/unit/tasks/memory.test.ts), Redis against a real redis-server (test/redis/tasks.test.ts), the Durable
 * Object in workerd (test/adapters/runtimes/tasks-durable-object.test.ts). A backend gives a store, a way to
 * let its clock run, and a count of what it still stores.
 */
import { describe, expect, it } from 'vitest';
import { LAPSED_ERROR, type Lease, type TaskStore, taskOwner } from '../../src/core/tasks/store.js';

export interface ContractBackend {
  /** The store under test: every test uses its own owners, so one store may serve them all. */
  store(): TaskStore;
  /** Lets `ms` milliseconds of the store's clock pass (a fake clock's advance, or a real wait). */
  advance(ms: number): Promise<void>;
  /**
   * The time unit of the tests, in milliseconds: every lease and TTL is a few of them, and every wait keeps a
   * whole unit of margin from the deadline it must not cross (a real clock on a busy machine needs more).
   */
  unit: number;
  /** How many records (or keys) the backend holds for `taskId` now: 0 once it is gone. */
  stored(taskId: string): Promise<number>;
  /** The form of the backend's task ids. Default: 22 characters of base64url (`newTaskId`). */
  idPattern?: RegExp;
  /** The random part of a task id, in base64url. Default: the whole id. */
  randomPart?(taskId: string): string;
}

/** An id of the same form as `taskId` that no task has: its last character changed. */
function sibling(taskId: string): string {
  return taskId.slice(0, -1) + (taskId.endsWith('A') ? 'B' : 'A');
}

let owners = 0;
/** A fresh owner key per test, so tests never see each other's tasks or caps. */
function owner(): string {
  return taskOwner({ issuer: 'https://issuer.test', clientId: 'app', subject: `user-${++owners}-${Math.random()}` });
}

const CALL = { tool: 'report', arguments: { region: 'eu', pages: [1, 2, 3] } };

/** A result that a JSON round trip through a careless codec would change: empty array and object, big numbers. */
const AWKWARD_RESULT = {
  content: [{ type: 'text', text: 'dü 🚀 "quoted" \\ \n' }],
  structuredContent: {
    empty: [],
    nothing: {},
    nested: [[[]], [{}]],
    max: 2 ** 53 - 1,
    tiny: 1e-300,
    half: 0.5,
    negative: -0.25,
    nil: null,
    flag: false,
  },
  isError: false,
};

export function taskStoreContract(name: string, backend: ContractBackend): void {
  const u = backend.unit;
  const store = () => backend.store();

  describe(`task store contract: ${name}`, () => {
    describe('create and get', () => {
      it('answers create only once get finds the task, with its fields', async () => {
        const me = owner();
        const created = await store().create({ owner: me, ttlMs: 60 * u, pollIntervalMs: 500, call: CALL });
        expect(created.ok).toBe(true);
        if (!created.ok) return;
        expect(created.lease).toBeUndefined();
        const { task } = created;
        expect(task).toMatchObject({ status: 'working', ttlMs: 60 * u, pollIntervalMs: 500 });
        expect(task.createdAt).toBe(task.lastUpdatedAt);
        expect(Number.isSafeInteger(task.createdAt)).toBe(true);
        expect(task).not.toHaveProperty('result');
        expect(task).not.toHaveProperty('error');
        expect(task).not.toHaveProperty('inputRequests');
        expect(await store().get(me, task.taskId)).toEqual(task);
      });

      it("keeps the tool's name in the owner's view for the task's whole life, after the call is dropped at settle", async () => {
        const me = owner();
        const created = await store().create({ owner: me, tool: 'report', ttlMs: 60 * u, call: CALL, leaseMs: 60 * u });
        if (!created.ok) throw new Error('not created');
        expect(created.task.tool).toBe('report');
        expect((await store().get(me, created.task.taskId))?.tool).toBe('report');
        await store().settle(created.lease!, { status: 'completed', result: { content: [] } });
        expect(await store().get(me, created.task.taskId)).toMatchObject({ status: 'completed', tool: 'report' });
        const untold = await store().create({ owner: me, ttlMs: 60 * u, call: null });
        expect(untold.ok && (await store().get(me, untold.task.taskId))).not.toHaveProperty('tool');
      });

      it('keeps a task without a TTL as ttlMs null, and leaves pollIntervalMs out when not given', async () => {
        const me = owner();
        const created = await store().create({ owner: me, ttlMs: null, call: null });
        expect(created.ok && created.task.ttlMs).toBeNull();
        expect(created.ok && 'pollIntervalMs' in created.task).toBe(false);
      });

      it('gives ids of 128 random bits, unique, in base64url', async () => {
        const me = owner();
        const ids: string[] = [];
        for (let i = 0; i < 64; i++) {
          const created = await store().create({ owner: me, ttlMs: 60 * u, call: null });
          if (created.ok) ids.push(created.task.taskId);
        }
        expect(ids).toHaveLength(64);
        expect(new Set(ids).size).toBe(64);
        for (const id of ids) expect(id).toMatch(backend.idPattern ?? /^[A-Za-z0-9_-]{22}$/);
        // Every one of the 128 bits varies across the ids: none is fixed by a format, counter or clock.
        const bits = ids.map((id) => Buffer.from(backend.randomPart?.(id) ?? id, 'base64url'));
        for (const b of bits) expect(b.length).toBeGreaterThanOrEqual(16);
        for (let bit = 0; bit < 128; bit++) {
          const set = bits.filter((b) => (b[bit >> 3]! >> (bit & 7)) & 1).length;
          expect(set, `bit ${bit}`).toBeGreaterThan(0);
          expect(set, `bit ${bit}`).toBeLessThan(ids.length);
        }
      });

      it('refuses values that mean nothing with a TypeError naming the field, storing nothing', async () => {
        const me = owner();
        const bad = [
          { ttlMs: 0 },
          { ttlMs: 1.5 },
          { ttlMs: -1 },
          { pollIntervalMs: 0 },
          { leaseMs: 0 },
          { claimWithinMs: -5 },
          { maxOpen: 0 },
          { owner: '' },
        ];
        for (const change of bad) {
          const field = Object.keys(change)[0]!;
          await expect(store().create({ owner: me, ttlMs: 60 * u, call: null, ...change })).rejects.toThrow(
            new RegExp(`create: ${field}`),
          );
        }
        await expect(store().claim('x', 0)).rejects.toThrow(TypeError);
      });
    });

    describe('owners', () => {
      it("reads another owner's task exactly as an unknown id, on get, answer and cancel, and leaves it alone", async () => {
        const ada = owner();
        const eve = owner();
        const created = await store().create({ owner: ada, ttlMs: 60 * u, call: CALL, leaseMs: 60 * u });
        if (!created.ok) throw new Error('not created');
        const id = created.task.taskId;
        await store().update(created.lease!, { inputRequests: { q: { method: 'roots/list' } } });
        const asEve = [
          await store().get(eve, id),
          await store().answer(eve, id, { q: { roots: [] } }),
          await store().requestCancel(eve, id),
        ];
        for (const [who, unknown] of [
          [eve, 'AAAAAAAAAAAAAAAAAAAAAA'],
          [eve, sibling(id)],
          [ada, sibling(id)],
        ] as const) {
          const asUnknown = [
            await store().get(who, unknown),
            await store().answer(who, unknown, { q: { roots: [] } }),
            await store().requestCancel(who, unknown),
          ];
          expect(JSON.stringify(asEve)).toBe(JSON.stringify(asUnknown));
        }
        expect(asEve).toEqual([undefined, false, false]);
        const seen = await store().get(ada, id);
        expect(seen).toMatchObject({ status: 'input_required', inputRequests: { q: { method: 'roots/list' } } });
      });

      it('caps the open tasks of one owner, and frees a slot when one settles or lapses', async () => {
        const me = owner();
        const other = owner();
        const make = (who: string, leaseMs = 60 * u) =>
          store().create({ owner: who, ttlMs: 60 * u, call: null, leaseMs, maxOpen: 2 });
        const first = await make(me);
        // Its lease must outlast the steps below before the wait, on a busy machine too.
        const second = await make(me, 4 * u);
        expect([first.ok, second.ok]).toEqual([true, true]);
        expect(await make(me)).toEqual({ ok: false, reason: 'full' });
        expect((await make(other)).ok).toBe(true);
        if (!first.ok) return;
        expect(await store().settle(first.lease!, { status: 'completed', result: { content: [] } })).toEqual({
          ok: true,
        });
        const third = await make(me);
        expect(third.ok).toBe(true);
        expect(await make(me)).toEqual({ ok: false, reason: 'full' });
        // The second one's lease lapses: it reads failed, and no longer counts.
        await backend.advance(6 * u);
        expect((await make(me)).ok).toBe(true);
      });
    });

    describe('worker steps', () => {
      it('claims an unclaimed task once, and hands the worker its call and owner', async () => {
        const me = owner();
        const created = await store().create({ owner: me, ttlMs: 60 * u, call: CALL });
        if (!created.ok) throw new Error('not created');
        const claimed = await store().claim(created.task.taskId, 60 * u);
        expect(claimed).toMatchObject({ ok: true, owner: me, call: CALL });
        if (!claimed.ok) return;
        expect(claimed.lease.taskId).toBe(created.task.taskId);
        expect(claimed.lease.token).toMatch(/^[A-Za-z0-9_-]{22}$/);
        expect(await store().claim(created.task.taskId, 60 * u)).toEqual({ ok: false, reason: 'held' });
        expect(await store().claim('AAAAAAAAAAAAAAAAAAAAAA', 60 * u)).toEqual({ ok: false, reason: 'unknown' });
        expect(await store().claim(sibling(created.task.taskId), 60 * u)).toEqual({ ok: false, reason: 'unknown' });
      });

      it('creates claimed when given leaseMs, so no other worker can take it', async () => {
        const created = await store().create({ owner: owner(), ttlMs: 60 * u, call: null, leaseMs: 60 * u });
        if (!created.ok) throw new Error('not created');
        expect(created.lease).toMatchObject({ taskId: created.task.taskId, token: expect.any(String) });
        expect(created.lease!.expiresAt).toBe(created.task.createdAt + 60 * u);
        expect(await store().claim(created.task.taskId, 60 * u)).toEqual({ ok: false, reason: 'held' });
      });

      it('keeps a task alive while its worker heartbeats past the first lease', async () => {
        const me = owner();
        const created = await store().create({ owner: me, ttlMs: 60 * u, call: null, leaseMs: 3 * u });
        if (!created.ok) throw new Error('not created');
        await backend.advance(2 * u);
        const beat = await store().heartbeat(created.lease!, 3 * u);
        expect(beat).toMatchObject({ ok: true, status: 'working', inputResponses: {} });
        if (!beat.ok) return;
        expect(beat.lease.expiresAt).toBeGreaterThan(created.lease!.expiresAt);
        await backend.advance(2 * u);
        expect((await store().get(me, created.task.taskId))?.status).toBe('working');
        expect(await store().settle(beat.lease, { status: 'completed', result: { content: [] } })).toEqual({
          ok: true,
        });
      });

      it('reads a task whose lease lapsed as failed, and refuses the late worker every step', async () => {
        const me = owner();
        const created = await store().create({ owner: me, ttlMs: 60 * u, call: null, leaseMs: u });
        if (!created.ok) throw new Error('not created');
        await backend.advance(3 * u);
        const seen = await store().get(me, created.task.taskId);
        expect(seen).toMatchObject({ status: 'failed', error: LAPSED_ERROR });
        expect(seen).not.toHaveProperty('result');
        const late = created.lease!;
        const result = { content: [{ type: 'text', text: 'too late' }] };
        expect(await store().settle(late, { status: 'completed', result })).toEqual({
          ok: false,
          reason: 'settled',
          status: 'failed',
        });
        expect((await store().heartbeat(late, u)).ok).toBe(false);
        expect((await store().update(late, { statusMessage: 'still here' })).ok).toBe(false);
        expect(await store().claim(created.task.taskId, u)).toEqual({ ok: false, reason: 'settled', status: 'failed' });
        expect(await store().get(me, created.task.taskId)).toEqual(seen);
      });

      it('refuses a settle whose lease lapsed before anyone read the task, and the task reads failed', async () => {
        const me = owner();
        const created = await store().create({ owner: me, ttlMs: 60 * u, call: null, leaseMs: u });
        if (!created.ok) throw new Error('not created');
        await backend.advance(3 * u);
        const result = { content: [{ type: 'text', text: 'too late' }] };
        expect(await store().settle(created.lease!, { status: 'completed', result })).toEqual({
          ok: false,
          reason: 'lost',
        });
        expect(await store().get(me, created.task.taskId)).toMatchObject({ status: 'failed', error: LAPSED_ERROR });
      });

      it('refuses a lease that is not the current one (a forged or an old token)', async () => {
        const me = owner();
        const created = await store().create({ owner: me, ttlMs: 60 * u, call: null, leaseMs: 60 * u });
        if (!created.ok) throw new Error('not created');
        const forged: Lease = { ...created.lease!, token: 'AAAAAAAAAAAAAAAAAAAAAA' };
        expect(await store().settle(forged, { status: 'cancelled' })).toEqual({ ok: false, reason: 'lost' });
        expect(await store().heartbeat(forged, u)).toEqual({ ok: false, reason: 'lost' });
        expect(await store().update(forged, { statusMessage: 'x' })).toEqual({ ok: false, reason: 'lost' });
        const unknown: Lease = { ...created.lease!, taskId: sibling(created.task.taskId) };
        expect(await store().settle(unknown, { status: 'cancelled' })).toEqual({ ok: false, reason: 'unknown' });
        expect((await store().get(me, created.task.taskId))?.status).toBe('working');
      });

      it('fails a task no worker claimed within claimWithinMs', async () => {
        const me = owner();
        const created = await store().create({ owner: me, ttlMs: 60 * u, call: null, claimWithinMs: u });
        if (!created.ok) throw new Error('not created');
        await backend.advance(3 * u);
        expect(await store().claim(created.task.taskId, u)).toEqual({ ok: false, reason: 'settled', status: 'failed' });
        expect(await store().get(me, created.task.taskId)).toMatchObject({ status: 'failed', error: LAPSED_ERROR });
      });

      it('shows the status message, and moves lastUpdatedAt', async () => {
        const me = owner();
        const created = await store().create({ owner: me, ttlMs: 60 * u, call: null, leaseMs: 60 * u });
        if (!created.ok) throw new Error('not created');
        await backend.advance(u);
        expect(await store().update(created.lease!, { statusMessage: 'page 3 of 10' })).toEqual({ ok: true });
        const seen = await store().get(me, created.task.taskId);
        expect(seen).toMatchObject({ status: 'working', statusMessage: 'page 3 of 10' });
        expect(seen!.lastUpdatedAt).toBeGreaterThan(seen!.createdAt);
      });
    });

    describe('input', () => {
      it('asks for input, takes partial answers, and resumes once every key is answered', async () => {
        const me = owner();
        const created = await store().create({ owner: me, ttlMs: 60 * u, call: null, leaseMs: 60 * u });
        if (!created.ok) throw new Error('not created');
        const id = created.task.taskId;
        const lease = created.lease!;
        const name = {
          method: 'elicitation/create',
          params: { message: 'Name?', requestedSchema: { type: 'object' } },
        };
        const ok = { method: 'elicitation/create', params: { message: 'Sure?', requestedSchema: { type: 'object' } } };
        expect(await store().update(lease, { inputRequests: { name, ok } })).toEqual({ ok: true });
        expect(await store().get(me, id)).toMatchObject({ status: 'input_required', inputRequests: { name, ok } });

        const nameAnswer = { action: 'accept', content: { name: 'Ada' } };
        expect(await store().answer(me, id, { name: nameAnswer, stray: { action: 'decline' } })).toBe(true);
        const partial = await store().get(me, id);
        expect(partial?.status).toBe('input_required');
        expect(partial?.inputRequests).toEqual({ ok });
        expect(await store().heartbeat(lease, 60 * u)).toMatchObject({
          status: 'input_required',
          inputResponses: { name: nameAnswer },
        });
        // A key answered before is not pending any more: a second answer to it changes nothing.
        expect(await store().answer(me, id, { name: { action: 'decline' } })).toBe(true);

        const okAnswer = { action: 'accept', content: { confirm: true } };
        expect(await store().answer(me, id, { ok: okAnswer })).toBe(true);
        const resumed = await store().get(me, id);
        expect(resumed?.status).toBe('working');
        expect(resumed).not.toHaveProperty('inputRequests');
        expect(await store().heartbeat(lease, 60 * u)).toMatchObject({
          status: 'working',
          inputResponses: { name: nameAnswer, ok: okAnswer },
        });

        // A new round drops the last round's answers.
        const again = { method: 'roots/list' };
        await store().update(lease, { inputRequests: { again } });
        expect(await store().heartbeat(lease, 60 * u)).toMatchObject({ status: 'input_required', inputResponses: {} });
        expect(await store().settle(lease, { status: 'completed', result: { content: [] } })).toEqual({ ok: true });
      });

      it('acknowledges an answer to a task with nothing pending, and changes nothing', async () => {
        const me = owner();
        const created = await store().create({ owner: me, ttlMs: 60 * u, call: null, leaseMs: 60 * u });
        if (!created.ok) throw new Error('not created');
        const before = await store().get(me, created.task.taskId);
        expect(await store().answer(me, created.task.taskId, { 'unknown-key': { ignored: true } })).toBe(true);
        expect(await store().get(me, created.task.taskId)).toEqual(before);
      });
    });

    describe('settle', () => {
      it('keeps a completed result exactly as the worker gave it, and refuses a second settle', async () => {
        const me = owner();
        const created = await store().create({ owner: me, ttlMs: 60 * u, call: null, leaseMs: 60 * u });
        if (!created.ok) throw new Error('not created');
        expect(await store().settle(created.lease!, { status: 'completed', result: AWKWARD_RESULT })).toEqual({
          ok: true,
        });
        const seen = await store().get(me, created.task.taskId);
        expect(seen?.status).toBe('completed');
        expect(JSON.stringify(seen?.result)).toBe(JSON.stringify(AWKWARD_RESULT));
        expect(seen).not.toHaveProperty('error');
        expect(
          await store().settle(created.lease!, { status: 'failed', error: { code: -32603, message: 'x' } }),
        ).toEqual({ ok: false, reason: 'settled', status: 'completed' });
        expect(await store().heartbeat(created.lease!, u)).toEqual({
          ok: false,
          reason: 'settled',
          status: 'completed',
        });
      });

      it('keeps a tool error (isError) as completed, and a JSON-RPC error as failed without a result', async () => {
        const me = owner();
        const a = await store().create({ owner: me, ttlMs: 60 * u, call: null, leaseMs: 60 * u });
        const b = await store().create({ owner: me, ttlMs: 60 * u, call: null, leaseMs: 60 * u });
        if (!a.ok || !b.ok) throw new Error('not created');
        const toolError = { content: [{ type: 'text', text: 'disk full' }], isError: true };
        await store().settle(a.lease!, { status: 'completed', result: toolError });
        const error = { code: -32603, message: 'Internal error', data: { errorId: 'e-1' } };
        await store().settle(b.lease!, { status: 'failed', error });
        expect(await store().get(me, a.task.taskId)).toMatchObject({ status: 'completed', result: toolError });
        const failed = await store().get(me, b.task.taskId);
        expect(failed).toMatchObject({ status: 'failed', error });
        expect(failed).not.toHaveProperty('result');
      });
    });

    describe('cancel', () => {
      it('settles a running task cancelled at once; its worker learns it at the next heartbeat', async () => {
        const me = owner();
        const created = await store().create({ owner: me, ttlMs: 60 * u, call: null, leaseMs: 60 * u });
        if (!created.ok) throw new Error('not created');
        expect(await store().requestCancel(me, created.task.taskId)).toBe(true);
        expect((await store().get(me, created.task.taskId))?.status).toBe('cancelled');
        expect(await store().heartbeat(created.lease!, u)).toEqual({
          ok: false,
          reason: 'settled',
          status: 'cancelled',
        });
        const result = { content: [] };
        expect(await store().settle(created.lease!, { status: 'completed', result })).toEqual({
          ok: false,
          reason: 'settled',
          status: 'cancelled',
        });
        expect(await store().requestCancel(me, created.task.taskId)).toBe(true);
      });

      it('acknowledges a cancel of a terminal task and leaves its outcome', async () => {
        const me = owner();
        const created = await store().create({ owner: me, ttlMs: 60 * u, call: null, leaseMs: 60 * u });
        if (!created.ok) throw new Error('not created');
        const result = { content: [{ type: 'text', text: 'done' }] };
        await store().settle(created.lease!, { status: 'completed', result });
        expect(await store().requestCancel(me, created.task.taskId)).toBe(true);
        expect(await store().get(me, created.task.taskId)).toMatchObject({ status: 'completed', result });
      });

      it('cancels an input_required task, dropping its requests', async () => {
        const me = owner();
        const created = await store().create({ owner: me, ttlMs: 60 * u, call: null, leaseMs: 60 * u });
        if (!created.ok) throw new Error('not created');
        await store().update(created.lease!, { inputRequests: { q: { method: 'roots/list' } } });
        await store().requestCancel(me, created.task.taskId);
        const seen = await store().get(me, created.task.taskId);
        expect(seen?.status).toBe('cancelled');
        expect(seen).not.toHaveProperty('inputRequests');
      });
    });

    describe('TTL', () => {
      it('removes a task at its TTL: unknown to every step, and nothing left stored', async () => {
        const me = owner();
        const created = await store().create({ owner: me, ttlMs: 2 * u, call: CALL, leaseMs: 60 * u });
        if (!created.ok) throw new Error('not created');
        const id = created.task.taskId;
        await store().update(created.lease!, { inputRequests: { q: { method: 'roots/list' } } });
        await store().answer(me, id, { q: { roots: [] } });
        await store().update(created.lease!, { inputRequests: { r: { method: 'roots/list' } } });
        expect(await backend.stored(id)).toBeGreaterThan(0);
        await backend.advance(3 * u);
        expect(await store().get(me, id)).toBeUndefined();
        expect(await store().answer(me, id, { r: { roots: [] } })).toBe(false);
        expect(await store().requestCancel(me, id)).toBe(false);
        expect(await store().heartbeat(created.lease!, u)).toEqual({ ok: false, reason: 'unknown' });
        expect(await store().settle(created.lease!, { status: 'cancelled' })).toEqual({ ok: false, reason: 'unknown' });
        expect(await store().claim(id, u)).toEqual({ ok: false, reason: 'unknown' });
        expect(await backend.stored(id)).toBe(0);
      });

      it('keeps a settled task readable until its TTL', async () => {
        const me = owner();
        const created = await store().create({ owner: me, ttlMs: 4 * u, call: null, leaseMs: 60 * u });
        if (!created.ok) throw new Error('not created');
        await store().settle(created.lease!, { status: 'cancelled' });
        await backend.advance(2 * u);
        expect((await store().get(me, created.task.taskId))?.status).toBe('cancelled');
        await backend.advance(3 * u);
        expect(await store().get(me, created.task.taskId)).toBeUndefined();
      });
    });
  });
}
