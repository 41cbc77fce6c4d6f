/**
 * The SDK behaviours serve/sdk/ relies on, each pinned against the SDK alone (no mcp-mount in the path), so
 * an SDK upgrade that changes one fails here, naming the seam, rather than somewhere in the mount. Each
 * seam, what would remove it upstream, and where it lives: docs/design/sdk-seams.md.
 */
import { getEventListeners } from 'node:events';
import {
  classifyInboundRequest,
  createMcpHandler,
  type McpRequestContext,
  McpServer,
  requireScopes,
  type StandardSchemaWithJSON,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/server';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { prepareTools } from '../../../src/core/prepare/prepare.js';
import { carrier } from '../../../src/core/serve/sdk/carrier.js';
import { isClientRejection } from '../../../src/core/serve/sdk/handler.js';
import { serveTaskMethods } from '../../../src/core/serve/sdk/tasks.js';
import { sdkEntry } from '../../../src/core/serve/sdk/tool-entry.js';
import { aroundToolsCall } from '../../../src/core/serve/sdk/tools-call.js';

type Era = 'modern' | 'legacy';
const ERAS: readonly Era[] = ['modern', 'legacy'];
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'seams', version: '1.0.0' },
};

/** A JSON-RPC POST in `era`, with the headers each era's client sends. */
function post(era: Era, method: string, params: Record<string, unknown> = {}, init: RequestInit = {}): Request {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  };
  if (era === 'modern') {
    headers['mcp-protocol-version'] = '2026-07-28';
    headers['mcp-method'] = method;
    const name = params.name ?? params.uri;
    if (typeof name === 'string') headers['mcp-name'] = name;
  }
  const body = { jsonrpc: '2.0', id: 1, method, params: era === 'modern' ? { ...params, _meta: META } : params };
  return new Request('http://localhost/mcp', {
    method: 'POST',
    headers: { ...headers, ...(init.headers as Record<string, string> | undefined) },
    body: JSON.stringify(body),
    ...(init.signal && { signal: init.signal }),
  });
}

/** The JSON-RPC message of a response, whether a JSON body or an event stream. */
async function answer(response: Response): Promise<any> {
  const text = await response.text();
  if (!(response.headers.get('content-type') ?? '').includes('event-stream')) return JSON.parse(text);
  const data = text
    .split('\n')
    .filter((l) => l.startsWith('data:'))
    .map((l) => l.slice(5).trim());
  return JSON.parse(data.at(-1)!);
}

const server = () => new McpServer({ name: 's', version: '1' }, { capabilities: { tools: { listChanged: false } } });
const echoTool = (s: McpServer) =>
  s.registerTool('echo', { inputSchema: z.object({ a: z.string() }) }, ({ a }) => ({
    content: [{ type: 'text' as const, text: a }],
  }));

