/**
 * The differential test's fixture (ADR 0035): one tool set that reaches every kind of call, the calls as a
 * fast-check arbitrary and as a named table, and what a client and the hooks can observe of one answer,
 * compared between a mount on the direct path and the same mount forced onto the SDK's path.
 */
import { inputRequired } from '@modelcontextprotocol/server';
import fc from 'fast-check';
import { defineTool, type McpMountOptions, ToolError } from 'mcp-mount';
import { z } from 'zod';

const empty = z.object({});

/** Every kind of tool a call can meet: plain, output schema, throws, its own results, scoped, hidden, limited, chatty. */
export const differentialTools = [
  defineTool({
    name: 'add',
    input: z.object({ a: z.number(), b: z.number(), note: z.string().optional() }),
    handler: ({ input }) => input.a + input.b,
  }),
  defineTool({
    name: 'out',
    input: z.object({ a: z.number() }),
    output: z.object({ s: z.number(), t: z.string().default('filled') }),
    handler: ({ input }) => ({ s: input.a }),
  }),
  defineTool({
    name: 'out_refused',
    input: empty,
    output: z.object({ s: z.number() }),
    handler: () => ({ s: 'not a number' }) as never,
  }),
  defineTool({
    name: 'boom',
    input: empty,
    handler: () => {
      throw new Error('internal detail');
    },
  }),
  defineTool({
    name: 'told',
    input: empty,
    handler: () => {
      throw new ToolError('told the model');
    },
  }),
  defineTool({
    name: 'own',
    input: empty,
    handler: () => ({
      content: [
        { type: 'text', text: 'x' },
        { type: 'image', data: 'AA==', mimeType: 'image/png' },
      ],
      _meta: { 'example.com/k': 1 },
    }),
  }),
  defineTool({
    name: 'structured',
    input: empty,
    handler: () => ({ content: [{ type: 'text', text: 'y' }], structuredContent: { k: [1, { z: null }] } }),
  }),
  defineTool({
    name: 'error_result',
    input: empty,
    handler: () => ({ content: [{ type: 'text', text: 'bad' }], isError: true }),
  }),
  defineTool({ name: 'scoped', input: empty, scopes: ['s'], handler: () => 'in scope' }),
  defineTool({ name: 'scoped_other', input: empty, scopes: ['s', 'other'], handler: () => 'never in scope' }),
  defineTool({ name: 'hidden', input: empty, handler: () => 'never seen' }),
  defineTool({ name: 'limited', input: empty, handler: () => 'within the window' }),
  defineTool({
    name: 'notify',
    input: empty,
    handler: async (_call, ctx) => {
      await ctx.mcp.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: 'p', progress: 1 } });
      return 'sent one';
    },
  }),
  defineTool({
    name: 'progress',
    input: empty,
    handler: async (_call, ctx) => {
      await ctx.progress(1, { total: 2 });
      return 'progressed';
    },
  }),
  defineTool({
    name: 'ask',
    input: empty,
    handler: (_call, ctx) =>
      ctx.mcp.mcpReq.inputResponses
        ? 'answered'
        : inputRequired({
            inputRequests: {
              who: inputRequired.elicit({ message: 'Name?', requestedSchema: z.object({ name: z.string() }) }),
            },
          }),
  }),
  defineTool({
    name: 'context',
    input: empty,
    handler: (_call, ctx) => {
      const first = ctx.mcp.mcpReq;
      return JSON.stringify({
        id: ctx.mcp.mcpReq.id,
        method: ctx.mcp.mcpReq.method,
        meta: ctx.mcp.mcpReq._meta ?? null,
        envelope: ctx.mcp.mcpReq.envelope ?? null,
        state: ctx.mcp.mcpReq.requestState() ?? null,
        session: ctx.mcp.sessionId ?? null,
        auth: ctx.mcp.http?.authInfo?.clientId ?? null,
        aborted: ctx.signal.aborted,
        // One request context, whenever it is read (the direct path builds it on the first read).
        oneContext: first === ctx.mcp.mcpReq && typeof first.notify === 'function',
      });
    },
  }),
];

/** What the hooks saw of one answer, without what differs by nature (times, error ids, spans). */
export interface Seen {
  calls: unknown[];
  refusals: unknown[];
  errors: string[];
}

