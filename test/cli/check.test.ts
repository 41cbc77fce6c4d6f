/**
 * `mcp-mount check` as users run it: the real CLI in a child process (under tsx, as `npm run check:example`
 * does), on the fixture modules in ./fixtures and on the examples' shared tool set.
 * The quick paths (usage errors, `--help`, plain .mjs, refusals) run in process, in run.test.ts.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { McpMountSchemaError, validateMcpSchemas } from 'mcp-mount';
import { createMcpFetchHandler } from 'mcp-mount/adapter';
import { writeSchemaLock } from 'mcp-mount/lockfile';
import { afterAll, describe, expect, it } from 'vitest';
import { connectV2 } from '../../examples/shared/clients.js';
import { options as exampleOptions, tools as exampleTools } from '../../examples/shared/tools.js';
import { BUILT_DOCUMENTS_FORMAT, matchDocuments } from '../../src/core/documents/read.js';
import { documentsSetup, settleOptions } from '../../src/core/serve/config.js';
import { serveTools } from '../support/server.js';
import { options as goodOptions, tools as goodTools } from './fixtures/good.js';
import { options as scopeOptions, tools as scopeTools } from './fixtures/scopes.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const cli = join(root, 'src/cli/index.ts');
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const fixture = (name: string) => `test/cli/fixtures/${name}`;
const scratch = mkdtempSync(join(tmpdir(), 'mcp-mount-cli-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** `node --import tsx src/cli/index.ts ...args`, in `cwd` (the repo root unless given). */
function mcpMount(args: string[], cwd = root): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', tsxLoader, cli, ...args],
      { cwd, env: { ...process.env, NO_COLOR: '1' } },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** A lockfile path in the scratch directory, unique per test. */
let locks = 0;
const lockPath = () => join(scratch, `lock-${++locks}.json`);
/** good.ts's lockfile, written in process (the first lockfile test shows the CLI writes the same bytes). */
const goodLock = join(scratch, 'good.lock.json');
writeFileSync(goodLock, writeSchemaLock(validateMcpSchemas(goodTools, goodOptions), goodOptions));

// Each run starts node with tsx (1 to 3 s on a quiet machine); allow for a busy one.
describe.concurrent('mcp-mount check', { timeout: 120_000 }, () => {
  it('a good module: a table of its tools, exit 0', async () => {
    const run = await mcpMount(['check', fixture('good.ts')]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/TOOL\s+SERVED\s+ERRORS\s+WARNINGS\s+INPUT PROPS/);
    expect(run.stdout).toMatch(/search_notes\s+yes\s+0\s+0\s+2/);
    expect(run.stdout).toMatch(/save_link\s+yes\s+0\s+0\s+3/);
    expect(run.stdout).toContain('OK: 2 tools, 2 served, 0 errors, 0 warnings');
  });

  it('a union input without flattening: the error by tool with its pointer, exit 1; --flat makes it pass', async () => {
    const [plain, flat] = await Promise.all([
      mcpMount(['check', fixture('union.ts')]),
      mcpMount(['check', fixture('union.ts'), '--flat']),
    ]);
    expect(plain.code).toBe(1);
    expect(plain.stdout).toMatch(/notify\s+NO\s+1\s+0\s+-/);
    expect(plain.stdout).toMatch(/\nnotify\n {2}error {3}\(root\) {2}root-not-object\n {10}\S.*flattenUnionInput/);
    expect(plain.stdout).toContain('FAILED: 1 tool, 0 served, 1 error');
    expect(flat.code).toBe(0);
    expect(flat.stdout).toContain('(projection: flat; profiles: none)');
    expect(flat.stdout).toMatch(/notify\s+yes\s+0\s+0\s+5/);
  });

  it('a .meta() keyword of the wrong type: an invalid-json-schema error at its pointer, exit 1', async () => {
    const run = await mcpMount(['check', fixture('bad-meta.ts')]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /\nlegacy_search\n {2}error {3}\/properties\/mode\/deprecated {2}invalid-json-schema\n {10}`deprecated` must be boolean/,
    );
  });

  it('--profile gemini reports what Gemini rejects, with pointer and profile, exit 1', async () => {
    const run = await mcpMount(['check', fixture('good.ts'), '--profile', 'gemini']);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('profiles: gemini');
    expect(run.stdout).toMatch(
      /\nsave_link\n {2}error {3}\/properties\/url {2}unsupported-format {2}\[profile gemini\]\n/,
    );
  });

  it('invalid scopes: an invalid-scopes error at the tool, exit 1; the mount fails naming the same issue', async () => {
    const run = await mcpMount(['check', fixture('scopes.ts')]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/archive_note\s+NO\s+1\s+0\s+-/);
    expect(run.stdout).toMatch(/read_note\s+yes\s+0\s+1\s+1/);
    expect(run.stdout).toMatch(
      /\narchive_note\n {2}error {3}tool \/scopes\/0 {2}invalid-scopes\n {10}tool "archive_note": scope "notes:read notes:write" is outside the OAuth scope-token grammar/,
    );
    expect(run.stdout).toMatch(
      /\nread_note\n {2}warning tool \/scopes {2}scopes-without-auth\n {10}tool "read_note" has scopes, but the mount has no auth option/,
    );
    expect(run.stdout).toContain('FAILED: 2 tools, 1 served, 1 error, 1 warning');
    let thrown: unknown;
    try {
      createMcpFetchHandler(scopeTools, scopeOptions);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(McpMountSchemaError);
    const reported = validateMcpSchemas(scopeTools, scopeOptions).issues.filter((i) => i.severity === 'error');
    expect((thrown as McpMountSchemaError).issues).toEqual(reported);
  });

  it('--json prints the ValidationReport, equal to validateMcpSchemas in process; --profile is repeatable', async () => {
    const run = await mcpMount([
      'check',
      fixture('good.ts'),
      '--json',
      '--profile',
      'gemini',
      '--profile=openai-strict',
    ]);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout);
    const expected = validateMcpSchemas(goodTools, {
      ...goodOptions,
      schemaValidation: { profiles: ['gemini', 'openai-strict'] },
    });
    expect(report).toEqual(JSON.parse(JSON.stringify(expected)));
    expect(new Set(report.issues.map((i: { profile?: string }) => i.profile))).toEqual(
      new Set(['gemini', 'openai-strict']),
    );
  });

  it('--write then --check-lock passes; the lockfile is writeSchemaLock of the same report', async () => {
    const lock = lockPath();
    const write = await mcpMount(['check', fixture('good.ts'), '--write', lock]);
    expect(write.code).toBe(0);
    expect(write.stdout).toContain(`wrote ${lock}: 2 tool documents`);
    expect(readFileSync(lock, 'utf8')).toBe(writeSchemaLock(validateMcpSchemas(goodTools, goodOptions), goodOptions));

    const check = await mcpMount(['check', fixture('good.ts'), '--check-lock', lock]);
    expect(check.code).toBe(0);
    expect(check.stdout).toContain(`${lock}: schema lock matches: 2 tools, no changes`);
  });

  it('--check-lock fails on drift with a diff naming tools and pointers, old → new', async () => {
    const lock = goodLock;
    const run = await mcpMount(['check', fixture('drifted.ts'), '--check-lock', lock]);
    expect(run.code).toBe(1);
    const diff = run.stdout.slice(run.stdout.indexOf(`${lock}: `));
    expect(diff).toBe(
      [
        `${lock}: schema lock drift: 5 changes`,
        '  + delete_link: tool added (not in the lockfile)',
        '  - save_link: tool removed (in the lockfile, no longer served)',
        '  search_notes',
        '    ~ /description: "Search notes by text." → "Search notes by text or tag."',
        '    ~ /inputSchema/properties/limit/maximum: 50 → 100',
        '    + /inputSchema/properties/tag: {"type":"string"}',
        '',
      ].join('\n'),
    );
  });
});

