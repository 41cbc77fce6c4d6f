/**
 * Hostile arguments, mcp-mount beside the plain SDK v2 in one process: `npx tsx bench/hostile.bench.ts`.
 *
 * Each shape (deep, wide and long values, long strings, JSON text nested deep, a recursive schema, many
 * repairs, many failures) is sent as one `tools/call` at doubling sizes, up to the largest body the 4 MiB
 * limit admits, through `fetch(Request)` (no sockets; 2026-07-28, JSON responses). A row gives the median
 * milliseconds of one whole request for each server, measured in turn, and their ratio; the last column is the growth from
 * the previous size (about 2 for a linear cost). The plain SDK registers the same Zod schemas directly.
 *
 * BENCH_ROUNDS (default 3) requests per figure; BENCH_MAX_MS (default 4000) stops a shape once one request
 * of mcp-mount takes longer (a quadratic walk would otherwise run for minutes); BENCH_SHAPES, a comma list
 * of shape names, runs some only.
 */
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { createMcpFetchHandler } from '../src/adapter.js';
import { defineTool } from '../src/index.js';
import { median } from './median.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const MAX_MS = Number(process.env.BENCH_MAX_MS ?? 4000);
const ONLY = process.env.BENCH_SHAPES?.split(',').map((s) => s.trim());
const BODY_LIMIT = 4 * 1024 * 1024;

interface Tree {
  v: number;
  kids?: Tree[];
}
const tree: z.ZodType<Tree> = z.lazy(() => z.object({ v: z.number(), kids: z.array(tree).optional() }));

const schemas = {
  loose: z.object({ a: z.number(), b: z.any().optional() }),
  numbers: z.object({ items: z.array(z.number()) }),
  rows: z.object({ rows: z.array(z.any()) }),
  tree: z.object({ root: tree }),
};
type ToolName = keyof typeof schemas;

/**
 * Each shape: the tool it calls and its arguments at size n, as JSON text (`JSON.stringify` itself
 * overflows the stack on values nested a few thousand deep).
 */
const shapes: Record<string, { tool: ToolName; args: (n: number) => string; from: number }> = {
  'deep array': { tool: 'loose', from: 1000, args: (n) => `{"a":1,"b":${'['.repeat(n)}0${']'.repeat(n)}}` },
  'deep object': { tool: 'loose', from: 1000, args: (n) => `{"a":1,"b":${'{"x":'.repeat(n)}0${'}'.repeat(n)}}` },
  'deep JSON text': { tool: 'rows', from: 1000, args: (n) => `{"rows":"${'['.repeat(n)}${']'.repeat(n)}"}` },
  'deep recursive schema': {
    tool: 'tree',
    from: 250,
    args: (n) => `{"root":${'{"v":1,"kids":['.repeat(n)}{"v":0}${']}'.repeat(n)}}`,
  },
  'wide object (unknown keys)': { tool: 'loose', from: 2000, args: (n) => `{"a":1,${keys(n)}}` },
  'wide object': { tool: 'loose', from: 2000, args: (n) => `{"a":1,"b":{${keys(n)}}}` },
  'long array': { tool: 'loose', from: 8000, args: (n) => `{"a":1,"b":[${list(n, '0')}]}` },
  'long string': { tool: 'loose', from: 64_000, args: (n) => `{"a":1,"b":"${'x'.repeat(n)}"}` },
  'many short strings': { tool: 'loose', from: 8000, args: (n) => `{"a":1,"b":[${list(n, '"ab"')}]}` },
  'many repairs': { tool: 'numbers', from: 8000, args: (n) => `{"items":[${list(n, '"1"')}]}` },
  'many failures': { tool: 'numbers', from: 8000, args: (n) => `{"items":[${list(n, 'true')}]}` },
};

function list(n: number, item: string): string {
  return new Array(n).fill(item).join(',');
}

function keys(n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(`"k${i}":0`);
  return out.join(',');
}

const meta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1.0.0' },
};

function callRequest(name: string, args: string): { request: () => Request; bytes: number } {
  const envelope = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, _meta: meta } });
  const body = `${envelope.slice(0, -2)},"arguments":${args}}}`;
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': 'tools/call',
    'mcp-name': name,
  };
  return {
    request: () => new Request('http://bench.local/mcp', { method: 'POST', headers, body }),
    bytes: body.length,
  };
}

const names = Object.keys(schemas) as ToolName[];
const ours = createMcpFetchHandler(
  names.map((name) => defineTool({ name, input: schemas[name], handler: () => ({ ok: true }) })),
);
const plain = createMcpHandler(() => {
  const server = new McpServer({ name: 'plain', version: '0.0.0' });
  for (const name of names) {
    server.registerTool(name, { inputSchema: schemas[name] as never }, (() => ({
      content: [{ type: 'text', text: '{"ok":true}' }],
    })) as never);
  }
  return server;
});

/** Median ms of one whole request for each server, measured in turn (A B A B …) so drift hits both alike. */
async function timePair(
  a: (r: Request) => Promise<Response>,
  b: (r: Request) => Promise<Response>,
  make: () => Request,
): Promise<[number, number]> {
  const runs: [number[], number[]] = [[], []];
  const once = async (fetch: (r: Request) => Promise<Response>) => {
    const started = performance.now();
    await (await fetch(make())).text();
    return performance.now() - started;
  };
  for (let i = 0; i < ROUNDS; i++) {
    runs[0].push(await once(a));
    runs[1].push(await once(b));
  }
  return [median(runs[0]), median(runs[1])];
}

const fmt = (ms: number) => (ms < 10 ? ms.toFixed(2) : ms.toFixed(0)).padStart(8);
console.log(
  `${'shape'.padEnd(28)}${'n'.padStart(9)}${'body KB'.padStart(9)}${'ours ms'.padStart(9)}${'SDK ms'.padStart(9)}${'ours/SDK'.padStart(9)}${'growth'.padStart(8)}`,
);
for (const [label, shape] of Object.entries(shapes)) {
  if (ONLY && !ONLY.includes(label)) continue;
  let previous: number | undefined;
  for (let n = shape.from; ; n *= 2) {
    const { request, bytes } = callRequest(shape.tool, shape.args(n));
    if (bytes > BODY_LIMIT) break;
    const [mine, theirs] = await timePair(
      (r) => ours.fetch(r),
      (r) => plain.fetch(r),
      request,
    );
    const growth = previous === undefined ? '' : (mine / previous).toFixed(2);
    console.log(
      `${label.padEnd(28)}${String(n).padStart(9)}${String(Math.round(bytes / 1024)).padStart(9)}${fmt(mine)}${fmt(theirs)}${(mine / theirs).toFixed(2).padStart(9)}${growth.padStart(8)}`,
    );
    previous = mine;
    if (mine > MAX_MS) {
      console.log(`${label.padEnd(28)}  stopped: one request took over ${MAX_MS} ms`);
      break;
    }
  }
}
