/**
 * The fetch and Next.js entries (and the root, the adapter core, the lockfile and the testing helper, for
 * tests that run in workerd) must load in a Worker or an Edge isolate: nothing they import, through every
 * package they pull in, may be a Node builtin or a framework package (hono, express, @hono/node-server).
 * The graph is walked from the BUILT files with Node's own resolution (import-graph.mjs), under the
 * conditions Worker and Edge bundlers resolve with.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const walker = fileURLToPath(new URL('./import-graph.mjs', import.meta.url));
const ENTRIES = [
  'dist/index.js',
  'dist/adapter.js',
  'dist/lockfile/index.js',
  'dist/adapters/fetch/index.js',
  'dist/adapters/fetch/prebuilt.js',
  'dist/adapters/next/index.js',
  'dist/testing/index.js',
];
/** What wrangler (workerd, worker, browser) and Next's Edge runtime (edge-light) resolve packages with. */
const WORKER_CONDITIONS = ['workerd', 'edge-light', 'worker', 'browser'];

interface Graph {
  loaded: string[];
  refused: { from: string; specifier: string; why: string }[];
  unresolved: { from: string; specifier: string; error: string }[];
}

function walk(files: string[], conditions: string[] = []): Graph {
  for (const file of files) {
    expect(existsSync(join(root, file)), `${file} is missing: run \`npm run build\` first`).toBe(true);
  }
  const flags = ['--experimental-import-meta-resolve', '--no-warnings', ...conditions.map((c) => `--conditions=${c}`)];
  const out = execFileSync(process.execPath, [...flags, walker, ...files], { cwd: root, encoding: 'utf8' });
  return JSON.parse(out) as Graph;
}

const inDist = (file: string) => file.startsWith(join(root, 'dist/'));

describe('built entries', () => {
  it('load nothing Node-only and no framework under Worker and Edge conditions', () => {
    const graph = walk(ENTRIES, WORKER_CONDITIONS);
    expect(graph.refused).toEqual([]);
    expect(graph.unresolved).toEqual([]);
    // The walk went through the packages, not just our own files.
    expect(graph.loaded.some((f) => f.includes('/@modelcontextprotocol/server/'))).toBe(true);
    expect(graph.loaded.some((f) => f.includes('/zod/'))).toBe(true);
    expect(graph.loaded.filter(inDist).length).toBeGreaterThan(30);
  });

  it('load no framework under Node conditions, and our own files import no Node builtin there either', () => {
    const graph = walk(ENTRIES);
    expect(graph.unresolved).toEqual([]);
    expect(graph.refused.filter((r) => r.why !== 'Node builtin')).toEqual([]);
    // The SDK's Node shim may use `node:process` on Node; our own code may not.
    expect(graph.refused.filter((r) => inDist(r.from))).toEqual([]);
  });

  it('leave @hono/node-server to the Express entry', () => {
    const graph = walk(['dist/adapters/express/index.js']);
    expect(graph.refused).toContainEqual(expect.objectContaining({ specifier: '@hono/node-server' }));
  });
});

describe('package.json exports', () => {
  it('name built files only', () => {
    const { exports } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      exports: Record<string, string | Record<string, string>>;
    };
    for (const [entry, targets] of Object.entries(exports)) {
      for (const file of typeof targets === 'string' ? [targets] : Object.values(targets)) {
        expect(existsSync(join(root, file)), `${entry}: ${file}`).toBe(true);
      }
    }
  });

  it('carry what their users call: the root for app authors, adapter and lockfile their plumbing', async () => {
    const names = async (file: string) => Object.keys(await import(pathToFileURL(join(root, file)).href)).sort();
    expect(await names('dist/index.js')).toEqual([
      'AUTO_PROJECTIONS',
      'McpMountSchemaError',
      'PROJECTION_NAMES',
      'ToolError',
      'autoProjection',
      'defineTool',
      'formatSchemaIssues',
      'protectedResourceMetadata',
      'validateMcpSchemas',
    ]);
    expect(await names('dist/adapter.js')).toEqual([
      'connectionAddress',
      'createMcpFetchHandler',
      'createPrebuiltMcpFetchHandler',
    ]);
    expect(await names('dist/lockfile/index.js')).toEqual(['diffSchemaLock', 'writeSchemaLock']);
  });
});

describe('the import-graph walk', () => {
  it('finds a Node builtin (with and without node:) and a framework package, also one import away', () => {
    const graph = walk(['test/packaging/fixtures/offender.mjs'], WORKER_CONDITIONS);
    expect(graph.refused.map((r) => `${r.why}: ${r.specifier}`).sort()).toEqual([
      'Node builtin: events',
      'Node builtin: node:path',
      'framework package: @hono/node-server',
      'framework package: hono',
    ]);
  });
});
