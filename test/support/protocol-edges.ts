/**
 * The protocol's edges as data: each request a server must refuse (and, beside them, the look-alikes it must
 * serve), how a client of each revision sends it, and what each revision says the answer is. The table in
 * docs/design/protocol-edges.md lists the same edges with the source of each rule; the adapter tests
 * (test/adapters/protocol-edges.test.ts) send every one, in both revisions, over real HTTP.
 */
import {
  completable,
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  ResourceTemplate,
} from '@modelcontextprotocol/server';
import { type AnyTool, defineTool, type ServerHook } from 'mcp-mount';
import { z } from 'zod';

export type Revision = '2025-11-25' | '2026-07-28';
export const REVISIONS: readonly Revision[] = ['2025-11-25', '2026-07-28'];

/** A refusal: the HTTP status and the JSON-RPC error code (and, where the rule names it, the error's data). */
export interface Refused {
  status: number;
  code: number;
  data?: Record<string, unknown>;
}
/** A request the revision serves: the HTTP status, and a result for every request the body held. */
export interface Served {
  status: number;
  results: number;
}
export type Expected = Refused | Served;

/** What a client sends: a JSON-RPC message (an array is a batch), or raw text, with header changes. */
export interface Sent {
  message?: unknown;
  text?: string;
  /** Headers to set, or to leave out (`null`), over the ones the revision's client sends. */
  headers?: Record<string, string | null>;
  /** 2026-07-28 only: leave the `_meta` envelope out (the message carries its own `_meta`, or none). */
  bare?: boolean;
}

export interface Edge {
  /** What the server does, as the test is named. */
  does: string;
  sent: Sent;
  /** The answer each revision names; a revision without an entry has no such edge. */
  answers: Partial<Record<Revision, Expected>>;
  /** The mount it is sent to: `logging` declares the logging capability. */
  mount?: 'logging';
}

const request = (method: string, params?: Record<string, unknown>, id: string | number = 1) => ({
  jsonrpc: '2.0',
  id,
  method,
  ...(params !== undefined && { params }),
});
/** In-band: a JSON-RPC error the revision answers on a 200. */
const inBand = (code: number, data?: Record<string, unknown>): Refused => ({
  status: 200,
  code,
  ...(data && { data }),
});
/** Before dispatch: a JSON-RPC error on a 400. */
const bad = (code: number, data?: Record<string, unknown>): Refused => ({ status: 400, code, ...(data && { data }) });
/** 2026-07-28 answers method-not-found with 404. */
const notFound: Refused = { status: 404, code: -32601 };
const served = (results = 1): Served => ({ status: 200, results });
const both = (answer: Expected) => ({ '2025-11-25': answer, '2026-07-28': answer });

const CURSOR = 'eyJwYWdlIjoyfQ';
const list = (method: string): Edge => ({
  does: `refuses a ${method} cursor it never issued`,
  sent: { message: request(method, { cursor: CURSOR }) },
  answers: both(inBand(-32602)),
});

