/**
 * mcp-mount's own code in a Worker bundle, by source file: the minified bytes each file puts in the bundle
 * (esbuild's metafile) and its share of the gzip (the bundle gzipped with and without the bytes the source
 * map gives that file). Bundled as `wrangler deploy --minify` bundles it (bench/workerd/bundle.ts), with Zod
 * and the SDK external, for the default entry (`mcp-mount/fetch`) and the prebuilt one.
 *
 *   npx tsx bench/workerd/own-files.ts            # the 25 files of each entry with the largest gzip share
 *   BENCH_FILES_TOP=60 npx tsx bench/workerd/own-files.ts
 *
 * A share is what leaving that file's bytes out would save; the shares add up to more than the whole,
 * because gzip finds a file's repeats in the others. A folder's share is its files' bytes left out at once.
 */
import { SourceMap } from 'node:module';
import { gzipSync } from 'node:zlib';
import { bundleWorker, root } from './bundle.js';
import { entrySource, FLAVOURS } from './flavours.js';

const TOP = Number(process.env.BENCH_FILES_TOP ?? 25);
const ENTRIES = ['faithful', 'docs-faithful'];

/** Each output byte's source file (the one the source map's entry at or before it names), per line. */
function ownersOf(code: string, map: string): string[][] {
  const sourceMap = new SourceMap(JSON.parse(map));
  return code.split('\n').map((line, l) => {
    const owners: string[] = new Array(line.length);
    for (let c = 0; c < line.length; c++) {
      const source = (sourceMap.findEntry(l, c) as { originalSource?: string }).originalSource ?? '';
      owners[c] = source.replace(/^(\.\.\/)+/, '').replace(`${root.slice(1)}/`, '');
    }
    return owners;
  });
}

/** The gzip bytes the bundle saves without the output bytes whose owner `drop` matches. */
function gzipShare(code: string, owners: string[][], drop: (file: string) => boolean, whole: number): number {
  const kept = code
    .split('\n')
    .map((line, l) => [...line].filter((_, c) => !drop(owners[l]![c]!)).join(''))
    .join('\n');
  return whole - gzipSync(kept).byteLength;
}

const kib = (b: number) => (b / 1024).toFixed(1);
const folderOf = (file: string) => /^src\/(?:core\/[^/]+|[^/]+)/.exec(file)?.[0] ?? file;

async function report(key: string) {
  const flavour = FLAVOURS.find((f) => f.key === key)!;
  const bundle = await bundleWorker(entrySource(flavour, 10), true);
  const owners = ownersOf(bundle.code, bundle.map);
  const files = Object.entries(bundle.fileBytes).sort(([, a], [, b]) => b - a);
  console.log(`\n${flavour.label}: own code ${kib(bundle.gzip)} KiB gzip (${kib(bundle.bytes)} minified)\n`);
  console.log('| folder | KiB minified | KiB gzip share |\n| --- | --- | --- |');
  const folders = [...new Set(files.map(([f]) => folderOf(f)))];
  const byFolder = folders.map((d) => {
    const bytes = files.filter(([f]) => folderOf(f) === d).reduce((s, [, b]) => s + b, 0);
    return [d, bytes, gzipShare(bundle.code, owners, (f) => folderOf(f) === d, bundle.gzip)] as const;
  });
  for (const [d, bytes, share] of byFolder.sort((a, b) => b[2] - a[2]))
    console.log(`| ${d} | ${kib(bytes)} | ${kib(share)} |`);
  console.log(`\n| file (top ${TOP} of ${files.length}) | KiB minified | KiB gzip share |\n| --- | --- | --- |`);
  const shares = files.map(
    ([file, bytes]) => [file, bytes, gzipShare(bundle.code, owners, (f) => f === file, bundle.gzip)] as const,
  );
  for (const [file, bytes, share] of shares.sort((a, b) => b[2] - a[2]).slice(0, TOP)) {
    console.log(`| ${file} | ${kib(bytes)} | ${kib(share)} |`);
  }
}

for (const key of ENTRIES) await report(key);
