/**
 * The faithful document keeps `$anchor` (ADR 0014). Slices are converted on their own and merged, and Zod
 * inlines a reused schema, so one `$anchor` can end up declared twice in the served document: an invalid
 * 2020-12 schema (Ajv: "resolves to more than one schema") that the probe does not report.
 */

import { Ajv2020 } from 'ajv/dist/2020.js';
import { defineTool, validateMcpSchemas } from 'mcp-mount';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const named = z.string().meta({ $anchor: 'name' } as never);
const tool = defineTool({
  name: 'rename',
  params: z.object({ from: named }),
  input: z.object({ to: named }),
  handler: () => 'ok',
});

describe('an $anchor shared by two slices', () => {
  const report = validateMcpSchemas([tool], { schemaValidation: { policy: 'warn' } });

  it('is served as a document a 2020-12 validator can compile, or reported', () => {
    const doc = report.tools[0]!.inputSchema;
    let compiles = true;
    try {
      new Ajv2020({ strict: false, validateFormats: false }).compile(doc);
    } catch {
      compiles = false;
    }
    expect(compiles || report.issues.some((i) => i.severity === 'error'), JSON.stringify(doc)).toBe(true);
  });
});
