/** The call path below the transport: split by key, repair, one parse per slice. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkCall } from '../../../src/core/arguments/call.js';
import { prepareTools } from '../../../src/core/prepare/prepare.js';
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
});
