/**
 * The CLI's quick paths, in process through `runCli` (the function `src/cli/index.ts` runs with the
 * process streams): usage errors, `--help`, a plain .mjs module, the module contract, lockfile refusals.
 * The child-process runs are in check.test.ts.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type AnyTool, validateMcpSchemas } from 'mcp-mount';
import { writeSchemaLock } from 'mcp-mount/lockfile';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runCli, withFlags } from '../../src/cli/main.js';
import { options as goodOptions, tools as goodTools } from './fixtures/good.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'mcp-mount-cli-run-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function run(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    cwd: root,
  });
  return { code, stdout, stderr };
}

/** Writes a module into the scratch directory and returns its path. */
function module(name: string, source: string): string {
  const path = join(scratch, name);
  writeFileSync(path, source);
  return path;
}

describe('usage', () => {
  it('--help prints the usage on stdout, exit 0', async () => {
    const r = await run('--help');
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toContain('Usage: mcp-mount check <module> [options]');
    expect(r.stdout).toContain('anthropic, openai-strict, gemini, cursor, local-grammar');
  });

  it.each([
    [[], 'no command'],
    [['lint', 'x.ts'], 'unknown command "lint"'],
    [['check'], 'check needs a module path'],
    [['check', 'a.ts', 'b.ts'], 'unexpected argument "b.ts"'],
    [['check', 'a.ts', '--flatten'], "Unknown option '--flatten'"],
    [['check', 'a.ts', '--write'], "Option '--write <value>' argument missing"],
    [['check', 'a.ts', '--write', 'l.json', '--check-lock', 'l.json'], 'use either --write or --check-lock'],
    [['check', 'a.ts', '--profile', 'nonsense'], 'unknown profile "nonsense" (known: anthropic, openai-strict'],
    [['check', 'a.ts', '--allow-untyped', 'payload'], '--allow-untyped takes TOOL:POINTER'],
    [['check', 'a.ts', '--show', 'vscode'], '--show: unknown projection "vscode" (known: faithful, flat, anthropic'],
    [['check', 'a.ts', '--show', 'flat', '--all-projections'], 'either --show or --all-projections'],
    [['check', 'a.ts', '--projection', 'cursors'], '--projection takes auto or a projection name'],
    [['check', 'a.ts', '--flat', '--projection', 'auto'], 'cannot be combined with --projection auto'],
    [['check', 'a.ts', '--projection-option', 'auto'], '--projection-option is --projection since 0.1'],
  ])('%j: exit 2, says why on stderr', async (argv, why) => {
    const r = await run(...argv);
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr).toContain(why);
  });
});

describe('loading modules', () => {
  it('a plain .mjs module with named `tools` loads without tsx', async () => {
    const r = await run('check', 'test/cli/fixtures/plain.mjs');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/ping\s+yes\s+0\s+0\s+1/);
  });

  it('default exports: the tools array, or `{ tools, options }`', async () => {
    const head =
      "import { z } from 'zod';\nconst t = { name: 't', input: z.object({ a: z.string() }), handler: () => 1 };\n";
    const array = module('default-array.mjs', `${head}export default [t];\n`);
    const object = module(
      'default-object.mjs',
      `${head}export default { tools: [t], options: { flattenUnionInput: true } };\n`,
    );
    expect((await run('check', array)).stdout).toMatch(/projection: faithful;[\s\S]*t\s+yes/);
    expect((await run('check', object)).stdout).toMatch(/projection: flat;[\s\S]*t\s+yes/);
  });

  it('a missing module, a module without tools, a bad tool or bad options: exit 2 naming the problem', async () => {
    const cases: Array<[string, string]> = [
      [join(scratch, 'missing.mjs'), 'module not found'],
      [module('empty.mjs', 'export const x = 1;\n'), 'exports no tools'],
      [module('bad-tool.mjs', 'export const tools = [{ title: "no name" }];\n'), 'tools[0] is not a tool'],
      [
        module('bad-options.mjs', 'export const tools = [];\nexport const options = 3;\n'),
        '`options` must be an object',
      ],
      [module('throws.mjs', 'throw new Error("boom at import");\n'), 'boom at import'],
      ['test/cli/fixtures/no-tools.ts', 'test/cli/fixtures/no-tools.ts exports no tools: export `tools`'],
    ];
    for (const [path, why] of cases) {
      const r = await run('check', path);
      expect(r, path).toMatchObject({ code: 2, stdout: '' });
      expect(r.stderr, path).toContain(why);
    }
  });

  it('a TypeScript module is loaded with tsx (union.ts: a served-root error, exit 1)', async () => {
    const r = await run('check', 'test/cli/fixtures/union.ts');
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('root-not-object');
  });
});

