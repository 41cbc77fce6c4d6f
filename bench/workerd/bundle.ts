/**
 * Worker bundles as `wrangler deploy --minify` builds them (esbuild, ESM, target es2024, conditions `workerd`,
 * `worker`, `browser`, names kept, `process.env.NODE_ENV` set to production, minified), the upload form `wrangler check startup --worker` reads, and the sizes the benchmark reports.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Plugin } from 'esbuild';

export const root = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
/** Where generated modules, bundles and profiles go (ignored by git, tsc and biome). */
export const CACHE = 'node_modules/.cache/mcp-mount-bench/';

/** Packages that are not mcp-mount's own code: left out of the own-code bundle. */
const NOT_OURS = ['zod', 'zod/*', '@modelcontextprotocol/*', 'rate-limiter-flexible', '@opentelemetry/*'];

export interface WorkerBundle {
  code: string;
  /** esbuild's source map of `code` (sources relative to the repository root). */
  map: string;
  /** Minified bytes and their gzip size. */
  bytes: number;
  gzip: number;
  /** Minified bytes per folder of `src/` (`src/core/probe`), before gzip. */
  ownBytes: Record<string, number>;
  /** Minified bytes per file of `src/` (`src/core/probe/root.ts`), before gzip. */
  fileBytes: Record<string, number>;
}

/**
 * `mcp-mount` and `mcp-mount/*` resolve as a user's Worker resolves them, through this package's `exports`,
 * but to the sources (`dist/x.js` -> `src/x.ts`) when they exist, so that no build is needed.
 */
const selfReference: Plugin = {
  name: 'mcp-mount-self',
  setup(b) {
    b.onResolve({ filter: /^mcp-mount(\/.*)?$/ }, ({ path }) => {
      const target = exportTarget(path);
      if (target === undefined) return { errors: [{ text: `package.json exports no "${path}"` }] };
      const source = join(root, target.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts'));
      return { path: existsSync(source) ? source : join(root, target) };
    });
  },
};

/** The file `exports` names for `specifier` (`mcp-mount/fetch` -> `./dist/adapters/fetch/index.js`). */
export function exportTarget(specifier: string): string | undefined {
  const exports = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).exports as Record<string, unknown>;
  const entry = exports[`.${specifier.slice('mcp-mount'.length)}`];
  if (typeof entry === 'string') return entry;
  return (entry as { import?: string; default?: string } | undefined)?.import;
}

/** Marks the benchmark's own modules (tools, documents) external: the own-code bundle keeps our code only. */
const onlyOurs: Plugin = {
  name: 'only-ours',
  setup(b) {
    b.onResolve({ filter: /^\.|^\// }, ({ path, resolveDir }) => {
      const file = relative(root, path.startsWith('/') ? path : join(resolveDir, path));
      return file.startsWith('bench/') || file.startsWith(CACHE)
        ? { path: join(root, file), external: true }
        : undefined;
    });
  },
};

/**
 * Bundles `source` (a Worker entry's text, resolved from the repository root); `extra` plugins run first
 * (bench/workerd/leave-out.ts replaces modules with empty ones through one).
 */
export async function bundleWorker(source: string, ownCodeOnly = false, extra: Plugin[] = []): Promise<WorkerBundle> {
  const out = await build({
    stdin: { contents: source, resolveDir: root, sourcefile: 'worker.ts', loader: 'ts' },
    bundle: true,
    write: false,
    outfile: join(root, 'worker.js'),
    format: 'esm',
    target: 'es2024',
    platform: 'browser',
    conditions: ['workerd', 'worker', 'browser'],
    define: { 'process.env.NODE_ENV': '"production"' },
    keepNames: true,
    minify: true,
    sourcemap: 'external',
    metafile: true,
    external: ownCodeOnly ? NOT_OURS : [],
    plugins: [...extra, selfReference, ...(ownCodeOnly ? [onlyOurs] : [])],
    logLevel: 'silent',
  });
  const js = out.outputFiles.find((f) => f.path.endsWith('.js'))!;
  const map = out.outputFiles.find((f) => f.path.endsWith('.map'))!;
  const ownBytes: Record<string, number> = {};
  const fileBytes: Record<string, number> = {};
  for (const [file, { bytesInOutput }] of Object.entries(jsOutput(out.metafile.outputs).inputs)) {
    const folder = /^src\/(?:core\/[^/]+|[^/]+)/.exec(file)?.[0];
    if (folder) ownBytes[folder] = (ownBytes[folder] ?? 0) + bytesInOutput;
    if (folder && bytesInOutput > 0) fileBytes[file] = bytesInOutput;
  }
  const [code, bytes] = [js.text, js.contents.byteLength];
  return { code, map: map.text, bytes, gzip: gzipSync(js.contents).byteLength, ownBytes, fileBytes };
}

/** The metafile's entry for the bundle itself (the source map is an output too, with no inputs). */
const jsOutput = <T>(outputs: Record<string, T>): T => Object.entries(outputs).find(([f]) => f.endsWith('.js'))![1];

/**
 * The multipart upload form `wrangler deploy --dry-run --outfile` writes, which `wrangler check startup
 * --worker` reads: `metadata` naming the main module, and the module itself.
 */
export async function uploadForm(code: string, compatibilityDate: string): Promise<Uint8Array> {
  const form = new FormData();
  form.set(
    'metadata',
    JSON.stringify({ main_module: 'worker.js', compatibility_date: compatibilityDate, compatibility_flags: [] }),
  );
  form.set('worker.js', new File([code], 'worker.js', { type: 'application/javascript+module' }));
  return new Uint8Array(await new Response(form).arrayBuffer());
}
