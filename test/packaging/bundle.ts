/** Worker bundles for the packaging tests: esbuild (what wrangler bundles with) under the workerd conditions. */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

export const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/** The files that put bytes in a Worker bundle of `source`, a module resolved from the repository root. */
export async function bundledFiles(source: string): Promise<string[]> {
  const out = await build({
    stdin: { contents: source, resolveDir: root, loader: 'ts' },
    bundle: true,
    write: false,
    metafile: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['workerd', 'worker', 'browser'],
    logLevel: 'silent',
  });
  // `metafile.inputs` also lists files read and shaken away.
  const [output] = Object.values(out.metafile.outputs);
  return Object.entries(output!.inputs).flatMap(([file, { bytesInOutput }]) => (bytesInOutput > 0 ? [file] : []));
}

/** Packages that are not mcp-mount's own code: left external when its own code is weighed. */
const NOT_OURS = ['zod', 'zod/*', '@modelcontextprotocol/*', 'rate-limiter-flexible', '@opentelemetry/*'];

/**
 * Bytes of mcp-mount's own code in a Worker bundle of `source`, as `wrangler deploy --minify` builds it (ESM,
 * target es2024, names kept, `process.env.NODE_ENV` production), with every other package external.
 */
export async function ownCodeBytes(source: string): Promise<{ minified: number; gzip: number }> {
  const out = await build({
    stdin: { contents: source, resolveDir: root, loader: 'ts' },
    bundle: true,
    write: false,
    format: 'esm',
    target: 'es2024',
    platform: 'browser',
    conditions: ['workerd', 'worker', 'browser'],
    define: { 'process.env.NODE_ENV': '"production"' },
    keepNames: true,
    minify: true,
    external: NOT_OURS,
    logLevel: 'silent',
  });
  const [js] = out.outputFiles;
  return { minified: js!.contents.byteLength, gzip: gzipSync(js!.contents).byteLength };
}