describe('lockfile paths', () => {
  it('--write with schema errors writes nothing, exit 1', async () => {
    const lock = join(scratch, 'refused.lock.json');
    const r = await run('check', 'test/cli/fixtures/union.ts', '--write', lock);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`did not write ${lock}: fix the errors first`);
    expect(() => readFileSync(lock)).toThrow();
  });

  it('--check-lock with a missing, broken or future lockfile: exit 2 with the reason', async () => {
    const cases: Array<[string, string]> = [
      [join(scratch, 'none.json'), 'ENOENT'],
      [module('broken.lock.json', '{"lockfileVersion": 1, "tools": [\n'), 'invalid JSON'],
      [module('future.lock.json', '{"lockfileVersion": 99, "tools": []}\n'), 'unsupported lockfileVersion 99'],
    ];
    for (const [path, why] of cases) {
      const r = await run('check', 'test/cli/fixtures/plain.mjs', '--check-lock', path);
      expect(r, path).toMatchObject({ code: 2, stdout: '' });
      expect(r.stderr, path).toContain(`cannot check ${path}`);
      expect(r.stderr, path).toContain(why);
    }
  });

  it('--json --write: the report on stdout, the note on stderr, so stdout stays JSON', async () => {
    const lock = join(scratch, 'plain.lock.json');
    const r = await run('check', 'test/cli/fixtures/plain.mjs', '--json', '--write', lock);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).tools[0].name).toBe('ping');
    expect(r.stderr).toContain(`wrote ${lock}: 1 tool document`);
    expect(JSON.parse(readFileSync(lock, 'utf8')).projections.faithful.tools[0].name).toBe('ping');
  });

  it('--check-lock --json: the report plus `lock` with the changes on stdout, the diff text on stderr', async () => {
    const lock = module('good.lock.json', writeSchemaLock(validateMcpSchemas(goodTools, goodOptions), goodOptions));
    const r = await run('check', 'test/cli/fixtures/drifted.ts', '--check-lock', lock, '--json');
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out.ok).toBe(true);
    expect(out.lock.ok).toBe(false);
    expect(out.lock.changes).toContainEqual({ kind: 'tool-added', projection: 'faithful', tool: 'delete_link' });
    expect(out.lock.changes).toContainEqual({
      kind: 'changed',
      projection: 'faithful',
      tool: 'search_notes',
      pointer: '/inputSchema/properties/limit/maximum',
      before: 50,
      after: 100,
    });
    expect(r.stderr).toContain(`${lock}: schema lock drift: 5 changes`);
  });
});

describe('probe option flags', () => {
  const source =
    "import { z } from 'zod';\nexport const tools = [{ name: 't', input: z.object({ blob: z.any(), id: z.cuid() }), handler: () => 1 }];\n";

  it('--require-typed-properties and --require-portable-formats turn the checks on; --allow-* exempt', async () => {
    const path = module('probe-flags.mjs', source);
    const codes = async (...flags: string[]) => {
      const r = await run('check', path, '--json', ...flags);
      return { code: r.code, issues: JSON.parse(r.stdout).issues.map((i: { code: string }) => i.code) };
    };
    expect(await codes()).toEqual({ code: 0, issues: [] });
    expect(await codes('--require-typed-properties', '--require-portable-formats')).toEqual({
      code: 1,
      issues: ['untyped-property', 'non-portable-format'],
    });
    expect(
      await codes(
        '--require-typed-properties',
        '--allow-untyped',
        't:/properties/blob',
        '--require-portable-formats',
        '--allow-format=cuid',
      ),
    ).toEqual({ code: 0, issues: [] });
  });
});

describe('the server hook', () => {
  it("is probed too: a prompt argument that accepts no string is an error under the prompt's name, exit 1", async () => {
    const path = module(
      'hook.mjs',
      "import { z } from 'zod';\nexport const tools = [];\nexport const options = { server: { features(s) { s.registerPrompt('count', { argsSchema: z.object({ n: z.number() }) }, () => ({ messages: [] })); } } };\n",
    );
    const r = await run('check', path);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/\ncount\n {2}error {3}prompt \/arguments\/n {2}prompt-argument-not-string\n/);
  });
});

