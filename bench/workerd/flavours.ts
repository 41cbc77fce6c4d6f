/**
 * The Workers bench/worker.bench.ts compares, as the entry text a team would write for each (the tool count
 * and options inlined), and the build-time documents the prebuilt flavours import.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { CACHE, exportTarget, root } from './bundle.js';

export interface Flavour {
  /** Short key, used in file names and tables. */
  key: string;
  label: string;
  kind: 'sdk' | 'mount' | 'prebuilt';
  /** The mount options (mount and prebuilt flavours). */
  options?: Record<string, unknown>;
  /**
   * The mount options as source text, for options JSON cannot hold (functions); else `options`, as JSON.
   * `__TOOLS__` in it stands for the Worker's tool count.
   */
  optionsSource?: string;
}

const SETTINGS: ReadonlyArray<[string, string, Record<string, unknown>]> = [
  ['faithful', 'default (faithful)', {}],
  ['flat', '`flattenUnionInput`', { flattenUnionInput: true }],
  ['auto', "`projection: 'auto'`", { projection: 'auto' }],
];

export const FLAVOURS: readonly Flavour[] = [
  { key: 'sdk', label: 'plain SDK v2 Worker, same tools', kind: 'sdk' },
  ...SETTINGS.map(([key, label, options]): Flavour => ({ key, label: `mcp-mount, ${label}`, kind: 'mount', options })),
  ...SETTINGS.map(
    ([key, label, options]): Flavour => ({
      key: `docs-${key}`,
      label: `mcp-mount, build-time documents, ${label}`,
      kind: 'prebuilt',
      options,
    }),
  ),
];

const fixture = (file: string) => JSON.stringify(join(root, 'bench/fixtures', file));
export const cacheDir = join(root, CACHE);

/** The Worker's entry module for `flavour` at `n` tools. */
export function entrySource(flavour: Flavour, n: number): string {
  const tools = `
    import { objectUnionTools } from ${fixture('object-union-tools.ts')};
    import { result } from ${fixture('union-tools.ts')};`;
  const mounted = `objectUnionTools(${n}).map((t) => defineTool({ ...t, handler: ({ input }) => result(input) }))`;
  const options = flavour.optionsSource?.replaceAll('__TOOLS__', String(n)) ?? JSON.stringify(flavour.options ?? {});
  switch (flavour.kind) {
    case 'sdk':
      return `${tools}
        import { plainSdkHandler } from ${fixture('plain-sdk.ts')};
        const handler = plainSdkHandler(objectUnionTools(${n}));
        export default { fetch: (request) => handler.fetch(request) };`;
    case 'mount':
      return `${tools}
        import { defineTool } from 'mcp-mount';
        import { mcp } from 'mcp-mount/fetch';
        export default mcp(${mounted}, ${options});`;
    case 'prebuilt':
      return `${tools}
        import { defineTool } from 'mcp-mount';
        import { mcp } from 'mcp-mount/fetch/prebuilt';
        import documents from ${JSON.stringify(documentsFile(flavour, n))};
        export default mcp(${mounted}, { documents, ...${options} });`;
  }
}

/** A Worker that reads the body and answers fixed bytes: the floor of workerd's own HTTP handling. */
export const TRIVIAL_WORKER = `export default {
  async fetch(request) {
    await request.text();
    return new Response('{"jsonrpc":"2.0","id":1,"result":{}}', { headers: { 'content-type': 'application/json' } });
  },
};`;

const documentsFile = (flavour: Flavour, n: number) => join(cacheDir, `documents-${flavour.key}-${n}.js`);

/**
 * Why the prebuilt flavours cannot run on this tree, or undefined when they can: they need the entry
 * `mcp-mount/fetch/prebuilt` and `mcp-mount check --emit`.
 */
export function prebuiltMissing(): string | undefined {
  const missing: string[] = [];
  if (exportTarget('mcp-mount/fetch/prebuilt') === undefined) missing.push('no `mcp-mount/fetch/prebuilt` entry');
  if (!cli(['--help']).includes('--emit')) missing.push('no `mcp-mount check --emit` flag');
  return missing.length === 0 ? undefined : missing.join(', ');
}

/**
 * Writes the documents module of `flavour` at `n` tools with `mcp-mount check <module> --emit <file>`;
 * the CLI's error output when it fails, undefined when it wrote the module.
 */
export function emitDocuments(flavour: Flavour, n: number): string | undefined {
  mkdirSync(cacheDir, { recursive: true });
  try {
    cli(['check', join(root, 'bench/fixtures/object-union-module.ts'), '--emit', documentsFile(flavour, n)], {
      BENCH_MODULE_TOOLS: String(n),
      BENCH_MODULE_OPTIONS: JSON.stringify(flavour.options ?? {}),
    });
    return undefined;
  } catch (error) {
    const { stderr, stdout } = error as { stderr?: string; stdout?: string };
    return `${stderr ?? ''}${stdout ?? ''}`.trim().split('\n').slice(-3).join(' ') || String(error);
  }
}

/** Runs the CLI from the sources (through tsx); its stdout. Throws when it exits with an error. */
function cli(args: string[], env: Record<string, string> = {}): string {
  return execFileSync(process.execPath, ['--import', 'tsx', join(root, 'src/cli/index.ts'), ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}
