/**
 * Rate limits and the concurrency cap over real HTTP, in memory (the default store): a limited call gets an
 * `isError` the model can act on, a limited request that is not a call gets 429 with `Retry-After`, each with
 * one audit event; callers are counted apart (never one shared bucket); two instances with the memory store
 * count apart; parallel calls from one caller are counted, not queued. The shared store: test/redis.
 * No outcome depends on the machine's speed: the windows are read on a frozen `Date` (what the memory store
 * counts by), and calls that must be running at once wait on a gate the test opens, not on a sleep.
 */
import { defineTool, type McpMountOptions, type RefusalEvent } from 'mcp-mount';
import { createMcpFetchHandler } from 'mcp-mount/adapter';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { parseBody } from '../adapters/support/session.js';
import { jsonRpcHeaders, rpc, subjectKeys } from '../adapters/support/tools.js';
import { latch } from '../support/latch.js';
import { mergedOptions } from '../support/options.js';
import { listen, type Running } from '../support/server.js';

const echo = defineTool({ name: 'echo', input: z.object({}), handler: () => 'ok' });
const search = defineTool({ name: 'search', input: z.object({}), handler: () => 'found' });

/** The gate `held` calls wait on: the test opens it, so it alone decides how long they run. */
let gate = latch();
/** How many `held` calls have started, and who waits for a count. */
let started = 0;
let startWaiters: Array<{ count: number; resolve: () => void }> = [];
const held = defineTool({
  name: 'held',
  input: z.object({}),
  handler: async () => {
    const shut = gate.opened;
    started += 1;
    for (const waiter of startWaiters) if (started >= waiter.count) waiter.resolve();
    await shut;
    return 'done';
  },
});
/** How often `lookup`'s schema was checked (its refinement runs once per check): the work a limited call skips. */
let checks = 0;
let lookups = 0;
const lookup = defineTool({
  name: 'lookup',
  input: z.object({
    id: z.number().refine(() => {
      checks++;
      return true;
    }),
  }),
  handler: () => {
    lookups++;
    return 'looked up';
  },
});
const tools = [echo, search, held, lookup];

/** Resolves once `count` calls of `held` have started, each holding its caller's concurrency slot. */
function heldStarted(count: number): Promise<void> {
  return new Promise((resolve) => {
    if (started >= count) resolve();
    else startWaiters.push({ count, resolve });
  });
}

/** `Bearer <subject>` is a valid API key of client `app` for that subject. */
const verify = subjectKeys;

const servers: Running[] = [];
beforeEach(() => {
  gate = latch();
  started = 0;
  startWaiters = [];
});
afterEach(async () => {
  gate.open(); // a failed test leaves no call running, so its server can close
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(options: McpMountOptions) {
  const events: RefusalEvent[] = [];
  const base: McpMountOptions = {
    access: { auth: { verify, required: false } },
    observe: { onRefusal: (e) => events.push(e), logger: { warn() {}, error() {} } },
  };
  const running = await listen(createMcpFetchHandler(tools, mergedOptions(base, options)).fetch);
  servers.push(running);
  return { url: running.url, events };
}

async function post(url: string, body: string, token?: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...jsonRpcHeaders, ...headers, ...(token && { authorization: `Bearer ${token}` }) },
    body,
  });
  return { status: response.status, retryAfter: response.headers.get('retry-after'), text: await response.text() };
}
const callText = async (url: string, tool: string, token?: string, args: object = {}, headers = {}) => {
  const { text } = await post(url, rpc('tools/call', { name: tool, arguments: args }), token, headers);
  return parseBody(text).result.content[0].text as string;
};

