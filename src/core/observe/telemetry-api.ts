/**
 * The part of `@opentelemetry/api` the mount calls, as a structural type: the mount never imports the API
 * (it is handed the module, `observe.openTelemetry`), so an app without it loads and bundles nothing of it.
 * Any `@opentelemetry/api` 1.x module namespace fits.
 */

/** An OpenTelemetry `Context`: opaque here. */
export type OtelContext = object;

interface OtelSpan {
  setAttribute(key: string, value: string | number | boolean): unknown;
  setAttributes(attributes: Record<string, string | number | boolean>): unknown;
  addEvent(name: string, attributes?: Record<string, string | number | boolean>): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  end(): void;
}

export interface OpenTelemetryApi {
  trace: {
    getTracer(
      name: string,
      version?: string,
    ): {
      startSpan(
        name: string,
        options?: { kind?: number; attributes?: Record<string, string | number | boolean>; startTime?: number },
        context?: OtelContext,
      ): OtelSpan;
    };
    setSpanContext(
      context: OtelContext,
      spanContext: { traceId: string; spanId: string; traceFlags: number; isRemote?: boolean; traceState?: any },
    ): OtelContext;
    setSpan(context: OtelContext, span: any): OtelContext;
  };
  context: { active(): OtelContext; with<R>(context: OtelContext, fn: () => R): R };
  metrics: {
    getMeter(
      name: string,
      version?: string,
    ): {
      createHistogram(
        name: string,
        options?: { unit?: string; description?: string; advice?: { explicitBucketBoundaries?: number[] } },
      ): { record(value: number, attributes?: Record<string, string | number | boolean>): void };
    };
  };
  SpanKind: { SERVER: number };
  SpanStatusCode: { ERROR: number };
  createTraceState?(raw?: string): any;
}

/** What a mount traces with: settled once from `observe.openTelemetry`. */
export interface Telemetry {
  readonly api: OpenTelemetryApi;
  readonly tracer: ReturnType<OpenTelemetryApi['trace']['getTracer']>;
  /** `mcp.server.operation.duration`, in seconds. */
  readonly duration: ReturnType<ReturnType<OpenTelemetryApi['metrics']['getMeter']>['createHistogram']>;
}

/** The MCP semantic conventions' buckets for `mcp.server.operation.duration` (seconds). */
const DURATION_BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

/** @throws TypeError when `api` is not an `@opentelemetry/api` module. */
export function settleTelemetry(api: unknown, version?: string): Telemetry | undefined {
  if (api === undefined) return undefined;
  const given = api as Partial<OpenTelemetryApi> | null;
  if (typeof given?.trace?.getTracer !== 'function' || typeof given.metrics?.getMeter !== 'function') {
    throw new TypeError(
      "mcp-mount: observe.openTelemetry must be the @opentelemetry/api module (import * as otel from '@opentelemetry/api')",
    );
  }
  const full = given as OpenTelemetryApi;
  return Object.freeze({
    api: full,
    tracer: full.trace.getTracer('mcp-mount', version),
    duration: full.metrics.getMeter('mcp-mount', version).createHistogram('mcp.server.operation.duration', {
      unit: 's',
      description: 'The duration of the MCP request or notification as observed on the receiver',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    }),
  });
}
