/**
 * Workers in workerd, mcp-mount beside a plain SDK v2 Worker with the same tools (issue 24):
 * `npx tsx bench/worker.bench.ts` (also run by `npm run bench`). Tools: bench/fixtures/object-union-tools.ts,
 * at 10, 50 and 200 tools. Flavours: the plain SDK Worker; `mcp-mount/fetch` with default options, with
 * `flattenUnionInput: true` and with `projection: 'auto'`; and the same three serving build-time documents
 * (`mcp-mount check --emit`, `mcp-mount/fetch/prebuilt`), skipped with a line saying why where this tree has
 * neither. Every Worker is bundled as `wrangler deploy --minify` bundles it (bench/workerd/bundle.ts).
 *
 * - startup: `wrangler check startup` per bundle, flavours interleaved in each round, median of
 *   `BENCH_ROUNDS` (default 5) of the profile's sampled time outside `(idle)`; then where the time goes at
 *   the largest tool count, by phase, and the functions with the most self time.
 * - requests: CPU per request of the workerd process, after warm-up, minus that of a trivial Worker, for
 *   tools/list and tools/call in the 2026-07-28 era and the 2025 era, batches of `BENCH_BATCH_MS` (default
 *   1000) of sequential requests, median of `BENCH_ROUNDS`.
 * - bundle: the whole Worker (minified, and gzip) and mcp-mount's own code alone.
 *
 *   Beside them, two faithful mounts whose `visibleTools` filters the list, and a Worker answering the faithful flavour's own list bytes as a constant (one `Uint8Array`):
 *   the floor of any Worker sending that body. A second table splits the list legs' CPU into user and system
 *   time, and the main thread's apart.
 *
 * BENCH_ONLY (a comma list of `startup`, `requests`, `bundle`), BENCH_TOOLS (default `10,50,200`) and
 * BENCH_FLAVOURS (a comma list of flavour keys; the SDK Worker and the faithful flavour always run) run parts. bench/README.md explains how to read the tables. Nothing here asserts a time.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { callArguments } from './fixtures/object-union-tools.js';
import { median } from './median.js';
import { bundleWorker, root, uploadForm, type WorkerBundle } from './workerd/bundle.js';
import {
  cacheDir,
  emitDocuments,
  entrySource,
  FLAVOURS,
  type Flavour,
  prebuiltMissing,
  TRIVIAL_WORKER,
} from './workerd/flavours.js';
import { activeMs, breakdown, type Locate, windowMs } from './workerd/profile.js';
import {
  cpuPerRequest,
  type RequestCpu,
  type RunningWorker,
  startupCpuMs,
  startWorker,
  type WorkerRequest,
} from './workerd/requests.js';
import { checkStartup, writeForm } from './workerd/startup.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const BATCH_MS = Number(process.env.BENCH_BATCH_MS ?? 1000);
const PARTS = new Set((process.env.BENCH_ONLY ?? 'startup,requests,bundle').split(',').map((p) => p.trim()));
const COUNTS = (process.env.BENCH_TOOLS ?? '10,50,200').split(',').map(Number);
const TOP = Math.max(...COUNTS);
const ONLY_FLAVOURS = process.env.BENCH_FLAVOURS?.split(',').map((f) => f.trim());
/** The example Worker's compatibility date (examples/cloudflare-worker/wrangler.jsonc). */
const COMPATIBILITY_DATE = '2026-01-20';

function push<T>(lists: Record<string, T[]>, key: string, value: T) {
  const list = lists[key] ?? [];
  list.push(value);
  lists[key] = list;
}
const load = () =>
  `load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`;
const row = (cells: Array<string | number>) => `| ${cells.join(' | ')} |`;
const header = (cells: string[]) => `${row(cells)}\n${row(cells.map(() => '---'))}`;
const ms = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));

const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
console.log(`Worker benchmark at ${commit}, ${ROUNDS} rounds, tools ${COUNTS.join(', ')}; ${load()}`);
mkdirSync(cacheDir, { recursive: true });

const missing = prebuiltMissing();
if (missing) console.log(`build-time documents: skipped (${missing})`);
/** Emits the documents of a prebuilt flavour at every count; false (and a line saying why) when it cannot. */
function documentsEmitted(f: Flavour): boolean {
  for (const n of COUNTS) {
    const failure = emitDocuments(f, n);
    if (failure === undefined) continue;
    console.log(`${f.label}: skipped, \`mcp-mount check --emit\` failed at ${n} tools: ${failure}`);
    return false;
  }
  return true;
}
const chosen = (f: Flavour) =>
  !ONLY_FLAVOURS || f.key === 'sdk' || f.key === 'faithful' || ONLY_FLAVOURS.includes(f.key);
