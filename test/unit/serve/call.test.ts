/** The call path below the transport: split by key, repair, one parse per slice. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkCall } from '../../../src/core/arguments/call.js';
import { prepareTools } from '../../../src/core/prepare/prepare.js';
import { parsesAtOnce } from '../../../src/core/zod/parses-at-once.js';
import { callPolicy, settleOptions } from '../../../src/core/serve/config.js';
import { echoTool } from '../../support/echo.js';

const on = callPolicy(settleOptions());

function prepared(input: z.ZodType, params?: z.ZodObject<z.ZodRawShape>) {
  return prepareTools([echoTool('t', input, params)]).tools[0]!;
}

describe('checkCall', () => {
  it('never lets a "__proto__" key become the prototype of a slice', async () => {
    const tool = prepared(
      z.object({ q: z.string(), isAdmin: z.boolean().default(false) }),
      z.object({ id: z.string() }),
    );
    const sent = JSON.parse('{"id":"1","q":"x","__proto__":{"isAdmin":true}}');
    const check = await checkCall(tool, sent, on);
    expect(check.ok).toBe(true);
    if (check.ok) {
      expect(check.value.input).toEqual({ q: 'x', isAdmin: false });
      expect(check.value.params).toEqual({ id: '1' });
    }
  });

  it('leaves a "__proto__" key to a strict schema, which refuses it by name', async () => {
    const tool = prepared(z.strictObject({ q: z.string() }));
    const check = await checkCall(tool, JSON.parse('{"q":"x","__proto__":{"a":1}}'), on);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.messages.join('\n')).toContain('__proto__');
  });

  it('parses each slice once and keeps unknown keys in the input slice', async () => {
    let runs = 0;
    const tool = prepared(
      z.looseObject({
        text: z.string().transform((s) => {
          runs++;
          return `${s}!`;
        }),
      }),
      z.object({ id: z.string() }),
    );
    const check = await checkCall(tool, { id: '1', text: 'x', extra: 2 }, on);
    expect(check).toMatchObject({ ok: true, value: { params: { id: '1' }, input: { text: 'x!', extra: 2 } } });
    expect(runs).toBe(1);
  });

  it("answers at once for a schema that runs none of its author's code, and waits for one that does, once", async () => {
    expect(
      checkCall(prepared(z.object({ q: z.string().min(1), n: z.number().int().optional() })), { q: 'x' }, on),
    ).not.toBeInstanceOf(Promise);
    let runs = 0;
    const tool = prepared(
      z.object({
        q: z.string().refine(async (s) => {
          runs++;
          await Promise.resolve();
          return s !== 'no';
        }, 'not that'),
      }),
    );
    const pending = checkCall(tool, { q: 'no' }, on);
    expect(pending).toBeInstanceOf(Promise);
    expect(await pending).toMatchObject({ ok: false, messages: [expect.stringContaining('not that')] });
    expect(runs).toBe(1);
  });
});

describe('repair on arguments it has nothing to change in', () => {
  const tool = prepared(z.object({ n: z.number(), tags: z.array(z.string()), ok: z.boolean().optional() }));

  it('is left out when no value is null or a string it might read', async () => {
    const check = await checkCall(tool, { n: 1, tags: ['a', 'b c', 'x-1', 'nul'] }, on);
    expect(check).toMatchObject({ ok: true, value: { repairs: [] }, work: { repair: 0 } });
  });

  it.each([
    ['a decimal', { n: '5', tags: [] }],
    ['a negative decimal', { n: '-5', tags: [] }],
    ['JSON text', { n: 1, tags: '["a"]' }],
    ['JSON text after whitespace', { n: 1, tags: ' \n["a"]' }],
    ['a boolean spelt', { n: 1, tags: [], ok: 'true' }],
    ['null', { n: 1, tags: [], ok: null }],
  ])('still runs for %s', async (_, args) => {
    const check = await checkCall(tool, args, on);
    expect(check.ok).toBe(true);
    expect(check.work.repair).toBeGreaterThan(0);
    if (check.ok) expect(check.value.repairs).toHaveLength(1);
  });
});

describe('parsesAtOnce', () => {
  it("is true for Zod's own kinds and checks only", () => {
    const own = [
      z.object({ e: z.email(), s: z.string().regex(/a/).max(3), n: z.coerce.number().int().positive() }),
      z.discriminatedUnion('t', [z.object({ t: z.literal('a') }), z.object({ t: z.literal('b'), x: z.boolean() })]),
      z.record(z.string(), z.array(z.tuple([z.string()], z.number())).nonempty()),
      z.strictObject({ a: z.string().optional().nullable().default(null), b: z.string().pipe(z.email()) }),
    ];
    const authors = [
      z.object({ a: z.string().refine((s) => s.length > 1) }),
      z.object({ a: z.string().transform((s) => s.length) }),
      z.object({ a: z.string().trim() }),
      z.object({ a: z.lazy(() => z.string()) }),
      z.object({ a: z.stringbool() }),
      z.object({ a: z.preprocess((v) => v, z.number()) }),
      z.object({ a: z.number().catch(0) }),
      z.object({ a: z.custom<string>((v) => typeof v === 'string') }),
    ];
    for (const schema of own) expect(parsesAtOnce(schema)).toBe(true);
    for (const schema of authors) expect(parsesAtOnce(schema)).toBe(false);
  });
});
