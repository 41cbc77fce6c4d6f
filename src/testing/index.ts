/**
 * @module
 * The testing entry of mcp-mount: call a mount's tools from your own tests, in process, without a server or
 * a port. Every call is a real web `Request` (the JSON-RPC body and the MCP headers a real client sends)
 * through the same core `fetch` every adapter serves, so what a test sees is what a client would: the
 * probe, Origin check, auth, scopes, `visibleTools`, the projection choice, repair, the unknown-key notice
 * and the hooks all run. Web-standard only: it runs wherever the core does (Node, Workers, Bun, Deno).
 */
import type { AuthInfo, CallToolResult } from '@modelcontextprotocol/server';
import type { z } from 'zod';
import { createMcpFetchHandler, type McpFetchHandler } from '../adapter.js';
import type {
  AnyZodObject,
  CallEvent,
  ClientIdentity,
  McpMountOptions,
  MountableTool,
  MountExtend,
  ServedTool,
  ValidationReport,
} from '../index.js';

/** How one test request presents itself; per-call options are laid over the mount's defaults. */
export interface TestRequestOptions<Host = unknown> {
  /**
   * Who the client says it is: what the mount's `projection: 'auto'` (or function) reads. Default
   * `{ name: 'mcp-mount-test', version: '0.0.0', era: '2026-07-28' }`, which `'auto'` serves `flat`.
   * - `era: '2026-07-28'`: `name` and `version` travel as `clientInfo` in the request's `_meta`, as the v2 SDK
   *   client sends them.
   * - `era: '2025'`: a stateless 2025-era request, as the v1 SDK client sends it after `initialize`: the
   *   client's name travels only in `initialize`, so `name` and `version` are not sent, and only `userAgent`
   *   identifies it (exactly what a real 2025-era client's `tools/list` gets).
   * - `userAgent`: the `User-Agent` header, in either era.
   */
  client?: Partial<ClientIdentity>;
  /** The caller, as an adapter hands it to the core (Express's `req.auth`): reaches tools as `ctx.authInfo`. */
  authInfo?: AuthInfo;
  /**
   * Extra request headers (`authorization`, `origin`, ...), set last: they may replace the MCP headers the
   * helper derives from the body (to test a request that disagrees with itself).
   */
  headers?: Record<string, string>;
  /** What the adapter would hand tools as `ctx.host` (a Worker's `{ env, ctx }`). Default none (`{}`). */
  host?: Host;
  /**
   * Added to the request's `params._meta`, over the 2026-07-28 keys: e.g. `{ progressToken: 1 }` to receive
   * `ctx.progress` as `notifications`.
   */
  meta?: Record<string, unknown>;
}

/** The defaults of a test mount: request options, and the URL requests are sent to. */
export interface TestMountDefaults<Host = unknown> extends TestRequestOptions<Host> {
  /** Default `'http://localhost/mcp'`; set it when the mount's `access.hosts` or `access.auth` depends on it. */
  url?: string;
}

/** What came back for one JSON-RPC request. */
export interface TestResponse<Result = unknown> {
  /** The HTTP status: 200, or the core's refusal (401, 403, 413, ...). */
  status: number;
  /** The response headers (`www-authenticate` on a 401 or 403). */
  headers: Headers;
  /** The JSON-RPC `result`, when the request got one. */
  result?: Result;
  /**
   * Why there is no `result`: the JSON-RPC `error` (`{ code, message, data? }`), or an HTTP refusal whose
   * body is not JSON-RPC (`{ message: 'insufficient_scope: Insufficient scope', data: <the body> }`).
   */
  error?: { code?: number; message: string; data?: unknown };
  /** Notifications sent on the exchange before its response (progress, log messages), in order. */
  notifications: Array<{ method: string; params?: unknown }>;
}

/** What `tools/list` answered. */
export interface TestListResult extends TestResponse<{ tools: ServedTool[] }> {
  /** The tools as listed (the projection chosen for `client`); `[]` when the request was refused. */
  tools: ServedTool[];
}

