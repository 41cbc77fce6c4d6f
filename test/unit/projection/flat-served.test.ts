/**
 * What `flat` serves beyond the flatten (ADR 0018), case by case: the unrolling's depth, its open leaves and
 * its node budget, and which unions below the root become one `type` list.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FLAT_RECURSION_DEPTH, servedFlat } from '../../../src/core/projection/flat-served.js';
import { flattenWithReport } from '../../../src/core/projection/flatten.js';
import { collapseNullable, inlineRefs } from '../../../src/core/projection/index.js';
import { toJson } from './helpers.js';

const served = (schema: z.ZodType) =>
  servedFlat(collapseNullable(flattenWithReport(inlineRefs(toJson(schema)).schema).schema) as Record<string, unknown>);

function countNodes(node: unknown): number {
  if (typeof node !== 'object' || node === null) return 0;
  return 1 + Object.values(node).reduce<number>((n, v) => n + countNodes(v), 0);
}

describe('recursion', () => {
  it('a recursive root (z.lazy at the top, `$ref: "#"`) is unrolled too', () => {
    interface Item {
      id: string;
      next?: Item;
    }
    const Item: z.ZodType<Item> = z.lazy(() => z.object({ id: z.string(), next: Item.optional() }));
    const doc = served(Item) as any;
    expect(JSON.stringify(doc)).not.toContain('$ref');
    // The root is the definition written once already; each `$ref: "#"` below it is one expansion more.
    let node = doc;
    for (let level = 0; level <= FLAT_RECURSION_DEPTH; level++) {
      expect(node.properties.id).toEqual({ type: 'string' });
      node = node.properties.next;
    }
    expect(node).toEqual({ type: 'object' });
  });

  it('a definition that refers to itself many times is unrolled shallower, within the node budget', () => {
    interface Wide {
      [key: string]: Wide | undefined;
    }
    const keys = Array.from({ length: 40 }, (_, i) => `k${i}`);
    const Wide: z.ZodType<Wide> = z.lazy(() => z.object(Object.fromEntries(keys.map((k) => [k, Wide.optional()]))));
    const doc = served(z.object({ root: Wide }));
    expect(JSON.stringify(doc)).not.toContain('$ref');
    expect(countNodes(doc)).toBeLessThan(3 * 20_000);
    expect((doc as any).properties.root.properties.k0.type).toBe('object');
  });

  it('a document without recursion is served as the flatten left it', () => {
    const schema = z.object({ a: z.string(), b: z.array(z.object({ c: z.number() })) });
    expect(served(schema)).toEqual(flattenWithReport(inlineRefs(toJson(schema)).schema).schema);
  });
});

describe('scalar unions below the root', () => {
  it('become one type list, each type keeping its own keywords', () => {
    const doc = served(z.object({ v: z.union([z.string().min(2), z.number().max(5)]) })) as any;
    expect(doc.properties.v).toMatchObject({ type: ['string', 'number'], minLength: 2, maximum: 5 });
    expect(doc.properties.v).not.toHaveProperty('anyOf');
  });

  it('a literal beside a type keeps a type for each', () => {
    const doc = served(z.object({ v: z.union([z.literal('auto'), z.int()]) })) as any;
    expect(doc.properties.v.anyOf).toBeUndefined();
    expect(new Set(doc.properties.v.type)).toEqual(new Set(['string', 'integer']));
  });

  it('a node that constrains the union itself, or a member that is a union, is left as it is', () => {
    const doc = served(
      z.object({
        v: z.union([z.string(), z.union([z.number(), z.boolean()]).describe('inner')]).meta({ minLength: 1 }),
      }),
    ) as any;
    expect(doc.properties.v.anyOf).toHaveLength(2);
    expect(doc.properties.v.minLength).toBe(1);
  });
});
