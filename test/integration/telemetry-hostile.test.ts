/**
 * Spans from what a client chose, with the real OpenTelemetry SDK: a span's name holds only names the mount
 * knows (a call to a tool it does not serve is `tools/call`, a method MCP does not have `_OTHER`), every
 * client-chosen value an attribute or event carries is escaped and cut whatever characters it holds
 * (generated), and every request refused after its span starts says so in `error.type`.
 */
import * as otel from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import fc from 'fast-check';
import { defineTool, type McpMountOptions } from 'mcp-mount';
import { createMcpFetchHandler } from 'mcp-mount/adapter';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseBody } from '../adapters/support/session.js';
import { jsonRpcHeaders, rpc, subjectKeys } from '../adapters/support/tools.js';
import { holdsUnsafe, hostileText } from '../support/hostile-text.js';
import { latch } from '../support/latch.js';
import { propertyRuns } from '../support/property-runs.js';
import { listen, type Running } from '../support/server.js';

const spans = new InMemorySpanExporter();
otel.trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }));

const weather = defineTool({
  name: 'get_weather',
  input: z.object({ city: z.string() }),
  handler: ({ input }) => `sunny in ${input.city}`,
});
const admin = defineTool({ name: 'admin', input: z.object({}), scopes: ['admin'], handler: () => 'ok' });
/** Latches the test opens when it decides (test/support/latch.ts). */
let started = latch();
let gate = latch();
/** Holds its caller's running slot until the test opens the gate. */
const held = defineTool({
  name: 'held',
  input: z.object({}),
  handler: async () => {
    started.open();
    await gate.opened;
    return 'done';
  },
});
const slow = defineTool({
  name: 'slow',
  input: z.object({}),
  timeoutMs: 1,
  handler: () => new Promise<string>(() => {}),
});

const base: McpMountOptions = { observe: { openTelemetry: otel, logger: { warn() {}, error() {} } } };
const known = ['get_weather', 'admin', 'held', 'slow'];

let server: Running;
beforeAll(async () => {
  server = await listen(createMcpFetchHandler([weather], base).fetch);
});
afterAll(() => server.close());
beforeEach(() => spans.reset());

const post = async (url: string, body: string, headers: Record<string, string> = {}) => {
  const response = await fetch(url, { method: 'POST', headers: { ...jsonRpcHeaders, ...headers }, body });
  return { status: response.status, body: parseBody(await response.text()) };
};
const only = () => {
  const finished = spans.getFinishedSpans();
  expect(finished).toHaveLength(1);
  return finished[0]!;
};

describe('a call to a tool the mount does not serve', () => {
  it('is a span named by the method alone, with the JSON-RPC error the client got as error.type', async () => {
    const answer = await post(server.url, rpc('tools/call', { name: 'made_up\n\u001b[31mtool', arguments: {} }));
    expect(answer.body.error.code).toBe(-32602);
    const span = only();
    expect(span.name).toBe('tools/call');
    expect(span.attributes['error.type']).toBe('-32602');
    expect(span.status.code).toBe(otel.SpanStatusCode.ERROR);
    expect(span.attributes['gen_ai.tool.name']).toBe('made_up\\n\\u001b[31mtool');
  });
});

