/**
 * The measurements of run.ts, on Node 22: one Hono server with a mount per projection (`/mcp/<name>`) and one
 * `'auto'` mount of every fixture tool (`/mcp/auto`), each library connected to each.
 */
import type { AddressInfo } from 'node:net';
import { isDeepStrictEqual } from 'node:util';
import { serve } from '@hono/node-server';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { Hono } from 'hono';
import { autoProjection, PROJECTION_NAMES, type ProjectionName } from 'mcp-mount';
import { mcp } from 'mcp-mount/hono';
import { awkwardTools, DEEP_TREE, received, TAG_VALUES, tools, WRONG_TAG, wrongNameAt } from './fixture.js';
import { grammarChecks, grammarSweep, grammarTable, loadLlama, measureGrammars, sweepLine } from './grammar.js';
import { inspectorChecks } from './inspector.js';
import { LIBRARIES, type LibraryName, type LibrarySession } from './libraries.js';

/** Depths at which a wrongly typed `name` is tried. */
const DEPTHS = [0, 1, 2, 3, 4, 5, 6];

/** What a schema pair (the tree's, the tags') still says: how deep it types the tree, the scalar union, valid values. */
export interface Reading {
  /** The deepest level at which the tree schema still refuses a wrongly typed `name`; -1 for none. */
  typedDepth: number;
  tagTyped: boolean;
  acceptsValid: boolean;
}

/** What one library made of one mount's tools, beside what the mount served. */
export interface Row extends Reading {
  library: LibraryName;
  mount: string;
  listed: string;
  /** The served documents' reading: a library converts whole when it loses nothing of it. */
  served?: Reading;
  calls: boolean;
  error?: string;
}

type Mounts = Array<{ name: string; error?: string }>;

function startServer(): { url: (mount: string) => string; mounts: Mounts; close(): void; ready: Promise<void> } {
  const app = new Hono();
  const mounts: Mounts = [];
  let family: ReturnType<typeof mcp> | undefined;
  const add = (name: string, make: () => ReturnType<typeof mcp>) => {
    try {
      app.all(`/mcp/${name}`, make());
      mounts.push({ name });
    } catch (error) {
      mounts.push({ name, error: (error as Error).message.split('\n')[0] });
    }
  };
  for (const projection of PROJECTION_NAMES) add(projection, () => mcp(tools, { projection }));
  add('auto', () => mcp([...tools, ...awkwardTools], { projection: 'auto' }));
  // The guide's recipe for clients that never name themselves: one URL per family, one mount.
  for (const projection of PROJECTION_NAMES) {
    add(`family/${projection}`, () => {
      family ??= mcp([...tools, ...awkwardTools], { projection: byPath });
      return family;
    });
  }
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  const ready = new Promise<void>((resolve) => server.once('listening', () => resolve()));
  return {
    url: (mount) => `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp/${mount}`,
    mounts,
    close: () => server.close(),
    ready,
  };
}

/** `/mcp/family/<projection>` serves that projection; any other path, what `'auto'` picks. */
function byPath(client: Parameters<typeof autoProjection>[0], request: { url: URL }): ProjectionName {
  const last = request.url.pathname.split('/').pop() ?? '';
  return (PROJECTION_NAMES as readonly string[]).includes(last) ? (last as ProjectionName) : autoProjection(client);
}

/** The documents `tools/list` serves at `url`, by tool name (a 2025-era stateless request). */
async function servedDocuments(url: string): Promise<Map<string, Record<string, unknown>>> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });
  const text = await response.text();
  const json = text.startsWith('{') ? text : (text.split('\n').find((l) => l.startsWith('data: ')) ?? '').slice(6);
  const listed = JSON.parse(json).result.tools as Array<{ name: string; inputSchema: Record<string, unknown> }>;
  return new Map(listed.map((t) => [t.name, t.inputSchema]));
}

/** Ajv on the schema a library converted: what a model (or the library's own validation) would be held to. */
function accepts(schema: Record<string, unknown>): (value: unknown) => boolean {
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateSchema: false });
  const { $schema: _dialect, ...body } = schema;
  const validate = ajv.compile(body);
  return (value) => validate(value) === true;
}

/** The parse each call must reach the handler with: what was sent, since these schemas transform nothing. */
async function callsReachHandler(session: LibrarySession): Promise<boolean> {
  const cases: Array<[string, Record<string, unknown>]> = [
    ['tree', DEEP_TREE],
    ...TAG_VALUES.map((v): [string, Record<string, unknown>] => ['tags', { ...v }]),
  ];
  for (const [name, args] of cases) {
    const tool = session.tools.get(name);
    if (!tool) return false;
    received.length = 0;
    await tool.call(args);
    if (received.length !== 1 || !isDeepStrictEqual(received[0], args)) return false;
  }
  return true;
}

function read(tree: Record<string, unknown>, tags: Record<string, unknown>): Reading {
  const treeAccepts = accepts(tree);
  const tagsAccept = accepts(tags);
  let typedDepth = -1;
  while (typedDepth + 1 < DEPTHS.length && !treeAccepts(wrongNameAt(typedDepth + 1))) typedDepth++;
  return {
    typedDepth,
    tagTyped: !tagsAccept(WRONG_TAG),
    acceptsValid: treeAccepts(DEEP_TREE) && TAG_VALUES.every((v) => tagsAccept(v)),
  };
}

