import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

const src = (p: string) => fileURLToPath(new URL(`./src/${p}`, import.meta.url));

const cliProcessFiles = ['test/cli/check.test.ts'];

/**
 * The property tests whose run counts come from test/support/property-runs.ts: in their own projects
 * (`npm test`) they make a fifth of their runs; the `properties` project runs them again at their full
 * counts (`npm run test:properties`, and CI).
 */
const propertyFiles = [
  'test/unit/projection/flatten.property.test.ts',
  'test/unit/projection/profile-projections.property.test.ts',
  'test/unit/projection/local-grammar.property.test.ts',
  'test/unit/projection/served-holes.property.test.ts',
  'test/unit/projection/flat-served.property.test.ts',
  'test/unit/repair/properties.test.ts',
  'test/unit/repair/union-outcome.test.ts',
  'test/cases/http-property.test.ts',
  'test/integration/probe-equals-list.test.ts',
  'test/unit/probe/meta-schema-plain.property.test.ts',
  'test/unit/serve/json-value.property.test.ts',
];

export default defineConfig({
  resolve: {
    // Examples and tests import the package by its name, as users do; point it at the sources.
    alias: [
      { find: /^mcp-mount\/testing$/, replacement: src('testing/index.ts') },
      { find: /^mcp-mount\/adapter$/, replacement: src('adapter.ts') },
      { find: /^mcp-mount\/lockfile$/, replacement: src('lockfile/index.ts') },
      { find: /^mcp-mount\/fetch\/prebuilt$/, replacement: src('adapters/fetch/prebuilt.ts') },
      { find: /^mcp-mount\/tasks\/(.+)$/, replacement: src('tasks/$1.ts') },
      { find: /^mcp-mount\/(.+)$/, replacement: src('adapters/$1/index.ts') },
      { find: /^mcp-mount$/, replacement: src('index.ts') },
    ],
  },
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // One test file per core. Vitest's default for `run` is one fewer than the cores, a single worker on a
    // 2-core machine, which leaves a core idle while files wait on sockets and child processes.
    maxWorkers: '100%',
    // Each test file still gets a fresh worker (and module graph), but a worker thread starts and imports
    // cheaper than a child process: the unit project took 55 s of CPU instead of 74 s (both at load 6).
    // Every file of unit, cases, adapters and properties passes in threads; soak and packaging stay in
    // child processes (forks), below.
    pool: 'threads',
    // `npm test` runs unit, cases and adapters; `npm run test:<name>` (`vitest run --project <name>`) runs
    // one, cli-process, soak, properties and packaging included; a bare `vitest run` runs every project.
    // CI (.ci/run) runs them all.
    // Each inherits the alias, timeouts and pool above through `extends: true`.
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'] } },
      { extends: true, test: { name: 'cases', include: ['test/cases/**/*.test.ts'] } },
      {
        extends: true,
        test: {
          name: 'adapters',
          include: ['test/adapters/**/*.test.ts', 'test/integration/**/*.test.ts', 'test/cli/**/*.test.ts'],
          // Real Next.js and workerd runtimes (builds, child processes): `npm run test:runtimes`, see
          // vitest.runtimes.config.ts. The CLI in child processes: the `cli-process` project below.
          exclude: [...configDefaults.exclude, 'test/adapters/runtimes/**', ...cliProcessFiles],
        },
      },
      // `mcp-mount check` as users run it, a node process under tsx per run (about 2 s of CPU each, some 30 s
      // for the file; its in-process paths stay in adapters). Not in `npm test`: `npm run test:cli-process`,
      // and CI.
      { extends: true, test: { name: 'cli-process', include: cliProcessFiles } },
      // Time ratios (n against 2n): alone, one file at a time, so no other test shares the CPU.
      // `--expose-gc`: each timed run starts on a collected heap, so a collection the previous run left does
      // not land in the next one's time.
      {
        extends: true,
        test: {
          name: 'timing',
          include: ['test/timing/**/*.test.ts'],
          fileParallelism: false,
          pool: 'forks',
          execArgv: ['--expose-gc'],
        },
      },
      // 20,000 requests per Node adapter with a heap bound: about 45 s on its own (75 s on a busy machine), so
      // not in `npm test`: `npm run test:soak`, and CI.
      { extends: true, test: { name: 'soak', include: ['test/soak/**/*.test.ts'], pool: 'forks' } },
      // Rate limits and the task store shared through a real redis-server the test starts (Debian's
      // `redis-server` on PATH): `npm run test:redis`, and CI, which installs it when missing.
      { extends: true, test: { name: 'redis', include: ['test/redis/**/*.test.ts'] } },
      // The property files above at their full run counts (MCP_MOUNT_PROPERTY_RUNS=<factor> scales them).
      {
        extends: true,
        test: {
          name: 'properties',
          include: propertyFiles,
          env: { MCP_MOUNT_PROPERTY_RUNS: process.env.MCP_MOUNT_PROPERTY_RUNS ?? 'full' },
        },
      },
      // Reads the built entries: its global setup builds `dist/` first (tsc, about 10 s of CPU before any test
      // starts), and runs only when these tests do. Not in `npm test`: `npm run test:packaging`, and CI.
      {
        extends: true,
        test: {
          name: 'packaging',
          include: ['test/packaging/**/*.test.ts'],
          pool: 'forks',
          globalSetup: ['test/packaging/build.global.ts'],
        },
      },
    ],
  },
});
