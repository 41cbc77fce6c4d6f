/**
 * Builds `dist/` before the packaging tests, which read the built entries as users get them, so that
 * `npm test` works on a fresh clone. Set MCP_MOUNT_SKIP_BUILD=1 to reuse an existing build.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function setup() {
  if (process.env.MCP_MOUNT_SKIP_BUILD === '1') return;
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}
