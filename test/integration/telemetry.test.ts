/**
 * OpenTelemetry with the real SDK (`@opentelemetry/sdk-trace-base` with an in-memory exporter,
 * `@opentelemetry/sdk-metrics` with a manual reader) over real HTTP: span names, kinds and attributes per the
 * MCP semantic conventions for a list, a call, a failing call and a repaired call; the parent from
 * `params._meta.traceparent`, else the HTTP header; the `mcp.server.operation.duration` histogram.
 */
import * as otel from '@opentelemetry/api';
import { AggregationTemporality, MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { defineTool } from 'mcp-mount';
import { createMcpFetchHandler } from 'mcp-mount/adapter';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { parseBody } from '../adapters/support/session.js';
import { boomTool, jsonRpcHeaders, rpc } from '../adapters/support/tools.js';
import { listen, type Running } from '../support/server.js';

class ManualReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected override async onForceFlush() {}
  protected override async onShutdown() {}
}

const spans = new InMemorySpanExporter();
const reader = new ManualReader();
otel.trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }));
otel.metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));

const weather = defineTool({
  name: 'get_weather',
  input: z.object({ city: z.string(), days: z.number().optional() }),
  handler: ({ input }) => ({ city: input.city, days: input.days ?? 1 }),
});
const broken = boomTool;
/** Moves the test's fake `performance` clock on by 2 s while it runs: a call that takes exactly 2 s. */
const twoSeconds = defineTool({
  name: 'two_seconds',
  input: z.object({}),
  handler: () => {
    vi.advanceTimersByTime(2_000);
    return 'done';
  },
});

let server: Running;
beforeAll(async () => {
  const handler = createMcpFetchHandler([weather, broken, twoSeconds], {
    observe: { openTelemetry: otel, logger: { warn() {}, error() {} } },
  });
  server = await listen(handler.fetch);
});
afterAll(() => server.close());
beforeEach(() => spans.reset());

const post = async (body: string, headers: Record<string, string> = {}) => {
  const response = await fetch(server.url, { method: 'POST', headers: { ...jsonRpcHeaders, ...headers }, body });
  return parseBody(await response.text());
};
const only = () => {
  const finished = spans.getFinishedSpans();
  expect(finished).toHaveLength(1);
  return finished[0]!;
};

