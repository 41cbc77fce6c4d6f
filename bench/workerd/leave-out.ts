/**
 * What each feature costs in a Worker bundle, measured by leaving it out: the feature's modules are replaced
 * by empty ones (every export an empty function), so whatever only they import is tree-shaken too, and the
 * own-code bundle (bench/workerd/bundle.ts, Zod and the SDK external) is measured with and without them, for
 * the default entry (`mcp-mount/fetch`) and the prebuilt one. The bundles left are not meant to run.
 *
 *   npx tsx bench/workerd/leave-out.ts
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { bundleWorker, root, type WorkerBundle } from './bundle.js';
import { entrySource, FLAVOURS } from './flavours.js';

/**
 * Each feature as the modules that hold it (paths from `src/core/`), or single functions of a module that
 * holds more (`access/settle.ts#settleCorsPolicy`: that function's body emptied).
 */
const FEATURES: ReadonlyArray<[string, readonly string[]]> = [
  ['bearer auth', ['access/auth.ts', 'access/token-cache.ts', 'access/settle.ts#settleAuthPolicy']],
  ['CORS', ['access/cors.ts', 'access/settle.ts#settleCorsPolicy']],
  ['rate limits and the concurrency cap', ['limits/rate.ts', 'limits/rate-policy.ts']],
  ['OpenTelemetry traces and metrics', ['observe/telemetry.ts', 'observe/telemetry-api.ts']],
  ['feature access (prompts, resources)', ['access/features.ts']],
  ['flat projection family', ['projection/flat-served.ts', 'projection/flatten.ts', 'projection/unflattened.ts']],
  ['client-profile projections', ['projection/profiles/index.ts']],
  ['probe: client-profile rules', ['probe/profiles.ts']],
  ['probe: 2020-12 meta-schema validator', ['probe/meta-schema/index.ts']],
  ['probe: every document rule (with the two above)', ['probe/check-document.ts']],
  ['argument repair', ['repair/index.ts']],
  ['messages (Zod issues as text)', ['messages/index.ts']],
  ['build-time documents reader', ['documents/preparation.ts']],
];

const files = (...names: string[]) => FEATURES.filter(([n]) => names.includes(n)).flatMap(([, f]) => f);
/** What a mount with default options never runs: every feature an option switches on. */
const OPTIONAL = files(
  'bearer auth',
  'CORS',
  'rate limits and the concurrency cap',
  'OpenTelemetry traces and metrics',
  'feature access (prompts, resources)',
  'flat projection family',
  'client-profile projections',
  'probe: client-profile rules',
);
/** The rows that leave several features out at once; the documents reader only where it is optional. */
const GROUPS = (prebuilt: boolean): ReadonlyArray<[string, readonly string[]]> => {
  const optional = prebuilt ? OPTIONAL : [...OPTIONAL, ...files('build-time documents reader')];
  const product = files('argument repair', 'messages (Zod issues as text)');
  const rules = prebuilt ? [] : files('probe: every document rule (with the two above)');
  const rows: Array<[string, readonly string[]]> = [['every option-switched feature above', optional]];
  if (!prebuilt) rows.push(['... and every document rule (the probe out of the Worker)', [...optional, ...rules]]);
  rows.push(['... and repair and messages', [...optional, ...rules, ...product]]);
  return rows;
};

/** The module `file` as empty functions under its export names. */
async function emptied(file: string): Promise<string> {
  const out = await build({
    entryPoints: [file],
    bundle: false,
    write: false,
    metafile: true,
    format: 'esm',
    logLevel: 'silent',
  });
  const names = Object.values(out.metafile.outputs)[0]!.exports;
  return names.map((n) => (n === 'default' ? 'export default function () {}' : `export function ${n}() {}`)).join('\n');
}

/** `text` with the body of each function in `names` replaced by `{ return {}; }`. */
function withEmptied(text: string, names: readonly string[]): string {
  let out = text;
  for (const name of names) {
    const at = out.indexOf(`function ${name}(`);
    if (at < 0) throw new Error(`no function ${name}`); // a row naming a function that moved fails here
    const open = out.indexOf('{\n', out.indexOf(')', at));
    let depth = 0;
    let end = open;
    for (; end < out.length; end++) {
      if (out[end] === '{') depth++;
      if (out[end] === '}' && --depth === 0) break;
    }
    out = `${out.slice(0, open)}{ return {}; }${out.slice(end + 1)}`;
  }
  return out;
}

/** A plugin that loads `left` (paths from `src/core/`) as empty modules, or with some functions emptied. */
function leaveOut(left: readonly string[]): Plugin {
  const whole = new Set<string>();
  const functions = new Map<string, string[]>();
  for (const entry of left) {
    const [file, fn] = entry.split('#') as [string, string | undefined];
    const path = join(root, 'src/core', file);
    readFileSync(path); // a row naming a file that moved fails here, not silently
    if (fn === undefined) whole.add(path);
    else functions.set(path, [...(functions.get(path) ?? []), fn]);
  }
  return {
    name: 'leave-out',
    setup(b) {
      b.onLoad({ filter: /\.ts$/ }, async ({ path }) => {
        if (whole.has(path)) return { contents: await emptied(path), loader: 'ts' };
        const names = functions.get(path);
        return names ? { contents: withEmptied(readFileSync(path, 'utf8'), names), loader: 'ts' } : undefined;
      });
    },
  };
}

const kib = (b: number) => (b / 1024).toFixed(1);
const FLOOR_TOP = 20;

for (const key of ['faithful', 'docs-faithful']) {
  const flavour = FLAVOURS.find((f) => f.key === key)!;
  const source = entrySource(flavour, 10);
  const whole = await bundleWorker(source, true);
  console.log(`\n${flavour.label}: own code ${kib(whole.gzip)} KiB gzip (${kib(whole.bytes)} minified)\n`);
  console.log('| left out | KiB gzip saved | KiB gzip left | KiB minified saved |\n| --- | --- | --- | --- |');
  let last: WorkerBundle = whole;
  for (const [feature, left] of [...FEATURES, ...GROUPS(flavour.kind === 'prebuilt')]) {
    last = await bundleWorker(source, true, [leaveOut(left)]);
    console.log(
      `| ${feature} | ${kib(whole.gzip - last.gzip)} | ${kib(last.gzip)} | ${kib(whole.bytes - last.bytes)} |`,
    );
  }
  // What is left after the last row: the floor, by file.
  const floor = Object.entries(last.fileBytes).sort(([, a], [, b]) => b - a);
  console.log(`
left after the last row, largest files (KiB minified): ${floor
    .slice(0, FLOOR_TOP)
    .map(([f, b]) => `${f.slice(9)} ${kib(b)}`)
    .join('; ')}`);
}
