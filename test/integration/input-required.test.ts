/**
 * Results the SDK knows pass through as they are, recognised by the SDK's own result schemas: the
 * 2026-07-28 multi-round-trip `InputRequiredResult` (each retried round repaired and parsed again, once),
 * and any `CallToolResult`; other values are sent as JSON text. Real HTTP, both official clients.
 */
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { acceptedContent, createRequestStateCodec, inputRequired } from '@modelcontextprotocol/server';
import { type CallEvent, defineTool } from 'mcp-mount';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MODERN } from '../../examples/shared/clients.js';
import { connectSdk } from '../support/sdk-clients.js';
import { type Running, serveTools, textOf } from '../support/server.js';

const NameAnswer = z.object({ name: z.string() });
let parses = 0;

const greet = defineTool({
  name: 'greet',
  // Counts the one Zod parse of each round.
  input: z.object({ times: z.number() }).refine(() => ++parses > 0),
  handler: ({ input }, ctx) => {
    const answer = acceptedContent(ctx.mcp.mcpReq.inputResponses, 'who', NameAnswer);
    if (!answer) {
      return inputRequired({
        inputRequests: { who: inputRequired.elicit({ message: 'Your name?', requestedSchema: NameAnswer }) },
      });
    }
    return `${'hello '.repeat(input.times)}${answer.name}; repairs ${JSON.stringify(ctx.repairs)}`;
  },
});

const running: Running[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.close()));
});
async function serve(...args: Parameters<typeof serveTools>): Promise<Running> {
  const r = await serveTools(...args);
  running.push(r);
  return r;
}

describe('a tool returning an InputRequiredResult', () => {
  it('round-trips with a 2026-07-28 client, repairing and parsing the retried round once, the same each time', async () => {
    const calls: CallEvent[] = [];
    const { url } = await serve([greet], { observe: { onCall: (e) => calls.push(e) } });
    const client = await connectSdk('modern', url, () => ({ action: 'accept', content: { name: 'Ada' } }));
    try {
      expect(client.protocolVersion).toBe('2026-07-28');
      const texts: string[] = [];
      for (let i = 0; i < 2; i++) {
        parses = 0;
        // `times` arrives as the string "2" in both rounds: each round repairs it and parses once.
        const result = await client.callTool('greet', { times: '2' });
        expect(result.isError ?? false).toBe(false);
        expect(parses).toBe(2);
        texts.push(textOf(result));
      }
      expect(texts[0]).toBe('hello hello Ada; repairs [{"path":"times","from":"number-string"}]');
      expect(texts[1]).toBe(texts[0]);
      expect(calls.map((c) => [c.ok, c.inputRequired ?? false, c.repairs.length])).toEqual([
        [true, true, 1],
        [true, false, 1],
        [true, true, 1],
        [true, false, 1],
      ]);
    } finally {
      await client.close();
    }
  });

  it('fails as an isError result with a 2025-era client, which stateless serving cannot ask for input', async () => {
    const { url } = await serve([greet]);
    const client = await connectSdk('legacy', url, () => ({ action: 'accept', content: { name: 'Ada' } }));
    try {
      const result = await client.callTool('greet', { times: 1 });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/Cannot request input 'who'/);
    } finally {
      await client.close();
    }
  });

  it('is not held to the output schema, which applies to the completed round', async () => {
    const withOutput = defineTool({
      name: 'with_output',
      output: z.object({ name: z.string() }),
      handler: (_args, ctx) => {
        const answer = acceptedContent(ctx.mcp.mcpReq.inputResponses, 'who', NameAnswer);
        if (!answer)
          return inputRequired({
            inputRequests: { who: inputRequired.elicit({ message: 'Name?', requestedSchema: NameAnswer }) },
          });
        return { name: answer.name };
      },
    });
    const { url } = await serve([withOutput]);
    const client = await connectSdk('modern', url, () => ({ action: 'accept', content: { name: 'Lin' } }));
    try {
      const result = await client.callTool('with_output', {});
      expect(result.structuredContent).toEqual({ name: 'Lin' });
    } finally {
      await client.close();
    }
  });

  it('has its requestState checked by the mount’s requestState option: a tampered one is a -32602 error', async () => {
    const codec = createRequestStateCodec<{ step: number }>({ key: 'k'.repeat(32) });
    const stateful = defineTool({
      name: 'stateful',
      handler: async (_args, ctx) => {
        const state = ctx.mcp.mcpReq.requestState<{ step: number }>();
        if (state === undefined) return inputRequired({ requestState: await codec.mint({ step: 1 }) });
        return `resumed at step ${state.step}`;
      },
    });
    const { url } = await serve([stateful], { protocol: { requestState: { verify: codec.verify } } });
    const honest = await connectSdk('modern', url);
    try {
      expect(textOf(await honest.callTool('stateful', {}))).toBe('resumed at step 1');
    } finally {
      await honest.close();
    }
    // A client that alters the state it echoes.
    const tamper = async (input: string | URL | Request, init?: RequestInit) => {
      const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
      if (body?.params?.requestState) body.params.requestState += '-TAMPERED';
      return fetch(input, body ? { ...init, body: JSON.stringify(body) } : init);
    };
    const client = new ClientV2({ name: 'tamperer', version: '1.0.0' }, MODERN);
    await client.connect(new TransportV2(new URL(url), { fetch: tamper }));
    try {
      await expect(client.callTool({ name: 'stateful', arguments: {} })).rejects.toThrow(
        /Invalid or expired requestState/,
      );
    } finally {
      await client.close();
    }
  });
});

describe('any other result the SDK knows', () => {
  it('passes through as sent when its content blocks are valid, and is JSON text otherwise', async () => {
    const image = { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' } as const;
    const tools = [
      // `resultType` is a key a list of CallToolResult keys would not have known.
      defineTool({
        name: 'blocks',
        handler: () => ({ resultType: 'complete', content: [image, { type: 'text', text: 'a' }], _meta: { n: 1 } }),
      }),
      // Not a CallToolResult by the SDK's schema (content is not an array of blocks): sent as data.
      defineTool({ name: 'data', handler: () => ({ content: 'just a field' }) }),
    ];
    const { url } = await serve(tools);
    for (const era of ['modern', 'legacy'] as const) {
      const client = await connectSdk(era, url);
      try {
        const blocks = await client.callTool('blocks', {});
        expect(blocks.content).toEqual([image, { type: 'text', text: 'a' }]);
        const data = await client.callTool('data', {});
        expect(JSON.parse(textOf(data))).toEqual({ content: 'just a field' });
      } finally {
        await client.close();
      }
    }
  });
});
