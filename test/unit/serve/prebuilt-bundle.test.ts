/**
 * `mcp-mount/fetch/prebuilt` leaves the preparation out of a Worker's bundle (docs/decisions/0024-build-time-documents.md):
 * bundled as wrangler bundles (esbuild, workerd conditions, tree-shaken), its output holds no byte of conversion,
 * projection, probe rule or preparation, where `mcp-mount/fetch`'s holds them all.
 */
import { describe, expect, it } from 'vitest';
import { workerBundleOf } from '../../support/worker-bundle.js';

const EXTERNAL = ['zod', 'zod/*', '@modelcontextprotocol/*', 'rate-limiter-flexible', 'rate-limiter-flexible/*'];
const ourInputs = async (entry: string) => (await workerBundleOf(entry, EXTERNAL)).ours;

/** What only a preparation needs; the probe's scope, name and app-view checks are what a mount settles itself. */
const PREPARATION =
  /^src\/core\/projection\/(?!names\.ts)|^src\/core\/probe\/(?!(scopes|names|app-views|issue|schema-error|format-issues)\.ts)|^src\/core\/zod\/convert\.ts$|^src\/core\/prepare\/(prepare|projector|checked)\.ts$|^src\/core\/serve\/validate\.ts$/;

describe('the prebuilt fetch entry', () => {
  it('bundles no conversion, projection, probe rule or preparation', async () => {
    const inputs = await ourInputs('src/adapters/fetch/prebuilt.ts');
    expect(inputs.filter((i) => PREPARATION.test(i))).toEqual([]);
    expect(inputs).toContain('src/core/documents/read.ts');
  });

  it('where mcp-mount/fetch bundles them (the check can fail)', async () => {
    const inputs = await ourInputs('src/adapters/fetch/index.ts');
    expect(inputs).toContain('src/core/zod/convert.ts');
    expect(inputs).toContain('src/core/probe/meta-schema/validate-2020-12.ts');
    expect(inputs.filter((i) => PREPARATION.test(i)).length).toBeGreaterThan(40);
  });
});
