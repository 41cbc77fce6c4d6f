/**
 * The Workers guide's build-time documents recipe, run as written (docs/guide/cloudflare-workers.md): a
 * project whose `wrangler.jsonc` has the guide's `build` block verbatim (`mcp-mount check src/tools.ts --emit
 * src/mcp-documents.ts`, `watch_dir: "src"`), the guide's Worker, under `wrangler dev`. It becomes ready and
 * serves; the file its build writes inside the watched folder does not start another build (before, `--emit`
 * rewrote an identical file each time and builds stacked up forever); a change to the tools builds once more
 * and is served. `mcp-mount` on the build's PATH is this repository's CLI; the Worker's `mcp-mount` imports are
 * aliased to its sources, as the example's are.
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningProcess, repoRoot, startWrangler } from '../support/processes.js';
import { jsonRpcHeaders, rpc } from '../support/tools.js';

/** The guide's build block, verbatim. */
const BUILD = '"build": { "command": "mcp-mount check src/tools.ts --emit src/mcp-documents.ts", "watch_dir": "src" }';

const toolsModule = (description: string) => `import * as z from 'zod';
import { defineTool } from 'mcp-mount';

export const tools = [
  defineTool({
    name: 'search_notes',
    description: ${JSON.stringify(description)},
    input: z.object({ query: z.string(), limit: z.number().int().optional() }),
    handler: ({ input }) => \`found \${input.query}\`,
  }),
];
export const options = { flattenUnionInput: true } as const;
`;

// The guide's Worker, verbatim but for the import's extension wrangler resolves either way.
const WORKER = `import { mcp } from 'mcp-mount/fetch/prebuilt';
import documents from './mcp-documents.js';
import { options, tools } from './tools';

export default mcp(tools, { ...options, documents, path: '/mcp' });
`;

/** Lines of wrangler's output announcing a run of the custom build. */
const builds = (output: string) => output.split('\n').filter((line) => /^\[custom build\] Running: /.test(line)).length;

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => boolean | Promise<boolean>, timeoutMs: number, what: () => string) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting: ${what()}`);
    await settle(250);
  }
}

describe("the Workers guide's build-time documents recipe under wrangler dev", () => {
  let project: string;
  let worker: RunningProcess;
  beforeAll(async () => {
    // Inside the repository, so the Worker's bundle resolves zod and the SDK from its node_modules.
    project = mkdtempSync(join(repoRoot, 'test/adapters/runtimes/fixtures/.recipe-run-'));
    mkdirSync(join(project, 'src'));
    mkdirSync(join(project, 'bin'));
    writeFileSync(join(project, 'src/tools.ts'), toolsModule('Search the notes'));
    writeFileSync(join(project, 'src/index.ts'), WORKER);
    writeFileSync(
      join(project, 'wrangler.jsonc'),
      `{
  "name": "recipe",
  "main": "src/index.ts",
  "compatibility_date": "2026-01-20",
  ${BUILD},
  "alias": {
    "mcp-mount/fetch/prebuilt": ${JSON.stringify(join(repoRoot, 'src/adapters/fetch/prebuilt.ts'))},
    "mcp-mount": ${JSON.stringify(join(repoRoot, 'src/index.ts'))}
  },
  "send_metrics": false
}
`,
    );
    const cli = join(project, 'bin/mcp-mount');
    writeFileSync(
      cli,
      `#!/bin/sh\nexec "${process.execPath}" "${join(repoRoot, 'node_modules/tsx/dist/cli.mjs')}" "${join(repoRoot, 'src/cli/index.ts')}" "$@"\n`,
    );
    chmodSync(cli, 0o755);
    worker = await startWrangler('wrangler.jsonc', {
      cwd: project,
      env: { PATH: `${join(project, 'bin')}:${process.env.PATH}` },
    });
  }, 180_000);
  afterAll(async () => {
    await worker?.stop();
    if (project) rmSync(project, { recursive: true, force: true });
  });

  const list = async () => {
    const response = await fetch(`${worker.origin}/mcp`, {
      method: 'POST',
      headers: jsonRpcHeaders,
      body: rpc('tools/list'),
    });
    const text = await response.text();
    return { status: response.status, text };
  };

  it('is ready and serves the documents its build wrote', async () => {
    const listed = await list();
    expect(listed.status, worker.output()).toBe(200);
    expect(listed.text).toContain('Search the notes');
    expect(readFileSync(join(project, 'src/mcp-documents.ts'), 'utf8')).toContain('search_notes');
  });

  it('settles: the documents written into the watched folder start no further build', async () => {
    const documents = join(project, 'src/mcp-documents.ts');
    const written = statSync(documents).mtimeMs;
    const before = builds(worker.output());
    expect(before, worker.output()).toBeGreaterThanOrEqual(1);
    // Long past wrangler's debounce: a build that rewrote its output would have started the next one by now.
    await settle(6_000);
    expect(builds(worker.output()), worker.output()).toBe(before);
    expect(statSync(documents).mtimeMs).toBe(written);
    expect((await list()).status).toBe(200);
  }, 30_000);

  it('builds again for a change to the tools, serves it, and settles again', async () => {
    const before = builds(worker.output());
    writeFileSync(join(project, 'src/tools.ts'), toolsModule('Search every note'));
    await until(
      async () => (await list()).text.includes('Search every note'),
      60_000,
      () => worker.output(),
    );
    expect(builds(worker.output())).toBeGreaterThan(before);
    // However many change events the write made, the builds stop once the documents are written.
    await settle(6_000);
    const settled = builds(worker.output());
    await settle(6_000);
    expect(builds(worker.output()), worker.output()).toBe(settled);
  }, 90_000);
});