describe('rate limits in memory', () => {
  // The memory store counts windows by `Date.now()`: frozen, every call of a test falls in one window and a
  // retry is exactly the window's length, however long the machine takes between calls.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('tells the model when to retry a call, and answers any other request 429 with Retry-After', async () => {
    const { url, events } = await serve({ limits: { rate: { perCaller: { points: 3, durationSeconds: 60 } } } });
    for (let i = 0; i < 3; i++) expect(await callText(url, 'echo', 'ada')).toBe('ok');
    const limited = await callText(url, 'echo', 'ada');
    expect(limited).toMatch(/^Tool echo is rate limited: retry in (\d+) s$/);
    const seconds = Number(/retry in (\d+) s/.exec(limited)![1]);
    expect(seconds).toBe(60);
    const listed = await post(url, rpc('tools/list'), 'ada');
    expect(listed.status).toBe(429);
    expect(listed.retryAfter).toBe('60');
    expect(JSON.parse(listed.text)).toMatchObject({
      error: { code: -32000, message: expect.stringMatching(/^Rate limited: retry in \d+ s$/) },
    });
    // Another caller has a window of its own.
    expect(await callText(url, 'echo', 'bob')).toBe('ok');
    expect(events).toEqual([
      {
        reason: 'rate-limited',
        message: limited,
        method: 'tools/call',
        tool: 'echo',
        requestId: 1,
        caller: { clientId: 'app', subject: 'ada' },
        client: { userAgent: expect.any(String) },
        retryAfterSeconds: seconds,
      },
      {
        reason: 'rate-limited',
        status: 429,
        message: expect.stringMatching(/^Rate limited: retry in \d+ s$/),
        method: 'tools/list',
        requestId: 1,
        caller: { clientId: 'app', subject: 'ada' },
        client: { userAgent: expect.any(String) },
        retryAfterSeconds: expect.any(Number),
      },
    ]);
  });

  it('counts each tool in its own window per caller', async () => {
    const { url } = await serve({ limits: { rate: { perTool: { search: { points: 2, durationSeconds: 60 } } } } });
    expect([await callText(url, 'search', 'ada'), await callText(url, 'search', 'ada')]).toEqual(['found', 'found']);
    expect(await callText(url, 'search', 'ada')).toMatch(/^Tool search is rate limited: retry in \d+ s$/);
    expect(await callText(url, 'echo', 'ada')).toBe('ok');
    expect(await callText(url, 'search', 'bob')).toBe('found');
  });

  it('counts anonymous callers by the key function, never in one shared bucket', async () => {
    const unkeyed = await serve({ limits: { rate: { perCaller: { points: 1, durationSeconds: 60 } } } });
    // No key for an anonymous request: not limited (one bucket for all would let one client starve the rest).
    for (let i = 0; i < 3; i++) expect(await callText(unkeyed.url, 'echo')).toBe('ok');
    const keyed = await serve({
      limits: {
        rate: {
          perCaller: { points: 1, durationSeconds: 60 },
          key: ({ request }) => request.headers.get('x-client-ip') ?? undefined,
        },
      },
    });
    const from = (ip: string) => ({ 'x-client-ip': ip });
    expect(await callText(keyed.url, 'echo', undefined, {}, from('10.0.0.1'))).toBe('ok');
    expect(await callText(keyed.url, 'echo', undefined, {}, from('10.0.0.1'))).toMatch(/rate limited/);
    expect(await callText(keyed.url, 'echo', undefined, {}, from('10.0.0.2'))).toBe('ok');
  });

  it('keeps the memory store to one instance: two mounts count apart', async () => {
    const limits = { rate: { perCaller: { points: 2, durationSeconds: 60 } } };
    const [a, b] = [await serve({ limits }), await serve({ limits })];
    for (const url of [a.url, a.url, b.url, b.url]) expect(await callText(url, 'echo', 'ada')).toBe('ok');
    expect(await callText(a.url, 'echo', 'ada')).toMatch(/rate limited/);
  });
});

