/**
 * The CLI's quick paths, in process through `runCli` (the function `src/cli/index.ts` runs with the
 * process streams): usage errors, `--help`, a plain .mjs module, the module contract, lockfile refusals.
 * The child-process runs are in check.test.ts.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { validateMcpSchemas, writeSchemaLock } from 'mcp-mount';
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
    expect((await run('check', array)).stdout).toMatch(/flattenUnionInput: false[\s\S]*t\s+yes/);
    expect((await run('check', object)).stdout).toMatch(/flattenUnionInput: true[\s\S]*t\s+yes/);
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
      "import { z } from 'zod';\nexport const tools = [];\nexport const options = { server(s) { s.registerPrompt('count', { argsSchema: z.object({ n: z.number() }) }, () => ({ messages: [] })); } };\n",
    );
    const r = await run('check', path);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/\ncount\n {2}error {3}prompt \/arguments\/n {2}prompt-argument-not-string\n/);
  });
});

describe('withFlags', () => {
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
