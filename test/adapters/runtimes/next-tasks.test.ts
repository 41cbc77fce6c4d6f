/**
 * A task under `next build` + `next start` that outlives the response answering its call, on the Node.js and
 * Edge routes of a fixture app (fixtures/next-tasks): its handler waits for the test to release it, the call
 * is answered with a task after 50 ms, the test releases it afterwards, and a poll reads it completed. The
 * build resolves Next's `after` (`next/server.js`) for both runtimes, and the real route module logs the
 * startup warning of a mount with tasks and no `tasks.run`. That `after` keeps the run going past the response
 * on Vercel is not observable here: `next start` is a Node server, which runs the task to its end either way
 * (the unit test test/adapters/next-tasks.test.ts checks the run is handed to `after`).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, pollTask } from '../../support/tasks.js';
import { type RunningProcess, repoRoot, startNext } from '../support/processes.js';

const APP = 'test/adapters/runtimes/fixtures/next-tasks';
let next: RunningProcess;

beforeAll(async () => {
  await promisify(execFile)(process.execPath, ['node_modules/next/dist/bin/next', 'build', APP], {
    cwd: repoRoot,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
    timeout: 170_000,
  });
  next = await startNext(APP);
}, 180_000);
afterAll(() => next?.stop());

describe.each([
  ['Node.js runtime', '/mcp'],
  ['Edge runtime', '/edge/mcp'],
] as const)('a task under next start on the %s (%s)', (_runtime, path) => {
  it('completes after the response that answered its call, polled to completed', async () => {
    const url = next.origin + path;
    const key = `k-${path}`;
    const created = (await call(url, 'wait', { key })).message.result;
    expect(created).toMatchObject({ resultType: 'task', status: 'working' });
    expect((await pollTask(url, created.taskId, {}, (t) => t.statusMessage === 'waiting')).status).toBe('working');
    expect((await call(url, 'release', { key })).message.result).toMatchObject({ content: [{ text: 'ok' }] });
    const done = await pollTask(url, created.taskId);
    expect(done).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'text', text: `released ${key}` }] },
    });
  });
});

it("logs once per route module that the tasks are bounded by the platform's function duration", () => {
  const warnings = next.output().match(/bounded by the platform's function duration/g) ?? [];
  // One mount per route: the Node.js route's and the Edge route's, each logged when its module loaded.
  expect(warnings).toHaveLength(2);
});
