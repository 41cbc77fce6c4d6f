/**
 * Build-time documents (docs/decisions/0024-build-time-documents.md): `npx tsx bench/documents.bench.ts` (also
 * run by `npm run bench`). At 200 union tools, each with a document of its own (bench/fixtures/documents-tools.ts):
 * - the startup check's stamps against `z.toJSONSchema` of the same schemas, warm (in process, fresh
 *   schemas each round) and cold (a fresh process each, as a Worker isolate pays it), cold also at the Worker
 *   benchmark's 200 tools (bench/fixtures/object-union-tools.ts);
 * - per projection setting (`flat`, `'auto'`): the emitted module's size, the time a fresh Node
 *   process takes to import it in both forms (`JSON.parse('...')` of one string literal, and the same object as
 *   a literal), and a cold `matchDocuments` (the module's load, the stamps and the comparison);
 * - the reader's own code, bundled and minified as wrangler does (Zod left out).
 * Each figure is the median of BENCH_ROUNDS (default 5) interleaved rounds. `bench/README.md` has a run.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import * as z from 'zod';
import { buildDocuments, documentsModule } from '../src/core/documents/emit.js';
import { toolStamp } from '../src/core/documents/stamps.js';
import type { AnyTool } from '../src/core/model/tool.js';
import { prepareTools } from '../src/core/prepare/prepare.js';
import { documentsSetup, prepareSetup, settleOptions } from '../src/core/serve/config.js';
import type { McpMountOptions } from '../src/core/serve/options.js';
import { distinctUnionTools } from './fixtures/documents-tools.js';
import { median } from './median.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const TOOLS = 200;
const here = fileURLToPath(new URL('.', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'mcp-mount-documents-bench-'));
const collect = () => (globalThis as { gc?: () => void }).gc?.();
const ms = (x: number) => `${x.toFixed(1)} ms`;
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

/** Median of interleaved rounds of each timed function. */
function rounds<K extends string>(parts: Record<K, () => number>): Record<K, number> {
  const times = Object.fromEntries(Object.keys(parts).map((k) => [k, [] as number[]])) as Record<K, number[]>;
  for (let round = 0; round < ROUNDS; round++) {
    for (const key of Object.keys(parts) as K[]) times[key].push(parts[key]());
  }
  return Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v as number[])])) as Record<K, number>;
}

function timed(run: () => void): number {
  collect();
  const started = performance.now();
  run();
  return performance.now() - started;
}

/** One cold run of bench/fixtures/documents-cold.ts in a fresh process. */
function cold(env: Record<string, string>): number {
  const out = execFileSync(process.execPath, ['--import', 'tsx', join(here, 'fixtures/documents-cold.ts')], {
    env: { ...process.env, BENCH_TOOLS: String(TOOLS), ...env },
    encoding: 'utf8',
  });
  return JSON.parse(out).ms;
}

/** A fresh Node process's import of a module (no loader): the time of the `import()` alone. */
function load(file: string): number {
  const script = `const t = performance.now(); await import(${JSON.stringify(pathToFileURL(file).href)}); console.log(performance.now() - t);`;
  return Number(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }));
}

