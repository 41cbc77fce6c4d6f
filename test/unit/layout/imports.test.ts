/**
 * The import direction of `src/`, checked on the files themselves: every relative import and
 * export-from (type-only ones included) is resolved to a file and judged by the layer of both ends.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const SRC = join(ROOT, 'src');

/**
 * Folders (or files) of `src/` and their layer: a file may import its own module and any lower layer. The
 * concerns (access, limits, arguments, prepare, documents, tasks) are peers at one layer, so none imports another;
 * each may import observe/, below them, which they all report through. documents/ never reaching prepare/ is
 * what keeps the prebuilt Worker entry free of the preparation. serve/ composes them all.
 */
const LAYERS: ReadonlyArray<{ module: string; layer: number }> = [
  { module: 'core/json-schema', layer: 0 },
  { module: 'core/zod', layer: 0 },
  { module: 'core/projection', layer: 1 },
  { module: 'core/repair', layer: 1 },
  { module: 'core/probe', layer: 1 },
  { module: 'core/messages', layer: 1 },
  { module: 'core/settle', layer: 2 },
  { module: 'core/http', layer: 2 },
  { module: 'core/model', layer: 2 },
  { module: 'core/observe', layer: 3 },
  { module: 'core/access', layer: 4 },
  { module: 'core/limits', layer: 4 },
  { module: 'core/arguments', layer: 4 },
  { module: 'core/prepare', layer: 4 },
  { module: 'core/documents', layer: 4 },
  { module: 'core/tasks', layer: 4 },
  { module: 'core/serve', layer: 5 },
  { module: 'index.ts', layer: 6 },
  { module: 'adapter.ts', layer: 6 },
  { module: 'lockfile', layer: 6 },
  // The task store backends' own entries (`mcp-mount/tasks/<backend>`).
  { module: 'tasks', layer: 6 },
  { module: 'cli', layer: 7 },
  { module: 'adapters/express', layer: 7 },
  { module: 'adapters/fetch', layer: 7 },
  { module: 'adapters/hono', layer: 7 },
  { module: 'adapters/next', layer: 7 },
  { module: 'testing', layer: 7 },
];

/**
 * Imports between modules of the same layer that are allowed, as `[from module, to module or file]`.
 * Keep it short: a new entry is a dependency between peers that might rather move down a layer.
 */
const ALLOWED_PEER_EDGES: ReadonlyArray<readonly [string, string]> = [
  // Zod helpers build on the JSON helpers; never the other way round.
  ['core/zod', 'core/json-schema'],
  // The probe quotes values in its messages the way error messages do.
  ['core/probe', 'core/messages/describe.ts'],
  // Repair reports the path of what it changed in the spelling every message uses.
  ['core/repair', 'core/messages/path.ts'],
];

/** Modules that may import only these modules, whatever lies below them. */
const ONLY: Readonly<Record<string, readonly string[]>> = {
  lockfile: ['core/serve/options.ts', 'core/prepare/report.ts', 'core/json-schema'],
};

/** An adapter imports the package as users do: through a public entry. */
const PUBLIC_ENTRIES: readonly string[] = ['index.ts', 'adapter.ts'];

/** Entries built on the public API alone, like an adapter: the testing helper. */
const ON_PUBLIC_API: readonly string[] = ['testing'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** `src/`-relative path with forward slashes, e.g. `core/zod/def.ts`. */
function srcPath(file: string): string {
  return relative(SRC, file).split('\\').join('/');
}

function within(path: string, module: string): boolean {
  return path === module || path.startsWith(`${module}/`);
}

function moduleOf(path: string): { module: string; layer: number } | undefined {
  return LAYERS.find((l) => within(path, l.module));
}

/** Resolves a relative specifier as NodeNext does for our sources: `./x.js` is `./x.ts`. */
function resolveSpecifier(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier);
  const candidates = [base.replace(/\.js$/, '.ts'), base, `${base}.ts`, join(base, 'index.ts')];
  return candidates.find((c) => c.endsWith('.ts') && existsSync(c));
}

interface Edge {
  from: string;
  to: string;
  specifier: string;
}

function importEdges(file: string, text: string): { edges: Edge[]; unresolved: string[] } {
  const info = ts.preProcessFile(text, true, true);
  const edges: Edge[] = [];
  const unresolved: string[] = [];
  for (const ref of info.importedFiles) {
    if (!ref.fileName.startsWith('.')) continue; // a package
    const target = resolveSpecifier(file, ref.fileName);
    if (target === undefined) unresolved.push(`${srcPath(file)}: '${ref.fileName}' resolves to no file`);
    else edges.push({ from: srcPath(file), to: srcPath(target), specifier: ref.fileName });
  }
  return { edges, unresolved };
}

