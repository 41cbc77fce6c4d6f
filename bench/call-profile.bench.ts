/**
 * Where one `tools/call` goes, in process: `npx tsx --expose-gc bench/call-profile.bench.ts` (also run by
 * `npm run bench`). Calls of bench/fixtures/object-union-calls.ts (50 union tools, the call the peer
 * benchmark sends) through the core fetch handler (`createMcpFetchHandler` of the adapter entry, default
 * options), no sockets, one after another, beside the raw route (parse the body, answer fixed bytes: the
 * floor of any fetch-style server in this runtime).
 *
 * 1. **Rate**: calls per second and process CPU per call, medians of `BENCH_ROUNDS` (default 5) interleaved
 *    rounds of `BENCH_BATCH_MS` (default 500) each, after a warm-up.
 * 2. **CPU profile** of `BENCH_CALLS` (default 4000) calls per scenario (the inspector's Profiler, sampling every
 *    `BENCH_SAMPLE_US` µs, default 200), each sample charged to a step of the call (`bucketOf`, below): the
 *    innermost frame that is mcp-mount's (by file under src/core), the SDK's (by its original source file,
 *    through the source maps the SDK ships), the runtime's `Request`/`Response`/streams, or the loop itself;
 *    Zod's frames are charged to the owner that called Zod (ours: the tool's parse; the SDK: its protocol
 *    schemas); the collector's own samples are GC. Shares are of the profile's samples, idle left out.
 * 3. **Bytes allocated per call**: in a child process whose young generation holds the whole loop
 *    (`--min-semi-space-size=128 --max-semi-space-size=128`), the heap's used size after `gc()` and after
 *    `BENCH_ALLOC_CALLS` (default 300) calls, with no collection in between (checked; a run that collects
 *    says so), plus `process.memoryUsage().arrayBuffers`. Beside it the sampling heap profiler's estimate
 *    (collected objects included), charged to the same steps.
 *
 * Scenarios: a valid call and a call with a number sent as text, both 2025-06-18 (the SDK's stateless legacy
 * leg, answered as an event stream), and a valid call in 2026-07-28 (JSON). Each answer is checked once
 * before it is measured.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import { createMcpFetchHandler } from '../src/adapter.js';
import { defineTool } from '../src/index.js';
import { answer, CALL_ARGUMENTS, CALLED, EXPECTED_TEXT, TOOLS } from './fixtures/object-union-calls.js';
import { objectUnionTools } from './fixtures/object-union-tools.js';
import { rpc } from './fixtures/requests.js';
import { median } from './median.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const BATCH_MS = Number(process.env.BENCH_BATCH_MS ?? 500);
const CALLS = Number(process.env.BENCH_CALLS ?? 4000);
const SAMPLE_US = Number(process.env.BENCH_SAMPLE_US ?? 200);
const ALLOC_CALLS = Number(process.env.BENCH_ALLOC_CALLS ?? 300);
const self = fileURLToPath(import.meta.url);
const srcRoot = fileURLToPath(new URL('../src/', import.meta.url));

type Fetch = (request: Request) => Promise<Response>;

/** A 2025-06-18 POST, as the peer benchmark sends it (no session, no `initialize`), with its Content-Length. */
function legacy(method: string, params: Record<string, unknown>): () => Request {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-06-18',
    'content-length': String(new TextEncoder().encode(body).byteLength),
  };
  return () => new Request('http://bench.local/mcp', { method: 'POST', headers, body });
}

const handler = createMcpFetchHandler(
  objectUnionTools(TOOLS).map((t) => defineTool({ ...t, handler: ({ input }) => answer(input) })),
);
const ours: Fetch = (request) => handler.fetch(request);

interface Scenario {
  label: string;
  request: () => Request;
  serve: Fetch;
}

/** The raw route for `request`: parses the body and answers the bytes mcp-mount answered it with. */
async function rawFor(request: () => Request): Promise<Fetch> {
  const response = await ours(request());
  const bytes = await response.text();
  const headers = { 'content-type': response.headers.get('content-type') ?? 'application/json' };
  return async (r) => {
    await r.json();
    return new Response(bytes, { headers });
  };
}