/** What `tools/call` answered, with what the mount's `onCall` saw of it. */
export interface TestCallResult extends TestResponse<CallToolResult> {
  /** `result.isError`; true also when no result came back (`error` says why). */
  isError: boolean;
  /** `result.content`; `[]` without a result. */
  content: CallToolResult['content'];
  /** `result.structuredContent` (set when the tool declares `output`). */
  structuredContent?: CallToolResult['structuredContent'];
  /** The text blocks of `content`, joined with `'\n'` (the unknown-key notice is the last one). */
  text: string;
  /** What the argument repair changed before the parse (as `ctx.repairs`); `[]` when nothing reached the check. */
  repairs: CallEvent['repairs'];
  /** Keys the schema would have dropped, with `didYouMean` (as `ctx.ignoredKeys`); `[]` likewise. */
  ignoredKeys: CallEvent['ignoredKeys'];
  /**
   * The `onCall` event of this call: absent when the call never reached the argument check (401, 403, an
   * unknown or hidden tool).
   */
  event?: CallEvent;
}

/** A mount to call from tests; see `testMount`. */
export interface TestMount<Host = unknown> {
  /** `tools/list`, as `options.client` would be listed. */
  listTools(options?: TestRequestOptions<Host>): Promise<TestListResult>;
  /** `tools/call` of `name` with `args` (sent as given: a string where an object belongs is a repair to test). */
  callTool(name: string, args?: unknown, options?: TestRequestOptions<Host>): Promise<TestCallResult>;
  /** Any other JSON-RPC request (`resources/read`, `prompts/get`, ...), with the same headers and `_meta`. */
  request<Result = unknown>(
    method: string,
    params?: Record<string, unknown>,
    options?: TestRequestOptions<Host>,
  ): Promise<TestResponse<Result>>;
  /** The same mount with other defaults, laid over these (`client`, `headers` and `meta` merged): e.g. one per caller. */
  with(defaults: TestMountDefaults<Host>): TestMount<Host>;
  /** The probe's report (`report.projections.cursor.tools` is what a Cursor client is listed). */
  readonly report: ValidationReport;
  /** The core handler itself, for raw `Request`s. */
  readonly handler: McpFetchHandler<Host>;
  /** Aborts in-flight exchanges (`handler.close()`). */
  close(): Promise<void>;
}

const MCP_VERSION = { '2026-07-28': '2026-07-28', '2025': '2025-11-25' } as const;
const DEFAULT_CLIENT = { name: 'mcp-mount-test', version: '0.0.0' };
/** The params field the 2026-07-28 `Mcp-Name` header repeats, per method (the v2 SDK client's table). */
const NAME_FIELD: Readonly<Record<string, string>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
};

/**
 * A mount to call from tests, in process: builds the same core handler as every adapter
 * (`createMcpFetchHandler(tools, options)`) and sends it real web `Request`s, one per call, as the official
 * clients would (2026-07-28 by default; `client.era: '2025'` for the 2025-era stateless form). Results are
 * parsed from the response (JSON or event stream); `repairs` and `ignoredKeys` are what the mount's own
 * `onCall` reported for that request (your `onCall` still runs, after it).
 *
 * @param tools the tools, as given to an adapter
 * @param options the mount's options, as given to an adapter (the same object may be shared)
 * @param defaults request options every call starts from, and the `url` (default `http://localhost/mcp`)
 * @throws McpMountSchemaError or TypeError at construction, as `createMcpFetchHandler` does. The calls
 *   resolve for every answer the mount gives: a refusal (401, 403, an unknown tool) is a result with its
 *   `status` and `error`, and `isError: true`. They reject only with a TypeError when a body holds no JSON.
 *
 * @example
 * ```ts
 * import { testMount } from 'mcp-mount/testing';
 * import { expect, it } from 'vitest';
 *
 * const t = testMount([searchNotes], { projection: 'auto' });
 *
 * it('repairs a limit sent as text', async () => {
 *   const r = await t.callTool('search_notes', { query: 'cats', limit: '5' });
 *   expect(r.isError).toBe(false);
 *   expect(r.repairs).toEqual([{ path: 'limit', from: 'number-string' }]);
 *   expect((await t.listTools({ client: { name: 'cursor' } })).tools).toEqual(t.report.projections.cursor?.tools);
 * });
 * ```
 */
