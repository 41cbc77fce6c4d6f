/**
 * The reader of build-time documents leaves conversion, projection and probe out of the bundle of whatever
 * imports it (docs/decisions/0024-build-time-documents.md): bundled as wrangler does (esbuild, workerd
 * conditions), its metafile holds none of them.
 */
import { describe, expect, it } from 'vitest';
import { workerBundleOf } from '../../support/worker-bundle.js';

const inputsOf = async (entry: string) => (await workerBundleOf(entry)).reached;

const FORBIDDEN =
  /^src\/core\/(projection|probe)\/|^src\/core\/zod\/convert\.ts$|^src\/core\/prepare\/(prepare|projector|checked)\.ts$/;

describe('the documents reader bundle', () => {
  it('holds no conversion, projection, probe or preparation', async () => {
    const inputs = await inputsOf('src/core/documents/read.ts');
    const ours = inputs.filter((i) => i.startsWith('src/'));
    expect(ours.filter((i) => FORBIDDEN.test(i))).toEqual([]);
    expect(ours.sort()).toEqual([
      'src/core/documents/package-version.ts',
      'src/core/documents/read.ts',
      'src/core/documents/stamps.ts',
      'src/core/json-schema/freeze.ts',
      'src/core/zod/def.ts',
      'src/core/zod/shape-keys.ts',
    ]);
  });

  it('the check sees them when they are imported (the test can fail)', async () => {
    const inputs = await inputsOf('src/core/documents/emit.ts');
    expect(inputs.filter((i) => FORBIDDEN.test(i))).toEqual([]);
    const prepared = await inputsOf('src/core/prepare/prepare.ts');
    expect(prepared.some((i) => FORBIDDEN.test(i) && i.includes('/probe/'))).toBe(true);
    expect(prepared).toContain('src/core/zod/convert.ts');
  });
});
