/**
 * Our own code in a Worker bundle stays within its ceiling (docs/decisions/0029-worker-budgets-restated.md):
 * each Worker entry as a team writes it, bundled from the built package as `wrangler deploy --minify` bundles
 * it (the Worker benchmark's own bundler), Zod and the SDK left out. Raising a ceiling is a decision, made
 * in the commit that needs it.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleWorker } from '../../bench/workerd/bundle.js';
import { root } from './bundle.js';

const KiB = 1024;

/** A Worker of one tool with default options, served by the built `entry` (`documents` for the prebuilt one). */
const worker = (entry: string, options: string) => `
  import * as z from 'zod';
  import { defineTool } from ${JSON.stringify(join(root, 'dist/index.js'))};
  import { mcp } from ${JSON.stringify(join(root, entry))};
  const echo = defineTool({
    name: 'echo',
    input: z.object({ text: z.string() }),
    handler: ({ input }) => ({ text: input.text }),
  });
  export default mcp([echo], ${options});
`;

describe("mcp-mount's own code in a Worker bundle", () => {
  // 84.0 with the local-grammar projection and its subset checks (ADR 0030), 81.0 before. 86.4 with the
  // protocol edges and the result-value walk (ADR 0034, +2.4) and the hostile-client fixes (escaped log
  // lines, bounded echoes, who a request came from: +2.9), which every Worker needs. 89.0 with the direct
  // path for tools/call (ADR 0035: +2.5), which every call takes. 93.0 with tasks served (ADR 0036: +4.1),
  // carried by every Worker until the serving code is a subpath of its own. 97.0 with tasks handed to a
  // queue, the mount's runTask and waitUntil (ADR 0037: +2.2, a method of every mount) beside the long calls
  // without tasks (ADR 0038: about +1.9); about 2 KiB of room. 98.1 before tools/list gzip-encoded, 99.0 with
  // it (ADR 0041: +0.9, the Accept-Encoding reading and the gzip framing, carried where zlib is absent too).
  it('is at most 103 KiB gzip for mcp-mount/fetch with default options', async () => {
    const { gzip } = await bundleWorker(worker('dist/adapters/fetch/index.js', '{}'), true);
    expect(gzip / KiB).toBeLessThanOrEqual(103);
  });

  // 39.3 before the protocol edges (+2.45) and the hostile-client fixes (+2.9): 44.6; 47.2 with the direct
  // path (+2.5); 51.2 with tasks served (+4.1); 55.1 with the queue hook and runTask (ADR 0037: +2.1) beside
  // the long calls without tasks (ADR 0038: about +1.8); about 2 KiB of room. 56.1 before tools/list
  // gzip-encoded, 57.05 with it (ADR 0041: +0.9).
  it('is at most 60 KiB gzip for mcp-mount/fetch/prebuilt serving build-time documents', async () => {
    const { gzip } = await bundleWorker(
      worker('dist/adapters/fetch/prebuilt.js', '{ documents: globalThis.documents }'),
      true,
    );
    expect(gzip / KiB).toBeLessThanOrEqual(60);
  });

  it('weighs only our code: a Worker that imports nothing of mcp-mount weighs almost nothing', async () => {
    const { gzip } = await bundleWorker(
      "import * as z from 'zod'; export default { fetch: () => new Response(z.string().parse('ok')) };",
      true,
    );
    expect(gzip).toBeLessThan(256);
  });
});
