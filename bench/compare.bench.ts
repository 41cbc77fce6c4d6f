/**
 * mcp-mount beside the plain SDK v2 and a raw route, in one process, in interleaved rounds:
 * `npx tsx bench/compare.bench.ts` (also run by `npm run bench`). At 1, 50 and 200 union tools
 * (bench/fixtures/union-tools.ts) it measures requests per second through `fetch(Request)` (2026-07-28
 * requests, JSON responses, no sockets) for tools/list, a valid call, a repaired call and an invalid call;
 * then the mount against `z.toJSONSchema` alone, a cold mount in a fresh process, and the Worker bundle
 * against a plain SDK Worker with the same tools. `bench/README.md` explains how to read it.
 *
 * - mcp-mount: `createMcpFetchHandler(tools, { flattenUnionInput: true })`.
 * - plain SDK: `createMcpHandler` of `@modelcontextprotocol/server` with a fresh `McpServer` per request and
 *   the same Zod schemas registered directly (the SDK converts and validates them itself).
 * - raw route: parses the body and sends the bytes mcp-mount sent for that request: the floor of any
 *   server in this runtime.
 *
 * The `scale` part sets a call's cost against the tool count alone: mounts of 1, 200 and 2,000 tools (the
 * last tool called), valid and repaired calls, all in the same interleaved rounds of one process, so heap
 * and machine load fall on every cell alike (the `requests` part meets its tool counts one after another).
 *
 * BENCH_ROUNDS (default 5) and BENCH_BATCH_MS (default 250) trade time for steadier figures. BENCH_ONLY
 * runs some parts only: a comma list of `requests`, `scale`, `mount`, `cold`, `bundle` (default all of
 * them).
 */
import { execFileSync } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { z } from 'zod';
import { createMcpFetchHandler } from '../src/adapter.js';
import { defineTool } from '../src/index.js';
import { plainSdkHandler } from './fixtures/plain-sdk.js';
import { rpc } from './fixtures/requests.js';
import {
  type BenchTool,
  invalidArguments,
  repairedArguments,
  result,
  unionTools,
  validArguments,
} from './fixtures/union-tools.js';
import { median } from './median.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const BATCH_MS = Number(process.env.BENCH_BATCH_MS ?? 250);
const PARTS = new Set((process.env.BENCH_ONLY ?? 'requests,scale,mount,cold,bundle').split(',').map((p) => p.trim()));
type Fetch = (request: Request) => Promise<Response>;

function mountOurs(tools: BenchTool[]): Fetch {
  const handler = createMcpFetchHandler(
    tools.map((t) => defineTool({ ...t, handler: ({ input }) => result(input) })),
    { flattenUnionInput: true },
  );
  return (request) => handler.fetch(request);
}

function mountSdk(tools: BenchTool[]): Fetch {
  const handler = plainSdkHandler(tools);
  return (request) => handler.fetch(request);
}

/** A route that parses the body and answers with fixed bytes: what no server can beat. */
function rawRoute(bytes: string): Fetch {
  return async (request) => {
    await request.json();
    return new Response(bytes, { headers: { 'content-type': 'application/json' } });
  };
}

/** Requests per second of one batch: as many sequential requests as fit in BATCH_MS (at least 3). */
async function batch(serve: Fetch, request: () => Request): Promise<number> {
  const started = performance.now();
  let n = 0;
  while (n < 3 || performance.now() - started < BATCH_MS) {
    await (await serve(request())).text();
    n++;
  }
  return (n * 1000) / (performance.now() - started);
}

/** A full collection when the process runs with --expose-gc; nothing otherwise. */
const collect = () => (globalThis as { gc?: () => void }).gc?.();
const fmt = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(1)).padStart(8);

if (PARTS.has('requests')) await requestRates();
if (PARTS.has('scale')) await scaleRates();

