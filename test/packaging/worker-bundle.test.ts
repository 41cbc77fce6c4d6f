/**
 * A Worker bundle of the built fetch entry keeps Zod's tree-shaking: only the `en` locale, the one Zod
 * configures by default. esbuild (what wrangler bundles with) keeps every locale, about 257 KiB minified,
 * once any module imports the `z` binding (`import { z } from 'zod'`) instead of the namespace
 * (`import * as z from 'zod'`), so one such line in our code would put them in every user's Worker.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundledFiles, root } from './bundle.js';

/** The Zod locale files in a Worker bundle of `source` (a module in the repository root). */
async function zodLocales(source: string): Promise<string[]> {
  const inputs = await bundledFiles(source);
  // The bundle went through Zod at all, so an empty locale list is a finding, not a missed walk.
  expect(inputs.some((f) => f.includes('/zod/v4/core/'))).toBe(true);
  return inputs.flatMap((f) => f.match(/\/zod\/v4\/locales\/([^/]+)\.js$/)?.[1] ?? []);
}

/** A Worker as users write it: tools with Zod schemas, served by the built `mcp-mount/fetch`. */
const worker = (zodImport: string) => `
  ${zodImport}
  import { mcp } from ${JSON.stringify(join(root, 'dist/adapters/fetch/index.js'))};
  import { defineTool } from ${JSON.stringify(join(root, 'dist/index.js'))};
  const echo = defineTool({
    name: 'echo',
    input: z.object({ text: z.string() }),
    handler: ({ input }) => ({ text: input.text }),
  });
  export default mcp([echo]);
`;

describe('a Worker bundle of mcp-mount/fetch', () => {
  it("carries only Zod's en locale when the Worker imports Zod as a namespace", async () => {
    expect(await zodLocales(worker("import * as z from 'zod';"))).toEqual(['en']);
  });

  it('carries every locale once a module imports the z binding (the check can fail)', async () => {
    const locales = await zodLocales(worker("import { z } from 'zod';"));
    expect(locales).toContain('en');
    expect(locales.length).toBeGreaterThan(30);
  });
});