const valid2025 = legacy('tools/call', { name: CALLED, arguments: CALL_ARGUMENTS.valid });
const repair2025 = legacy('tools/call', { name: CALLED, arguments: CALL_ARGUMENTS.repair });
const valid2026 = rpc('tools/call', { name: CALLED, arguments: CALL_ARGUMENTS.valid });
const SCENARIOS: Scenario[] = [
  { label: 'raw route (2025-06-18 call)', request: valid2025, serve: await rawFor(valid2025) },
  { label: 'call, 2025-06-18', request: valid2025, serve: ours },
  { label: '"5" for a number, 2025-06-18', request: repair2025, serve: ours },
  { label: 'call, 2026-07-28', request: valid2026, serve: ours },
];

// Every scenario's answer is checked once: a fast wrong answer would measure nothing.
for (const s of SCENARIOS) {
  const text = await (await s.serve(s.request())).text();
  if (!text.includes(JSON.stringify(EXPECTED_TEXT).slice(1, -1))) {
    throw new Error(`${s.label}: unexpected answer ${text.slice(0, 300)}`);
  }
}

async function loop(s: Scenario, n: number) {
  for (let i = 0; i < n; i++) await (await s.serve(s.request())).text();
}

// ----- attribution -----

type Frame = { functionName: string; url: string; lineNumber: number; columnNumber: number };
interface ProfileNode {
  id: number;
  callFrame: Frame;
  parent?: number;
  children?: number[];
}

/** Where a frame belongs: an owner (ours, the SDK, the loop), a kind that passes to its caller (Zod, web), or none. */
type Place =
  | { owner: 'ours' | 'sdk' | 'loop'; step: string }
  | { kind: 'zod' | 'web' }
  | { special: 'gc' | 'program' | 'idle' }
  | undefined;

const maps = new Map<string, SourceMap | null>();
/** The SDK's original source file of a frame in its bundle, through the source map it ships. */
function sdkSource(frame: Frame): string | undefined {
  const path = fileURLToPath(frame.url);
  let map = maps.get(path);
  if (map === undefined) {
    try {
      map = new SourceMap(JSON.parse(readFileSync(`${path}.map`, 'utf8')));
    } catch {
      map = null;
    }
    maps.set(path, map);
  }
  const entry = map?.findEntry(frame.lineNumber, frame.columnNumber) as { originalSource?: string } | undefined;
  return entry?.originalSource;
}

