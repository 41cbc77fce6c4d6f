/**
 * Hostile arguments over real HTTP, on every Node adapter: each shape (deep, wide, long, text nested deep)
 * at about 1 MB gets an answer, a clear `isError` where a limit refused it, and the good call that follows
 * on the same keep-alive connection succeeds. Speed is the benchmark's (bench/hostile.bench.ts), not this.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import express from 'express';
import { Hono } from 'hono';
import { type AnyTool, defineTool } from 'mcp-mount';
import { mcp as expressMcp } from 'mcp-mount/express';
import { mcp as fetchMcp } from 'mcp-mount/fetch';
import { mcp as honoMcp } from 'mcp-mount/hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { POSITIONS, SHAPES } from '../support/hostile.js';
import { post } from '../support/keep-alive-post.js';

const add = defineTool({
  name: 'add',
  input: z.object({ a: z.number(), b: z.number() }),
  handler: ({ input }) => ({ sum: input.a + input.b }),
});
const tools = [POSITIONS['the input root']!.tool, add] as AnyTool[];

const servers: Record<string, () => http.Server> = {
  hono: () => {
    const app = new Hono();
    app.all('/mcp', honoMcp(tools));
    return serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as http.Server;
  },
  express: () => {
    const app = express();
    app.use('/mcp', expressMcp(tools));
    return app.listen(0, '127.0.0.1');
  },
  fetch: () => {
    const worker = fetchMcp(tools);
    return serve({ fetch: (r) => worker.fetch(r), port: 0, hostname: '127.0.0.1' }) as http.Server;
  },
};

/** Each shape at about 1 MB of arguments. */
const SIZES: Record<string, number> = {
  'deep arrays': 400_000,
  'deep objects': 100_000,
  'wide objects': 80_000,
  'long arrays': 400_000,
  'long strings': 1_000_000,
  'many short strings': 150_000,
  'deep JSON text': 400_000,
};

function callBody(id: number, name: string, argsText: string): string {
  return `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"${name}","arguments":${argsText}}}`;
}

/** The JSON-RPC result in an answer, whether sent as a JSON body or as one event. */
function resultOf(text: string): { isError?: boolean; content: Array<{ text: string }> } {
  const data = text.trimStart().startsWith('{') ? text : /^data: (.*)$/m.exec(text)?.[1];
  return JSON.parse(data ?? 'null').result;
}

describe.each(Object.keys(servers))('hostile arguments on %s', (adapter) => {
  let server: http.Server;
  let port: number;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

  beforeAll(async () => {
    server = servers[adapter]!();
    await new Promise<void>((resolve) => (server.listening ? resolve() : server.once('listening', resolve)));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    agent.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it.each(Object.keys(SIZES))('%s: answered, then a good call on the same connection succeeds', async (name) => {
    const root = POSITIONS['the input root']!;
    const args = root.argsText(SHAPES[name]!.text(SIZES[name]!));
    const hostile = await post(agent, port, callBody(1, root.tool.name, args));
    expect(hostile.status).toBe(200);
    const answer = resultOf(hostile.text);
    // Refused only by a limit, which the text names with the path it stopped at (a long one by its first and
    // last levels).
    if (answer.isError)
      expect(answer.content[0]!.text).toMatch(
        /items(\S|…\(\d+ more levels\)…)*: (the JSON text )?nest(ed|s) deeper than 64 levels/,
      );
    else expect(answer.content[0]!.text).toBe('{"ok":true}');
    const good = await post(agent, port, callBody(2, 'add', '{"a":2,"b":3}'));
    expect(good.socket).toBe(hostile.socket);
    expect(good.status).toBe(200);
    expect(resultOf(good.text).isError).toBeFalsy();
    expect(resultOf(good.text).content[0]!.text).toBe('{"sum":5}');
  });
});
