/**
 * One SERVER span per MCP request, and the `mcp.server.operation.duration` histogram, per the OpenTelemetry
 * MCP semantic conventions (docs/decisions/0022-opentelemetry.md): only when the mount was handed the API
 * (`observe.openTelemetry`); otherwise nothing here runs. The parent is the W3C `traceparent` the message
 * carries in `params._meta`, else the HTTP header's, read here so that it works with the API alone (a Worker
 * with no SDK propagator registered). A span's name holds only names the mount knows; every value a client
 * chose that an attribute or event carries is escaped and cut (log-text.ts), as in a log line.
 */
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import { whenSent } from '../http/responses.js';
import { isPlainObject } from '../json-schema/types.js';
import type { IgnoredKey } from '../messages/ignored-keys.js';
import type { Repair } from '../repair/index.js';
import { escapedText } from './log-text.js';
import type { OtelContext, Telemetry } from './telemetry-api.js';

/** What the rest of the request tells its span. */
export interface RequestTrace {
  /** A finished `tools/call`: `isError` results are `error.type` `tool_error`; repairs and ignored keys. */
  called(record: { ok: boolean; repairs: readonly Repair[]; ignoredKeys: readonly IgnoredKey[] }): void;
  /**
   * A request refused inside MCP, in a response the HTTP status does not tell apart (a call to an unknown
   * tool: a JSON-RPC error in a 200): `errorType` is its `error.type`, e.g. the JSON-RPC code `-32602`.
   */
  refused(errorType: string): void;
  /** The call became a task: its id (ours) as `mcp.task.id`, and a `task.created` event. */
  taskCreated(taskId: string): void;
  /** The status of the task a `tasks/get`, `tasks/update` or `tasks/cancel` read or left (`mcp.task.status`). */
  taskStatus(status: string): void;
  /** Runs `fn` with the span as the active context (so a handler's own spans are its children). */
  within<R>(fn: () => R): R;
  /** Ends the span when `response` has been sent (a stream: when it ends) and records the duration. */
  end(response: Response): Response;
  /** Ends the span for a failure that became a JSON-RPC 500. */
  fail(error: unknown): void;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
/** Events kept per span for repairs and ignored keys; the counts are attributes. */
const EVENTS_KEPT = 10;

/**
 * The tool and prompt names the mount serves and its static resources' URIs: the only targets a span is named
 * by, and the only names the histogram records.
 */
export interface KnownNames {
  tools: ReadonlySet<string>;
  prompts: ReadonlySet<string>;
  resources: ReadonlySet<string>;
}

/**
 * Starts the span of one MCP message (`message` is the parsed body; a batch is traced as its method-less
 * whole). Its name is `{method} {target}` from names the mount knows only: an MCP method (any other is
 * `_OTHER`), and a tool, prompt or static resource it serves (another target is left out, as the conventions
 * say for a target without low cardinality). The attributes carry what the client sent, escaped and cut; the
 * histogram only values from bounded sets (`known` names, the MCP methods, the SDK's protocol versions), the
 * rest as `_OTHER`, so a client can neither shape a span's name nor grow the metric's series without bound.
 */
export function startTrace(telemetry: Telemetry, request: Request, message: unknown, known: KnownNames): RequestTrace {
  const { api, tracer, duration } = telemetry;
  const started = performance.now();
  const single = isPlainObject(message) ? message : {};
  const params = isPlainObject(single.params) ? single.params : {};
  const meta = isPlainObject(params._meta) ? params._meta : {};
  const attributes = requestAttributes(single, params, meta, request);
  const name = spanName(single, params, known);
  const parent = parentContext(telemetry, meta, request);
  const span = tracer.startSpan(name, { kind: api.SpanKind.SERVER, attributes }, parent);
  const active = api.trace.setSpan(parent, span);
  let errorType: string | undefined;
  let ended = false;
  const finish = () => {
    if (ended) return;
    ended = true;
    if (errorType !== undefined) {
      span.setAttribute('error.type', errorType);
      span.setStatus({ code: api.SpanStatusCode.ERROR });
    }
    span.end();
    duration.record((performance.now() - started) / 1000, metricAttributes(attributes, errorType, known));
  };
  return {
    called({ ok, repairs, ignoredKeys }) {
      if (!ok) errorType = 'tool_error';
      span.setAttributes({ 'mcp_mount.repairs': repairs.length, 'mcp_mount.ignored_keys': ignoredKeys.length });
      for (const r of repairs.slice(0, EVENTS_KEPT)) {
        span.addEvent('mcp_mount.repair', { path: escapedText(r.path), from: r.from });
      }
      for (const k of ignoredKeys.slice(0, EVENTS_KEPT)) {
        const attributes = { path: escapedText(k.path), ...(k.didYouMean && { did_you_mean: k.didYouMean }) };
        span.addEvent('mcp_mount.ignored_key', attributes);
      }
    },
    refused(type) {
      errorType ??= type;
    },
    taskCreated(taskId) {
      span.setAttribute('mcp.task.id', taskId);
      span.addEvent('task.created', { 'mcp.task.id': taskId });
    },
    taskStatus(status) {
      span.setAttribute('mcp.task.status', status);
    },
    within: (fn) => api.context.with(active, fn),
    end(response) {
      if (response.status >= 400) errorType ??= String(response.status);
      return whenSent(response, finish);
    },
    fail(error) {
      errorType = error instanceof Error ? error.constructor.name : typeof error;
      finish();
    },
  };
}

function requestAttributes(
  message: Record<string, unknown>,
  params: Record<string, unknown>,
  meta: Record<string, unknown>,
  request: Request,
): Record<string, string | number | boolean> {
  const method = typeof message.method === 'string' ? message.method : undefined;
  const version =
    request.headers.get('mcp-protocol-version') ??
    stringOf(meta['io.modelcontextprotocol/protocolVersion']) ??
    (method === 'initialize' ? stringOf(params.protocolVersion) : undefined);
  const id = message.id;
  const name = stringOf(params.name);
  // Each of these is the client's text: escaped and cut, as a log line writes it.
  const sent = (value: string) => escapedText(value);
  return {
    'network.protocol.name': 'http',
    'network.transport': 'tcp',
    ...(method !== undefined && { 'mcp.method.name': sent(method) }),
    ...((typeof id === 'string' || typeof id === 'number') && { 'jsonrpc.request.id': sent(String(id)) }),
    ...(version !== undefined && { 'mcp.protocol.version': sent(version) }),
    ...(method === 'tools/call' &&
      name !== undefined && { 'gen_ai.tool.name': sent(name), 'gen_ai.operation.name': 'execute_tool' }),
    ...(method === 'prompts/get' && name !== undefined && { 'gen_ai.prompt.name': sent(name) }),
    ...(method?.startsWith('resources/') && typeof params.uri === 'string' && { 'mcp.resource.uri': sent(params.uri) }),
    ...(method?.startsWith('tasks/') && typeof params.taskId === 'string' && { 'mcp.task.id': sent(params.taskId) }),
  };
}

/**
 * `{method} {target}` from names the mount knows: the method when MCP has it (else `_OTHER`), the tool, prompt
 * or static resource when the mount serves it (else no target); `mcp` for a batch or a message without a
 * method.
 */
function spanName(message: Record<string, unknown>, params: Record<string, unknown>, known: KnownNames): string {
  const method = message.method;
  if (typeof method !== 'string') return 'mcp';
  if (!MCP_METHODS.has(method)) return OTHER;
  const target =
    method === 'tools/call'
      ? params.name
      : method === 'prompts/get'
        ? params.name
        : method.startsWith('resources/')
          ? params.uri
          : undefined;
  const names = method === 'tools/call' ? known.tools : method === 'prompts/get' ? known.prompts : known.resources;
  return typeof target === 'string' && names.has(target) ? `${method} ${target}` : method;
}

/** The histogram's attributes: the conventions' low-cardinality ones (no request id). */
function metricAttributes(
  attributes: Record<string, string | number | boolean>,
  errorType: string | undefined,
  known: KnownNames,
) {
  const bounded: Record<string, (value: string) => boolean> = {
    'mcp.method.name': (v) => MCP_METHODS.has(v),
    'gen_ai.tool.name': (v) => known.tools.has(v),
    'gen_ai.operation.name': () => true,
    'gen_ai.prompt.name': (v) => known.prompts.has(v),
    'mcp.protocol.version': (v) => PROTOCOL_VERSIONS.has(v),
    'network.transport': () => true,
  };
  const kept: Record<string, string | number | boolean> = {};
  for (const [key, allowed] of Object.entries(bounded)) {
    const value = attributes[key];
    // The span's value, escaped: a name the mount serves (`[A-Za-z0-9_-]` for a tool) reads the same.
    if (value !== undefined) kept[key] = allowed(String(value)) ? value : OTHER;
  }
  if (errorType !== undefined) kept['error.type'] = errorType;
  return kept;
}

/** The revisions the SDK negotiates (2025-era) and the stateless revision it serves beside them. */
const PROTOCOL_VERSIONS: ReadonlySet<string> = new Set([...SUPPORTED_PROTOCOL_VERSIONS, '2026-07-28']);

/** What the conventions record for a value outside the known set. */
const OTHER = '_OTHER';

/** The methods of the MCP specification a server answers or receives. */
const MCP_METHODS: ReadonlySet<string> = new Set([
  'initialize',
  'ping',
  'tools/list',
  'tools/call',
  'prompts/list',
  'prompts/get',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'resources/subscribe',
  'resources/unsubscribe',
  'completion/complete',
  'logging/setLevel',
  'notifications/initialized',
  'notifications/cancelled',
  'notifications/progress',
  'notifications/roots/list_changed',
  // 2026-07-28.
  'server/discover',
  'subscriptions/listen',
  // The tasks extension (2026-07-28): a span is named by the method alone (a task id is no low-cardinality target).
  'tasks/get',
  'tasks/update',
  'tasks/cancel',
]);

/** The remote parent: `params._meta.traceparent` (and `tracestate`), else the HTTP headers; else the active context. */
function parentContext(telemetry: Telemetry, meta: Record<string, unknown>, request: Request): OtelContext {
  const { api } = telemetry;
  const fromMeta = stringOf(meta.traceparent);
  const traceparent = fromMeta ?? request.headers.get('traceparent') ?? undefined;
  const tracestate =
    fromMeta !== undefined ? stringOf(meta.tracestate) : (request.headers.get('tracestate') ?? undefined);
  const active = api.context.active();
  const parsed = traceparent === undefined ? null : TRACEPARENT.exec(traceparent.trim());
  if (!parsed || parsed[1] === 'ff' || /^0+$/.test(parsed[2]!) || /^0+$/.test(parsed[3]!)) return active;
  return api.trace.setSpanContext(active, {
    traceId: parsed[2]!,
    spanId: parsed[3]!,
    traceFlags: Number.parseInt(parsed[4]!, 16),
    isRemote: true,
    ...(tracestate !== undefined && api.createTraceState && { traceState: api.createTraceState(tracestate) }),
  });
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
