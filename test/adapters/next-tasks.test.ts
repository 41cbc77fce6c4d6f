/**
 * Tasks under the Next.js route handlers (`mcp-mount/next`), in-process: the rest of a task's run is handed to
 * Next's `after` (mocked here: it needs a request scope only `next start` or Vercel sets up), a run still ends
 * where `after` throws (the route called outside a request scope), and a mount with tasks and no `tasks.run`
 * warns once that its tasks are bounded by the function's duration. A real `next start` is not used: it runs
 * the task to its end with or without `after` (a Node server keeps the process), so it would prove no more.
 */
import { defineTool, type McpMountOptions } from 'mcp-mount';
import { mcp } from 'mcp-mount/next';
import { createMemoryTaskStore } from 'mcp-mount/tasks/memory';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { latch } from '../support/latch.js';
import { call, pollTask } from '../support/tasks.js';

const after = vi.hoisted(() => vi.fn<(task: Promise<unknown>) => void>());
vi.mock('next/server.js', () => ({ after }));

let release = latch();
const build = defineTool({
  name: 'build',
  input: z.object({ target: z.string() }),
  task: { support: 'optional', inlineMs: 20, ttlMs: 60_000 },
  handler: async ({ input }) => {
    await release.opened;
    return `built ${input.target}`;
  },
});
const plain = defineTool({ name: 'plain', handler: () => 'plain' });

const URL_ = 'http://127.0.0.1/mcp';
const warned: string[] = [];
const options = (extra: Partial<McpMountOptions> = {}): McpMountOptions => ({
  observe: { logger: { error: () => undefined, warn: (line: string) => void warned.push(line) } },
  tasks: { store: createMemoryTaskStore(), anonymousOwner: () => 'anyone' },
  ...extra,
});

/** Sends the `tasks` helpers' requests (global `fetch`) to `route` in-process, with Next's route context. */
function serve(route: (request: Request, context: { params: object }) => Promise<Response>) {
  vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) =>
    route(new Request(input as string, init), { params: Promise.resolve({}) }),
  );
}

beforeEach(() => {
  release = latch();
  after.mockReset();
  warned.length = 0;
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe("a task under the Next.js route handlers is kept going with Next's after", () => {
  it('hands after the rest of the run, which ends after the response, the task polled to completed', async () => {
    const { POST } = mcp([build], options());
    serve(POST);
    const created = (await call(URL_, 'build', { target: 'docs' })).message.result;
    expect(created).toMatchObject({ resultType: 'task', status: 'working' });
    expect(after).toHaveBeenCalledTimes(1);
    const kept = after.mock.calls[0]![0];
    expect(kept).toBeInstanceOf(Promise);
    let settled = false;
    void kept.then(() => {
      settled = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(settled).toBe(false);
    release.open();
    await kept;
    const done = await pollTask(URL_, created.taskId);
    expect(done).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'built docs' }] } });
  });

  it('calls no after for a call answered inline, nor for a mount without tasks', async () => {
    release.open();
    const { POST } = mcp([build, plain], options());
    serve(POST);
    expect((await call(URL_, 'build', { target: 'docs' })).message.result).toMatchObject({
      content: [{ type: 'text', text: 'built docs' }],
    });
    const bare = mcp([plain], { observe: options().observe });
    serve(bare.POST);
    expect((await call(URL_, 'plain')).message.result).toMatchObject({ content: [{ type: 'text', text: 'plain' }] });
    expect(after).not.toHaveBeenCalled();
  });

  it('still runs the task to its end when after throws (outside a request scope)', async () => {
    after.mockImplementation(() => {
      throw new Error('`after` was called outside a request scope.');
    });
    const { POST } = mcp([build], options());
    serve(POST);
    const created = (await call(URL_, 'build', { target: 'docs' })).message.result;
    expect(created).toMatchObject({ resultType: 'task', status: 'working' });
    expect(after).toHaveBeenCalledTimes(1);
    release.open();
    expect(await pollTask(URL_, created.taskId)).toMatchObject({ status: 'completed' });
  });
});

describe("the startup warning of tasks bounded by the function's duration", () => {
  it('is logged once through observe.logger for a mount with tasks and no tasks.run', () => {
    mcp([build, plain], options());
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatch(/bounded by the platform's function duration.*maxDuration.*tasks\.run/);
  });

  it('is not logged with a tasks.run hook, without tasks, or without a tool that has task', () => {
    const { observe, tasks } = options();
    mcp([build], { observe, tasks: { ...tasks!, run: () => undefined } });
    mcp([build], { observe });
    mcp([plain], { observe, tasks });
    expect(warned).toEqual([]);
  });
});