const flavours = FLAVOURS.filter(
  (f) => chosen(f) && (f.kind !== 'prebuilt' || (missing === undefined && documentsEmitted(f))),
);

/**
 * Filtered lists, measured in the requests part only: `visibleTools` showing one tool in ten (scattered: its
 * entries copied once per list) and the second half (one run: sent from the prebuilt buffer).
 */
const FILTERED: readonly Flavour[] = [
  ['visible-tenth', 'one tool in ten', '% 10 === 9'],
  ['visible-half', 'the second half', '>= __TOOLS__ / 2'],
]
  .map(([key, label, test]) => ({
    key: key!,
    label: `mcp-mount, faithful, \`visibleTools\`: ${label}`,
    kind: 'mount' as const,
    optionsSource: `{ access: { visibleTools: () => (t) => Number(t.name.slice(5)) ${test} } }`,
  }))
  .filter(chosen);

const bundles = new Map<string, WorkerBundle>();
async function bundleOf(f: Flavour, n: number): Promise<WorkerBundle> {
  const key = `${f.key}-${n}`;
  if (!bundles.has(key)) bundles.set(key, await bundleWorker(entrySource(f, n)));
  return bundles.get(key)!;
}

/** Startup per flavour and tool count, then where the time goes at the largest count. */
async function startup() {
  const runs: Record<'active' | 'window' | 'thread' | 'process' | 'first', Record<string, number[]>> = {
    active: {},
    window: {},
    thread: {},
    process: {},
    first: {},
  };
  const phases: Record<string, Array<Record<string, number>>> = {};
  const functions: Record<string, Record<string, number>> = {};
  const forms = await writeForms();
  const before = load();
  for (let round = 0; round < ROUNDS; round++) {
    for (const n of COUNTS) {
      for (let i = 0; i < flavours.length; i++) {
        const f = flavours[(round + i) % flavours.length]!;
        const key = `${f.key}-${n}`;
        const profile = checkStartup(forms.get(key)!, join(cacheDir, `${key}.cpuprofile`));
        push(runs.active, key, activeMs(profile));
        push(runs.window, key, windowMs(profile));
        const list = mcpRequest('2026', 'tools/list', {});
        const cpu = await startupCpuMs((await bundleOf(f, n)).code, COMPATIBILITY_DATE, list);
        push(runs.thread, key, cpu.thread);
        push(runs.process, key, cpu.process);
        push(runs.first, key, cpu.first);
        if (n !== TOP || f.kind === 'sdk') continue;
        const found = breakdown(profile, locator((await bundleOf(f, n)).map));
        push(phases, f.key, found.phases);
        const fns = functions[f.key] ?? {};
        for (const [fn, t] of Object.entries(found.functions)) fns[fn] = (fns[fn] ?? 0) + t / ROUNDS;
        functions[f.key] = fns;
      }
    }
  }
  console.log(`\nStartup, ms, median of ${ROUNDS} (${before} at the start, ${load()} at the end)`);
  console.log("\nwrangler check startup: the profile's sampled time outside (idle)\n");
  printStartup(runs.active);
  console.log("\nworkerd's main thread (the isolate's), CPU from /proc for the same import (10 ms ticks)\n");
  printStartup(runs.thread);
  console.log("\nthe isolate's first tools/list (2026-07-28) right after, main thread CPU\n");
  printStartup(runs.first);
  const at = (m: Record<string, number[]>) =>
    flavours.map((f) => `${f.key} ${ms(median(m[`${f.key}-${TOP}`]!))}`).join(', ');
  console.log(`\nat ${TOP} tools, the profile's window (Profiler.start to stop, idle included): ${at(runs.window)}`);
  console.log(`at ${TOP} tools, the whole workerd process (V8's helper threads too): ${at(runs.process)}`);
  printBreakdown(phases, functions);
}

/** Each bundle as the upload form `wrangler check startup --worker` reads, by `flavour-count`. */
async function writeForms(): Promise<Map<string, string>> {
  const forms = new Map<string, string>();
  for (const f of flavours) {
    for (const n of COUNTS) {
      const form = await uploadForm((await bundleOf(f, n)).code, COMPATIBILITY_DATE);
      forms.set(`${f.key}-${n}`, writeForm(join(cacheDir, `${f.key}-${n}.bundle`), form));
    }
  }
  return forms;
}

