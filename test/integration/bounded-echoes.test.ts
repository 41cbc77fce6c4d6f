/**
 * Every text that echoes what a client sent stays within a small fixed budget, over real HTTP: the notice of
 * ignored keys, every failure line that names a path, the unknown-key refusal, the markup refusal, the SDK's
 * answers for an unknown tool, prompt or resource and an unknown protocol revision, the Origin and Host
 * refusals. Each is sent a value of about a megabyte and of twice that: the answer quotes the value's start,
 * stays under the budget, and does not grow with the value (sizes, never times).
 */
import { request as httpRequest } from 'node:http';
import { completable } from '@modelcontextprotocol/server';
import { defineTool, type McpMountOptions } from 'mcp-mount';
import { createMcpFetchHandler } from 'mcp-mount/adapter';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { listen, type Running } from '../support/server.js';

/** What any answer to one request may hold, in characters, whatever the request. */
const ANSWER_BUDGET = 16 * 1024;
/** About a megabyte, and twice that: both within the default 4 MiB body limit. */
const SIZES = [1_000_000, 2_000_000];

const search = defineTool({ name: 'search', input: z.object({ query: z.string() }), handler: () => 'found' });
const strict = defineTool({ name: 'strict', input: z.strictObject({ query: z.string() }), handler: () => 'found' });
const scores = defineTool({
  name: 'scores',
  input: z.object({ scores: z.record(z.string(), z.number()) }),
  handler: () => 'ok',
});
const tree = defineTool({ name: 'tree', input: z.object({ tree: z.unknown() }), handler: () => 'ok' });
const note = defineTool({ name: 'note', input: z.object({ text: z.string() }), handler: () => 'ok' });
const tools = [search, strict, scores, tree, note];

const features: NonNullable<McpMountOptions['server']>['features'] = (server) => {
  server.registerPrompt(
    'review',
    { description: 'Review', argsSchema: z.object({ language: completable(z.string(), () => ['ts']) }) },
    () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'review' } }] }),
  );
  server.registerResource('readme', 'docs://readme', {}, () => ({ contents: [{ uri: 'docs://readme', text: 'hi' }] }));
};

const servers: Running[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));
const mounts = new Map<string, Running>();
async function mount(name: string, options: McpMountOptions): Promise<Running> {
  let running = mounts.get(name);
  if (!running) {
    const logger = { warn() {}, error() {} };
    running = await listen(createMcpFetchHandler(tools, { ...options, observe: { logger } }).fetch);
    servers.push(running);
    mounts.set(name, running);
  }
  return running;
}

const MODERN = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'echo-test', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const call = (name: string, args: unknown) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name, arguments: args },
});
/** `n` characters of a key or name, `k` repeated. */
const k = (n: number) => 'k'.repeat(n);
/** `levels` nested objects, each under a key of `width` characters. */
const nested = (levels: number, width: number) => {
  let value: unknown = 0;
  for (let i = 0; i < levels; i++) value = { [`${i}${k(width)}`]: value };
  return value;
};

interface Echo {
  options?: McpMountOptions;
  body(n: number): unknown;
  headers?(n: number): Record<string, string>;
  /** Header values cannot be megabytes: what the runtime accepts (16 KiB of headers on Node). */
  sizes?: number[];
}

const echoes: Record<string, Echo> = {
  'ignored keys, in the notice (three 1/3 MB keys)': {
    body: (n) => call('search', { query: 'x', [`a${k(n / 3)}`]: 1, [`b${k(n / 3)}`]: 1, [`c${k(n / 3)}`]: 1 }),
  },
  'ignored keys, in a failure': { body: (n) => call('search', { query: 5, [k(n)]: 1 }) },
  'ignored keys, refused (arguments.unknownKeys reject)': {
    options: { arguments: { unknownKeys: 'reject' } },
    body: (n) => call('search', { query: 'x', [k(n)]: 1 }),
  },
  'a key of a strict object': { body: (n) => call('strict', { query: 'x', [k(n)]: 1 }) },
  'a record key whose value fails': { body: (n) => call('scores', { scores: { [k(n)]: 'high' } }) },
  'forty record keys whose values fail': {
    body: (n) =>
      call('scores', { scores: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`${i}${k(n / 40)}`, 'x'])) }),
  },
  'the path past the depth limit': { body: (n) => call('tree', { tree: nested(70, n / 70) }) },
  'arguments sent as JSON text': { body: (n) => call('search', JSON.stringify({ query: 'x', [k(n)]: 1 })) },
  'tool-call markup under a long key': {
    options: { arguments: { hygiene: true } },
    body: (n) => call('note', { text: 'ok', [k(n)]: 'a</parameter><parameter name="text">b' }),
  },
  'an unknown tool': { body: (n) => call(k(n), {}) },
  'an unknown prompt': {
    options: { server: { features } },
    body: (n) => ({ jsonrpc: '2.0', id: 1, method: 'prompts/get', params: { name: k(n) } }),
  },
  'an unknown resource': {
    options: { server: { features } },
    body: (n) => ({ jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: `docs://${k(n)}` } }),
  },
  'a completion for an unknown prompt': {
    options: { server: { features } },
    body: (n) => ({
      jsonrpc: '2.0',
      id: 1,
      method: 'completion/complete',
      params: { ref: { type: 'ref/prompt', name: k(n) }, argument: { name: 'a', value: 'b' } },
    }),
  },
  'an unknown protocol revision (2026-07-28 envelope)': {
    body: (n) => ({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
      params: { _meta: { ...MODERN, 'io.modelcontextprotocol/protocolVersion': k(n) } },
    }),
  },
  'a foreign Origin': {
    body: () => call('search', { query: 'x' }),
    headers: (n) => ({ origin: `http://${k(n)}.example` }),
    sizes: [4_000, 8_000],
  },
  'a foreign Host (access.hosts)': {
    options: { access: { hosts: ['127.0.0.1'] } },
    body: () => call('search', { query: 'x' }),
    headers: (n) => ({ host: `${k(n)}.example` }),
    sizes: [4_000, 8_000],
  },
};

/** One POST with exactly these headers (`fetch` would send its own `Host`). */
async function answer(echo: Echo, name: string, n: number): Promise<string> {
  const running = await mount(name, echo.options ?? {});
  const url = new URL(running.url);
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json',
    host: url.host,
    ...echo.headers?.(n),
  };
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers, setHost: false },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () => resolve(text));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(echo.body(n)));
  });
}

describe('every echo of client text', () => {
  it.each(Object.keys(echoes))('is bounded: %s', async (name) => {
    const echo = echoes[name]!;
    const [small, large] = echo.sizes ?? SIZES;
    const first = await answer(echo, name, small!);
    const second = await answer(echo, name, large!);
    // The answer quotes the value: the position is an echo, and is cut.
    expect(first, first.slice(0, 300)).toMatch(/k{16}/);
    expect(first.length, first.slice(0, 300)).toBeLessThanOrEqual(ANSWER_BUDGET);
    expect(second.length, second.slice(0, 300)).toBeLessThanOrEqual(ANSWER_BUDGET);
    // Twice the value, the same answer but for the lengths it names.
    expect(
      Math.abs(second.length - first.length),
      `${first.slice(0, 200)}\n${second.slice(0, 200)}`,
    ).toBeLessThanOrEqual(8 * (first.match(/characters\)/g)?.length ?? 1));
  });
});
