import { fileURLToPath } from 'node:url';

// The conformance fixture as a Next.js app (test/conformance/run.ts builds and starts it). It imports
// ../fixture.ts, and `mcp-mount` resolves to the built package (tsconfig.json `paths`), so the root is the repo.
const root = fileURLToPath(new URL('../../..', import.meta.url));

/** @type {import('next').NextConfig} */
export default {
  turbopack: { root },
  outputFileTracingRoot: root,
};
