/**
 * A recursive input root is converted with `$ref: "#"` (the slice's own root). Once the slices are merged into
 * one root object, `#` names the merged root, so a nested node must carry the other slices' keys too: every
 * projection refuses a value Zod accepts (the superset invariant, ADR 0002).
 */
import { defineTool, validateMcpSchemas } from 'mcp-mount';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ajv } from '../../support/documents.js';

const Node: z.ZodType = z.object({
  name: z.string(),
  get children() {
    return z.array(Node).optional();
  },
});
const tool = defineTool({ name: 'tree', params: z.object({ id: z.string() }), input: Node, handler: () => 'ok' });
const value = { id: 'a', name: 'root', children: [{ name: 'leaf' }] };

describe('a recursive input root beside a params slice', () => {
  it('is accepted by Zod as split at call time', () => {
    expect(tool.params!.safeParse(value).success).toBe(true);
    expect(Node.safeParse({ name: 'root', children: [{ name: 'leaf' }] }).success).toBe(true);
  });

  const report = validateMcpSchemas([tool], {
    projection: () => 'flat',
    schemaValidation: { policy: 'warn' },
  });
  for (const [projection, served] of Object.entries(report.projections)) {
    if (projection === 'openai-strict') continue; // strict clients send every key; checked by its own suite
    // A local grammar writes every key, null for one left out (repair reads it as absent).
    const sent = projection === 'local-grammar' ? { ...value, children: [{ name: 'leaf', children: null }] } : value;
    it(`keeps the superset in ${projection}: a child node need not carry the params keys`, () => {
      const doc = served!.tools[0]?.inputSchema;
      expect(doc).toBeDefined();
      expect(ajv.validate(doc!, sent), JSON.stringify(ajv.errors)).toBe(true);
    });
  }
});
