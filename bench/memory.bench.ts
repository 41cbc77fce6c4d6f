/**
 * Memory a mount holds, per tool, so operators can size a server: `node --expose-gc --import tsx
 * bench/memory.bench.ts` (`npm run bench` passes the flag). For 1, 50 and 200 tools of the example's
 * `send_message` shape (a discriminated union, flattened), and of a plain object tool, it reads the heap after
 * full collections before and after building the mount, side by side with the plain SDK v2 handler given the
 * same Zod tools (which keeps no documents and converts them per request). Also the heap left behind by
 * 5,000 requests on a warm mount, which should be about zero.
 */
import { createMcpHandler as createSdkHandler, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { sendMessage } from '../examples/shared/tools.js';
import { createMcpFetchHandler } from '../src/adapter.js';
import { type AnyTool, defineTool } from '../src/index.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

async function settledHeap(): Promise<number> {
  for (let i = 0; i < 4; i++) {
    gc!();
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return process.memoryUsage().heapUsed;
}

const plain = defineTool({
  name: 'add',
  description: 'Add two numbers.',
  input: z.object({ a: z.number(), b: z.number() }),
  handler: ({ input }) => ({ sum: input.a + input.b }),
});

/** `n` tools, each with Zod schemas of its own (as a real tool set has), shaped like `send_message`. */
function unionTools(n: number): AnyTool[] {
  return Array.from({ length: n }, (_, i) => {
    const media = z.object({ url: z.url().describe('Public URL of the image or video') });
    return defineTool({
      name: `send_message_${i}`,
      description: 'Send a text message, or a group of media, to a chat.',
      params: z.object({ chatId: z.string().describe('Target chat id') }),
      input: z.discriminatedUnion('type', [
        z.object({ type: z.literal('message'), text: z.string().min(1), media: media.optional() }),
        z.object({ type: z.literal('mediaGroup'), media: z.array(media).min(2).max(10) }),
      ]),
      handler: () => 'sent',
    });
  });
}

/** `n` plain object tools, each with its own Zod schema. */
function plainTools(n: number): AnyTool[] {
  return Array.from({ length: n }, (_, i) =>
    defineTool({
      name: `add_${i}`,
      description: 'Add two numbers.',
      input: z.object({ a: z.number().describe('First'), b: z.number().describe('Second') }),
      handler: ({ input }) => input.a + input.b,
    }),
  );
}

function sdkMount(tools: readonly AnyTool[]) {
  return createSdkHandler(() => {
    const server = new McpServer({ name: 'plain', version: '0' });
    for (const t of tools)
      server.registerTool(t.name, { inputSchema: t.input as z.ZodObject }, () => ({ content: [] }));
    return server;
  });
}

/** Heap held by what `build` returns, read after full collections; `build` runs once first to warm up. */
async function held(build: () => unknown): Promise<number> {
  build();
  const before = await settledHeap();
  const kept = build();
  const bytes = (await settledHeap()) - before;
  if (kept === undefined) throw new Error('unreachable');
  return bytes;
}

const KiB = 1024;
console.log('tools                          schemas (Zod)   mcp-mount mount   plain SDK handler   (KiB per tool)');
for (const [label, make] of [
  ['send_message shape, flat', unionTools],
  ['plain object', plainTools],
] as const) {
  for (const n of [100, 500]) {
    const schemas = await held(() => make(n));
    const ours = (await held(() => createMcpFetchHandler(make(n), { flattenUnionInput: true }))) - schemas;
    const sdk = (await held(() => sdkMount(make(n)))) - schemas;
    const cell = (bytes: number) => (bytes / n / KiB).toFixed(1).padStart(10);
    console.log(`${`${label}, ${n}`.padEnd(30)} ${cell(schemas)}      ${cell(ours)}        ${cell(sdk)}`);
  }
}

const handler = createMcpFetchHandler([sendMessage, plain], { flattenUnionInput: true });
const call = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'add', arguments: { a: '1', b: 2 } },
});
const request = () =>
  new Request('http://bench.local/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: call,
  });
for (let i = 0; i < 2000; i++) await (await handler.fetch(request())).text();
let last = await settledHeap();
for (const round of [1, 2, 3]) {
  for (let i = 0; i < 5000; i++) await (await handler.fetch(request())).text();
  const now = await settledHeap();
  console.log(
    `heap change over 5,000 more requests on a warm mount (round ${round}): ${((now - last) / KiB).toFixed(0)} KiB`,
  );
  last = now;
}