function printStartup(runs: Record<string, number[]>) {
  const at = (f: Flavour, n: number) => median(runs[`${f.key}-${n}`]!);
  const sdk = flavours.find((f) => f.kind === 'sdk')!;
  console.log(header(['flavour', ...COUNTS.map((n) => `${n} tools`), `over the SDK at ${TOP}`]));
  for (const f of flavours) {
    const over = at(f, TOP) - at(sdk, TOP);
    const overText = f === sdk ? '' : `${over >= 0 ? '+' : ''}${ms(over)}`;
    console.log(row([f.label, ...COUNTS.map((n) => ms(at(f, n))), overText]));
  }
}

function printBreakdown(
  phases: Record<string, Array<Record<string, number>>>,
  functions: Record<string, Record<string, number>>,
) {
  const keys = Object.keys(phases);
  if (keys.length === 0) return;
  const names = [...new Set(keys.flatMap((k) => phases[k]!.flatMap((p) => Object.keys(p))))].sort();
  console.log(`\nWhere startup goes at ${TOP} tools, ms (median of ${ROUNDS} profiles per phase)\n`);
  console.log(header(['phase', ...keys]));
  for (const name of names)
    console.log(row([name, ...keys.map((k) => ms(median(phases[k]!.map((p) => p[name] ?? 0))))]));
  for (const k of keys) {
    const top = Object.entries(functions[k]!)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 8);
    console.log(`\ntop self time, ${k} (mean ms per startup): ${top.map(([fn, t]) => `${fn} ${ms(t)}`).join('; ')}`);
  }
}

/** Maps a profile position in the bundle to its source, through the bundle's source map. */
function locator(map: string): Locate {
  const sourceMap = new SourceMap(JSON.parse(map));
  return (line, column) => {
    const entry = sourceMap.findEntry(line, column) as {
      originalSource?: string;
      originalLine?: number;
      name?: string;
    };
    if (entry.originalSource === undefined) return undefined;
    const source = entry.originalSource.replace(/^(\.\.\/)+/, '').replace(`${root.slice(1)}/`, '');
    return { source, line: entry.originalLine ?? 0, ...(entry.name ? { name: entry.name } : {}) };
  };
}

const meta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1.0.0' },
};

/** A request as test/soak/load.ts builds it: 2026-07-28 headers and `_meta`, or a 2025-era request. */
function mcpRequest(era: '2026' | '2025', method: string, params: Record<string, unknown>): WorkerRequest {
  const modern = era === '2026';
  const name: Record<string, string> = typeof params.name === 'string' ? { 'mcp-name': params.name } : {};
  return {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(modern ? { 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...name } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: modern ? { ...params, _meta: meta } : params }),
  };
}

/** The measured requests at `n` tools, with text each response must hold. */
function legs(n: number) {
  const call = { name: `tool_${n - 1}`, arguments: callArguments };
  return (['2026', '2025'] as const).flatMap((era) => [
    { label: `tools/list (${era})`, request: mcpRequest(era, 'tools/list', {}), expect: `"tool_${n - 1}"` },
    { label: `tools/call (${era})`, request: mcpRequest(era, 'tools/call', call), expect: 'ok\\":true' },
  ]);
}

/**
 * A Worker that answers each measured request with the bytes `answers` holds for its body (encoded once, sent
 * as one `Uint8Array`): the floor of any Worker sending those bodies.
 */
function constantWorker(answers: ReadonlyArray<[string, string]>): string {
  return `const answers = new Map(${JSON.stringify(answers)});
    const encoded = new Map();
    export default {
      async fetch(request) {
        const key = await request.text();
        if (!encoded.has(key)) encoded.set(key, new TextEncoder().encode(answers.get(key) ?? '{}'));
        const sse = answers.get(key)?.startsWith('event:');
        return new Response(encoded.get(key), { headers: { 'content-type': sse ? 'text/event-stream' : 'application/json' } });
      },
    };`;
}

const CONSTANT = 'constant';
const measuredFlavours = [...flavours, ...FILTERED];

