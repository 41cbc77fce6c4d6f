/**
 * `npm run bench:peers`: mcp-mount beside the MCP servers teams choose instead, each in a process of its own
 * over real HTTP on 127.0.0.1, serving the same 50 union tools (tools.ts; the servers in servers.ts). This
 * process is the load generator (load.ts): 2025-06-18 POSTs on keep-alive connections, `BENCH_CONCURRENCY`
 * (default 16) in flight, for `tools/list`, the same with `accept-encoding: gzip, deflate` as fetch sends it
 * (`list-gzip`: a gzip-encoded answer is decoded, then checked like any other), a valid `tools/call`, a call with
 * a number sent as text, and an invalid call. Every answer is checked; only the answers a scenario accepts
 * count. The raw route answers mcp-mount's uncompressed bytes in both list scenarios.
 *
 * For each scenario: a warm-up batch per server, then `BENCH_ROUNDS` (default 5) interleaved rounds (every
 * server once per round, the order rotating) of `BENCH_BATCH_MS` (default 1000) each. Per server: the median
 * of the rounds' requests per second, and of its CPU time per request (user + system of every thread of its
 * process, from /proc/<pid>/stat, in 10 ms ticks: a batch of about a second reads to about 1 %). The load
 * average over the run is printed beside the table: on a shared machine, compare rows of one run, not runs.
 *
 * mcp-mount is served from its build (`dist/`, built here first), as a team runs it from npm; `mcp-mount-src`
 * (named in `BENCH_SERVERS` only) serves the sources through tsx, as the in-process benchmarks do.
 *
 * `BENCH_SERVERS` and `BENCH_SCENARIOS` (comma lists of keys) run some only. `BENCH_VARIANTS`
 * (`key=/path/to/checkout,...`) adds mcp-mount from other checkouts as servers of their own (servers.ts), to
 * set commits side by side in one run; name their keys in `BENCH_SERVERS`. `BENCH_GC=1` runs every server under
 * `--trace-gc-nvp` and adds, per row, the medians of the bytes its young collections promoted to the old
 * generation per answer and of their pauses per 1,000 answers (what outlives a request). The peers and the HTTP client
 * live in bench/peers/node_modules (their own package.json and lockfile), installed here when missing and
 * type-checked before the run (`tsc -p bench/peers`).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from '../median.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '../..');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const BATCH_MS = Number(process.env.BENCH_BATCH_MS ?? 1000);
const WARMUP_MS = Number(process.env.BENCH_WARMUP_MS ?? 1000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
/** `BENCH_GC=1`: every server runs under `--trace-gc-nvp`, and each row adds what its young collections cost. */
const GC = process.env.BENCH_GC === '1';
const TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

if (!existsSync(join(here, 'node_modules/undici'))) {
  execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: here, stdio: 'inherit' });
}
execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', here], { stdio: 'inherit' });

const { SCENARIOS, Target, sampleAnswer } = await import('./load.js');
type BatchResult = import('./load.js').BatchResult;
type Scenario = import('./load.js').Scenario;
type TargetT = import('./load.js').Target;
const { SERVERS } = await import('./servers.js');

const only = (name: string) => process.env[name]?.split(',').map((s) => s.trim());
const serverKeys = only('BENCH_SERVERS') ?? Object.keys(SERVERS).filter((key) => !SERVERS[key]!.extra);
const scenarios = SCENARIOS.filter((s) => (only('BENCH_SCENARIOS') ?? SCENARIOS.map((x) => x.key)).includes(s.key));
if (!serverKeys.includes('mcp-mount') && serverKeys.includes('raw')) {
  throw new Error('the raw route answers mcp-mount\'s bytes: BENCH_SERVERS needs "mcp-mount" beside "raw"');
}

// mcp-mount is served from its build, as a team runs it: each checkout named is built first.
for (const dir of new Set(serverKeys.flatMap((key) => (SERVERS[key]?.from === 'dist' ? [SERVERS[key]!.dir!] : [])))) {
  console.log(`building ${dir}`);
  execFileSync(
    process.execPath,
    [join(dir, 'node_modules/typescript/bin/tsc'), '-p', join(dir, 'tsconfig.build.json')],
    {
      cwd: dir,
      stdio: 'inherit',
    },
  );
}

