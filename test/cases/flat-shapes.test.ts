/**
 * Flat schemas that keep every field's type and nested shape, over real HTTP with both official clients:
 * a union whose variants give one key arrays of different items, the seed's `media` (an object in one
 * variant, an array of them in the other), and an untagged "give a name or a path" union. Served
 * documents are read from tools/list; "accepted" means Ajv accepts the value and the call is not isError.
 */
import { defineTool } from 'mcp-mount';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { options as seedOptions, sendMessage } from '../../examples/shared/tools.js';
import {
  at,
  caseTool,
  expectAccepted,
  expectFlatObject,
  expectRefused,
  mountGroup,
  pointersWith,
  typeSet,
  unionsIn,
} from '../support/cases.js';

const orders = z.discriminatedUnion('action', [
  z.object({
    action: z.literal('create'),
    items: z.array(z.object({ sku: z.string(), qty: z.number().int().min(1) })),
  }),
  z.object({ action: z.literal('refund'), orderId: z.string(), items: z.array(z.string()) }),
]);
const flow = z.union([
  z.object({ flowName: z.string().describe('Name of the flow') }),
  z.object({ flowPath: z.string().describe('Path of the flow file') }),
]);

const g = mountGroup([caseTool('orders', orders), caseTool('run_flow', flow)], {
  flattenUnionInput: true,
});

describe('arrays whose items differ between variants', () => {
  it('serves the items typed with every variant item shape, and accepts every variant', () =>
    g.each(async (c) => {
      const s = g.schema(c, 'orders');
      expect(unionsIn(s)).toEqual([]);
      const items = at(s, '/properties/items');
      expect(items.type).toBe('array');
      expect(typeSet(items.items)).toEqual(['object', 'string']);
      expect(items.items.properties.sku).toEqual({ type: 'string' });
      expect(items.items.properties.qty).toEqual({ type: 'integer', minimum: 1 });
      expect(items.items.required).toEqual(['sku', 'qty']);
      expect(items.description).toContain('action = create: array of { sku, qty }; action = refund: array of strings');
      const create = { action: 'create', items: [{ sku: 'A-1', qty: 2 }] };
      const refund = { action: 'refund', orderId: 'o-1', items: ['A-1'] };
      await expectAccepted(g, c, 'orders', create, { input: create });
      await expectAccepted(g, c, 'orders', refund, { input: refund });
      await expectRefused(g, c, 'orders', { action: 'create', items: ['A-1'] }, ['items[0]'], { ajv: true });
    }));
});

describe('the seed send_message tool', () => {
  const seed = mountGroup([sendMessage], seedOptions);

  it('keeps url on the object side and on the array items of media', () =>
    seed.each(async (c) => {
      const media = at(seed.schema(c, 'send_message'), '/properties/media');
      expect(typeSet(media)).toEqual(['array', 'object']);
      expect(media.properties.url).toMatchObject({ type: 'string', format: 'uri' });
      expect(media.items.properties.url).toMatchObject({ type: 'string', format: 'uri' });
      expect(media.items.required).toEqual(['url']);
      expect(media.minItems).toBe(2);
      const one = { chatId: 'c', type: 'message', text: 'hi', media: { url: 'https://e.x/a.png' } };
      const album = {
        chatId: 'c',
        type: 'mediaGroup',
        media: [{ url: 'https://e.x/a.png' }, { url: 'https://e.x/b.png' }],
      };
      await expectAccepted(seed, c, 'send_message', one);
      await expectAccepted(seed, c, 'send_message', album);
    }));
});

describe('an untagged union of objects', () => {
  it('is served flat, with no combinator at any depth, and each form is accepted', () =>
    g.each(async (c) => {
      const s = g.schema(c, 'run_flow');
      expectFlatObject(s, 'root');
      for (const keyword of ['oneOf', 'anyOf', 'allOf']) expect(pointersWith(s, keyword)).toEqual([]);
      expect(s.properties.flowName).toMatchObject({ type: 'string', description: 'Name of the flow' });
      expect(s.properties.flowPath).toMatchObject({ type: 'string', description: 'Path of the flow file' });
      expect(s).not.toHaveProperty('required');
      expect(s.description).toContain('Give one of: flowName | flowPath');
      await expectAccepted(g, c, 'run_flow', { flowName: 'nightly' }, { input: { flowName: 'nightly' } });
      await expectAccepted(g, c, 'run_flow', { flowPath: 'flows/a.yml' }, { input: { flowPath: 'flows/a.yml' } });
    }));

  it('refuses {} with the original union, naming both alternatives', () =>
    g.each(async (c) => {
      const text = await expectRefused(g, c, 'run_flow', {}, ['flowName', 'flowPath'], { ajv: true });
      expect(text).toContain('give one of: flowName | flowPath');
    }));
});

describe('a missing tag', () => {
  const tagged = defineTool({
    name: 'edit_file',
    input: z.discriminatedUnion('operation', [
      z.object({ operation: z.literal('append'), path: z.string(), content: z.string() }),
      z.object({ operation: z.literal('delete'), path: z.string() }),
    ]),
    handler: () => 'ok',
  });
  const t = mountGroup([tagged], { flattenUnionInput: true });

  it('is refused with the allowed values and what each requires', () =>
    t.each(async (c) => {
      const text = await expectRefused(t, c, 'edit_file', {}, ['operation']);
      expect(text).toContain(
        'operation: required, expected one of "append" | "delete" (append requires path, content; delete requires path)',
      );
    }));
});
