/** Worker bundles for the packaging tests: esbuild (what wrangler bundles with) under the workerd conditions. */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
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