/** The options both mounts get, with hooks recording into what `seen` returns at the time. */
export function differentialOptions(seen: () => Seen): McpMountOptions {
  return {
    access: { visibleTools: () => (tool) => tool.name !== 'hidden' },
    limits: { rate: { perTool: { limited: { points: 2, durationSeconds: 3600 } }, key: () => 'everyone' } },
    observe: {
      logger: { error() {}, warn() {} },
      onCall: (event) => {
        const { durationMs: _d, errorId: _e, trace: _t, ...rest } = event as unknown as Record<string, unknown>;
        seen().calls.push(normalized(rest));
      },
      // A rate limit's wait counts down between the two calls, in the event as in the text.
      onRefusal: ({ retryAfterSeconds, ...event }) =>
        void seen().refusals.push(
          normalized({ ...event, ...(retryAfterSeconds !== undefined && { retryAfterSeconds: '<n>' }) }),
        ),
      onError: (_error, info) => void seen().errors.push(info.phase),
    },
  };
}

/**
 * Error ids are random per call, and a rate limit's wait is counted down while the two calls run: the
 * comparison reads `error id <id>` and `retry in <n> s`.
 */
export function withoutErrorIds(text: string): string {
  return text.replace(/error id [0-9a-f-]{8,}/gi, 'error id <id>').replace(/retry in \d+ s/g, 'retry in <n> s');
}

function normalized(value: unknown): unknown {
  return JSON.parse(withoutErrorIds(JSON.stringify(value) ?? 'null'));
}

export type Era = 'legacy' | 'modern';

/** One generated call: what the client sends. */
export interface CallSpec {
  era: Era;
  tool: string;
  /** `undefined`: no `arguments` key. */
  args: unknown;
  /** `'absent'`: no `id` key (a notification). */
  id: unknown;
  /** Extra `_meta` keys (beside the 2026 envelope). */
  meta?: Record<string, unknown>;
  /** 2025-era `Accept`; `null` for none. */
  accept?: string | null;
  /** 2026-07-28: leave the `Mcp-Name` header out. */
  noNameHeader?: boolean;
  /** Sent as the caller (`extras.authInfo`), with scope `s`. */
  authorized?: boolean;
  /** Extra `params` keys. */
  params?: Record<string, unknown>;
}

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'differential', version: '1.0.0' },
};

export const AUTH = { token: 't', clientId: 'c', scopes: ['s'] };

/** The HTTP request for `spec`, as a maker of fresh copies (a body is read once). */
export function requestOf(spec: CallSpec, url = 'http://differential.local/mcp'): () => Request {
  const meta = spec.era === 'modern' ? { ...ENVELOPE, ...spec.meta } : spec.meta;
  const params: Record<string, unknown> = { name: spec.tool, ...spec.params };
  if (spec.args !== undefined) params.arguments = spec.args;
  if (meta !== undefined) params._meta = meta;
  const message: Record<string, unknown> = { jsonrpc: '2.0', method: 'tools/call', params };
  if (spec.id !== 'absent') message.id = spec.id;
  const body = JSON.stringify(message);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  // Over HTTP the adapters' tests turn this into the caller (`req.auth`, `c.set('authInfo')`).
  if (spec.authorized) headers['x-test-auth'] = '1';
  if (spec.era === 'modern') {
    headers.accept = 'application/json, text/event-stream';
    headers['mcp-protocol-version'] = '2026-07-28';
    headers['mcp-method'] = 'tools/call';
    if (!spec.noNameHeader) headers['mcp-name'] = spec.tool;
  } else {
    headers['mcp-protocol-version'] = '2025-06-18';
    const accept = spec.accept === undefined ? 'application/json, text/event-stream' : spec.accept;
    if (accept !== null) headers.accept = accept;
  }
  return () => new Request(url, { method: 'POST', headers, body });
}

/** One list request: what the client sends. */
export interface ListSpec {
  era: Era;
  id: unknown;
  /** 2025 era: `MCP-Protocol-Version`, null for none. 2026-07-28 always sends its own. */
  version?: string | null;
  /** `params`; `'absent'`: no `params` key. The 2026-07-28 envelope is added to its `_meta`. */
  params?: Record<string, unknown> | 'absent';
  /** The client's name in the 2026-07-28 envelope. */
  client?: string;
  accept?: string | null;
  acceptEncoding?: string;
  /** 2026-07-28: an `Mcp-Name` header (a list names no tool). */
  nameHeader?: boolean;
  authorized?: boolean;
  /** A header the throwing `visibleTools` of one mount reads. */
  boom?: boolean;
}