// Mount: preparation and probe, against converting the same schemas with z.toJSONSchema alone. Each figure
// is the median of BENCH_ROUNDS interleaved rounds (fresh schemas every time): a single mount is at the
// mercy of whatever else the machine does at that moment. With --expose-gc (as `npm run bench` runs it),
// the heap is collected before each timed part, so that no part pays for the garbage of the one before
// (a 2,000-tool round leaves hundreds of MB for whichever part runs next).
if (PARTS.has('mount')) {
  console.log(`\nmount (ms, fresh schemas each time, median of ${ROUNDS} rounds, after one warm-up mount)`);
  mountOurs(unionTools(50));
  const sizes = [1, 50, 200, 2000];
  const ours = Object.fromEntries(sizes.map((n) => [n, [] as number[]]));
  const conversion = Object.fromEntries(sizes.map((n) => [n, [] as number[]]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const n of sizes) {
      const forMount = unionTools(n);
      collect();
      let t = performance.now();
      mountOurs(forMount);
      ours[n]!.push(performance.now() - t);
      const forConversion = unionTools(n);
      collect();
      t = performance.now();
      for (const tool of forConversion) z.toJSONSchema(tool.input, { io: 'input' });
      conversion[n]!.push(performance.now() - t);
    }
  }
  for (const n of sizes) {
    const [o, c] = [median(ours[n]!), median(conversion[n]!)];
    console.log(
      `${`${n} union tools`.padEnd(20)} mcp-mount ${o.toFixed(1).padStart(8)}   z.toJSONSchema alone ${c.toFixed(1).padStart(8)}   ratio ${(o / c).toFixed(2)}`,
    );
  }
  console.log(`2000 tools / 200 tools: ${(median(ours[2000]!) / median(ours[200]!)).toFixed(2)} (linear is 10)`);
}

if (PARTS.has('cold')) {
  // Each in a fresh process, median of BENCH_ROUNDS: one cold start is noisier still than a warm mount.
  const coldRun = (mode: string) =>
    JSON.parse(
      execFileSync(
        process.execPath,
        ['--import', 'tsx', new URL('./fixtures/cold-mount.ts', import.meta.url).pathname],
        {
          encoding: 'utf8',
          env: { ...process.env, BENCH_COLD: mode },
        },
      ),
    ) as { loadMs: number; mountMs: number };
  const mounts: Array<{ loadMs: number; mountMs: number }> = [];
  const conversions: Array<{ loadMs: number; mountMs: number }> = [];
  for (let round = 0; round < ROUNDS; round++) {
    mounts.push(coldRun('mount'));
    conversions.push(coldRun('convert'));
  }
  const [load, mount] = [median(mounts.map((c) => c.loadMs)), median(mounts.map((c) => c.mountMs))];
  const conversion = median(conversions.map((c) => c.mountMs));
  console.log(
    `cold start in a fresh process, 50 union tools: module load ${load.toFixed(0)} ms, mount ${mount.toFixed(0)} ms; z.toJSONSchema alone, cold: ${conversion.toFixed(0)} ms (ratio ${(mount / conversion).toFixed(2)})`,
  );
}

if (PARTS.has('bundle')) {
  // Worker bundles: what `wrangler deploy` uploads, bundled the way wrangler does (esbuild, workerd conditions).
  // The third row bundles the mcp-mount Worker with Zod and the SDK left out: the bytes mcp-mount itself adds,
  // whatever the rest of the Worker weighs.
  console.log('\nWorker bundle, 50 union tools (esbuild, workerd conditions)');
  const sizes: Record<string, { raw: number; gzip: number }> = {};
  for (const [label, entry, external] of [
    ['mcp-mount', './fixtures/mcp-mount-worker.ts', []],
    ['plain SDK', './fixtures/plain-sdk-worker.ts', []],
    ['mcp-mount own code', './fixtures/mcp-mount-worker.ts', ['zod', 'zod/*', '@modelcontextprotocol/*']],
  ] as const) {
    for (const minify of [false, true]) {
      const out = await build({
        entryPoints: [new URL(entry, import.meta.url).pathname],
        bundle: true,
        write: false,
        format: 'esm',
        platform: 'browser',
        conditions: ['workerd', 'worker', 'browser'],
        external: [...external],
        minify,
        logLevel: 'silent',
      });
      const bytes = out.outputFiles[0]!.contents;
      sizes[`${label}${minify ? ' minified' : ''}`] = { raw: bytes.byteLength, gzip: gzipSync(bytes).byteLength };
    }
  }
  for (const [label, { raw, gzip }] of Object.entries(sizes)) {
    console.log(
      `${label.padEnd(28)} ${(raw / 1024).toFixed(0).padStart(6)} KiB   gzip ${(gzip / 1024).toFixed(0).padStart(5)} KiB`,
    );
  }
  console.log(
    `gzip ratio mcp-mount / plain SDK: ${(sizes['mcp-mount']!.gzip / sizes['plain SDK']!.gzip).toFixed(2)}, minified ${(sizes['mcp-mount minified']!.gzip / sizes['plain SDK minified']!.gzip).toFixed(2)}`,
  );
}

