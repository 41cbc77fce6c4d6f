import { defineTool, McpMountSchemaError, validateMcpSchemas } from 'mcp-mount';
import { createMcpFetchHandler } from 'mcp-mount/adapter';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';

/** The mount's error, or what else it threw. */
function mountError(tools: Parameters<typeof createMcpFetchHandler>[0]): unknown {
  try {
    createMcpFetchHandler(tools, { observe: { logger: { warn: vi.fn(), error: vi.fn() } } });
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('params that are not a z.object', () => {
  it.each([
    ['a Zod string', z.string(), 'root-not-object'],
    ['a plain object of fields', { id: z.string() }, 'conversion-failed'],
  ])(
    '%s: an issue of validateMcpSchemas, and the same issue in the mount error (not a TypeError)',
    (_, params, code) => {
      const tool = defineTool({ name: 'lookup', params: params as never, handler: () => 'x' });
      const report = validateMcpSchemas([tool]);
      expect(report.issues.map((i) => `${i.tool} ${i.code} ${i.severity}`)).toEqual([`lookup ${code} error`]);
      const thrown = mountError([tool]);
      expect(thrown).toBeInstanceOf(McpMountSchemaError);
      expect((thrown as McpMountSchemaError).issues).toEqual(report.issues);
    },
  );
});
