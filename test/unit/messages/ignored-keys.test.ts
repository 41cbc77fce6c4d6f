/** Which keys a schema would drop without a word, found from its definition, and how each is told. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { closestKey } from '../../../src/core/messages/closest-key.js';
import { ignoredKeys } from '../../../src/core/messages/ignored-keys.js';
import { strippedKeys } from '../../../src/core/zod/stripped-keys.js';

const lines = (schema: z.ZodType, value: unknown, injected: string[] = []) => {
  const found = strippedKeys(schema, value);
  return ignoredKeys(found.keys, found.more, { tool: 'query_records', rootKeys: [], injected }).lines;
};
const keysOf = (schema: z.ZodType, value: unknown) => strippedKeys(schema, value).keys;

const records = z.object({
  table: z.string(),
  filters: z.object({ status: z.string().optional(), owner: z.string().optional() }).optional(),
  orderBy: z.string().optional(),
  limit: z.number().optional(),
});

describe('keys a strip object would drop', () => {
  it('names each with its path and the closest declared key', () => {
    expect(lines(records, { table: 't', sort: '-amount', filters: { stauts: 'open' } })).toEqual([
      'ignored `sort`: not an argument of query_records; did you mean `orderBy`?',
      'ignored `filters.stauts`: not a key of `filters`; did you mean `status`?',
    ]);
  });

  it('names the variant by its tag value as JSON would tell it apart: `when k = "1"`, `when k = 1`, `when k = null`', () => {
    const tagged = z.discriminatedUnion('k', [
      z.object({ k: z.literal('1'), s: z.string() }),
      z.object({ k: z.literal(1), n: z.number() }),
      z.object({ k: z.null(), z: z.string() }),
    ]);
    const other = '; it belongs to another form, send one form only';
    expect(lines(tagged, { k: '1', s: 'x', n: 1 })).toEqual([
      `ignored \`n\`: not an argument of query_records when k = "1"${other}`,
    ]);
    expect(lines(tagged, { k: 1, n: 1, s: 'x' })).toEqual([
      `ignored \`s\`: not an argument of query_records when k = 1${other}`,
    ]);
    expect(lines(tagged, { k: null, z: 'x', s: 'x' })).toEqual([
      `ignored \`s\`: not an argument of query_records when k = null${other}`,
    ]);
  });

  it('says nothing of a key sent as null: nothing is lost when it is dropped', () => {
    const variants = z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('a'), x: z.string() }),
      z.object({ kind: z.literal('b'), y: z.number() }),
    ]);
    // What a strict-mode client sends for the flattened union: every key, null where it means none.
    expect(keysOf(variants, { kind: 'a', x: 's', y: null })).toEqual([]);
    expect(lines(records, { table: 't', sort: null, filters: { stauts: null } })).toEqual([]);
    expect(lines(records, { table: 't', sort: 0 })).toHaveLength(1);
  });

  it('leaves strict objects to their own error, and loose objects and catch-alls keep the key', () => {
    expect(keysOf(z.strictObject({ a: z.string() }), { a: '1', b: 2 })).toEqual([]);
    expect(keysOf(z.looseObject({ a: z.string() }), { a: '1', b: 2 })).toEqual([]);
    expect(keysOf(z.object({ a: z.string() }).catchall(z.number()), { a: '1', b: 2 })).toEqual([]);
  });

  it('looks into array items, tuple items and record values', () => {
    const schema = z.object({
      rows: z.array(z.object({ id: z.string() })),
      pair: z.tuple([z.object({ x: z.string() })]),
      byId: z.record(z.string(), z.object({ name: z.string() })),
    });
    const found = keysOf(schema, {
      rows: [{ id: '1' }, { id: '2', idd: 1 }],
      pair: [{ x: '1', y: 2 }],
      byId: { k: { name: 'n', nmae: 'm' } },
    });
    expect(found.map((k) => [...k.path, k.key])).toEqual([
      ['rows', 1, 'idd'],
      ['pair', 0, 'y'],
      ['byId', 'k', 'nmae'],
    ]);
  });

  it('follows the variant a tag selects, and says a key of another variant belongs to another form', () => {
    const du = z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('a'), x: z.string() }),
      z.object({ kind: z.literal('b'), y: z.number() }),
    ]);
    expect(lines(du, { kind: 'a', x: '1', y: 2, z: 3 })).toEqual([
      'ignored `y`: not an argument of query_records when kind = a; it belongs to another form, send one form only',
      'ignored `z`: not an argument of query_records when kind = a',
    ]);
    const flow = z.union([z.object({ flowName: z.string() }), z.object({ flowPath: z.string() })]);
    expect(lines(flow, { flowName: 'a', flowPath: 'b' })).toEqual([
      'ignored `flowPath`: not an argument of query_records when given flowName; it belongs to another form, send one form only',
    ]);
  });

  it('reports a key an intersection drops only when both sides drop it', () => {
    const both = z.object({ a: z.string() }).and(z.object({ b: z.string() }));
    expect(keysOf(both, { a: '1', b: '2', c: 3 }).map((k) => k.key)).toEqual(['c']);
  });

  it('never reports through anything that keeps the value as sent, nor injected root keys', () => {
    expect(keysOf(z.object({ a: z.unknown() }), { a: { b: 1 } })).toEqual([]);
    expect(keysOf(z.object({ a: z.any().transform((v) => v) }), { a: { b: 1 } })).toEqual([]);
    expect(lines(z.object({ a: z.string() }), { a: '1', toolCallId: 'c' }, ['toolCallId'])).toEqual([]);
    expect(
      lines(z.object({ n: z.object({ a: z.string() }) }), { n: { a: '1', toolCallId: 'c' } }, ['toolCallId']),
    ).toHaveLength(1);
  });

  it('stops at a depth limit instead of overflowing on a deeply nested value', () => {
    type Node = { next?: Node };
    const node: z.ZodType<Node> = z.lazy(() => z.object({ next: node.optional() }));
    let value: Node = { extra: 1 } as Node;
    for (let i = 0; i < 10_000; i++) value = { next: value };
    expect(() => strippedKeys(node, value)).not.toThrow();
  });
});

describe('closestKey', () => {
  it('suggests by shared characters in order, case aside, and not below a third', () => {
    expect(closestKey('stauts', ['status', 'owner'])).toBe('status');
    expect(closestKey('sort', ['table', 'filters', 'orderBy', 'limit'])).toBe('orderBy');
    expect(closestKey('OrderBy', ['orderBy'])).toBe('orderBy');
    expect(closestKey('zz_extra', ['table', 'limit'])).toBeUndefined();
    expect(closestKey('q', ['query'])).toBeUndefined();
  });
});

describe('did you mean, by words as well as characters', () => {
  const issues = z.object({
    ts: z.number().optional(),
    tab: z.string().optional(),
    labels: z.array(z.string()).describe('Tags to attach to the issue').optional(),
    filter: z.object({ assignee: z.string() }).optional(),
    lineItems: z.array(z.object({ sku: z.string(), qty: z.number() })).optional(),
    userId: z.string().optional(),
  });

  it('finds a key its description names, over a short key sharing characters', () => {
    // By characters alone `tags` was `ts`.
    expect(lines(issues, { tags: ['bug'] })).toEqual([
      'ignored `tags`: not an argument of query_records; did you mean `labels`?',
    ]);
  });

  it('finds a key by the plural of its nested field, and by its words in another case', () => {
    expect(lines(issues, { skus: ['a-1'], assignees: ['me'], user_id: 'u1' })).toEqual([
      'ignored `skus`: not an argument of query_records; did you mean `lineItems`?',
      'ignored `assignees`: not an argument of query_records; did you mean `filter`?',
      'ignored `user_id`: not an argument of query_records; did you mean `userId`?',
    ]);
  });

  it('keeps suggesting misspellings by characters, and nothing for an unrelated key', () => {
    expect(closestKey('stauts', ['status', 'owner'])).toBe('status');
    expect(lines(issues, { zzz: 1 })).toEqual(['ignored `zzz`: not an argument of query_records']);
  });
});