describe('mcp-mount check --emit', { timeout: 120_000 }, () => {
  it('writes a module that plain Node imports, and that round-trips through matchDocuments', async () => {
    const file = join(scratch, 'good-documents.js');
    const run = await mcpMount(['check', fixture('good.ts'), '--emit', file]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`wrote ${file}: 2 tools,`);
    // Plain Node, no loader: the module is ordinary JavaScript.
    const loaded = await new Promise<string>((resolve, reject) =>
      execFile(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `const d = (await import(${JSON.stringify(pathToFileURL(file).href)})).default; console.log(JSON.stringify([d.format, d.tools.map((t) => t.name)]))`,
        ],
        (error, stdout) => (error ? reject(error) : resolve(stdout)),
      ),
    );
    expect(JSON.parse(loaded)).toEqual([BUILT_DOCUMENTS_FORMAT, ['search_notes', 'save_link']]);
    const built = (await import(pathToFileURL(file).href)).default;
    const match = matchDocuments(goodTools, documentsSetup(settleOptions(goodOptions)), built);
    expect(match.stale).toEqual([]);
    const report = validateMcpSchemas(goodTools, goodOptions);
    for (const tool of report.tools) {
      const matched = match.matched.get(tool.name)!;
      expect(matched.inputText('faithful')).toBe(JSON.stringify(tool.inputSchema));
      expect(matched.outputSchema('faithful')).toEqual(tool.outputSchema);
    }
    // The drifted module is what a deploy without a rebuild would be: each changed tool is named.
    const { default: drifted } = await import('./fixtures/drifted.js');
    const stale = matchDocuments(drifted, documentsSetup(settleOptions(goodOptions)), built).stale;
    expect(stale.map((s) => [s.kind, s.tool])).toEqual([
      ['changed', 'search_notes'],
      ['added', 'delete_link'],
      ['removed', 'save_link'],
    ]);
    expect(stale[0]!.reason).toContain(`run \`mcp-mount check ${fixture('good.ts')} --emit ${file}\` again`);
  });
});

describe.concurrent('mcp-mount check on examples/shared/tools.ts', { timeout: 120_000 }, () => {
  it('passes, and its lockfile holds exactly the documents tools/list serves', async () => {
    const lock = lockPath();
    const run = await mcpMount(['check', 'examples/shared/tools.ts', '--write', lock]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('projection: flat;');
    expect(run.stdout).toContain('OK: 3 tools, 3 served, 0 errors, 0 warnings');

    const text = readFileSync(lock, 'utf8');
    expect(text).toBe(writeSchemaLock(validateMcpSchemas(exampleTools, exampleOptions), exampleOptions));
    const locked = JSON.parse(text);
    expect(locked.options).toEqual({ projection: 'flat', extendKeys: [] });
    expect(Object.keys(locked.projections)).toEqual(['flat']);

    const running = await serveTools(exampleTools, exampleOptions);
    try {
      const client = await connectV2(running.url);
      try {
        const listed = (await client.listTools()).tools as Array<Record<string, unknown>>;
        const keys = ['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations'];
        const documents = listed.map((t) =>
          Object.fromEntries(keys.filter((k) => t[k] !== undefined).map((k) => [k, t[k]])),
        );
        expect(locked.projections.flat.tools).toEqual(documents);
      } finally {
        await client.close();
      }
    } finally {
      await running.close();
    }
  });

  it('works from another working directory (tsconfig paths are found beside the module)', async () => {
    const run = await mcpMount(['check', join(root, 'examples/shared/tools.ts')], scratch);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
  });
});