/** CPU per request in workerd, per flavour, leg and tool count, above the trivial Worker's. */
async function requests() {
  console.log(
    `\nCPU per request in workerd, ms (process CPU over ${BATCH_MS} ms batches, minus a trivial Worker's; median of ${ROUNDS})`,
  );
  for (const n of COUNTS) {
    const workers: Array<[string, RunningWorker]> = [
      ['trivial', await startWorker(TRIVIAL_WORKER, COMPATIBILITY_DATE)],
    ];
    for (const f of measuredFlavours) {
      workers.push([f.key, await startWorker((await bundleOf(f, n)).code, COMPATIBILITY_DATE)]);
    }
    const measured = legs(n);
    const faithful = workers.find(([key]) => key === 'faithful')![1];
    const lists = measured.filter((l) => l.label.startsWith('tools/list'));
    const answers: Array<[string, string]> = [];
    for (const l of lists) answers.push([l.request.body, await faithful.fetch(l.request)]);
    workers.push([CONSTANT, await startWorker(constantWorker(answers), COMPATIBILITY_DATE)]);
    const before = load();
    for (const [key, worker] of workers) {
      for (const { request, expect, label } of measured) {
        const text = await worker.fetch(request);
        const checked = key !== 'trivial' && (key !== CONSTANT || label.startsWith('tools/list'));
        if (checked && !text.includes(expect)) throw new Error(`${key} ${label}: ${text.slice(0, 300)}`);
        await cpuPerRequest(worker, request, BATCH_MS / 4, 3); // warm-up
      }
    }
    const cpu: Record<string, RequestCpu[]> = {};
    for (let round = 0; round < ROUNDS; round++) {
      for (let i = 0; i < workers.length; i++) {
        const [key, worker] = workers[(round + i) % workers.length]!;
        for (const { request, label } of measured) {
          push(cpu, `${key} ${label}`, await cpuPerRequest(worker, request, BATCH_MS));
        }
      }
    }
    for (const [, worker] of workers) await worker.dispose();
    console.log(`\n${n} tools (${before} at the start, ${load()} at the end)\n`);
    printRequests(
      cpu,
      measured.map((l) => l.label),
    );
    printListSplit(
      cpu,
      lists.map((l) => l.label),
    );
  }
}

const medianOf = (runs: RequestCpu[], part: keyof RequestCpu) => median(runs.map((r) => r[part]));

function printRequests(cpu: Record<string, RequestCpu[]>, labels: string[]) {
  const floor = (label: string) => medianOf(cpu[`trivial ${label}`]!, 'ms');
  const over = (key: string, l: string) => ms(medianOf(cpu[`${key} ${l}`]!, 'ms') - floor(l));
  console.log(header(['flavour', ...labels]));
  for (const f of measuredFlavours) console.log(row([f.label, ...labels.map((l) => over(f.key, l))]));
  const constant = (l: string) => (l.startsWith('tools/list') ? over(CONSTANT, l) : '');
  console.log(row(["(the faithful list's bytes as a constant Worker)", ...labels.map(constant)]));
  console.log(row(['(floor: trivial Worker, subtracted above)', ...labels.map((l) => ms(floor(l)))]));
}

/** The list legs' CPU, user / system, and the main thread's user / system, not less the floor. */
function printListSplit(cpu: Record<string, RequestCpu[]>, labels: string[]) {
  console.log(
    '\nThe list legs, ms per request (the floor not subtracted): process user / system; main thread user / system\n',
  );
  const cell = (runs: RequestCpu[]) =>
    `${ms(medianOf(runs, 'user'))} / ${ms(medianOf(runs, 'system'))}; ${ms(medianOf(runs, 'mainUser'))} / ${ms(medianOf(runs, 'mainSystem'))}`;
  console.log(header(['flavour', ...labels]));
  const keys: Array<[string, string]> = [
    ...measuredFlavours.map((f): [string, string] => [f.key, f.label]),
    [CONSTANT, 'the faithful list as a constant'],
    ['trivial', 'trivial Worker'],
  ];
  for (const [key, label] of keys) console.log(row([label, ...labels.map((l) => cell(cpu[`${key} ${l}`]!))]));
}

/** The whole Worker per flavour and tool count, and mcp-mount's own code. */
async function bundleSizes() {
  console.log('\nWorker bundle, KiB: gzip (minified), as `wrangler deploy --minify` bundles it\n');
  const kib = (b: number) => (b / 1024).toFixed(1);
  console.log(header(['flavour', ...COUNTS.map((n) => `${n} tools`), 'own code']));
  const folders: Record<string, Record<string, number>> = {};
  for (const f of flavours) {
    const sizes: string[] = [];
    for (const n of COUNTS) {
      const b = await bundleOf(f, n);
      sizes.push(`${kib(b.gzip)} (${kib(b.bytes)})`);
    }
    const own = f.kind === 'sdk' ? undefined : await bundleWorker(entrySource(f, TOP), true);
    if (own) folders[f.key] = own.ownBytes;
    console.log(row([f.label, ...sizes, own ? `${kib(own.gzip)} (${kib(own.bytes)})` : '']));
  }
  const keys = Object.keys(folders);
  const names = [...new Set(keys.flatMap((k) => Object.keys(folders[k]!)))].sort();
  console.log('\nOwn code by folder, KiB minified (before gzip)\n');
  console.log(header(['folder', ...keys]));
  for (const name of names) console.log(row([name, ...keys.map((k) => kib(folders[k]![name] ?? 0))]));
}

if (PARTS.has('startup')) await startup();
if (PARTS.has('requests')) await requests();
if (PARTS.has('bundle')) await bundleSizes();