/** The HTTP request for a list `spec`, as a maker of fresh copies. */
export function listRequestOf(spec: ListSpec, url = 'http://differential.local/mcp'): () => Request {
  const message: Record<string, unknown> = { jsonrpc: '2.0', method: 'tools/list' };
  if (spec.id !== 'absent') message.id = spec.id;
  const params = spec.params === 'absent' ? undefined : { ...spec.params };
  if (spec.era === 'modern') {
    const meta = (params?._meta as Record<string, unknown> | undefined) ?? {};
    message.params = {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': {},
        'io.modelcontextprotocol/clientInfo': { name: spec.client ?? 'differential', version: '1.0.0' },
        ...meta,
      },
    };
  } else if (params !== undefined) {
    message.params = params;
  }
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const accept = spec.accept === undefined ? 'application/json, text/event-stream' : spec.accept;
  if (accept !== null) headers.accept = accept;
  if (spec.acceptEncoding !== undefined) headers['accept-encoding'] = spec.acceptEncoding;
  if (spec.boom) headers['x-boom'] = '1';
  if (spec.era === 'modern') {
    headers['mcp-protocol-version'] = '2026-07-28';
    headers['mcp-method'] = 'tools/list';
    if (spec.nameHeader) headers['mcp-name'] = 'add';
  } else {
    const version = spec.version === undefined ? '2025-06-18' : spec.version;
    if (version !== null) headers['mcp-protocol-version'] = version;
  }
  const body = JSON.stringify(message);
  return () => new Request(url, { method: 'POST', headers, body });
}

const TOOLS = differentialTools.map((t) => t.name);

/** Arguments per kind: valid, repaired (`"5"` for a number), invalid, as text, and the odd ones. */
const argumentsArb = fc.oneof(
  fc.record({ a: fc.integer({ min: -9, max: 9 }), b: fc.integer({ min: -9, max: 9 }) }),
  fc.record({ a: fc.integer({ min: 0, max: 9 }).map(String), b: fc.constant(1) }),
  fc.record({ a: fc.constant('not a number') }),
  fc.constant('{"a":1,"b":2}'),
  fc.constantFrom(null, [], '', 5, undefined, {}, { a: 1, b: 2, extra: true }),
  fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
);

const idArb = fc.oneof(
  { arbitrary: fc.integer({ min: -5, max: 1_000_000 }), weight: 4 },
  { arbitrary: fc.string({ maxLength: 6 }), weight: 2 },
  { arbitrary: fc.constantFrom(0, '', 1.5, null, true, 2 ** 60, 'absent', { x: 1 }), weight: 1 },
);

/** Mostly the plain value (`usual`), sometimes one of `odd`: the direct path sees plain calls often. */
function mostly<T>(usual: T, odd: fc.Arbitrary<T>): fc.Arbitrary<T> {
  return fc.oneof({ arbitrary: fc.constant(usual), weight: 3 }, { arbitrary: odd, weight: 1 });
}

/** Generated calls: every tool and an unknown one, both eras, odd ids, `_meta`, `Accept`s and headers. */
export const callArb: fc.Arbitrary<CallSpec> = fc.record({
  era: fc.constantFrom<Era>('legacy', 'modern'),
  tool: fc.constantFrom(...TOOLS, 'nope'),
  args: argumentsArb,
  id: idArb,
  meta: mostly<Record<string, unknown> | undefined>(
    undefined,
    fc.constantFrom({}, { progressToken: 'p' }, { 'example.com/k': 1 }, { 'io.modelcontextprotocol/logLevel': 'info' }),
  ),
  accept: mostly<string | null | undefined>(
    undefined,
    fc.constantFrom(
      null,
      'application/json',
      'text/event-stream',
      '*/*',
      'text/html',
      'application/json;q=0, text/event-stream',
    ),
  ),
  noNameHeader: mostly(false, fc.constant(true)),
  authorized: fc.boolean(),
  params: mostly<Record<string, unknown> | undefined>(
    undefined,
    fc.constantFrom({ task: {} }, { requestState: 'x' }, { extra: 1 }),
  ),
});