export const EDGES: readonly Edge[] = [
  // Pagination: no list is paginated, so no cursor was ever issued.
  list('tools/list'),
  list('prompts/list'),
  list('resources/list'),
  list('resources/templates/list'),
  {
    does: 'refuses a tools/list cursor that is no string',
    sent: { message: request('tools/list', { cursor: 7 }) },
    answers: both(inBand(-32602)),
  },
  // Resources.
  {
    does: 'refuses to read a resource it does not have',
    sent: { message: request('resources/read', { uri: 'docs://nothing' }) },
    answers: {
      '2025-11-25': inBand(-32002, { uri: 'docs://nothing' }),
      '2026-07-28': inBand(-32602, { uri: 'docs://nothing' }),
    },
  },
  {
    does: 'refuses to read a resource its template read callback does not find',
    sent: { message: request('resources/read', { uri: 'notes://missing' }) },
    answers: {
      '2025-11-25': inBand(-32002, { uri: 'notes://missing' }),
      '2026-07-28': inBand(-32602, { uri: 'notes://missing' }),
    },
  },
  {
    does: 'refuses to read a resource a read callback reports with the 2025 code',
    sent: { message: request('resources/read', { uri: 'notes://gone' }) },
    answers: {
      '2025-11-25': inBand(-32002, { uri: 'notes://gone' }),
      '2026-07-28': inBand(-32602, { uri: 'notes://gone' }),
    },
  },
  {
    does: 'refuses to read a URI that is no URI',
    sent: { message: request('resources/read', { uri: 'not a uri' }) },
    answers: both(inBand(-32602)),
  },
  {
    does: 'refuses resources/read without a uri',
    sent: { message: request('resources/read', {}) },
    answers: both(inBand(-32602)),
  },
  // Prompts.
  {
    does: 'refuses to get a prompt it does not have',
    sent: { message: request('prompts/get', { name: 'no_such_prompt' }) },
    answers: both(inBand(-32602)),
  },
  {
    does: 'refuses a prompt without its required argument',
    sent: { message: request('prompts/get', { name: 'summarize', arguments: {} }) },
    answers: both(inBand(-32602)),
  },
  {
    does: 'refuses a prompt argument that is no string',
    sent: { message: request('prompts/get', { name: 'summarize', arguments: { topic: 5 } }) },
    answers: both(inBand(-32602)),
  },
  {
    does: 'refuses prompts/get without a name',
    sent: { message: request('prompts/get', {}) },
    answers: both(inBand(-32602)),
  },
  // Tools.
  {
    does: 'refuses to call a tool it does not have',
    sent: { message: request('tools/call', { name: 'no_such_tool', arguments: {} }) },
    answers: both(inBand(-32602)),
  },
  {
    does: 'refuses to call a tool the caller may not see, as one it does not have',
    sent: { message: request('tools/call', { name: 'hidden', arguments: {} }) },
    answers: both(inBand(-32602)),
  },
  {
    does: 'refuses tools/call without a tool name',
    sent: { message: request('tools/call', { arguments: {} }) },
    answers: both(inBand(-32602)),
  },
  // Methods.
  {
    does: 'refuses a method no revision defines',
    sent: { message: request('tools/remove', {}) },
    answers: { '2025-11-25': inBand(-32601), '2026-07-28': notFound },
  },
  {
    does: 'answers ping in 2025 and refuses it where 2026-07-28 removed it',
    sent: { message: request('ping') },
    answers: { '2025-11-25': served(), '2026-07-28': notFound },
  },
  {
    does: 'refuses initialize where 2026-07-28 removed it',
    sent: {
      message: request('initialize', {
        protocolVersion: '2026-07-28',
        capabilities: {},
        clientInfo: { name: 'edges', version: '1.0.0' },
      }),
    },
    answers: { '2026-07-28': notFound },
  },
  {
    does: 'refuses a request carrying a notification method (it has an id)',
    sent: { message: request('notifications/cancelled', { requestId: 4 }) },
    answers: { '2025-11-25': inBand(-32601), '2026-07-28': notFound },
  },
  // Logging.
  {
    does: 'refuses logging/setLevel where logging is not declared',
    sent: { message: request('logging/setLevel', { level: 'info' }) },
    answers: { '2025-11-25': inBand(-32601), '2026-07-28': notFound },
  },
  {
    does: 'refuses logging/setLevel with a level that is not one, logging declared',
    sent: { message: request('logging/setLevel', { level: 'loud' }) },
    answers: { '2025-11-25': inBand(-32602), '2026-07-28': notFound },
    mount: 'logging',
  },
  {
    does: 'answers logging/setLevel with a real level, logging declared',
    sent: { message: request('logging/setLevel', { level: 'info' }) },
    answers: { '2025-11-25': served(), '2026-07-28': notFound },
    mount: 'logging',
  },
  {
    does: 'refuses a log level in _meta that is not one',
    sent: {
      message: request('tools/list', {
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
          'io.modelcontextprotocol/logLevel': 'loud',
        },
      }),
      bare: true,
    },
    answers: { '2026-07-28': bad(-32602) },
    mount: 'logging',
  },
  // Completion.
  {
    does: 'refuses to complete a prompt it does not have',
    sent: {
      message: request('completion/complete', {
        ref: { type: 'ref/prompt', name: 'no_such_prompt' },
        argument: { name: 'topic', value: 'c' },
      }),
    },
    answers: both(inBand(-32602)),
  },
  {
    does: 'refuses to complete a resource template it does not have',
    sent: {
      message: request('completion/complete', {
        ref: { type: 'ref/resource', uri: 'nothing://{id}' },
        argument: { name: 'id', value: '1' },
      }),
    },
    answers: both(inBand(-32602)),
  },
  {
    does: 'refuses a completion ref of no known type',
    sent: {
      message: request('completion/complete', {
        ref: { type: 'ref/tool', name: 'echo' },
        argument: { name: 'x', value: '' },
      }),
    },
    answers: both(inBand(-32602)),
  },
  // JSON-RPC itself.
  {
    does: 'refuses a body that is not JSON',
    sent: { text: '{"jsonrpc":"2.0","id":1,' },
    answers: both(bad(-32700)),
  },
  {
    does: 'refuses a message without jsonrpc: "2.0"',
    sent: { message: { id: 1, method: 'tools/list' }, bare: true },
    answers: both(bad(-32600)),
  },
  {
    does: 'refuses a request whose id is null',
    sent: { message: request('tools/list', undefined, null as never) },
    answers: both(bad(-32600)),
  },
  {
    does: 'refuses params that are no object',
    sent: { message: { ...request('tools/list'), params: 'all' }, bare: true },
    answers: both(bad(-32600)),
  },
  {
    does: 'refuses an empty batch',
    sent: { message: [] },
    answers: both(bad(-32600)),
  },
  {
    does: 'refuses a batch where the revision has none',
    sent: { message: [request('tools/list', {}, 1), request('prompts/list', {}, 2)] },
    answers: both(bad(-32600)),
  },
  {
    does: 'serves a batch from a client that names no revision (2025-03-26 has batches)',
    sent: {
      message: [request('tools/list', undefined, 1), request('prompts/list', undefined, 2)],
      headers: { 'mcp-protocol-version': null },
    },
    answers: { '2025-11-25': served(2) },
  },
  {
    does: 'refuses a batch of 2025-era messages sent as 2026-07-28',
    sent: {
      message: [request('tools/list', undefined, 1)],
      headers: { 'mcp-protocol-version': '2026-07-28' },
      bare: true,
    },
    answers: { '2025-11-25': bad(-32600) },
  },
  // _meta.
  {
    does: 'refuses a _meta that is no object',
    sent: { message: request('tools/list', { _meta: 'x' }), bare: true },
    answers: both(bad(-32602)),
  },
  {
    does: 'refuses a progressToken that is neither a string nor a number',
    sent: {
      message: request('tools/call', {
        name: 'echo',
        arguments: { text: 'hi' },
        _meta: {
          progressToken: { nested: true },
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      }),
      bare: true,
    },
    answers: both(bad(-32602)),
  },
  {
    does: 'refuses a reserved _meta key holding what the protocol does not define',
    sent: {
      message: request('tools/list', {
        _meta: {
          'io.modelcontextprotocol/related-task': 5,
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      }),
      bare: true,
    },
    answers: both(bad(-32602)),
  },
  {
    does: 'refuses a request without the _meta envelope',
    sent: { message: request('tools/list', {}), bare: true },
    answers: { '2026-07-28': bad(-32602) },
  },
  {
    does: 'refuses an envelope without clientCapabilities',
    sent: {
      message: request('tools/list', { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } }),
      bare: true,
    },
    answers: { '2026-07-28': bad(-32602) },
  },
  // The 2026-07-28 standard headers.
  {
    does: 'refuses an Mcp-Method header that names another method',
    sent: { message: request('tools/list', {}), headers: { 'mcp-method': 'prompts/list' } },
    answers: { '2026-07-28': bad(-32020) },
  },
  {
    does: 'refuses a request without its Mcp-Method header',
    sent: { message: request('tools/list', {}), headers: { 'mcp-method': null } },
    answers: { '2026-07-28': bad(-32020) },
  },
  {
    does: 'refuses an Mcp-Name header that names another tool',
    sent: {
      message: request('tools/call', { name: 'echo', arguments: { text: 'hi' } }),
      headers: { 'mcp-name': 'other' },
    },
    answers: { '2026-07-28': bad(-32020) },
  },
  {
    does: 'refuses a resources/read without its Mcp-Name header',
    sent: { message: request('resources/read', { uri: 'docs://readme' }), headers: { 'mcp-name': null } },
    answers: { '2026-07-28': bad(-32020) },
  },
  {
    does: 'serves a 2025-era request whatever its Mcp-Method header says (2025 has none)',
    sent: { message: request('tools/list', {}), headers: { 'mcp-method': 'prompts/list' } },
    answers: { '2025-11-25': served() },
  },
  // The protocol version header.
  {
    does: 'refuses a request without the MCP-Protocol-Version header',
    sent: { message: request('tools/list', {}), headers: { 'mcp-protocol-version': null } },
    answers: { '2026-07-28': bad(-32020) },
  },
  {
    does: 'serves a 2025-era request without the MCP-Protocol-Version header (as 2025-03-26)',
    sent: { message: request('tools/list', {}), headers: { 'mcp-protocol-version': null } },
    answers: { '2025-11-25': served() },
  },
  {
    does: 'refuses an MCP-Protocol-Version header the envelope contradicts',
    sent: { message: request('tools/list', {}), headers: { 'mcp-protocol-version': '2025-11-25' } },
    answers: { '2026-07-28': bad(-32020) },
  },
  {
    does: 'refuses a protocol version it does not support',
    sent: {
      message: request('tools/list', {
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2099-01-01',
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      }),
      headers: { 'mcp-protocol-version': '2099-01-01' },
      bare: true,
    },
    answers: { '2026-07-28': bad(-32022, { supported: ['2026-07-28'], requested: '2099-01-01' }) },
  },
  {
    does: 'refuses an MCP-Protocol-Version header naming no revision it supports',
    sent: { message: request('tools/list', {}), headers: { 'mcp-protocol-version': '2025-13-45' } },
    answers: { '2025-11-25': bad(-32000) },
  },
];

