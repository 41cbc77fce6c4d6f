/**
 * Gemini resolves no `$ref`, so the gemini projection expands recursive references GEMINI_RECURSION_DEPTH
 * times (docs/design/projections.md, gemini). A recursive ROOT is referenced as `$ref: "#"`, which is left
 * as it is: the gemini projection of such a tool still has a `$ref` and the probe reports it as an error.
 */
import { defineTool, validateMcpSchemas } from 'mcp-mount';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const Node: z.ZodType = z.object({
  name: z.string(),
  get children() {
    return z.array(Node).optional();
  },
});
const tool = defineTool({ name: 'tree', input: Node, handler: () => 'ok' });

describe('the gemini projection of a recursive root', () => {
  const report = validateMcpSchemas([tool], { projection: 'gemini', schemaValidation: { policy: 'warn' } });
  const gemini = report.projections.gemini!;

  it('has no $ref left (the recursion is expanded like a $defs one)', () => {
    expect(JSON.stringify(gemini.tools[0]?.inputSchema)).not.toContain('$ref');
  });

  it('gets no profile error', () => {
    expect(gemini.issues.filter((i) => i.severity === 'error')).toEqual([]);
  });
});
