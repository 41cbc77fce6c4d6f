/**
 * `mcp-mount check --projection-option NAME` replaces the module's `projection` option but keeps its
 * `projections` list, which only goes with 'auto' or a function: a module that narrows its projections
 * cannot be checked under one fixed projection at all (the report is an invalid-option failure).
 */
import { defineTool, validateMcpSchemas } from 'mcp-mount';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { withFlags } from '../../src/cli/main.js';

const tool = defineTool({ name: 'echo', input: z.object({ text: z.string() }), handler: () => 'ok' });

describe('--projection-option on a module with projections', () => {
  it('checks the mount under the projection given', () => {
    const options = withFlags({ projection: { choose: 'auto', serve: ['cursor'] } }, { projection: 'flat' });
    const report = validateMcpSchemas([tool], options);
    expect(report.issues.filter((i) => i.code === 'invalid-option')).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.projection).toBe('flat');
  });

  it('--flat likewise', () => {
    const options = withFlags({ projection: { choose: 'auto', serve: ['cursor'] } }, { flat: true });
    expect(validateMcpSchemas([tool], options).ok).toBe(true);
  });
});
