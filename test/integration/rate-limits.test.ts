/**
 * Rate limits and the concurrency cap over real HTTP, in memory (the default store): a limited call gets an
 * `isError` the model can act on, a limited request that is not a call gets 429 with `Retry-After`, each with
 * one audit event; callers are counted apart (never one shared bucket); two instances with the memory store
 * count apart; parallel calls from one caller are counted, not queued. The shared store: test/redis.
 */
import { defineTool, type McpMountOptions, type RefusalEvent } from 'mcp-mount';
import { createMcpFetchHandler } from 'mcp-mount/adapter';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseBody } from '../adapters/support/session.js';
import { jsonRpcHeaders, rpc, sleepTool, subjectKeys } from '../adapters/support/tools.js';
import { mergedOptions } from '../support/options.js';
import { listen, type Running } from '../support/server.js';

const echo = defineTool({ name: 'echo', input: z.object({}), handler: () => 'ok' });
const search = defineTool({ name: 'search', input: z.object({}), handler: () => 'found' });
const slow = sleepTool('slow');
const tools = [echo, search, slow];

/** `Bearer <subject>` is a valid API key of client `app` for that subject. */
const verify = subjectKeys;

const servers: Running[] = [];
afterEach(async () => {
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
  it('tells the model when to retry a call, and answers any other request 429 with Retry-After', async () => {
    const { url, events } = await serve({ limits: { rate: { perCaller: { points: 3, durationSeconds: 60 } } } });
    for (let i = 0; i < 3; i++) expect(await callText(url, 'echo', 'ada')).toBe('ok');
    const limited = await callText(url, 'echo', 'ada');
    expect(limited).toMatch(/^Tool echo is rate limited: retry in (\d+) s$/);
    const seconds = Number(/retry in (\d+) s/.exec(limited)![1]);
    expect(seconds).toBeGreaterThan(55);
    expect(seconds).toBeLessThanOrEqual(60);
    const listed = await post(url, rpc('tools/list'), 'ada');
    expect(listed.status).toBe(429);
    expect(Number(listed.retryAfter)).toBeGreaterThan(55);
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
        retryAfterSeconds: seconds,
      },
      {
        reason: 'rate-limited',
        status: 429,
        message: expect.stringMatching(/^Rate limited: retry in \d+ s$/),
        method: 'tools/list',
        caller: { clientId: 'app', subject: 'ada' },
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

describe('the concurrency cap', () => {
  it("refuses a caller's call past the cap while others run, and frees the slot when one ends", async () => {
    const { url, events } = await serve({ limits: { concurrency: 2 } });
    const running = [callText(url, 'slow', 'ada', { ms: 400 }), callText(url, 'slow', 'ada', { ms: 400 })];
    await new Promise((resolve) => setTimeout(resolve, 100));
    const third = await callText(url, 'slow', 'ada', { ms: 10 });
    expect(third).toBe('Tool slow: 2 calls of this caller are already running; retry when one finishes');
    expect(await callText(url, 'slow', 'bob', { ms: 10 })).toBe('done');
    expect(await Promise.all(running)).toEqual(['done', 'done']);
    expect(await callText(url, 'slow', 'ada', { ms: 10 })).toBe('done');
    expect(events.map((e) => [e.reason, e.tool, e.caller?.subject])).toEqual([['concurrency', 'slow', 'ada']]);
  });

  it('does not queue parallel calls of one caller: they run side by side', async () => {
    const { url } = await serve({
      limits: {
        concurrency: 8,
        rate: {
          perCaller: { points: 100, durationSeconds: 60 },
          perTool: { slow: { points: 100, durationSeconds: 60 } },
        },
      },
    });
    const started = performance.now();
    const results = await Promise.all(Array.from({ length: 6 }, () => callText(url, 'slow', 'ada', { ms: 300 })));
    const elapsed = performance.now() - started;
    expect(results).toEqual(Array(6).fill('done'));
    // Queued one after another they would take 1.8 s; side by side, about 0.3 s.
    expect(elapsed).toBeLessThan(1_500);
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