const children: ChildProcess[] = [];
const stopAll = () => {
  for (const child of children) if (child.exitCode === null) child.kill();
};
process.on('exit', stopAll);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    stopAll();
    process.exit(1);
  });
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/** Per server, under `BENCH_GC`: bytes promoted and scavenge pauses (ms) since it started, from its trace. */
const collected = new Map<string, { promoted: number; scavengeMs: number }>();

/** Starts one server process and resolves once it prints that it listens. */
async function start(key: string): Promise<TargetT> {
  const port = await freePort();
  const flags = GC ? ['--trace-gc-nvp'] : [];
  const child = spawn(process.execPath, [...flags, '--import', 'tsx', join(here, 'server.ts'), key, String(port)], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const collections = { promoted: 0, scavengeMs: 0 };
  collected.set(key, collections);
  let partial = '';
  if (GC) {
    child.stdout!.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        if (!line.includes(' gc=s ')) continue;
        collections.promoted += Number(/\bpromoted=(\d+)/.exec(line)?.[1] ?? 0);
        collections.scavengeMs += Number(/\bpause=([\d.]+)/.exec(line)?.[1] ?? 0);
      }
    });
  }
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${key} did not start within 180 s`)), 180_000);
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes(`listening ${port}`)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => reject(new Error(`${key} exited (${code}) before it listened: ${out}`)));
  });
  if (!GC) child.stdout!.resume();
  return new Target(key, SERVERS[key]!.label, child.pid!, `http://127.0.0.1:${port}`, CONCURRENCY);
}

const rssMb = (pid: number) => {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : Number.NaN;
};

const loads: number[] = [];
const loadAtStart = loadavg();
console.log(`starting ${serverKeys.length} servers (load average ${loadAtStart.map((l) => l.toFixed(2)).join(' ')})`);
const targets: TargetT[] = [];
for (const key of serverKeys) targets.push(await start(key));
const rssAtStart = new Map(targets.map((t) => [t.key, rssMb(t.pid)]));

interface Row {
  rates: number[];
  cpu: number[];
  client: number[];
  totals: BatchResult['classes'];
  refusedAs: Set<string>;
  wrong: string[];
  gzipped: number;
  /** Under `BENCH_GC`: KB promoted per answer, and scavenge ms per 1,000 answers, per round. */
  promoted: number[];
  scavengeMs: number[];
}
const results = new Map<string, Map<string, Row>>();

for (const scenario of scenarios) {
  const raw = targets.find((t) => t.key === 'raw');
  if (raw) {
    // The raw route answers the bytes mcp-mount answers this request with.
    const sample = await sampleAnswer(targets.find((t) => t.key === 'mcp-mount')!, scenario);
    await raw.pool.request({ path: '/__answer', method: 'POST', body: JSON.stringify(sample) });
  }
  const rows = new Map<string, Row>(
    targets.map((t) => [
      t.key,
      {
        rates: [],
        cpu: [],
        client: [],
        totals: { ok: 0, refused: 0, wrong: 0, failed: 0 },
        refusedAs: new Set(),
        wrong: [],
        gzipped: 0,
        promoted: [],
        scavengeMs: [],
      },
    ]),
  );
  results.set(scenario.key, rows);
  const record = (target: TargetT, b: BatchResult, before: { promoted: number; scavengeMs: number }) => {
    const row = rows.get(target.key)!;
    const answered = b.classes.ok + b.classes.refused + b.classes.wrong;
    const after = collected.get(target.key)!;
    row.promoted.push(answered ? (after.promoted - before.promoted) / 1024 / answered : Number.NaN);
    row.scavengeMs.push(answered ? ((after.scavengeMs - before.scavengeMs) * 1000) / answered : Number.NaN);
    row.rates.push((b.accepted * 1000) / b.ms);
    row.cpu.push(answered ? b.serverCpuMs / answered : Number.NaN);
    row.client.push(b.clientCpuMs / b.ms);
    for (const k of Object.keys(row.totals) as Array<keyof BatchResult['classes']>) row.totals[k] += b.classes[k];
    for (const how of b.refusedAs) row.refusedAs.add(how);
    row.gzipped += b.gzipped;
    row.wrong.push(...b.wrongSamples.slice(0, 3 - row.wrong.length));
    loads.push(loadavg()[0]!);
  };
  process.stdout.write(`\n${scenario.label}: warm-up`);
  for (const target of targets) {
    const b = await target.batch(scenario, WARMUP_MS, CONCURRENCY, TICKS);
    for (const how of b.wrongSamples) console.log(`\n  ${target.key} (warm-up): ${how}`);
  }
  for (let round = 0; round < ROUNDS; round++) {
    process.stdout.write(`, round ${round + 1}`);
    for (let i = 0; i < targets.length; i++) {
      const target = targets[(round + i) % targets.length]!;
      const before = { ...collected.get(target.key)! };
      record(target, await target.batch(scenario, BATCH_MS, CONCURRENCY, TICKS), before);
    }
  }
  console.log('');
  printScenario(scenario, rows);
}