/** Why an import breaks the layering, or undefined when it is allowed. */
function violation(from: string, to: string): string | undefined {
  const a = moduleOf(from);
  const b = moduleOf(to);
  if (!a) return `${from} is in no layer (add its folder to LAYERS)`;
  if (!b) return `${to} is in no layer (add its folder to LAYERS)`;
  if (a.module === b.module) return undefined;
  if (a.module.startsWith('adapters/') || ON_PUBLIC_API.includes(a.module)) {
    if (PUBLIC_ENTRIES.includes(to)) return undefined;
    return `${a.module.startsWith('adapters/') ? 'an adapter' : a.module} imports ${to}, which is not a public entry`;
  }
  const only = ONLY[a.module];
  if (only && !only.some((m) => within(to, m))) return `${a.module} may import only ${only.join(', ')}`;
  if (b.layer < a.layer) return undefined;
  if (ALLOWED_PEER_EDGES.some(([f, t]) => within(from, f) && within(to, t))) return undefined;
  return b.layer === a.layer
    ? `${a.module} and ${b.module} are peers (layer ${a.layer}) and this edge is not in ALLOWED_PEER_EDGES`
    : `layer ${a.layer} (${a.module}) imports layer ${b.layer} (${b.module}), against the direction`;
}

/** Every cycle of the file graph, one per strongly connected component, as a closed path. */
function findCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  let next = 0;
  const connect = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      const selfLoop = component.length === 1 && (graph.get(v) ?? []).includes(v);
      if (component.length > 1 || selfLoop) components.push(component);
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) connect(v);
  return components.map((component) => cyclePath(graph, new Set(component)));
}

/** A shortest closed path through the first (alphabetical) file of a strongly connected component. */
function cyclePath(graph: ReadonlyMap<string, readonly string[]>, component: ReadonlySet<string>): string[] {
  const start = [...component].sort()[0]!;
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift()!;
    for (const w of graph.get(v) ?? []) {
      if (!component.has(w)) continue;
      if (w === start) {
        const path: string[] = [];
        for (let u = v; u !== start; u = previous.get(u)!) path.unshift(u);
        return [start, ...path, start];
      }
      if (!previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start];
}

const files = sourceFiles(SRC);
const parsed = files.map((file) => importEdges(file, readFileSync(file, 'utf8')));
const edges = parsed.flatMap((p) => p.edges);

describe('src import layout', () => {
  it('finds the source files and their imports', () => {
    expect(files.length).toBeGreaterThan(50);
    expect(edges.length).toBeGreaterThan(100);
    expect(parsed.flatMap((p) => p.unresolved)).toEqual([]);
  });

  it('imports only along the layer direction', () => {
    const wrong = edges.flatMap((e) => {
      const why = violation(e.from, e.to);
      return why ? [`${e.from} imports '${e.specifier}' (${e.to}): ${why}`] : [];
    });
    expect(wrong).toEqual([]);
  });

  it('keeps the task store backends out of every existing entry: each is its own module, bundled only when imported', () => {
    const graph = new Map<string, string[]>();
    for (const e of edges) graph.set(e.from, [...(graph.get(e.from) ?? []), e.to]);
    const entries = files
      .map(srcPath)
      .filter((f) => /^(index|adapter)\.ts$|^(adapters\/[^/]+|testing|lockfile|cli)\//.test(f));
    expect(entries).toContain('adapters/fetch/index.ts');
    const reached = new Set<string>();
    const queue = [...entries];
    while (queue.length > 0) {
      const file = queue.pop()!;
      if (reached.has(file)) continue;
      reached.add(file);
      queue.push(...(graph.get(file) ?? []));
    }
    const backends = ['core/tasks/memory.ts', 'core/tasks/redis.ts', 'core/tasks/durable-object.ts'];
    expect([...reached].filter((f) => backends.includes(f))).toEqual([]);
  });

  it('has no import cycle', () => {
    const graph = new Map<string, string[]>();
    for (const file of files) graph.set(srcPath(file), []);
    for (const e of edges) graph.get(e.from)!.push(e.to);
    expect(findCycles(graph).map((cycle) => cycle.join(' -> '))).toEqual([]);
  });

  it('judges the rules themselves as meant', () => {
    expect(violation('core/json-schema/types.ts', 'core/zod/def.ts')).toMatch(/not in ALLOWED_PEER_EDGES/);
    expect(violation('core/zod/def.ts', 'core/json-schema/types.ts')).toBeUndefined();
    expect(violation('core/messages/format.ts', 'core/repair/selection.ts')).toMatch(/peers/);
    expect(violation('core/probe/types.ts', 'core/serve/options.ts')).toMatch(/against the direction/);
    expect(violation('lockfile/lockfile.ts', 'core/serve/handler.ts')).toMatch(/may import only/);
    expect(violation('adapters/hono/index.ts', 'core/repair/index.ts')).toMatch(/not a public entry/);
    expect(violation('core/documents/read.ts', 'core/prepare/prepare.ts')).toMatch(/peers/);
    expect(violation('core/access/auth.ts', 'core/limits/rate.ts')).toMatch(/peers/);
    expect(violation('core/access/auth.ts', 'core/observe/observe.ts')).toBeUndefined();
    expect(violation('core/observe/observe.ts', 'core/access/auth.ts')).toMatch(/against the direction/);
    expect(violation('adapters/hono/index.ts', 'index.ts')).toBeUndefined();
    expect(violation('testing/index.ts', 'core/serve/handler.ts')).toMatch(/not a public entry/);
    expect(violation('testing/index.ts', 'index.ts')).toBeUndefined();
    expect(violation('core/tasks/store.ts', 'core/access/auth.ts')).toMatch(/peers/);
    expect(violation('core/tasks/store.ts', 'core/observe/observe.ts')).toBeUndefined();
    const cyclic = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ]);
    expect(findCycles(cyclic)).toEqual([['a.ts', 'b.ts', 'c.ts', 'a.ts']]);
  });
});