describe('SDK seams (docs/design/sdk-seams.md)', () => {
  it('sdk/handler.ts, per-request state: the factory is handed the very Request given to fetch with its parsed body, in both eras', async () => {
    for (const era of ERAS) {
      const seen: Array<Request | undefined> = [];
      const sdk = createMcpHandler((rc: McpRequestContext) => {
        seen.push(rc.requestInfo);
        return server();
      });
      const request = post(era, 'tools/list');
      const parsedBody = JSON.parse(await request.clone().text());
      await (await sdk.fetch(request, { parsedBody })).text();
      expect(seen, `SDK seam "per-request state" broke (${era}): the factory no longer gets our Request`).toEqual([
        request,
      ]);
    }
  });

  it("sdk/handler.ts, client rejections: what the SDK reports of a client's mistake, on the mount's paths, is in words the seam knows", async () => {
    const reported: Error[] = [];
    const sdk = createMcpHandler(() => server(), { onerror: (e) => reported.push(e) });
    const parsed = async (request: Request) => ({ parsedBody: JSON.parse(await request.clone().text()) });
    // A message the mount parsed: the SDK's classification refuses headers that disagree with it, and a body
    // that is no JSON-RPC message.
    const wrongMethod = post('modern', 'tools/list', {}, { headers: { 'mcp-method': 'tools/call' } });
    const noVersion = post('modern', 'tools/list', {}, { headers: { 'mcp-protocol-version': '' } });
    const notRpc = new Request('http://localhost/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{"hello":1}',
    });
    for (const request of [wrongMethod, noVersion, notRpc]) {
      await (await sdk.fetch(request, await parsed(request))).text();
    }
    // A body the mount leaves to the SDK: not JSON at all.
    const textBody = new Request('http://localhost/mcp', {
      method: 'POST',
      headers: { 'content-type': 'text/plain', accept: 'application/json, text/event-stream' },
      body: '{}',
    });
    await (await sdk.fetch(textBody)).text();
    expect(
      reported.map((e) => e.message.split(':')[0]),
      'SDK seam "client rejections": the SDK reports these mistakes otherwise',
    ).toEqual([
      'Rejected inbound request (method-header-mismatch)',
      expect.stringMatching(/^Rejected inbound request \(/),
      'Rejected inbound request (invalid-json-rpc-body)',
      'Unsupported Media Type',
    ]);
    for (const error of reported) {
      expect(isClientRejection(error), `SDK seam "client rejections": unknown wording "${error.message}"`).toBe(true);
    }
    expect(isClientRejection(new Error('factory exploded'))).toBe(false);
  });

  it('sdk/accept.ts: the 2025-era SDK refuses an Accept without text/event-stream (406), so the mount rewrites it', async () => {
    const sdk = createMcpHandler(() => {
      const s = server();
      echoTool(s);
      return s;
    });
    const refused = await sdk.fetch(post('legacy', 'tools/list', {}, { headers: { accept: 'application/json' } }));
    expect(refused.status, 'SDK seam "accept": the SDK now takes application/json alone; the rewrite can go').toBe(406);
    const taken = await sdk.fetch(post('legacy', 'tools/list'));
    expect(taken.status).toBe(200);
  });

  it("sdk/exchange.ts: the SDK leaves its abort listener on the request's signal after answering", async () => {
    const sdk = createMcpHandler(() => {
      const s = server();
      echoTool(s);
      return s;
    });
    for (const era of ERAS) {
      const controller = new AbortController();
      await (await sdk.fetch(post(era, 'tools/list', {}, { signal: controller.signal }))).text();
      const left = getEventListeners(controller.signal, 'abort').length;
      expect(
        left,
        `SDK seam "exchange" (${era}): the SDK now removes its listener; exchange.ts can go`,
      ).toBeGreaterThan(0);
    }
  });

  it("sdk/tool-list.ts: a tools/list handler the factory sets answers the list, its tools' JSON text verbatim in the body", async () => {
    const tool = { name: 'mcp-mount-list-sentinel-0', inputSchema: { type: 'object' as const } };
    for (const era of ERAS) {
      for (const accept of ['application/json, text/event-stream'] as const) {
        const sdk = createMcpHandler(() => {
          const s = server();
          s.server.setRequestHandler('tools/list', () => ({ tools: [tool] }));
          return s;
        });
        const body = await (await sdk.fetch(post(era, 'tools/list', {}, { headers: { accept } }))).text();
        expect(body, `SDK seam "tool list sentinel" (${era}): the entry is not in the body as sent`).toContain(
          JSON.stringify(tool),
        );
      }
    }
  });

  it('sdk/tool-entry.ts: the entry the mount writes is byte for byte the one the SDK writes for the same tool', async () => {
    const tool = {
      name: 'shaped',
      title: 'Shaped',
      description: 'All the fields',
      input: z.object({ q: z.string() }),
      output: z.object({ n: z.number() }),
      annotations: { readOnlyHint: true },
      icons: [{ src: 'https://example.com/i.png' }],
      execution: { taskSupport: 'forbidden' as const },
      _meta: { 'example.com/x': 1 },
      handler: () => ({ n: 1 }),
    };
    const documents = prepareTools([tool as never]).tools[0]!.documents('faithful')!;
    for (const era of ERAS) {
      const sdk = createMcpHandler(() => {
        const s = server();
        const registered = s.registerTool(
          tool.name,
          {
            title: tool.title,
            description: tool.description,
            inputSchema: carrier(documents.inputSchema, (value) => ({ value })),
            outputSchema: carrier(documents.outputSchema!, (value) => ({ value })),
            annotations: tool.annotations,
            icons: tool.icons,
            _meta: tool._meta,
          },
          () => ({ content: [] }),
        );
        registered.execution = tool.execution;
        return s;
      });
      const body = await (await sdk.fetch(post(era, 'tools/list'))).text();
      const ours = JSON.stringify(sdkEntry(tool.name, tool as never, documents, era));
      expect(body, `SDK seam "tool entry" (${era}): the SDK writes the entry otherwise`).toContain(ours);
    }
  });

  it('sdk/server.ts: a server that declares the tools capability and holds no tool answers an empty list and "Tool x not found"', async () => {
    for (const era of ERAS) {
      const toolless = createMcpHandler(() => server());
      const call = await answer(await toolless.fetch(post(era, 'tools/call', { name: 'x', arguments: {} })));
      expect(call.error, `SDK behaviour "toolless server" (${era}): an unknown tool is answered otherwise`).toEqual({
        code: -32602,
        message: 'Tool x not found',
      });
      const list = await answer(await toolless.fetch(post(era, 'tools/list')));
      expect(list.result?.tools, `SDK behaviour "toolless server" (${era}): the list is not empty`).toEqual([]);
    }
  });

  it("sdk/carrier.ts: the SDK lists the carrier's JSON Schema and hands its validate's value to the tool, validating once", async () => {
    const validated: unknown[] = [];
    const handed: unknown[] = [];
    const document = { type: 'object', properties: { a: { type: 'string' } } };
    const input: StandardSchemaWithJSON = carrier(document as never, (value) => {
      validated.push(value);
      return { value: { parsed: value } };
    });
    for (const era of ERAS) {
      validated.length = 0;
      handed.length = 0;
      const sdk = createMcpHandler(() => {
        const s = server();
        s.registerTool('carried', { inputSchema: input }, (args: unknown) => {
          handed.push(args);
          return { content: [] };
        });
        return s;
      });
      const list = await answer(await sdk.fetch(post(era, 'tools/list')));
      expect(list.result.tools[0].inputSchema, `SDK seam "carrier" (${era}): the listed schema changed`).toEqual(
        document,
      );
      await (await sdk.fetch(post(era, 'tools/call', { name: 'carried', arguments: { a: 'x' } }))).text();
      expect(validated, `SDK seam "carrier" (${era}): validate did not run exactly once`).toEqual([{ a: 'x' }]);
      expect(handed, `SDK seam "carrier" (${era}): the tool did not get validate's value`).toEqual([
        { parsed: { a: 'x' } },
      ]);
    }
  });

  it("sdk/features.ts: an item's handle takes it off its list, and the SDK asks its scopeChallenge before a get", async () => {
    for (const era of ERAS) {
      const asked: string[] = [];
      const sdk = createMcpHandler(() => {
        const s = new McpServer({ name: 's', version: '1' });
        const gated = requireScopes('notes:read');
        s.registerPrompt(
          'gated',
          {
            scopeChallenge: (context) => {
              asked.push(context.request.method);
              return gated(context);
            },
          },
          () => ({ messages: [] }),
        );
        s.registerPrompt('gone', {}, () => ({ messages: [] })).remove();
        return s;
      });
      const list = await answer(await sdk.fetch(post(era, 'prompts/list')));
      const names = list.result.prompts.map((p: { name: string }) => p.name);
      expect(names, `SDK seam "features" (${era}): remove() no longer takes an item off its list`).toEqual(['gated']);
      const noScopes = { token: 't', clientId: 'c', scopes: [] };
      const get = await sdk.fetch(post(era, 'prompts/get', { name: 'gated' }), { authInfo: noScopes });
      await get.text();
      expect(asked, `SDK seam "features" (${era}): the SDK no longer asks scopeChallenge before prompts/get`).toEqual([
        'prompts/get',
      ]);
      expect(get.status, `SDK seam "features" (${era}): a refused challenge is no longer the 403`).toBe(403);
    }
  });

  it('direct/eligible.ts: the SDK classifies every plain 2025-era call without a protocol key in _meta as legacy, no claim', () => {
    const json = fc.jsonValue({ maxDepth: 2 });
    const metaKey = fc.string().filter((k) => k !== 'progressToken' && !k.startsWith('io.modelcontextprotocol/'));
    const call = fc.record({
      id: fc.oneof(fc.string(), fc.maxSafeInteger(), fc.integer()),
      name: fc.string(),
      arguments: fc.option(fc.dictionary(fc.string(), json), { nil: undefined }),
      _meta: fc.option(fc.dictionary(metaKey, json), { nil: undefined }),
      version: fc.option(fc.constantFrom(...SUPPORTED_PROTOCOL_VERSIONS), { nil: undefined }),
      method: fc.option(fc.string(), { nil: undefined }),
    });
    fc.assert(
      fc.property(call, (c) => {
        const params: Record<string, unknown> = { name: c.name };
        if (c.arguments !== undefined) params.arguments = c.arguments;
        if (c._meta !== undefined) params._meta = c._meta;
        // As the mount has it: parsed from JSON text.
        const body = JSON.parse(JSON.stringify({ jsonrpc: '2.0', id: c.id, method: 'tools/call', params }));
        const outcome = classifyInboundRequest({
          httpMethod: 'POST',
          body,
          ...(c.version !== undefined && { protocolVersionHeader: c.version }),
          ...(c.method !== undefined && { mcpMethodHeader: c.method, mcpNameHeader: c.name }),
        });
        expect(
          outcome,
          'SDK seam "direct classification": a plain 2025-era call is no longer legacy, no-claim',
        ).toMatchObject({
          kind: 'legacy',
          reason: 'no-claim',
        });
      }),
      { numRuns: 500 },
    );
  });

  it("sdk/edges.ts: the server's request handlers sit in a Map by method that answers the request, and a 2025-era transport's send carries every answer", async () => {
    for (const era of ERAS) {
      let sent = 0;
      const sdk = createMcpHandler(() => {
        const s = server();
        echoTool(s);
        const handlers = (s.server as unknown as { _requestHandlers?: unknown })._requestHandlers;
        expect(handlers instanceof Map, `SDK seam "edges" (${era}): _requestHandlers is no Map`).toBe(true);
        const map = handlers as Map<string, (request: unknown, ctx: unknown) => unknown>;
        expect(map.has('tools/list'), `SDK seam "edges" (${era}): no tools/list handler in the map`).toBe(true);
        map.set('tools/list', () => ({ tools: [] }));
        const connect = s.connect.bind(s);
        s.connect = (transport) => {
          const send = transport.send.bind(transport);
          transport.send = (message, options) => {
            sent++;
            return send(message, options);
          };
          return connect(transport);
        };
        return s;
      });
      const list = await answer(await sdk.fetch(post(era, 'tools/list')));
      expect(list.result?.tools, `SDK seam "edges" (${era}): a handler set in the map does not answer`).toEqual([]);
      if (era === 'legacy') expect(sent, 'SDK seam "edges" (legacy): the answer is not sent through connect').toBe(1);
    }
  });

  it("sdk/tools-call.ts: the SDK turns a callback's throw into isError and pads a CreateTaskResult; a handler set in its map answers as is", async () => {
    const seen: unknown[] = [];
    const make = (wrap: boolean) =>
      createMcpHandler(() => {
        const s = server();
        s.registerTool('t', { inputSchema: z.object({}) }, (_args, ctx) => {
          if (ctx.mcpReq.id === 2) throw Object.assign(new Error('refused'), { code: -32021 });
          if (ctx.mcpReq.id === 4)
            return { content: [{ type: 'text', text: JSON.stringify(ctx.mcpReq.inputResponses) }] };
          return TASK_FIELDS as never;
        });
        if (wrap) {
          aroundToolsCall(s, async (ctx, next) => {
            if (ctx.mcpReq.id === 3) throw Object.assign(new Error('refused'), { code: -32021, data: { x: 1 } });
            if (ctx.mcpReq.id === 4) return next({ inputResponses: { k: { action: 'accept' } } });
            seen.push(await next());
            return TASK_FIELDS;
          });
        }
        return s;
      });
    const send = async (sdk: ReturnType<typeof make>, id: number) => {
      const request = post('modern', 'tools/call', { name: 't', arguments: {} });
      const body = { ...JSON.parse(await request.text()), id };
      const headers = new Headers(request.headers);
      return answer(await sdk.fetch(new Request(request.url, { method: 'POST', headers, body: JSON.stringify(body) })));
    };
    const plain = make(false);
    const padded = await send(plain, 1);
    expect(
      padded.result.content,
      'SDK seam "tools/call": the SDK no longer pads a result without content; the seam may go',
    ).toEqual([]);
    expect((await send(plain, 2)).result.isError, 'SDK seam "tools/call": a callback throw is no longer isError').toBe(
      true,
    );
    const wrapped = make(true);
    const task = await send(wrapped, 1);
    expect(task.result, 'SDK seam "tools/call": a handler in _requestHandlers is no longer what answers').toMatchObject(
      {
        ...TASK_FIELDS,
      },
    );
    expect(task.result).not.toHaveProperty('content');
    expect(seen).toEqual([expect.objectContaining({ content: [], resultType: 'task' })]);
    expect((await send(wrapped, 3)).error).toEqual({ code: -32021, message: 'refused', data: { x: 1 } });
    const retried = await send(wrapped, 4);
    expect(
      retried.result.content[0].text,
      'SDK seam "tools/call": a retry context no longer reaches the callback',
    ).toBe(JSON.stringify({ k: { action: 'accept' } }));
  });

  it('sdk/tasks.ts: on 2026-07-28 the SDK dispatches tasks/get and tasks/cancel to handlers registered with params schemas, lifts inputResponses, and answers tasks/result and tasks/list -32601', async () => {
    const updates: unknown[] = [];
    const sdk = createMcpHandler(() => {
      const s = server();
      serveTaskMethods(s, {
        get: async (taskId) => ({ taskId, status: 'working' }),
        update: async (_taskId, responses) => {
          updates.push(responses);
          return {};
        },
        cancel: async () => ({}),
      });
      return s;
    });
    const get = await answer(
      await sdk.fetch(post('modern', 'tasks/get', { taskId: 'a' }, { headers: { 'mcp-name': 'a' } })),
    );
    expect(
      get.result,
      'SDK seam "task methods": tasks/get no longer reaches a handler registered with schemas',
    ).toMatchObject({
      taskId: 'a',
      status: 'working',
      resultType: 'complete',
    });
    const update = post(
      'modern',
      'tasks/update',
      { taskId: 'a', inputResponses: {} },
      { headers: { 'mcp-name': 'a' } },
    );
    expect((await answer(await sdk.fetch(update))).result).toMatchObject({ resultType: 'complete' });
    const cancel = post('modern', 'tasks/cancel', { taskId: 'a' }, { headers: { 'mcp-name': 'a' } });
    expect((await answer(await sdk.fetch(cancel))).result).toMatchObject({ resultType: 'complete' });
    for (const method of ['tasks/result', 'tasks/list']) {
      const gone = await answer(
        await sdk.fetch(post('modern', method, { taskId: 'a' }, { headers: { 'mcp-name': 'a' } })),
      );
      expect(gone.error?.code, `SDK seam "task methods": ${method}`).toBe(-32601);
    }
  });
});

/** A CreateTaskResult as a tool callback or the seam returns it. */
const TASK_FIELDS = {
  resultType: 'task',
  taskId: 'abc',
  status: 'working',
  createdAt: '2026-07-28T00:00:00.000Z',
  lastUpdatedAt: '2026-07-28T00:00:00.000Z',
  ttlMs: null,
};