export function testMount<Host = unknown, S extends AnyZodObject = never, R = z.output<S>>(
  tools: readonly MountableTool<Host, NoInfer<MountExtend<S, R>>>[],
  options: McpMountOptions<S, R> = {},
  defaults: TestMountDefaults<Host> = {},
): TestMount<Host> {
  // The events of requests in flight, by the JSON-RPC id this helper gave them.
  const events = new Map<number, CallEvent | undefined>();
  const handler = createMcpFetchHandler<Host, S, R>(
    tools,
    observed(options, (event) => {
      if (typeof event.requestId === 'number' && events.has(event.requestId)) events.set(event.requestId, event);
    }),
  );
  let nextId = 1;
  const exchange = async (method: string, params: Record<string, unknown> | undefined, o: TestMountDefaults<Host>) => {
    const id = nextId++;
    events.set(id, undefined);
    try {
      const response = await handler.fetch(mcpRequest(id, method, params, o), {
        ...(o.authInfo && { authInfo: o.authInfo }),
        ...(o.host !== undefined && { host: o.host }),
      });
      return { answer: await readAnswer(response, id), event: events.get(id) };
    } finally {
      events.delete(id);
    }
  };
  return view(handler, exchange, defaults);
}

type Exchange<Host> = (
  method: string,
  params: Record<string, unknown> | undefined,
  options: TestMountDefaults<Host>,
) => Promise<{ answer: TestResponse<any>; event: CallEvent | undefined }>;

/** The helper's methods over one handler, with `defaults` under every call's options. */
function view<Host>(
  handler: McpFetchHandler<Host>,
  exchange: Exchange<Host>,
  defaults: TestMountDefaults<Host>,
): TestMount<Host> {
  const merged = (o: TestMountDefaults<Host> = {}): TestMountDefaults<Host> => ({
    ...defaults,
    ...o,
    client: { ...defaults.client, ...o.client },
    headers: { ...defaults.headers, ...o.headers },
    ...((defaults.meta || o.meta) && { meta: { ...defaults.meta, ...o.meta } }),
  });
  return {
    report: handler.report,
    handler,
    close: () => handler.close(),
    with: (more) => view(handler, exchange, merged(more)),
    request: async (method, params, o) => (await exchange(method, params, merged(o))).answer,
    async listTools(o) {
      const { answer } = await exchange('tools/list', undefined, merged(o));
      return { ...answer, tools: answer.result?.tools ?? [] };
    },
    async callTool(name, args = {}, o) {
      const { answer, event } = await exchange('tools/call', { name, arguments: args }, merged(o));
      const result = answer.result as CallToolResult | undefined;
      const content = result?.content ?? [];
      return {
        ...answer,
        isError: result === undefined || result.isError === true,
        content,
        ...(result?.structuredContent !== undefined && { structuredContent: result.structuredContent }),
        text: content.flatMap((c) => (c.type === 'text' ? [c.text] : [])).join('\n'),
        repairs: event?.repairs ?? [],
        ignoredKeys: event?.ignoredKeys ?? [],
        ...(event && { event }),
      };
    },
  };
}

/** The mount's options with `record` chained before the user's `observe.onCall`: the one option read here. */
function observed<S extends AnyZodObject, R>(
  options: McpMountOptions<S, R>,
  record: (event: CallEvent) => void,
): McpMountOptions<S, R> {
  const own = options.observe?.onCall;
  return {
    ...options,
    observe: {
      ...options.observe,
      onCall(event) {
        record(event);
        own?.(event);
      },
    },
  };
}

