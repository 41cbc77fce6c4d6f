import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

const src = (p: string) => fileURLToPath(new URL(`./src/${p}`, import.meta.url));

export default defineConfig({
  resolve: {
    // Examples and tests import the package by its name, as users do; point it at the sources.
    alias: [
      { find: /^mcp-mount\/(.+)$/, replacement: src('adapters/$1/index.ts') },
      { find: /^mcp-mount$/, replacement: src('index.ts') },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    // Real Next.js and workerd runtimes (builds, child processes): `npm run test:runtimes`, see vitest.runtimes.config.ts.
    exclude: [...configDefaults.exclude, 'test/adapters/runtimes/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
