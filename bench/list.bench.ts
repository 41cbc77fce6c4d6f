/**
 * What one `tools/list` costs at 200 tools, each the benchmark's union wrapped in an object (so every
 * projection lists it), under `faithful`, `flatten` (`flat`) and `projection: 'auto'`, beside the plain SDK
 * with the same Zod schemas, in one process: `npx tsx bench/list.bench.ts`. Requests are 2026-07-28 JSON
 * through `fetch(Request)`; each figure is the median over BENCH_ROUNDS interleaved rounds (default 5) of the
 * mean of BENCH_BATCH_MS (default 500 ms) of sequential lists, in process CPU time (`process.cpuUsage`, so a
 * loaded machine slows it less than wall time): `answer` until the `Response` is in hand, `read` for reading
 * its body to the end (Node's own stream machinery, which workerd does natively). `raw read` is reading a
 * `Response` of the same bytes made from one string: the floor of any server in Node. `first` (wall ms) is
 * the first list of a fresh mount (the cache being built); `visible` is a mount whose `visibleTools` shows
 * one tool in ten. BENCH_TOOLS sets the tool count (default 200).
 */

import * as z from 'zod';
import { createMcpFetchHandler } from '../src/adapter.js';
import { type AnyTool, defineTool, type McpMountOptions } from '../src/index.js';
import { plainSdkHandler } from './fixtures/plain-sdk.js';
import { rpc } from './fixtures/requests.js';
import { type BenchTool, unionInput, unionTools } from './fixtures/union-tools.js';
import { median } from './median.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const BATCH_MS = Number(process.env.BENCH_BATCH_MS ?? 500);
const N = Number(process.env.BENCH_TOOLS ?? 200);
type Fetch = (request: Request) => Promise<Response>;

const list = rpc('tools/list', {});

/** The fixture's tools with each union wrapped in an object: a union root is no object under `faithful`. */
function wrapped(n: number): BenchTool[] {
  return unionTools(n).map((t) => ({ ...t, input: z.object({ request: unionInput() }) }));
}

function mount(tools: BenchTool[], options: McpMountOptions): Fetch {
  const defined: AnyTool[] = tools.map((t) => defineTool({ ...t, handler: () => 'ok' }));
  const handler = createMcpFetchHandler(defined, {
    schemaValidation: { policy: 'warn' },
    observe: { logger: { warn: () => {}, error: () => {} } },
    ...options,
  });
  return (request) => handler.fetch(request);
}

const cpuMs = (since: NodeJS.CpuUsage) => {
  const { user, system } = process.cpuUsage(since);
  return (user + system) / 1000;
};

/** CPU milliseconds per list (answer, read, raw read): the means over one batch of sequential lists. */
async function perList(serve: Fetch): Promise<{ answer: number; read: number; raw: number; bytes: number }> {
  const started = performance.now();
  let [n, answer, read, raw, bytes] = [0, 0, 0, 0, 0];
  while (n < 3 || performance.now() - started < BATCH_MS) {
    let t = process.cpuUsage();
    const response = await serve(list());
    answer += cpuMs(t);
    t = process.cpuUsage();
    const text = await response.text();
    read += cpuMs(t);
    t = process.cpuUsage();
    await new Response(text).arrayBuffer();
    raw += cpuMs(t);
    bytes = Buffer.byteLength(text);
    n++;
  }
  return { answer: answer / n, read: read / n, raw: raw / n, bytes };
}

const flavours: Array<[string, McpMountOptions]> = [
  ['faithful', { projection: 'faithful' }],
  ['flat', { flattenUnionInput: true }],
  ['auto', { projection: 'auto' }],
  ['flat, visible', { flattenUnionInput: true, access: { visibleTools: () => (t: AnyTool) => t.name.endsWith('0') } }],
];
const servers: Array<[string, Fetch]> = [];
const firsts = new Map<string, number>();
for (const [name, options] of flavours) {
  const serve = mount(wrapped(N), options);
  const t = performance.now();
  await (await serve(list())).arrayBuffer();
  firsts.set(name, performance.now() - t);
  servers.push([name, serve]);
}
servers.push([
  'plain SDK',
  (
    (handler) => (request: Request) =>
      handler.fetch(request)
  )(plainSdkHandler(wrapped(N))),
]);

const times = new Map(
  servers.map(([name]) => [name, { answer: [] as number[], read: [] as number[], raw: [] as number[] }]),
);
const sizes = new Map<string, number>();
for (let round = 0; round < ROUNDS; round++) {
  const order = servers.map((_, i) => servers[(i + round) % servers.length]!);
  for (const [name, serve] of order) {
    const { answer, read, raw, bytes } = await perList(serve);
    const row = times.get(name)!;
    row.answer.push(answer);
    row.read.push(read);
    row.raw.push(raw);
    sizes.set(name, bytes);
  }
}

console.log(`tools/list at ${N} tools wrapped in an object (CPU ms per list, median of ${ROUNDS} rounds)\n`);
const columns = ['answer', 'read', 'raw read', 'first', 'body KiB'];
console.log(`${'flavour'.padEnd(16)}${columns.map((c) => c.padStart(10)).join('')}`);
for (const [name] of servers) {
  const row = times.get(name)!;
  const first = firsts.get(name);
  const cells = [median(row.answer), median(row.read), median(row.raw)].map((x) => x.toFixed(2));
  cells.push(first === undefined ? '-' : first.toFixed(1), (sizes.get(name)! / 1024).toFixed(0));
  console.log(`${name.padEnd(16)}${cells.map((c) => c.padStart(10)).join('')}`);
}