/** The POST a real client sends: the 2026-07-28 headers and `_meta` of the v2 client, or the v1 client's. */
function mcpRequest(
  id: number,
  method: string,
  params: Record<string, unknown> | undefined,
  o: TestMountDefaults,
): Request {
  const era = o.client?.era ?? '2026-07-28';
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': MCP_VERSION[era],
  };
  let sent = o.meta ? { ...params, _meta: { ...metaOf(params), ...o.meta } } : params;
  if (era === '2026-07-28') {
    headers['mcp-method'] = method;
    const field = NAME_FIELD[method];
    const name = field === undefined ? undefined : params?.[field];
    if (typeof name === 'string') headers['mcp-name'] = headerValue(name);
    const meta = {
      'io.modelcontextprotocol/protocolVersion': era,
      'io.modelcontextprotocol/clientInfo': {
        name: o.client?.name ?? DEFAULT_CLIENT.name,
        version: o.client?.version ?? DEFAULT_CLIENT.version,
      },
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    sent = { ...sent, _meta: { ...meta, ...metaOf(sent) } };
  }
  if (o.client?.userAgent !== undefined) headers['user-agent'] = o.client.userAgent;
  Object.assign(headers, o.headers);
  const body = JSON.stringify({ jsonrpc: '2.0', id, method, ...(sent !== undefined && { params: sent }) });
  return new Request(o.url ?? 'http://localhost/mcp', { method: 'POST', headers, body });
}

function metaOf(params: Record<string, unknown> | undefined): Record<string, unknown> {
  return isRecord(params?._meta) ? params._meta : {};
}

/** A header value as the v2 client writes it: as is when plain printable ASCII, else the base64 form. */
function headerValue(value: string): string {
  const plain = value.length > 0 && value === value.trim() && /^[\t\x20-\x7e]*$/.test(value);
  if (plain && !(value.startsWith('=?base64?') && value.endsWith('?='))) return value;
  const bytes = new TextEncoder().encode(value);
  return `=?base64?${btoa(String.fromCharCode(...bytes))}?=`;
}

/**
 * The answer to request `id`, from a JSON body or an event stream; a refusal whose body is not JSON-RPC
 * (the OAuth `{ error, error_description }` of a 401 or 403) becomes `error`.
 * @throws TypeError when the body holds no JSON at all.
 */
async function readAnswer(response: Response, id: number): Promise<TestResponse<any>> {
  const text = await response.text();
  const base = { status: response.status, headers: response.headers };
  const messages = parseMessages(text, response.headers.get('content-type'));
  if (messages === undefined) {
    throw new TypeError(
      `mcp-mount/testing: HTTP ${response.status} with a body that is not JSON: ${text.slice(0, 200)}`,
    );
  }
  const notifications = messages.filter(
    (m): m is { method: string; params?: unknown } => typeof m.method === 'string' && m.id === undefined,
  );
  const answer =
    messages.find((m) => m.id === id && ('result' in m || 'error' in m)) ??
    // A refusal before the SDK saw the request answers with id null (or none).
    messages.find((m) => 'error' in m);
  if (answer && 'result' in answer) return { ...base, result: answer.result, notifications };
  if (answer && isRecord(answer.error)) return { ...base, error: answer.error as never, notifications };
  const body = messages[0];
  const oauth = body && typeof body.error === 'string' ? body : undefined;
  const message = oauth
    ? `${oauth.error}${typeof oauth.error_description === 'string' ? `: ${oauth.error_description}` : ''}`
    : `HTTP ${response.status}: ${text.slice(0, 200)}`;
  return { ...base, error: { message, data: body }, notifications };
}

/** The JSON messages of a body: one JSON value (a batch flattened), or every `data:` event of a stream. */
function parseMessages(text: string, contentType: string | null): Record<string, any>[] | undefined {
  const values: unknown[] = [];
  try {
    if (contentType?.includes('text/event-stream')) {
      for (const event of text.split(/\r?\n\r?\n/)) {
        const data = event
          .split(/\r?\n/)
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).replace(/^ /, ''));
        if (data.length > 0) values.push(JSON.parse(data.join('\n')));
      }
    } else if (text.trim() !== '') values.push(JSON.parse(text));
  } catch {
    return undefined;
  }
  return values.flat().filter(isRecord);
}

function isRecord(value: unknown): value is Record<string, any> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
