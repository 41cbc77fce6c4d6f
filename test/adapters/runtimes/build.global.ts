/**
 * Builds what the runtime tests serve, once per run: the package (`npm run build`, since the Next example
 * resolves `mcp-mount` to `dist`) and the Next.js example (`next build examples/next`).
 * Set MCP_MOUNT_SKIP_BUILD=1 to reuse an existing build.
 */
import { execFileSync } from 'node:child_process';
import { repoRoot } from '../support/processes.js';

export default function setup() {
  if (process.env.MCP_MOUNT_SKIP_BUILD === '1') return;
  const run = (args: string[]) => {
    const started = Date.now();
    execFileSync(process.execPath, args, {
      cwd: repoRoot,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
    });
    console.log(`runtime tests: ${args.slice(0, 3).join(' ')} took ${((Date.now() - started) / 1000).toFixed(1)} s`);
  };
  run(['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json']);
  run(['node_modules/next/dist/bin/next', 'build', 'examples/next']);
}
