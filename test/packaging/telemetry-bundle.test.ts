/**
 * OpenTelemetry costs nothing when it is not used: a Worker bundle of the built `mcp-mount/fetch` holds no
 * file of `@opentelemetry/*` (the mount never imports the API; it is handed the module), and a Worker that
 * does trace bundles the API alone, which is all the mount needs. The check can fail: the second bundle
 * finds the API's files.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundledFiles, root } from './bundle.js';

/** The packages that put bytes in a Worker bundle of `source`, as `node_modules` names. */
async function bundledPackages(source: string): Promise<Set<string>> {
  const names = (await bundledFiles(source)).flatMap((file) => {
    const name = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file)?.[1];
    return name ? [name] : [];
  });
  return new Set(names);
}

const worker = (telemetry: boolean) => `
  import * as z from 'zod';
  ${telemetry ? "import * as otel from '@opentelemetry/api';" : ''}
  import { mcp } from ${JSON.stringify(join(root, 'dist/adapters/fetch/index.js'))};
  import { defineTool } from ${JSON.stringify(join(root, 'dist/index.js'))};
  const echo = defineTool({ name: 'echo', input: z.object({ text: z.string() }), handler: ({ input }) => input.text });
  export default mcp([echo], ${telemetry ? '{ observe: { openTelemetry: otel } }' : '{}'});
`;

describe('OpenTelemetry in a Worker bundle', () => {
  it('is absent when the Worker does not trace', async () => {
    const packages = await bundledPackages(worker(false));
    expect(packages).toContain('@modelcontextprotocol/server');
    expect([...packages].filter((p) => p.startsWith('@opentelemetry/'))).toEqual([]);
  });

  it('is the API alone when it does (the check can fail)', async () => {
    const packages = await bundledPackages(worker(true));
    expect([...packages].filter((p) => p.startsWith('@opentelemetry/'))).toEqual(['@opentelemetry/api']);
  });
});