/** A result holding what JSON cannot carry as it is: a database count and ids, as a driver returns them. */
const counted = () => ({ total: 12345678901234567890n, rows: [{ id: 1n, name: 'first' }] });

/**
 * The tools every edge mount serves: `echo`; `hidden`, which no caller may see; and tools whose results hold
 * values JSON cannot carry as they are (BigInts and a Date, converted; a NaN, a function, a Map, a cycle, a
 * tree too deep, refused).
 */
export const EDGE_TOOLS: AnyTool[] = [
  defineTool({ name: 'echo', input: z.object({ text: z.string() }), handler: ({ input }) => input.text }),
  defineTool({ name: 'hidden', input: z.object({}), handler: () => 'never' }),
  defineTool({ name: 'count', input: z.object({}), handler: counted }),
  defineTool({
    name: 'count_typed',
    input: z.object({}),
    output: z.object({ total: z.unknown(), rows: z.array(z.record(z.string(), z.unknown())) }),
    handler: counted,
  }),
  defineTool({
    name: 'count_result',
    input: z.object({}),
    handler: () => ({ content: [{ type: 'text' as const, text: 'counted' }], structuredContent: counted() }),
  }),
  defineTool({
    name: 'ratio',
    input: z.object({}),
    output: z.object({ ratio: z.number() }),
    handler: () => ({ ratio: 0 / 0 }),
  }),
  defineTool({
    name: 'with_callback',
    input: z.object({}),
    handler: () => ({ rows: [{ id: 1, refresh: () => 1 }] }),
  }),
  defineTool({
    name: 'dated',
    input: z.object({}),
    output: z.object({ at: z.iso.datetime(), id: z.string() }),
    handler: () => ({ at: new Date(Date.UTC(2025, 0, 2, 3, 4, 5)), id: 7n }) as never,
  }),
  defineTool({ name: 'indexed', input: z.object({}), handler: () => ({ index: new Map([['a', 1]]) }) }),
  defineTool({
    name: 'deep',
    input: z.object({}),
    handler: () => {
      let tree: unknown = 'leaf';
      for (let i = 0; i < 600; i++) tree = { child: tree };
      return tree as Record<string, unknown>;
    },
  }),
  defineTool({
    name: 'cyclic',
    input: z.object({}),
    handler: () => {
      const node: Record<string, unknown> = { name: 'root' };
      node.children = [{ parent: node }];
      return node;
    },
  }),
];

