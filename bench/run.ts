/** `npm run bench`: every benchmark in this folder, one after another (each also runs alone with tsx). */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
let failed = 0;
for (const file of readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .sort()) {
  console.log(`\n## ${file}\n`);
  const run = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', `${here}${file}`], { stdio: 'inherit' });
  if (run.status !== 0) failed++;
}
process.exit(failed === 0 ? 0 : 1);
