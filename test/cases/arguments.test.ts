/**
 * What a call's arguments carry beyond the schema, over real HTTP with both official clients: keys the
 * schema would drop are noticed (by default), refused or stripped as `unknownKeys` says, at the root and
 * nested, with the closest declared key; strings holding tool-call markup are refused, naming the field
 * and the argument the markup swallowed.
 */
import { defineTool, type McpMountOptions } from 'mcp-mount';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { call, expectRefused, mountGroup } from '../support/cases.js';

const queryRecords = defineTool({
  name: 'query_records',
  input: z.object({
    table: z.string(),
    filters: z.object({ status: z.enum(['open', 'closed']).optional(), owner: z.string().optional() }).optional(),
    orderBy: z.string().optional(),
    limit: z.number().int().optional(),
  }),
  handler: ({ input }, ctx) => JSON.stringify({ input, ignoredKeys: ctx.ignoredKeys }),
});
const editFile = defineTool({
  name: 'edit_file',
  input: z.object({ path: z.string(), content: z.string(), reason: z.string().optional() }),
  handler: ({ input }) => JSON.stringify({ input }),
});

const mount = (options: McpMountOptions = {}) => mountGroup([queryRecords, editFile], options);
const notice = mount();
const reject = mount({ arguments: { unknownKeys: 'reject' } });
const strip = mount({ arguments: { unknownKeys: 'strip', hygiene: false } });

const SORT = 'ignored `sort`: not an argument of query_records; did you mean `orderBy`?';
const STAUTS = 'ignored `filters.stauts`: not a key of `filters`; did you mean `status`?';

describe('unknown keys', () => {
  it('are noticed by default: the call runs, and one extra block names each key and its closest declared key', () =>
    notice.each(async (c) => {
      notice.onCall.mockClear();
      const result = await c.callTool('query_records', { table: 'payments', sort: '-amount', limit: 3 });
      expect(result.isError).toBeFalsy();
      expect(result.content).toHaveLength(2);
      const handler = JSON.parse(result.content[0]!.text!);
      expect(handler.input).toEqual({ table: 'payments', limit: 3 });
      expect(handler.ignoredKeys).toEqual([{ path: 'sort', key: 'sort', didYouMean: 'orderBy' }]);
      expect(result.content[1]).toEqual({ type: 'text', text: SORT });
      expect(notice.onCall).toHaveBeenCalledTimes(1);
      expect(notice.onCall.mock.calls[0]![0]).toMatchObject({
        ok: true,
        ignoredKeys: [{ path: 'sort', key: 'sort', didYouMean: 'orderBy' }],
      });
    }));

  it('are noticed at depth: a misspelt key of a nested object', () =>
    notice.each(async (c) => {
      const out = await call(c, 'query_records', { table: 'tickets', filters: { stauts: 'open' } });
      expect(out.isError).toBe(false);
      expect(out.notice).toBe(STAUTS);
    }));

  it('are not noticed for declared keys, nor for the toolCallId clients inject', () =>
    notice.each(async (c) => {
      const out = await call(c, 'query_records', { table: 't', orderBy: 'amount', toolCallId: 'call_1' });
      expect(out.isError).toBe(false);
      expect(out.notice).toBeUndefined();
    }));

  it("are refused under 'reject', with the same text", () =>
    reject.each(async (c) => {
      const text = await expectRefused(reject, c, 'query_records', { table: 't', sort: '-amount' }, []);
      expect(text).toContain(SORT);
      const nested = await expectRefused(reject, c, 'query_records', { table: 't', filters: { stauts: 'open' } }, []);
      expect(nested).toContain(STAUTS);
    }));

  it("are dropped without a word under 'strip'", () =>
    strip.each(async (c) => {
      const result = await c.callTool('query_records', { table: 't', sort: '-amount', filters: { stauts: 'x' } });
      expect(result.isError).toBeFalsy();
      expect(result.content).toHaveLength(1);
      expect(JSON.parse(result.content[0]!.text!)).toEqual({ input: { table: 't', filters: {} }, ignoredKeys: [] });
    }));

  it('are named beside the failure when the call is refused for another reason', () =>
    notice.each(async (c) => {
      const text = await expectRefused(notice, c, 'query_records', { sort: '-amount' }, ['table']);
      expect(text).toContain(SORT);
    }));
});

describe('tool-call markup in a string argument', () => {
  const swallowed = { path: 'a.md', content: 'New text.</content>\n<parameter name="reason">it was wrong</parameter>' };

  it('refuses the call, naming the polluted field and the argument it swallowed', () =>
    notice.each(async (c) => {
      const text = await expectRefused(notice, c, 'edit_file', swallowed, ['content', 'reason']);
      expect(text).toContain('tool-call markup (`</parameter>`)');
      expect(text).toContain('reason: missing, but named in the markup inside content; send it as its own argument');
    }));

  it('passes the text through when argumentHygiene is off', () =>
    strip.each(async (c) => {
      const out = await call(c, 'edit_file', swallowed);
      expect(out.isError).toBe(false);
      expect(out.received).toEqual({ input: swallowed });
    }));
});