describe('rate windows count every request of a caller', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    checks = 0;
    lookups = 0;
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** What fills a window: requests that never reach a handler, each a kind the window must count. */
  const fillers: Record<string, (url: string) => Promise<unknown>> = {
    'calls with invalid arguments': (url) => callText(url, 'lookup', 'ada', { id: 'seven' }),
    'calls with arguments the repair would parse (JSON text)': (url) =>
      post(url, rpc('tools/call', { name: 'lookup', arguments: '{"id": "x"}' }), 'ada'),
    'calls to an unknown tool': (url) => post(url, rpc('tools/call', { name: 'made_up', arguments: {} }), 'ada'),
    'calls without a tool name': (url) => post(url, rpc('tools/call', { arguments: {} }), 'ada'),
    lists: (url) => post(url, rpc('tools/list'), 'ada'),
    'plain GETs': (url) =>
      fetch(url, { headers: { accept: 'text/event-stream', authorization: 'Bearer ada' } }).then((r) => r.text()),
    'bodies that are not JSON': (url) => post(url, '{"jsonrpc": nope', 'ada'),
  };

  it.each(Object.keys(fillers))('a window filled by %s refuses the next valid call', async (kind) => {
    const { url, events } = await serve({ limits: { rate: { perCaller: { points: 3, durationSeconds: 60 } } } });
    for (let i = 0; i < 3; i++) await fillers[kind]!(url);
    const before = checks;
    expect(await callText(url, 'lookup', 'ada', { id: 7 })).toMatch(/^Tool lookup is rate limited: retry in 60 s$/);
    // Refused as it arrived: its arguments were never checked, its handler never ran.
    expect([checks - before, lookups]).toEqual([0, 0]);
    expect(events.filter((e) => e.reason === 'rate-limited')).toHaveLength(1);
    // Another caller's window is its own.
    expect(await callText(url, 'lookup', 'bob', { id: 7 })).toBe('looked up');
  });

  it("counts a call in its tool's window whatever its arguments", async () => {
    const { url } = await serve({ limits: { rate: { perTool: { lookup: { points: 2, durationSeconds: 60 } } } } });
    await callText(url, 'lookup', 'ada', { id: 'seven' });
    await callText(url, 'lookup', 'ada', { wrong: true });
    expect(await callText(url, 'lookup', 'ada', { id: 7 })).toMatch(/^Tool lookup is rate limited/);
    expect(await callText(url, 'echo', 'ada')).toBe('ok');
  });

  it('answers a limited call with arguments sent as text without parsing them', async () => {
    const { url } = await serve({ limits: { rate: { perCaller: { points: 1, durationSeconds: 60 } } } });
    await callText(url, 'echo', 'ada');
    const { text } = await post(url, rpc('tools/call', { name: 'lookup', arguments: '{"id": 7}' }), 'ada');
    expect(parseBody(text).result).toEqual({
      content: [{ type: 'text', text: 'Tool lookup is rate limited: retry in 60 s' }],
      isError: true,
    });
    expect(checks).toBe(0);
  });
});

describe('the concurrency cap', () => {
  it("refuses a caller's call past the cap while others run, and frees the slot when one ends", async () => {
    const { url, events } = await serve({ limits: { concurrency: 2 } });
    const running = [callText(url, 'held', 'ada'), callText(url, 'held', 'ada')];
    await heldStarted(2);
    // A third call of any tool (one that would answer at once) is refused while both hold their slots.
    const third = await callText(url, 'echo', 'ada');
    expect(third).toBe('Tool echo: 2 calls of this caller are already running; retry when one finishes');
    expect(await callText(url, 'echo', 'bob')).toBe('ok');
    gate.open();
    expect(await Promise.all(running)).toEqual(['done', 'done']);
    expect(await callText(url, 'echo', 'ada')).toBe('ok');
    expect(started).toBe(2);
    expect(events.map((e) => [e.reason, e.tool, e.caller?.subject])).toEqual([['concurrency', 'echo', 'ada']]);
  });

  it('does not queue parallel calls of one caller: they run side by side', async () => {
    const { url } = await serve({
      limits: {
        concurrency: 8,
        rate: {
          perCaller: { points: 100, durationSeconds: 60 },
          perTool: { held: { points: 100, durationSeconds: 60 } },
        },
      },
    });
    const results = Promise.all(Array.from({ length: 6 }, () => callText(url, 'held', 'ada')));
    // All six handlers start while the gate is shut; queued, the second would never start (the test times out).
    await heldStarted(6);
    gate.open();
    expect(await results).toEqual(Array(6).fill('done'));
  });
});

describe('limit options', () => {
  it('refuse at construction what cannot mean anything', () => {
    const bad: unknown[] = [
      { concurrency: 0 },
      { rate: { perCaller: { points: 0, durationSeconds: 1 } } },
      { rate: { perCaller: { points: 1 } } },
      { rate: { perTool: { echo: { points: 1, durationSeconds: 1.5 } } } },
      { rate: { key: 'ip' } },
      { rate: { perCaller: { points: 1, durationSeconds: 1 }, store: () => ({}) } },
      { rate: 'lots' },
    ];
    for (const limits of bad) {
      expect(() => createMcpFetchHandler(tools, { limits: limits as never }), JSON.stringify(limits)).toThrow(
        /mcp-mount: limits\./,
      );
    }
  });
});