describe('spans per the MCP semantic conventions', () => {
  it('a tools/list is a SERVER span named by its method', async () => {
    await post(rpc('tools/list', undefined, 3), { 'mcp-protocol-version': '2025-11-25' });
    const span = only();
    expect(span.name).toBe('tools/list');
    expect(span.kind).toBe(otel.SpanKind.SERVER);
    expect(span.attributes).toEqual({
      'mcp.method.name': 'tools/list',
      'jsonrpc.request.id': '3',
      'mcp.protocol.version': '2025-11-25',
      'network.protocol.name': 'http',
      'network.transport': 'tcp',
    });
    expect(span.status.code).toBe(otel.SpanStatusCode.UNSET);
    expect(span.instrumentationScope.name).toBe('mcp-mount');
  });

  it('a tools/call is `tools/call <tool>`, an execute_tool operation', async () => {
    await post(rpc('tools/call', { name: 'get_weather', arguments: { city: 'Oslo' } }, 4));
    const span = only();
    expect(span.name).toBe('tools/call get_weather');
    expect(span.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'get_weather',
      'gen_ai.operation.name': 'execute_tool',
      'jsonrpc.request.id': '4',
      'mcp_mount.repairs': 0,
      'mcp_mount.ignored_keys': 0,
    });
    expect(span.attributes['error.type']).toBeUndefined();
  });

  it('a failing call is error.type tool_error with an error status', async () => {
    const answer = await post(rpc('tools/call', { name: 'boom', arguments: {} }));
    expect(answer.result.isError).toBe(true);
    const span = only();
    expect(span.name).toBe('tools/call boom');
    expect(span.attributes['error.type']).toBe('tool_error');
    expect(span.status.code).toBe(otel.SpanStatusCode.ERROR);
  });

  it('a repaired call counts its repairs and ignored keys and names each as an event', async () => {
    await post(rpc('tools/call', { name: 'get_weather', arguments: { city: 'Oslo', days: '3', unit: 'C' } }));
    const span = only();
    expect(span.attributes).toMatchObject({ 'mcp_mount.repairs': 1, 'mcp_mount.ignored_keys': 1 });
    expect(span.events.map((e) => [e.name, e.attributes])).toEqual([
      ['mcp_mount.repair', { path: 'days', from: 'number-string' }],
      ['mcp_mount.ignored_key', expect.objectContaining({ path: 'unit' })],
    ]);
  });

  it('takes the parent from params._meta.traceparent, over the HTTP header', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const parent = '00f067aa0ba902b7';
    const other = `00-${'1'.repeat(32)}-${'2'.repeat(16)}-01`;
    await post(rpc('tools/list', { _meta: { traceparent: `00-${traceId}-${parent}-01` } }), { traceparent: other });
    const span = only();
    expect(span.spanContext().traceId).toBe(traceId);
    expect(span.parentSpanContext?.spanId).toBe(parent);
    expect(span.parentSpanContext?.isRemote).toBe(true);
  });

  it('else from the HTTP traceparent header; a malformed one starts a new trace', async () => {
    await post(rpc('tools/list'), { traceparent: `00-${'a'.repeat(32)}-${'b'.repeat(16)}-01` });
    expect(only().spanContext().traceId).toBe('a'.repeat(32));
    spans.reset();
    await post(rpc('tools/list'), { traceparent: '00-zz-bb-01' });
    const fresh = only();
    expect(fresh.parentSpanContext).toBeUndefined();
  });

  it('records mcp.server.operation.duration in seconds, per method and tool', async () => {
    await post(rpc('tools/call', { name: 'get_weather', arguments: { city: 'Oslo' } }));
    await post(rpc('tools/call', { name: 'boom', arguments: {} }));
    // The duration is read from `performance.now()`: on a fake clock the call takes 2 s exactly, however slow
    // the machine (a bound on real time would not say the unit, and fails under load).
    vi.useFakeTimers({ toFake: ['performance'] });
    try {
      await post(rpc('tools/call', { name: 'two_seconds', arguments: {} }));
    } finally {
      vi.useRealTimers();
    }
    const { resourceMetrics } = await reader.collect();
    const metric = resourceMetrics.scopeMetrics
      .flatMap((s) => s.metrics)
      .find((m) => m.descriptor.name === 'mcp.server.operation.duration');
    expect(metric?.descriptor.unit).toBe('s');
    const points = metric!.dataPoints as Array<{
      attributes: Record<string, unknown>;
      value: { count: number; sum: number };
    }>;
    const call = points.find((p) => p.attributes['gen_ai.tool.name'] === 'get_weather' && !p.attributes['error.type']);
    const failed = points.find((p) => p.attributes['error.type'] === 'tool_error');
    const timed = points.find((p) => p.attributes['gen_ai.tool.name'] === 'two_seconds');
    expect(call?.value.count).toBeGreaterThanOrEqual(1);
    expect(timed?.value.count).toBe(1);
    expect(timed!.value.sum).toBeCloseTo(2, 6); // seconds, not milliseconds
    expect(failed?.attributes).toMatchObject({ 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'boom' });
    expect(Object.keys(call!.attributes)).not.toContain('jsonrpc.request.id');
  });

  it('records names a client made up as _OTHER, so a flood of unknown tools is one series', async () => {
    for (let i = 0; i < 20; i++) {
      await fetch(server.url, {
        method: 'POST',
        headers: { ...jsonRpcHeaders, 'mcp-protocol-version': `1999-01-${String(i).padStart(2, '0')}` },
        body: rpc('tools/call', { name: `made_up_${i}`, arguments: {} }),
      });
    }
    const { resourceMetrics } = await reader.collect();
    const points = resourceMetrics.scopeMetrics
      .flatMap((s) => s.metrics)
      .find((m) => m.descriptor.name === 'mcp.server.operation.duration')!.dataPoints as Array<{
      attributes: Record<string, unknown>;
      value: { count: number };
    }>;
    const unknown = points.filter((p) => String(p.attributes['gen_ai.tool.name']).startsWith('made_up'));
    expect(unknown).toEqual([]);
    const other = points.filter((p) => p.attributes['gen_ai.tool.name'] === '_OTHER');
    expect(other).toHaveLength(1);
    expect(other[0]!.attributes['mcp.protocol.version']).toBe('_OTHER');
    expect(other[0]!.value.count).toBe(20);
  });
});