const loadAtEnd = loadavg();
printSummary();
stopAll();
process.exit(0);

function printScenario(scenario: Scenario, rows: Map<string, Row>) {
  console.log(`${scenario.label}: medians of ${ROUNDS} rounds`);
  console.log(
    `${'server'.padEnd(46)}${'req/s'.padStart(8)}${'(min-max)'.padStart(16)}${'CPU ms/req'.padStart(12)}${'client CPU'.padStart(12)}   answers`,
  );
  for (const target of targets) {
    const row = rows.get(target.key)!;
    const answers = Object.entries(row.totals)
      .filter(([, n]) => n > 0)
      .map(([k, n]) => `${k} ${n}${k === 'refused' ? ` (${[...row.refusedAs].join(', ')})` : ''}`)
      .concat(row.gzipped > 0 ? [`gzip-encoded ${row.gzipped}`] : [])
      .join(', ');
    const spread = `${Math.min(...row.rates).toFixed(0)}-${Math.max(...row.rates).toFixed(0)}`;
    const gc = GC
      ? `   promoted ${median(row.promoted).toFixed(2)} KB/req, scavenges ${median(row.scavengeMs).toFixed(1)} ms/1k req`
      : '';
    console.log(
      `${target.label.padEnd(46)}${median(row.rates).toFixed(0).padStart(8)}${spread.padStart(16)}${median(row.cpu).toFixed(3).padStart(12)}${`${(median(row.client) * 100).toFixed(0)} %`.padStart(12)}   ${answers}${gc}`,
    );
    for (const why of row.wrong) console.log(`    wrong: ${why}`);
  }
}

function printSummary() {
  const cell = (scenario: string, key: string, what: 'rate' | 'cpu') => {
    const row = results.get(scenario)?.get(key);
    if (!row) return '–';
    if (what === 'cpu') return `${median(row.cpu).toFixed(2)} ms`;
    const rate = median(row.rates);
    const text = rate >= 100 ? Math.round(rate).toLocaleString('en-US') : rate.toFixed(1);
    // A server that refuses the call with a number as text says so: it did not do a repair's work.
    return scenario === 'repair' && row.totals.refused > 0 ? `${text} (refused)` : text;
  };
  const wrongOf = (key: string) =>
    [...results.values()].reduce((n, rows) => {
      const t = rows.get(key)?.totals;
      return n + (t ? t.wrong + t.failed : 0);
    }, 0);
  const fmt = (xs: number[]) => xs.map((l) => l.toFixed(2)).join(' ');
  console.log(
    `\nSummary: medians of ${ROUNDS} interleaved rounds of ${BATCH_MS} ms, ${CONCURRENCY} in flight, 2025-06-18, ${
      targets.length
    } servers, Node ${process.versions.node}`,
  );
  console.log(
    `load average (1 min) during the rounds: ${Math.min(...loads).toFixed(2)} to ${Math.max(...loads).toFixed(2)}, median ${median(loads).toFixed(2)}; at the start ${fmt(loadAtStart)}, at the end ${fmt(loadAtEnd)}\n`,
  );
  console.log(
    '| server | `tools/list` req/s | CPU per list | `tools/list`, gzip accepted, req/s | CPU per gzip list | `tools/call` req/s | CPU per call | `"5"` for a number req/s | invalid call req/s | CPU per invalid | wrong answers | RSS MB (start → end) |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const t of targets) {
    console.log(
      `| ${t.label} | ${cell('list', t.key, 'rate')} | ${cell('list', t.key, 'cpu')} | ${cell('list-gzip', t.key, 'rate')} | ${cell('list-gzip', t.key, 'cpu')} | ${cell('call', t.key, 'rate')} | ${cell('call', t.key, 'cpu')} | ${cell('repair', t.key, 'rate')} | ${cell('invalid', t.key, 'rate')} | ${cell('invalid', t.key, 'cpu')} | ${wrongOf(t.key)} | ${rssAtStart.get(t.key)!.toFixed(0)} → ${rssMb(t.pid).toFixed(0)} |`,
    );
  }
}
