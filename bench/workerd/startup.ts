/**
 * Startup of one Worker bundle as `wrangler check startup --worker <form>` measures it: wrangler loads the
 * bundle in workerd (Miniflare) and writes a V8 CPU profile of the import of the main module, i.e. of parsing
 * and evaluating its global scope, which is what Cloudflare's startup limit bounds.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './bundle.js';
import type { CpuProfile } from './profile.js';

const wrangler = join(root, 'node_modules/wrangler/bin/wrangler.js');

/** Runs `wrangler check startup` on the upload form at `formFile`; the profile it wrote. */
export function checkStartup(formFile: string, profileFile: string): CpuProfile {
  execFileSync(process.execPath, [wrangler, 'check', 'startup', '--worker', formFile, '--outfile', profileFile], {
    cwd: join(formFile, '..'),
    // No config file in that folder; no metrics, no banner checks against the network.
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', WRANGLER_LOG: 'error' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return JSON.parse(readFileSync(profileFile, 'utf8')) as CpuProfile;
}

/** Writes `form` to `file` (for `checkStartup`). */
export function writeForm(file: string, form: Uint8Array): string {
  writeFileSync(file, form);
  return file;
}