async function measure(library: LibraryName, mount: string, url: string): Promise<Row> {
  const row: Row = { library, mount, listed: '', typedDepth: -1, tagTyped: false, acceptsValid: false, calls: false };
  let session: LibrarySession | undefined;
  try {
    const served = await servedDocuments(url);
    const [tree, tags] = [served.get('tree'), served.get('tags')];
    if (tree && tags) row.served = read(tree, tags);
    session = await LIBRARIES[library](url);
    row.listed = [...session.tools.keys()].sort().join(' ');
    const [libraryTree, libraryTags] = [session.tools.get('tree'), session.tools.get('tags')];
    if (libraryTree && libraryTags) {
      Object.assign(row, read(libraryTree.schema, libraryTags.schema));
      row.calls = await callsReachHandler(session);
    }
  } catch (error) {
    row.error = (error as Error).message.split('\n')[0]!.slice(0, 120);
  } finally {
    await session?.close().catch(() => {});
  }
  return row;
}

export async function measureAll(): Promise<{ rows: Row[]; mounts: Mounts }> {
  const server = startServer();
  await server.ready;
  const rows: Row[] = [];
  try {
    for (const library of Object.keys(LIBRARIES) as LibraryName[]) {
      for (const { name, error } of server.mounts) {
        if (error) continue;
        rows.push(await measure(library, name, server.url(name)));
      }
    }
  } finally {
    server.close();
  }
  return { rows, mounts: server.mounts };
}

/**
 * A whole conversion: the library's schema types the tree as deep as the served document does, types the
 * scalar union where the document does, and accepts every valid value.
 */
export const whole = (row: Row) =>
  row.served !== undefined &&
  row.typedDepth === row.served.typedDepth &&
  row.tagTyped === row.served.tagTyped &&
  row.acceptsValid;

const depthText = (depth: number) => (depth === DEPTHS.length - 1 ? 'all' : String(depth));

function table(rows: Row[], mounts: Mounts): string {
  const lines = [
    '| library | mount | listed | typed depth (served) | `string \\| string[]` typed (served) | accepts valid | calls |',
    '| --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const r of rows) {
    const served = r.served;
    const depth = `${depthText(r.typedDepth)} (${served ? depthText(served.typedDepth) : '-'})`;
    const tag = `${r.tagTyped ? 'yes' : 'no'} (${served ? (served.tagTyped ? 'yes' : 'no') : '-'})`;
    const listed = r.error ? `error: ${r.error}` : r.listed;
    lines.push(
      `| ${r.library} | ${r.mount} | ${listed} | ${depth} | ${tag} | ${r.acceptsValid ? 'yes' : 'no'} | ${r.calls ? 'yes' : 'no'} |`,
    );
  }
  for (const m of mounts) if (m.error) lines.push(`| (all) | ${m.name} | mount refused: ${m.error} | | | | |`);
  return lines.join('\n');
}

/** The mounts unknown clients meet: `flat`, `'auto'`, and the recipe's `flat` URL. */
const FOR_UNKNOWN_CLIENTS = new Set(['flat', 'auto', 'family/flat']);

/** Measures, prints the table, checks what unknown clients must get; the exit code. */
export async function main(): Promise<number> {
  const { rows, mounts } = await measureAll();
  console.log(table(rows, mounts));
  const checks: Array<[string, boolean]> = [];
  for (const m of mounts) if (!isProfileMount(m.name)) checks.push([`mount ${m.name} starts`, m.error === undefined]);
  for (const r of rows.filter((row) => FOR_UNKNOWN_CLIENTS.has(row.mount))) {
    checks.push([
      `${r.library} ${r.mount}: lists every tool`,
      (r.error === undefined && r.listed === 'labels shape tags tree') ||
        (r.mount === 'flat' && r.listed === 'tags tree'),
    ]);
    checks.push([`${r.library} ${r.mount}: converted whole`, whole(r)]);
    checks.push([`${r.library} ${r.mount}: nested levels typed`, r.typedDepth >= 2 && r.tagTyped]);
    checks.push([`${r.library} ${r.mount}: calls reach the handler with the parse`, r.calls]);
  }
  checks.push(...(await inspectorChecks()));
  const llama = await loadLlama();
  try {
    const rows = await measureGrammars(llama);
    console.log(grammarTable(rows));
    const sweep = await grammarSweep(llama);
    console.log(sweepLine(sweep));
    checks.push(...grammarChecks(rows, sweep));
  } finally {
    await llama.dispose();
  }
  const failed = checks.filter(([, ok]) => !ok);
  for (const [what] of failed) console.log(`FAIL ${what}`);
  console.log(`${checks.length - failed.length} passed, ${failed.length} failed`);
  return failed.length === 0 ? 0 : 1;
}

/** A mount of one profile projection alone: it may refuse a tool set, as the team asked. */
const isProfileMount = (name: string) =>
  !name.includes('/') && name !== 'flat' && name !== 'faithful' && name !== 'auto';
