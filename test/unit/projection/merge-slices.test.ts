/** Merging the params, input and extend root objects into the one served object. */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { defineTool, validateMcpSchemas } from 'mcp-mount';
import { createMcpFetchHandler } from 'mcp-mount/adapter';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const ajv = new Ajv2020({ strict: false, validateFormats: false });

describe('merged root object', () => {
  it('keeps each slice pointing at its own recursive definition when Zod gave both the same name', () => {
    const Tree: z.ZodType = z.object({ name: z.string(), children: z.array(z.lazy(() => Tree)) });
    const Cat: z.ZodType = z.object({ n: z.number(), next: z.lazy(() => Cat).optional() });
    for (const flattenUnionInput of [false, true]) {
      const tool = defineTool({
        name: 't',
        params: z.object({ tree: Tree }),
        input: z.object({ list: Cat }),
        handler: () => 'ok',
      });
      const report = validateMcpSchemas([tool], {
        flattenUnionInput,
        arguments: { extend: { schema: z.object({ cat: Cat }) } },
      });
      expect(report.ok, JSON.stringify(report.issues)).toBe(true);
      const served = report.tools[0]!.inputSchema;
      const value = {
        tree: { name: 'a', children: [{ name: 'b', children: [] }] },
        list: { n: 1, next: { n: 2 } },
        cat: { n: 3 },
      };
      const validate = ajv.compile(served);
      expect(validate(value), JSON.stringify(validate.errors)).toBe(true);
      expect(validate({ ...value, tree: { n: 1 } })).toBe(false);
    }
  });

  it('refuses tool names that collide with Object.prototype at mount, naming them', () => {
    const t = (name: string) => defineTool({ name, input: z.object({}), handler: () => 1 });
    expect(() =>
      createMcpFetchHandler([t('constructor'), t('ok')], {
        schemaValidation: { policy: 'warn' },
        observe: { logger: { warn() {}, error() {} } },
      }),
    ).toThrow(/constructor/);
  });
});

describe('conversion failures', () => {
  it('reports every field that cannot be converted, each at its pointer', () => {
    const tool = defineTool({
      name: 'many',
      input: z.object({
        n: z.bigint(),
        ok: z.string(),
        m: z.map(z.string(), z.string()),
        deep: z.object({ d: z.date() }),
      }),
      handler: () => 1,
    });
    const issues = validateMcpSchemas([tool]).issues.filter((i) => i.code === 'conversion-failed');
    expect(issues.map((i) => i.path)).toEqual(['/properties/n', '/properties/m', '/properties/deep/properties/d']);
    expect(issues[2]!.message).toContain('z.iso.datetime()');
  });
});

describe('intersections are served as a superset with or without flattening', () => {
  it('a strict object intersected with a record accepts the record keys Zod accepts', () => {
    const input = z.object({
      root: z.strictObject({ a: z.string().optional() }).and(z.record(z.string(), z.number())),
    });
    const value = { root: { z: 1 } };
    expect(input.safeParse(value).success).toBe(true);
    for (const flattenUnionInput of [false, true]) {
      const tool = defineTool({ name: 'x', input, handler: () => 1 });
      const served = validateMcpSchemas([tool], { flattenUnionInput }).tools[0]!.inputSchema;
      const validate = ajv.compile(served);
      expect(validate(value), `flatten ${flattenUnionInput}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });
});