console.log(`stamps against conversion, ${TOOLS} union tools (median of ${ROUNDS} rounds)`);
const warm = rounds({
  stamp: () => {
    const tools = distinctUnionTools(TOOLS) as AnyTool[];
    return timed(() => {
      for (const tool of tools) toolStamp(tool, undefined);
    });
  },
  convert: () => {
    const tools = distinctUnionTools(TOOLS);
    return timed(() => {
      for (const tool of tools) z.toJSONSchema(tool.input, { io: 'input' });
    });
  },
  prepare: () => {
    const tools = distinctUnionTools(TOOLS) as AnyTool[];
    const config = settleOptions({ flattenUnionInput: true });
    return timed(() => prepareTools(tools, prepareSetup(config)));
  },
});
const coldRuns = rounds({
  stamp: () => cold({ BENCH_COLD: 'stamp' }),
  convert: () => cold({ BENCH_COLD: 'convert' }),
  objectStamp: () => cold({ BENCH_COLD: 'stamp', BENCH_FIXTURE: 'object-union' }),
  objectConvert: () => cold({ BENCH_COLD: 'convert', BENCH_FIXTURE: 'object-union' }),
});
console.log(
  `  warm: stamps ${ms(warm.stamp)}, z.toJSONSchema ${ms(warm.convert)} (${(warm.convert / warm.stamp).toFixed(1)}x), the flat preparation they replace ${ms(warm.prepare)} (${(warm.prepare / warm.stamp).toFixed(1)}x)`,
);
console.log(
  `  cold: stamps ${ms(coldRuns.stamp)}, z.toJSONSchema ${ms(coldRuns.convert)} (${(coldRuns.convert / coldRuns.stamp).toFixed(1)}x)`,
);
console.log(
  `  cold, the Worker benchmark's ${TOOLS} tools (bench/fixtures/object-union-tools.ts): stamps ${ms(coldRuns.objectStamp)}, z.toJSONSchema ${ms(coldRuns.objectConvert)} (${(coldRuns.objectConvert / coldRuns.objectStamp).toFixed(1)}x)`,
);

// Not `faithful`: a union root is no object there, so these tools are not served in it.
const SETTINGS: Record<string, McpMountOptions> = {
  flat: { flattenUnionInput: true },
  auto: { projection: 'auto' },
};
console.log(`\nthe module at ${TOOLS} tools, per projection setting (load: a fresh node process's import())`);
console.log(
  'setting    projections  documents   size: emitted (gzip) / one JSON.parse / literal    load: emitted / one JSON.parse / literal   cold matchDocuments',
);
for (const [name, options] of Object.entries(SETTINGS)) {
  const config = settleOptions(options);
  const built = buildDocuments(
    prepareTools(distinctUnionTools(TOOLS) as AnyTool[], prepareSetup(config)),
    documentsSetup(config),
    'bench',
  );
  const text = documentsModule(built);
  // The module as emitted, and two alternatives: all of it as one JSON.parse of a JSON string, all of it as a literal.
  const [emitted, parsed, literal] = ['emitted', 'parse', 'literal'].map((form) =>
    join(scratch, `${name}-${form}.mjs`),
  );
  const whole = JSON.stringify(built);
  writeFileSync(emitted!, text);
  writeFileSync(parsed!, `export default JSON.parse(${JSON.stringify(whole)});\n`);
  writeFileSync(literal!, `export default ${whole};\n`);
  const times = rounds({
    emitted: () => load(emitted!),
    parse: () => load(parsed!),
    literal: () => load(literal!),
    match: () => cold({ BENCH_COLD: 'match', BENCH_DOCUMENTS: emitted!, BENCH_OPTIONS: JSON.stringify(options) }),
  });
  const size = (file: string) => readFileSync(file).length;
  console.log(
    `${name.padEnd(10)} ${String(built.projections.served.length).padStart(11)}  ${String(built.documents.length).padStart(9)}   ${kib(text.length)} (${kib(gzipSync(text).length)}) / ${kib(size(parsed!))} / ${kib(size(literal!))}    ${ms(times.emitted)} / ${ms(times.parse)} / ${ms(times.literal)}   ${ms(times.match)}`,
  );
}

const bundle = await build({
  entryPoints: [join(here, '../src/core/documents/read.ts')],
  bundle: true,
  write: false,
  minify: true,
  format: 'esm',
  platform: 'neutral',
  conditions: ['workerd', 'worker', 'browser'],
  external: ['zod'],
});
const code = bundle.outputFiles[0]!.contents;
console.log(
  `\nthe reader's own code (matchDocuments and the stamps), minified: ${kib(code.length)} (${kib(gzipSync(code).length)} gzip)`,
);
rmSync(scratch, { recursive: true, force: true });
