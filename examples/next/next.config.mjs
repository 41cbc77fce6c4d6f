import { fileURLToPath } from 'node:url';

/**
 * The example lives inside the mcp-mount repo: it imports `../shared/tools.ts`, and `mcp-mount` resolves to
 * the built package in `../../dist` (tsconfig.json `paths`; run `npm run build` first). Turbopack's root is
 * therefore the repo root.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));

/** @type {import('next').NextConfig} */
export default {
  turbopack: { root },
  outputFileTracingRoot: root,
};
