/**
 * A module of the repository bundled as wrangler bundles a Worker (esbuild, workerd conditions, ESM,
 * tree-shaken), for tests that check what a Worker importing it carries.
 */
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** What the bundle of `entry` (a path from the repository root) reached, and what of ours it holds bytes of. */
export async function workerBundleOf(
  entry: string,
  external: readonly string[] = [],
): Promise<{ reached: string[]; ours: string[] }> {
  const result = await build({
    stdin: { contents: `export * from './${entry}';`, resolveDir: root, loader: 'ts' },
    absWorkingDir: root,
    bundle: true,
    write: false,
    metafile: true,
    format: 'esm',
    platform: 'neutral',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['module', 'main'],
    external: [...external],
    logLevel: 'silent',
  });
  // A module reached but tree-shaken away contributes no bytes.
  const [output] = Object.values(result.metafile.outputs);
  const ours = Object.entries(output!.inputs)
    .filter(([path, { bytesInOutput }]) => path.startsWith('src/') && bytesInOutput > 0)
    .map(([path]) => path);
  return { reached: Object.keys(result.metafile.inputs), ours };
}