describe('projections', () => {
  // A union root: `faithful` (Zod's own document) cannot serve it, `flat` can. That difference is the
  // projections' own, whatever the profile rewrites make of `flat`; a function option serves them all.
  const union =
    "import { z } from 'zod';\nexport const tools = [{ name: 'notify', input: z.discriminatedUnion('kind', [z.object({ kind: z.literal('a'), a: z.string() }), z.object({ kind: z.literal('b'), b: z.number() })]), handler: () => 1 }];\n";
  const byClient = () =>
    module(
      'by-client.mjs',
      `${union}export const options = { projection: { choose: (client) => (client.name === 'x' ? 'faithful' : 'flat'), errors: 'fail' } };\n`,
    );
  const load = async (path: string) =>
    (await import(pathToFileURL(path).href)) as { tools: AnyTool[]; options?: object };

  it('without a projection flag: the default one, a line naming the others, and the exit code of them all', async () => {
    const path = byClient();
    const { tools, options } = await load(path);
    const report = validateMcpSchemas(tools, options);
    const others = Object.keys(report.projections).filter((n) => n !== 'flat');
    const r = await run('check', path);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`(projection: function, serving ${Object.keys(report.projections).join(', ')}; `);
    expect(r.stdout).toContain('\nprojection flat (default)\n');
    expect(r.stdout).not.toContain('\nprojection faithful');
    expect(r.stdout).toMatch(
      /\nFAILED: 1 tool, .*\(projection flat\); errors in projections not shown: .*faithful \(1\)/,
    );
    expect(r.stdout).toContain(
      `\nAlso served: ${others.join(', ')}. Show one with --show NAME, every one with --all-projections.\n`,
    );
  });

  it('--show NAME shows that projection: its table and issues, with the default projection left out', async () => {
    const r = await run('check', byClient(), '--show', 'faithful');
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('\nprojection faithful\n');
    expect(r.stdout).toMatch(/\nnotify\n {2}error {3}\(root\) {2}root-not-object\n/);
    expect(r.stdout).toMatch(/FAILED: 1 tool, \d served, 1 error, .*\(projection faithful\)/);
    expect(r.stdout).toMatch(/\nAlso served: flat, /);
  });

  it('--show NAME that the mount does not serve: exit 2 naming the served ones and the option flag', async () => {
    const r = await run('check', 'test/cli/fixtures/plain.mjs', '--show', 'cursor');
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr).toContain('--show cursor: the mount does not serve it; it serves faithful');
    expect(r.stderr).toContain('add --projection cursor or --projection auto');
    const served = await run('check', 'test/cli/fixtures/plain.mjs', '--projection', 'auto', '--show', 'cursor');
    expect(served.stdout).toContain('\nprojection cursor\n');
  });

  it('--all-projections: one section per served projection in order, each listing only its own issues', async () => {
    const path = byClient();
    const { tools, options } = await load(path);
    const report = validateMcpSchemas(tools, options);
    const r = await run('check', path, '--all-projections');
    expect(r.code).toBe(report.ok ? 0 : 1);
    const headings = [...r.stdout.matchAll(/^projection (\S+)/gm)].map((m) => m[1]);
    expect(headings).toEqual(Object.keys(report.projections));
    expect(r.stdout).not.toContain('Also served');
    const sections = r.stdout.split(/^projection /m).slice(1);
    for (const [i, name] of Object.keys(report.projections).entries()) {
      const own = report.projections[name as 'flat']!.issues.filter((issue) => issue.projection === name);
      const listed = sections[i]!.match(/^ {2}(error|warning|info) /gm) ?? [];
      expect(listed.length, name).toBe(own.length);
    }
    expect(sections[Object.keys(report.projections).indexOf('faithful')]).toContain('root-not-object');
  });

  it('--all-projections lists an issue that concerns every projection once, before the sections', async () => {
    const path = module(
      'hook-auto.mjs',
      "import { z } from 'zod';\nexport const tools = [{ name: 't', input: z.object({ a: z.string() }), handler: () => 1 }];\nexport const options = { projection: 'auto', server: { features(s) { s.registerPrompt('count', { argsSchema: z.object({ n: z.number() }) }, () => ({ messages: [] })); } } };\n",
    );
    const r = await run('check', path, '--all-projections');
    expect(r.code).toBe(1);
    expect(r.stdout.match(/prompt-argument-not-string/g)).toHaveLength(1);
    expect(r.stdout.indexOf('\nevery projection\n')).toBeLessThan(r.stdout.indexOf('\nprojection flat (default)\n'));
  });

  it('--projection sets the projection option: --json reports what a mount with it serves', async () => {
    const r = await run('check', 'test/cli/fixtures/plain.mjs', '--projection', 'auto', '--json');
    const { tools } = await load(join(root, 'test/cli/fixtures/plain.mjs'));
    const expected = validateMcpSchemas(tools, { projection: 'auto' });
    expect(r.code).toBe(expected.ok ? 0 : 1);
    expect(JSON.parse(r.stdout)).toEqual(JSON.parse(JSON.stringify(expected)));
    expect(Object.keys(expected.projections).length).toBeGreaterThan(1);
  });

  it('--check-lock compares every projection: drift in one names the tool, the projection and the pointer', async () => {
    const { tools } = await load(join(root, 'test/cli/fixtures/plain.mjs'));
    const options = { projection: 'auto' } as const;
    const lock = JSON.parse(writeSchemaLock(validateMcpSchemas(tools, options), options));
    const matching = module('auto.lock.json', JSON.stringify(lock));
    const same = await run('check', 'test/cli/fixtures/plain.mjs', '--projection', 'auto', '--check-lock', matching);
    expect(same.stdout).toContain(`${matching}: schema lock matches: 1 tool, no changes`);

    lock.projections.cursor.tools[0].description = 'Reply.';
    const drifted = module('auto-drifted.lock.json', JSON.stringify(lock));
    const r = await run('check', 'test/cli/fixtures/plain.mjs', '--projection', 'auto', '--check-lock', drifted);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      `${drifted}: schema lock drift: 1 change\n  ping (cursor)\n    ~ /description: "Reply." → "Reply with pong."\n`,
    );
    const other = await run('check', 'test/cli/fixtures/plain.mjs', '--check-lock', matching);
    expect(other.stdout).toContain('~ projection: "auto" → "faithful"');
    expect(other.stdout).toContain('- projection cursor: in the lockfile, no longer served');
  });

  it('--write records every served projection and says how many', async () => {
    // No tools: no projection can have an error, so the write goes ahead whatever the profile rewrites do.
    const path = module('none-auto.mjs', "export const tools = [];\nexport const options = { projection: 'auto' };\n");
    const lock = join(scratch, 'none-auto.lock.json');
    const r = await run('check', path, '--write', lock);
    const served = Object.keys(validateMcpSchemas([], { projection: 'auto' }).projections);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      `wrote ${lock}: 0 tool documents in each of ${served.length} projections (${served.join(', ')})`,
    );
    expect(Object.keys(JSON.parse(readFileSync(lock, 'utf8')).projections)).toEqual(served);
  });

  it('--check-lock with a version-1 lockfile: exit 2, "regenerate", no diff', async () => {
    const v1 = module('v1.lock.json', '{"lockfileVersion": 1, "options": {}, "tools": []}\n');
    const r = await run('check', 'test/cli/fixtures/plain.mjs', '--check-lock', v1);
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr).toContain(`cannot check ${v1}: lockfileVersion 1 is the format of an older mcp-mount`);
    expect(r.stderr).toContain('regenerate the file with --write');
  });
});