/** A table of named calls, each kind the issue lists, in both eras. */
export function namedCalls(): Array<[string, CallSpec]> {
  const both = (label: string, spec: Omit<CallSpec, 'era'>): Array<[string, CallSpec]> => [
    [`${label}, 2025-06-18`, { ...spec, era: 'legacy' }],
    [`${label}, 2026-07-28`, { ...spec, era: 'modern' }],
  ];
  return [
    ...both('valid', { tool: 'add', args: { a: 1, b: 2 }, id: 1 }),
    ...both('repaired', { tool: 'add', args: { a: '5', b: 2 }, id: 2 }),
    ...both('arguments as JSON text', { tool: 'add', args: '{"a":1,"b":2}', id: 3 }),
    ...both('invalid', { tool: 'add', args: { a: 'x' }, id: 'str-id' }),
    ...both('unknown tool', { tool: 'nope', args: {}, id: 4 }),
    ...both('hidden tool', { tool: 'hidden', args: {}, id: 5 }),
    ...both('scoped, authorized', { tool: 'scoped', args: {}, id: 6, authorized: true }),
    ...both('scoped, no credentials', { tool: 'scoped', args: {}, id: 7 }),
    ...both('scoped, another scope', { tool: 'scoped_other', args: {}, id: 29, authorized: true }),
    ...both('rate-limited (1)', { tool: 'limited', args: {}, id: 8 }),
    ...both('rate-limited (2)', { tool: 'limited', args: {}, id: 9 }),
    ...both('rate-limited (3)', { tool: 'limited', args: {}, id: 10 }),
    ...both('throwing', { tool: 'boom', args: {}, id: 11 }),
    ...both('ToolError', { tool: 'told', args: {}, id: 12 }),
    ...both('output schema', { tool: 'out', args: { a: 3 }, id: 13 }),
    ...both('output refused', { tool: 'out_refused', args: {}, id: 14 }),
    ...both('own result with _meta', { tool: 'own', args: {}, id: 16 }),
    ...both('structuredContent', { tool: 'structured', args: {}, id: 17 }),
    ...both('isError result', { tool: 'error_result', args: {}, id: 18 }),
    ...both('a notification before the result', { tool: 'notify', args: {}, id: 19 }),
    ...both('progress with a token', { tool: 'progress', args: {}, id: 20, meta: { progressToken: 'p' } }),
    ...both('progress without a token', { tool: 'progress', args: {}, id: 21 }),
    ...both('input request', { tool: 'ask', args: {}, id: 22 }),
    ...both('the context a handler sees', { tool: 'context', args: {}, id: 23 }),
    ...both('_meta with a key of its own', { tool: 'context', args: {}, id: 28, meta: { 'example.com/k': 1 } }),
    // JSON text makes `__proto__` an own key, which the SDK's schemas drop.
    ...both('_meta with an own __proto__', {
      tool: 'context',
      args: {},
      id: 30,
      meta: JSON.parse('{"__proto__":{"x":1}}'),
    }),
    ...both('id 0', { tool: 'add', args: { a: 1, b: 1 }, id: 0 }),
    ...both('id 1.5', { tool: 'add', args: { a: 1, b: 1 }, id: 1.5 }),
    ...both('id null', { tool: 'add', args: { a: 1, b: 1 }, id: null }),
    ...both('no id', { tool: 'add', args: { a: 1, b: 1 }, id: 'absent' }),
    ['JSON only, 2025-06-18', { era: 'legacy', tool: 'add', args: { a: 1, b: 2 }, id: 24, accept: 'application/json' }],
    ['no Accept, 2025-06-18', { era: 'legacy', tool: 'out', args: { a: 1 }, id: 25, accept: null }],
    ['SSE only, 2025-06-18', { era: 'legacy', tool: 'add', args: { a: 1, b: 2 }, id: 26, accept: 'text/event-stream' }],
    ['no Mcp-Name, 2026-07-28', { era: 'modern', tool: 'add', args: { a: 1, b: 2 }, id: 27, noNameHeader: true }],
  ];
}

/** What a client can observe of one answer: status, headers, body (error ids read as `<id>`). */
export async function observed(response: Response): Promise<{ status: number; headers: string[][]; body: string }> {
  const text = await response.text();
  // Headers the HTTP server sets on its own (date, keep-alive) say nothing about the mount, and neither does
  // the transfer framing (ADR 0039: a complete direct answer goes with Content-Length where the SDK's stream
  // goes chunked); a Content-Length that is sent must still be the body's length.
  const length = response.headers.get('content-length');
  if (length !== null && Number(length) !== new TextEncoder().encode(text).byteLength) {
    throw new Error(`Content-Length ${length} is not the body's length`);
  }
  const framing = new Set(['date', 'keep-alive', 'content-length', 'transfer-encoding']);
  const headers = [...response.headers].filter(([name]) => !framing.has(name));
  return { status: response.status, headers, body: withoutErrorIds(text) };
}