/** Requests per second of every scenario, at 1, 50 and 200 tools. */
async function requestRates() {
  console.log(`requests per second (median of ${ROUNDS} interleaved rounds of ${BATCH_MS} ms each)\n`);
  console.log(
    `${'scenario'.padEnd(34)}${'mcp-mount'.padStart(10)}${'plain SDK'.padStart(10)}${'raw'.padStart(10)}   ours/SDK  ours/raw`,
  );
  const callRate: Record<number, number> = {};
  for (const n of [1, 50, 200]) {
    const tools = unionTools(n);
    const ours = mountOurs(tools);
    const sdk = mountSdk(tools);
    const name = `tool_${n - 1}`;
    const scenarios = {
      'tools/list': rpc('tools/list', {}),
      'tools/call valid': rpc('tools/call', { name, arguments: validArguments }),
      'tools/call repaired': rpc('tools/call', { name, arguments: repairedArguments }),
      'tools/call invalid': rpc('tools/call', { name, arguments: invalidArguments }),
    };
    for (const [label, request] of Object.entries(scenarios)) {
      const raw = rawRoute(await (await ours(request())).text());
      const servers: Array<[string, Fetch]> = [
        ['ours', ours],
        ['sdk', sdk],
        ['raw', raw],
      ];
      for (const [, serve] of servers) await batch(serve, request); // warm-up
      const rates: Record<string, number[]> = { ours: [], sdk: [], raw: [] };
      for (let round = 0; round < ROUNDS; round++) {
        // Rotate the order so no server always runs first (or right after a collection-heavy one).
        for (let i = 0; i < servers.length; i++) {
          const [key, serve] = servers[(round + i) % servers.length]!;
          rates[key]!.push(await batch(serve, request));
        }
      }
      const [o, s, r] = [median(rates.ours!), median(rates.sdk!), median(rates.raw!)];
      if (label === 'tools/call valid') callRate[n] = o;
      console.log(
        `${`${label}, ${n} tool${n === 1 ? '' : 's'}`.padEnd(34)}${fmt(o)}  ${fmt(s)}  ${fmt(r)}   ${(o / s).toFixed(2).padStart(8)}  ${(o / r).toFixed(2).padStart(8)}`,
      );
    }
  }
  console.log(`\ntools/call rate at 200 tools / at 1 tool: ${(callRate[200]! / callRate[1]!).toFixed(2)}`);
}

/**
 * A call's rate by tool count alone: every (tool count, call) cell in each round, in an order rotated per
 * round, so no cell meets a heap or load the others do not. (No full collection between cells: the
 * batch right after one runs markedly slower, while the heap settles.)
 */
async function scaleRates() {
  const counts = [1, 200, 2000];
  const cells: Array<{ n: number; call: 'valid' | 'repaired'; serve: Fetch; request: () => Request }> = [];
  for (const n of counts) {
    const serve = mountOurs(unionTools(n));
    const name = `tool_${n - 1}`;
    cells.push({ n, call: 'valid', serve, request: rpc('tools/call', { name, arguments: validArguments }) });
    cells.push({ n, call: 'repaired', serve, request: rpc('tools/call', { name, arguments: repairedArguments }) });
  }
  for (const cell of cells) await batch(cell.serve, cell.request); // warm-up
  const rates = cells.map(() => [] as number[]);
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < cells.length; i++) {
      const at = (round + i) % cells.length;
      const cell = cells[at]!;
      rates[at]!.push(await batch(cell.serve, cell.request));
    }
  }
  const rate = (n: number, call: string) => median(rates[cells.findIndex((c) => c.n === n && c.call === call)]!);
  console.log(`\ntools/call by tool count, one process, interleaved (median of ${ROUNDS} rounds of ${BATCH_MS} ms)\n`);
  console.log(
    `${'tools'.padEnd(8)}${'valid'.padStart(10)}${'repaired'.padStart(10)}   repaired/valid   valid/(1 tool)`,
  );
  for (const n of counts) {
    const [v, r] = [rate(n, 'valid'), rate(n, 'repaired')];
    console.log(
      `${String(n).padEnd(8)}${fmt(v)}  ${fmt(r)}   ${(r / v).toFixed(2).padStart(14)}   ${(v / rate(1, 'valid')).toFixed(2).padStart(14)}`,
    );
  }
}