describe('withFlags', () => {
  it('--projection and --flat replace the module projection choice, and nothing else', () => {
    expect(withFlags({ server: { name: 'n' }, projection: 'auto' }, { projection: 'cursor' })).toEqual({
      server: { name: 'n' },
      projection: 'cursor',
    });
    expect(withFlags({ flattenUnionInput: true }, { projection: 'auto' })).toEqual({ projection: 'auto' });
    expect(withFlags({ projection: 'gemini' }, { flat: true })).toEqual({ flattenUnionInput: true });
    expect(withFlags({ projection: 'gemini' }, {})).toEqual({ projection: 'gemini' });
    // --projection auto keeps the module's serve list; a name serves that one alone.
    const listed = { projection: { choose: () => 'cursor' as const, serve: ['flat', 'cursor'] as const } };
    expect(withFlags(listed, { projection: 'auto' })).toEqual({
      projection: { choose: 'auto', serve: ['flat', 'cursor'] },
    });
    expect(withFlags(listed, { projection: 'cursor' })).toEqual({ projection: 'cursor' });
  });

  it('--flat sets flattenUnionInput; list flags add to the module lists once each; the rest is kept', () => {
    const extend = { schema: z.object({ tenantId: z.string() }) };
    const options = {
      name: 'n',
      extend,
      schemaValidation: { policy: 'warn' as const, profiles: ['gemini'], allowFormats: ['cuid'] },
    };
    expect(withFlags(options, { flat: true, profiles: ['cursor', 'gemini'], allowFormats: ['cuid', 'ulid'] })).toEqual({
      name: 'n',
      extend,
      flattenUnionInput: true,
      schemaValidation: { policy: 'warn', profiles: ['gemini', 'cursor'], allowFormats: ['cuid', 'ulid'] },
    });
    expect(withFlags(options, {})).toEqual(options);
    expect(withFlags({}, { profiles: ['anthropic'] })).toEqual({ schemaValidation: { profiles: ['anthropic'] } });
    expect(withFlags({}, { requireTypedProperties: true, requirePortableFormats: true })).toEqual({
      schemaValidation: { requireTypedProperties: true, requirePortableFormats: true },
    });
  });
});
