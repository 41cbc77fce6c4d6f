/**
 * Every served document is checked against the JSON Schema 2020-12 meta-schema (ADR 0017): a `.meta()`
 * keyword of the wrong type is an error naming the tool and the pointer, in every projection and on the
 * output side, and the validator that says so is exactly what its generator writes.
 */
import { readFileSync } from 'node:fs';
import { defineTool, McpMountSchemaError, validateMcpSchemas } from 'mcp-mount';
import { mcp } from 'mcp-mount/fetch';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { metaSchemaValidatorSource, TARGET } from '../../../scripts/meta-schema-validator.js';
import { metaSchemaViolations } from '../../../src/core/probe/meta-schema/index.js';
import { PROJECTION_NAMES } from '../../../src/core/projection/names.js';

const tool = defineTool({
  name: 'report',
  input: z.object({ a: z.string().meta({ deprecated: 'yes' } as never), ok: z.number() }),
  output: z.object({ o: z.string().meta({ readOnly: 'no' } as never) }),
  handler: () => ({ o: '' }),
});

describe('the 2020-12 meta-schema check', () => {
  it('reports a .meta() keyword of the wrong type in every projection, at its pointer', () => {
    const report = validateMcpSchemas([tool], { projection: { serve: [...PROJECTION_NAMES], choose: 'auto' } });
    const found = report.issues.filter((i) => i.code === 'invalid-json-schema');
    expect(
      found
        .filter((i) => i.side === 'input')
        .map((i) => i.projection)
        .sort(),
    ).toEqual([...PROJECTION_NAMES].sort());
    for (const issue of found.filter((i) => i.side === 'input')) {
      expect(issue).toMatchObject({ tool: 'report', path: '/properties/a/deprecated', severity: 'error' });
      expect(issue.message).toMatch(/^`deprecated` must be boolean, so the document is not valid JSON Schema 2020-12/);
    }
    const output = found.filter((i) => i.side === 'output');
    expect(output.map((i) => i.path)).toEqual(['/properties/o/readOnly']);
    expect(output[0]!.message).toMatch(/^Output schema: `readOnly` must be boolean/);
    expect(report.ok).toBe(false);
  });

  it('fails the mount under the default policy', () => {
    expect(() => mcp([tool])).toThrow(McpMountSchemaError);
  });

  it('takes what 2020-12 allows: unknown keywords, boolean schemas, $dynamicRef, formats it does not know', () => {
    const doc = {
      type: 'object',
      properties: { a: true, b: { $dynamicRef: '#meta', format: 'no-such-format', nullable: true, 'x-any': [1] } },
      additionalProperties: false,
      $defs: { n: { $dynamicAnchor: 'meta', type: ['integer', 'null'], examples: [] } },
    };
    expect(metaSchemaViolations(doc)).toEqual([]);
  });

  it('gives one violation per offending value, not the echoes of the combinators above it', () => {
    const found = metaSchemaViolations({ type: 'strin', required: ['a', 'a'], properties: { p: { minLength: -1 } } });
    expect(found.sort((a, b) => a.path.localeCompare(b.path))).toEqual([
      { path: '/properties/p/minLength', expected: 'must be >= 0' },
      { path: '/required', expected: expect.stringContaining('duplicate') },
      { path: '/type', expected: 'must be equal to one of the allowed values' },
    ]);
  });

  it('is exactly what scripts/meta-schema-validator.ts writes (npm run generate:meta-schema)', () => {
    expect(readFileSync(TARGET, 'utf8')).toBe(metaSchemaValidatorSource());
  });
});
