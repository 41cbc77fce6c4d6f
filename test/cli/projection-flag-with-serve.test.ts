/**
 * `mcp-mount check --projection NAME` replaces the module's `projection` option, `{ choose, serve }`
 * included: a module that narrows what it serves is checked under the one projection given.
 */
import { defineTool, validateMcpSchemas } from 'mcp-mount';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { withFlags } from '../../src/cli/main.js';

const tool = defineTool({ name: 'echo', input: z.object({ text: z.string() }), handler: () => 'ok' });

describe('--projection on a module with projection: { choose, serve }', () => {
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