describe('every client-chosen value on a span', () => {
  const QUOTED_CHARS = 256;
  /** Every string the span carries, in its name, attributes and events. */
  const strings = (span: ReturnType<typeof only>) =>
    [
      span.name,
      ...Object.values(span.attributes).filter((v) => typeof v === 'string'),
      ...span.events.flatMap((e) => Object.values(e.attributes ?? {}).filter((v) => typeof v === 'string')),
    ] as string[];
  const NAMES = new Set([
    'mcp',
    '_OTHER',
    'tools/call',
    'tools/list',
    'prompts/get',
    'resources/read',
    'initialize',
    ...known.map((t) => `tools/call ${t}`),
  ]);

  it('is escaped and cut, and the span is named by names the mount knows (generated)', async () => {
    const handler = createMcpFetchHandler([weather], base);
    const send = async (body: unknown, headers: Record<string, string> = {}) => {
      const response = await handler.fetch(
        new Request('http://127.0.0.1/mcp', {
          method: 'POST',
          headers: { ...jsonRpcHeaders, 'mcp-protocol-version': '2025-11-25', ...headers },
          body: JSON.stringify(body),
        }),
      );
      await response.text();
    };
    await fc.assert(
      fc.asyncProperty(hostileText(), hostileText(), hostileText(), async (id, name, key) => {
        spans.reset();
        await send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {} } });
        await send({
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: { name: 'get_weather', arguments: { city: 'Oslo', [key]: 1 } },
        });
        await send({ jsonrpc: '2.0', id, method: name, params: {} });
        await send({ jsonrpc: '2.0', id, method: 'prompts/get', params: { name } });
        await send({ jsonrpc: '2.0', id, method: 'resources/read', params: { uri: name } });
        const finished = spans.getFinishedSpans();
        expect(finished).toHaveLength(5);
        for (const span of finished) {
          expect(NAMES.has(span.name), span.name).toBe(true);
          for (const text of strings(span)) {
            expect(holdsUnsafe(text), JSON.stringify(text)).toBe(false);
            expect(text.length).toBeLessThanOrEqual(QUOTED_CHARS * 6 + 40);
          }
        }
        // What the client sent reads back from the attribute: escaped, not lost.
        const called = finished[0]!.attributes['gen_ai.tool.name'] as string;
        if (name.length <= QUOTED_CHARS) expect(JSON.parse(`"${called.replaceAll('"', '\\"')}"`)).toBe(name);
      }),
      { numRuns: propertyRuns(60, 15), seed: 20261213 },
    );
  });

  it('cuts a megabyte tool name on the span to a bounded attribute', async () => {
    await post(server.url, rpc('tools/call', { name: 'k'.repeat(1_000_000), arguments: {} }));
    const span = only();
    expect(span.name).toBe('tools/call');
    expect(span.attributes['gen_ai.tool.name']).toBe(`${'k'.repeat(QUOTED_CHARS)}…(1000000 characters)`);
  });
});

describe('every request refused after its span starts', () => {
  const refusals: Array<[string, McpMountOptions, () => Promise<string>]> = [];
  let url = '';
  const call = (tool: string, token?: string) =>
    post(url, rpc('tools/call', { name: tool, arguments: {} }), token ? { authorization: `Bearer ${token}` } : {});

  refusals.push([
    'missing-token (401)',
    { access: { auth: { verify: subjectKeys, required: false } } },
    async () => String((await call('admin')).status),
  ]);
  refusals.push([
    'insufficient-scope (403)',
    { access: { auth: { verify: subjectKeys } } },
    async () => String((await call('admin', 'ada')).status),
  ]);
  refusals.push([
    'rate-limited call (isError)',
    { access: { auth: { verify: subjectKeys } }, limits: { rate: { perCaller: { points: 1, durationSeconds: 60 } } } },
    async () => {
      await call('get_weather', 'ada');
      spans.reset();
      return (await call('get_weather', 'ada')).body.result.content[0].text;
    },
  ]);
  refusals.push([
    'rate-limited request (429)',
    { access: { auth: { verify: subjectKeys } }, limits: { rate: { perCaller: { points: 1, durationSeconds: 60 } } } },
    async () => {
      await post(url, rpc('tools/list'), { authorization: 'Bearer ada' });
      spans.reset();
      return String((await post(url, rpc('tools/list'), { authorization: 'Bearer ada' })).status);
    },
  ]);
  refusals.push([
    'concurrency (isError)',
    { access: { auth: { verify: subjectKeys } }, limits: { concurrency: 1 } },
    async () => {
      [started, gate] = [latch(), latch()];
      const running = call('held', 'ada');
      await started.opened;
      const refused = (await call('get_weather', 'ada')).body.result.content[0].text;
      gate.open();
      await running;
      return refused;
    },
  ]);
  refusals.push(['unknown-tool (-32602)', {}, async () => (await call('made_up')).body.error.message]);
  refusals.push(['timeout (isError)', {}, async () => (await call('slow')).body.result.content[0].text]);

  it.each(refusals)('%s sets error.type and an error status', async (_name, options, refuse) => {
    const running = await listen(
      createMcpFetchHandler([weather, admin, held, slow], { ...base, ...options, observe: base.observe }).fetch,
    );
    url = running.url;
    try {
      spans.reset();
      const told = await refuse();
      const refused = spans.getFinishedSpans().filter((s) => s.attributes['error.type'] !== undefined);
      expect(refused.length, told).toBeGreaterThanOrEqual(1);
      expect(refused.at(-1)!.status.code).toBe(otel.SpanStatusCode.ERROR);
    } finally {
      await running.close();
    }
  });
});