/** A resource, a template whose read finds some notes and not others, and a prompt with a completable argument. */
export const edgeFeatures: ServerHook = (server) => {
  server.registerResource('readme', 'docs://readme', { mimeType: 'text/markdown' }, (uri) => ({
    contents: [{ uri: uri.href, text: '# Notes' }],
  }));
  server.registerResource('note', new ResourceTemplate('notes://{id}', { list: undefined }), {}, (uri, { id }) => {
    if (id === 'missing') throw new ResourceNotFoundError(uri.href);
    // A read callback written for the 2025 revision, throwing its code.
    if (id === 'gone') throw new ProtocolError(ProtocolErrorCode.ResourceNotFound, `no note ${id}`);
    return { contents: [{ uri: uri.href, text: `note ${id}` }] };
  });
  server.registerPrompt(
    'summarize',
    {
      argsSchema: z.object({ topic: completable(z.string(), (v) => ['cats', 'cars'].filter((t) => t.startsWith(v))) }),
    },
    ({ topic }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Summarize ${topic}` } }] }),
  );
};

/** The options of the two edge mounts: the plain one, and one that declares logging. */
export function edgeOptions(mount: Edge['mount']) {
  return {
    server: { features: edgeFeatures },
    access: { visibleTools: () => (tool: AnyTool) => tool.name !== 'hidden' },
    observe: { logger: { warn() {}, error() {} } },
    ...(mount === 'logging' && { protocol: { logging: true } }),
  };
}

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'edges', version: '1.0.0' },
};
// The body field the 2026-07-28 Mcp-Name header mirrors, per method.
const NAME_SOURCE: Record<string, string> = { 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri' };

/** The request a client of `revision` sends for `sent`: the headers it sets, and the body. */
export function httpRequest(revision: Revision, sent: Sent): { headers: Record<string, string>; body: string } {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': revision,
  };
  let message = sent.message;
  if (revision === '2026-07-28' && isRecord(message) && typeof message.method === 'string') {
    headers['mcp-method'] = message.method;
    const params = isRecord(message.params) ? message.params : {};
    const source = NAME_SOURCE[message.method];
    if (source && typeof params[source] === 'string') headers['mcp-name'] = params[source];
    if (!sent.bare) message = { ...message, params: { ...params, _meta: ENVELOPE } };
  }
  if (revision === '2026-07-28' && Array.isArray(message) && !sent.bare) {
    message = message.map((m) => (isRecord(m) ? { ...m, params: { ...(m.params as object), _meta: ENVELOPE } } : m));
  }
  for (const [name, value] of Object.entries(sent.headers ?? {})) {
    if (value === null) delete headers[name];
    else headers[name] = value;
  }
  return { headers, body: sent.text ?? JSON.stringify(message) };
}

/** The JSON-RPC messages of an answer: a JSON body (one message or a batch), or an event stream's data. */
export function messagesOf(text: string): any[] {
  const trimmed = text.trim();
  if (trimmed === '') return [];
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    const parsed = JSON.parse(trimmed);
    return Array.isArray(parsed) ? parsed : [parsed];
  }
  return trimmed
    .split(/\r?\n/)
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).trim())
    .filter((data) => data.startsWith('{'))
    .map((data) => JSON.parse(data))
    .filter((m) => 'result' in m || 'error' in m);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