/** Our step of a file under src/core (paths as of the tree this runs on; unknown files are "other"). */
const OUR_STEPS: Array<[RegExp, string]> = [
  [/^core\/serve\/(envelope|body|requests|handler|request-state|tool-set)\.ts$/, 'envelope and request path'],
  [/^core\/(access|http|prepare|limits)\//, 'envelope and request path'],
  [/^core\/arguments\//, 'first pass and argument check'],
  [/^core\/repair\//, 'repair'],
  [/^core\/zod\//, 'key policy (walks over the Zod schema)'],
  [/^core\/serve\/(result|execute)\.ts$/, 'handler and result'],
  [/^core\/(messages|observe|model)\//, 'handler and result'],
  [/^core\/serve\/(sdk\/|registration|input-carrier|logging)/, 'our wiring of the per-request SDK server'],
  [/^core\/serve\/direct\//, 'the direct path (its plan, context and answer)'],
];

const SDK_STEPS: Array<[RegExp, string]> = [
  [/errors\/|types\/errors/, 'SDK errors (built per request)'],
  [
    /server\/(mcp|server|completable|perRequestTransport|legacyInputRequiredShim)\.ts|shared\/(protocol|inputRequired)/,
    'SDK per-request server (McpServer, Protocol)',
  ],
  [
    /server\/(streamableHttp|createMcpHandler|invoke|requestBody|sseKeepAlive|requestStateCodec|middleware\/)|shared\/(transport|mediaType)|content-type/,
    'SDK transport and handler',
  ],
  [
    /types\/|wire\/|util\/(schema|standardSchema|zodCompat)|shared\/(envelope|inboundClassification|mcpParamHeaders|metadataUtils|resultCacheHints)/,
    'SDK schemas and wire',
  ],
];

/** The runtime's web objects: undici's `Request`/`Response`/`Headers`, web streams, abort signals, events. */
const WEB =
  /^node:internal\/(deps\/undici|webstreams|abort_controller|event_target|url|blob|encoding|streams|webidl|worker\/js_transferable)/;

function place(frame: Frame): Place {
  const { url, functionName } = frame;
  if (url === '') {
    if (functionName === '(garbage collector)') return { special: 'gc' };
    if (functionName === '(program)') return { special: 'program' };
    if (functionName === '(idle)') return { special: 'idle' };
    return undefined; // a builtin (JSON.parse, Promise...): charged to its caller
  }
  if (url.includes('/node_modules/zod/')) return { kind: 'zod' };
  if (url.includes('/node_modules/@modelcontextprotocol/')) {
    const source = sdkSource(frame) ?? '';
    const step = SDK_STEPS.find(([re]) => re.test(source))?.[1] ?? 'SDK, other';
    return { owner: 'sdk', step };
  }
  if (url.startsWith('file://')) {
    const path = fileURLToPath(url);
    if (path === self) return { owner: 'loop', step: 'the loop (making the Request, reading the answer)' };
    if (path.startsWith(srcRoot)) {
      const rel = path.slice(srcRoot.length);
      return { owner: 'ours', step: OUR_STEPS.find(([re]) => re.test(rel))?.[1] ?? 'mcp-mount, other' };
    }
    return undefined;
  }
  if (WEB.test(url)) return { kind: 'web' };
  return undefined;
}

/** The step a stack (leaf first) is charged to. */
function bucketOf(stack: Frame[]): string | undefined {
  let kind: 'zod' | 'web' | undefined;
  for (const frame of stack) {
    const p = place(frame);
    if (!p) continue;
    if ('special' in p) return p.special === 'idle' ? undefined : p.special === 'gc' ? 'GC' : 'V8 (program)';
    if ('kind' in p) {
      kind ??= p.kind;
      continue;
    }
    if (kind === 'web')
      return p.owner === 'loop'
        ? "web: the loop's Request and body read"
        : `web: ${p.owner === 'sdk' ? "the SDK's" : 'our'} Request/Response/streams`;
    if (kind === 'zod') {
      if (p.owner === 'ours') return p.step.startsWith('key policy') ? p.step : 'the Zod parse (the tool schema)';
      if (p.owner === 'sdk') return 'SDK schemas and wire';
    }
    return p.step;
  }
  return kind === 'web' ? 'web, no owner' : 'runtime (microtasks, builtins)';
}

function cpuShares(profile: { nodes: ProfileNode[]; samples?: number[]; timeDeltas?: number[] }) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  for (const n of profile.nodes) for (const c of n.children ?? []) byId.get(c)!.parent = n.id;
  const bucketOfNode = new Map<number, string | undefined>();
  const cpu = new Map<string, number>();
  const functions = new Map<string, number>();
  let cpuTotal = 0;
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) {
    const id = samples[i]!;
    if (!bucketOfNode.has(id)) {
      const stack: Frame[] = [];
      for (let n: ProfileNode | undefined = byId.get(id); n; n = n.parent ? byId.get(n.parent) : undefined) {
        stack.push(n.callFrame);
      }
      bucketOfNode.set(id, bucketOf(stack));
    }
    const bucket = bucketOfNode.get(id);
    if (!bucket) continue;
    // A sample's time is the delta to the next one (the profiler's own convention).
    const us = deltas[i + 1] ?? SAMPLE_US;
    cpu.set(bucket, (cpu.get(bucket) ?? 0) + us);
    cpuTotal += us;
    const frame = byId.get(id)!.callFrame;
    const where = frame.url.includes('@modelcontextprotocol') ? (sdkSource(frame) ?? frame.url) : frame.url;
    const name = `${frame.functionName || '(anonymous)'}  ${where.replace(/^.*\/(node_modules|src)\//, '$1/')}`;
    functions.set(name, (functions.get(name) ?? 0) + us);
  }
  return { cpu, cpuTotal, functions };
}

interface HeapNode {
  callFrame: Frame;
  id: number;
  children: HeapNode[];
}

function heapShares(heap: { head: HeapNode; samples: Array<{ nodeId: number; size: number }> }, calls: number) {
  const stacks = new Map<number, Frame[]>();
  const walk = (node: HeapNode, path: Frame[]) => {
    const stack = [node.callFrame, ...path];
    stacks.set(node.id, stack);
    for (const child of node.children) walk(child, stack);
  };
  walk(heap.head, []);
  const bytes = new Map<string, number>();
  let bytesTotal = 0;
  for (const { nodeId, size } of heap.samples) {
    const bucket = bucketOf(stacks.get(nodeId) ?? []) ?? 'runtime (microtasks, builtins)';
    bytes.set(bucket, (bytes.get(bucket) ?? 0) + size / calls);
    bytesTotal += size / calls;
  }
  return { bytes, bytesTotal };
}

if (process.argv.includes('--alloc')) {
  // Child process (see allocation()): bytes allocated per call with no collection during the loop.
  const { PerformanceObserver } = await import('node:perf_hooks');
  let collections = 0;
  new PerformanceObserver((list) => {
    collections += list.getEntries().length;
  }).observe({ entryTypes: ['gc'] });
  const gc = (globalThis as { gc?: () => void }).gc!;
  const out: Record<string, { heap: number; arrayBuffers: number; collections: number }> = {};
  for (const s of SCENARIOS) {
    await loop(s, 500);
    gc();
    await new Promise((r) => setTimeout(r, 20));
    collections = 0;
    const heap0 = v8.getHeapStatistics().used_heap_size;
    const ab0 = process.memoryUsage().arrayBuffers;
    await loop(s, ALLOC_CALLS);
    const heap1 = v8.getHeapStatistics().used_heap_size;
    const ab1 = process.memoryUsage().arrayBuffers;
    await new Promise((r) => setTimeout(r, 20));
    out[s.label] = { heap: (heap1 - heap0) / ALLOC_CALLS, arrayBuffers: (ab1 - ab0) / ALLOC_CALLS, collections };
  }
  console.log(JSON.stringify(out));
  process.exit(0);
}

// 1. Rate and CPU per call.
for (const s of SCENARIOS) await loop(s, 2000);
const rates = new Map<string, number[]>(SCENARIOS.map((s) => [s.label, []]));
const cpus = new Map<string, number[]>(SCENARIOS.map((s) => [s.label, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (let i = 0; i < SCENARIOS.length; i++) {
    const s = SCENARIOS[(round + i) % SCENARIOS.length]!;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    let n = 0;
    while (n < 10 || performance.now() - t0 < BATCH_MS) {
      await (await s.serve(s.request())).text();
      n++;
    }
    const ms = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    rates.get(s.label)!.push((n * 1000) / ms);
    cpus.get(s.label)!.push((cpu.user + cpu.system) / 1000 / n);
  }
}

// 2. CPU profile and heap sampling per scenario.
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: SAMPLE_US });
await session.post('HeapProfiler.enable');
interface Shares {
  cpu: Map<string, number>;
  cpuTotal: number;
  bytes: Map<string, number>;
  bytesTotal: number;
  functions: Map<string, number>;
}
const shares = new Map<string, Shares>();
for (const s of SCENARIOS) {
  await session.post('Profiler.start');
  await loop(s, CALLS);
  const { profile } = await session.post('Profiler.stop');
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 512,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  } as never);
  await loop(s, Math.min(CALLS, 1000));
  const { profile: heap } = await session.post('HeapProfiler.stopSampling');
  shares.set(s.label, { ...cpuShares(profile), ...heapShares(heap as never, Math.min(CALLS, 1000)) });
}
session.disconnect();

// 3. Bytes allocated per call, in a child whose young generation holds the whole loop.
const alloc = JSON.parse(
  execFileSync(
    process.execPath,
    ['--expose-gc', '--min-semi-space-size=128', '--max-semi-space-size=128', '--import', 'tsx', self, '--alloc'],
    { encoding: 'utf8', env: { ...process.env } },
  ),
) as Record<string, { heap: number; arrayBuffers: number; collections: number }>;

report();

/** The terms for the steps: whose code a share of the call is. */
function groupOf(bucket: string): string {
  if (bucket === 'GC') return 'GC';
  if (bucket.startsWith('web')) return 'web Request/Response/streams';
  if (bucket.startsWith('SDK')) return "the SDK's per-request server, transport, schemas, errors";
  if (bucket === 'V8 (program)' || bucket.startsWith('runtime') || bucket.startsWith('the loop')) {
    return 'V8, builtins and the loop';
  }
  return "mcp-mount's own steps (the tool's Zod parse included)";
}

function report() {
  const labels = SCENARIOS.map((s) => s.label);
  const col = (x: string) => x.padStart(31);
  console.log(
    `in process, 50 union tools, default options; ${ROUNDS} rounds of ${BATCH_MS} ms; profiles of ${CALLS} calls at ${SAMPLE_US} µs; Node ${process.versions.node}\n`,
  );
  console.log(`${''.padEnd(58)}${labels.map(col).join('')}`);
  const line = (label: string, cell: (l: string) => string) =>
    console.log(`${label.padEnd(58)}${labels.map((l) => col(cell(l))).join('')}`);
  line('calls per second (median)', (l) => median(rates.get(l)!).toFixed(0));
  line('CPU per call, ms (median)', (l) => median(cpus.get(l)!).toFixed(3));
  line('share of the raw route rate', (l) => (median(rates.get(l)!) / median(rates.get(labels[0]!)!)).toFixed(2));
  line('heap allocated per call, KiB', (l) => (alloc[l]!.heap / 1024).toFixed(1));
  line('ArrayBuffers per call, KiB', (l) => (alloc[l]!.arrayBuffers / 1024).toFixed(1));
  line('collections during the allocation loop', (l) => String(alloc[l]!.collections));
  line('heap sampler: allocated per call, KiB', (l) => (shares.get(l)!.bytesTotal / 1024).toFixed(1));
  line('profiled CPU per call, ms', (l) => (shares.get(l)!.cpuTotal / 1000 / CALLS).toFixed(3));

  const buckets = [...new Set(labels.flatMap((l) => [...shares.get(l)!.cpu.keys()]))].sort(
    (a, b) => (shares.get(labels[1]!)!.cpu.get(b) ?? 0) - (shares.get(labels[1]!)!.cpu.get(a) ?? 0),
  );
  console.log("\nshare of a call's CPU profile, % (and KiB allocated per call, from the heap sampler)");
  for (const b of buckets) {
    line(b, (l) => {
      const s = shares.get(l)!;
      const cpu = ((s.cpu.get(b) ?? 0) * 100) / s.cpuTotal;
      return `${cpu.toFixed(1)} % (${((s.bytes.get(b) ?? 0) / 1024).toFixed(1)} KiB)`;
    });
  }
  console.log('\nby whose code, % of the CPU profile (KiB allocated per call)');
  const groups = [...new Set(buckets.map(groupOf))];
  for (const g of groups) {
    line(g, (l) => {
      const s = shares.get(l)!;
      const sum = (m: Map<string, number>) => [...m].reduce((n, [b, v]) => n + (groupOf(b) === g ? v : 0), 0);
      return `${((sum(s.cpu) * 100) / s.cpuTotal).toFixed(1)} % (${(sum(s.bytes) / 1024).toFixed(1)} KiB)`;
    });
  }
  const top = shares.get(labels[1]!)!;
  console.log(`\nfunctions with the most self time, ${labels[1]}: % of the profile`);
  for (const [name, us] of [...top.functions].sort((a, b) => b[1] - a[1]).slice(0, 25)) {
    console.log(`${((us * 100) / top.cpuTotal).toFixed(1).padStart(6)} %  ${name}`);
  }
}
