/**
 * The real-runtime tests: the Next.js example under `next build` + `next start`, the Worker example in
 * workerd via `wrangler dev`, and the cross-adapter matrix (Hono, Express, Next.js, Workers).
 * `npm run test:runtimes` (all), `npm run test:next`, `npm run test:worker`. Kept out of `npm test`
 * because the Next build takes about a minute; CI runs it (.ci/run).
 */
import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

export default defineConfig({
  resolve: base.resolve,
  test: {
    include: ['test/adapters/runtimes/**/*.test.ts'],
    globalSetup: ['test/adapters/runtimes/build.global.ts'],
    // One runtime process set at a time: the machine has two cores.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 180_000,
  },
});
