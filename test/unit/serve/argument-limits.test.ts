/**
 * What a call's arguments may hold (`maxArgumentDepth`, `maxArgumentValues`), and that every text a model
 * reads back stays short however large the arguments: the failure list, the ignored-keys notice.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkCall } from '../../../src/core/arguments/call.js';
import { inspectSentValues } from '../../../src/core/arguments/sent-values.js';
import { prepareTools } from '../../../src/core/prepare/prepare.js';
import { callPolicy, settleOptions } from '../../../src/core/serve/config.js';
import { echoTool } from '../../support/echo.js';

const limits = { maxDepth: 64, maxValues: 1_000_000, markup: true };

function nestArrays(levels: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < levels; i++) v = [v];
  return v;
}

describe('the first pass over the sent arguments', () => {
  it('takes 64 levels, the arguments object included, and refuses the 65th naming its path and the limit', () => {
    expect(inspectSentValues({ b: nestArrays(63) }, limits).ok).toBe(true);
    const refused = inspectSentValues({ b: nestArrays(64) }, limits);
    expect(refused).toMatchObject({ ok: false });
    if (refused.ok) return;
    expect(refused.message).toBe(
      `b${'[0]'.repeat(63)}: nested deeper than 64 levels of arrays and objects, over the limit (limits.maxArgumentDepth); send a flatter value`,
    );
  });

  it('stops at the first container past the limit, however deep the value goes', () => {
    const refused = inspectSentValues({ b: nestArrays(1_000_000) }, limits);
    expect(refused.ok).toBe(false);
    expect(refused.values).toBeLessThanOrEqual(66);
  });

  it('counts every value, and refuses more than maxValues', () => {
    expect(inspectSentValues({ a: [1, 2, { b: 'x' }] }, limits)).toMatchObject({ ok: true, values: 6 });
    const refused = inspectSentValues({ a: new Array(10).fill(0) }, { ...limits, maxValues: 10 });
    expect(refused).toMatchObject({ ok: false, values: 11 });
    if (!refused.ok) expect(refused.message).toMatch(/^\(root\): the arguments hold more than 10 values/);
  });

  it('treats a value that is not JSON (a Date from a direct caller) as a leaf', () => {
    expect(inspectSentValues({ when: new Date(0) }, limits)).toMatchObject({ ok: true, values: 2 });
  });
});

describe('checkCall under the argument limits', () => {
  type Tree = { v: number; kids?: Tree[] };
  const tree: z.ZodType<Tree> = z.lazy(() => z.object({ v: z.number(), kids: z.array(tree).optional() }));
  const tool = prepareTools([echoTool('grow', z.object({ root: tree }))]).tools[0]!;

  function deepTree(levels: number): Tree {
    let node: Tree = { v: 0 };
    for (let i = 0; i < levels; i++) node = { v: 1, kids: [node] };
    return node;
  }

  it('answers a recursive schema given a value 1,000 deep with the limit, not a stack overflow', async () => {
    const check = await checkCall(tool, { root: deepTree(1000) }, callPolicy(settleOptions()));
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.messages).toHaveLength(1);
    // A path that long is shown by its first and last levels (messages/path.ts).
    expect(check.messages[0]).toMatch(
      /^root(\.kids\[0\])+…\(\d+ more levels\)…(\.kids|\[0\])+: nested deeper than 64 levels/,
    );
    expect(check.messages[0]).not.toMatch(/call stack/i);
  });

  it('still checks such a value within the limit, and a raised limit is the owner’s to choose', async () => {
    expect((await checkCall(tool, { root: deepTree(20) }, callPolicy(settleOptions()))).ok).toBe(true);
    const raised = callPolicy(settleOptions({ limits: { maxArgumentDepth: 1_000_000 } }));
    const check = await checkCall(tool, { root: deepTree(100_000) }, raised);
    // Zod's own parse recurses: past what the stack holds, the model is told so in words of its own.
    expect(check).toMatchObject({ ok: false, messages: [expect.stringMatching(/too deep for this tool to check/)] });
  });

  it('refuses with TypeError a limit that is not a positive integer', () => {
    expect(() => settleOptions({ limits: { maxArgumentDepth: 0 } })).toThrow(TypeError);
    expect(() => settleOptions({ limits: { maxArgumentValues: 1.5 } })).toThrow(
      /maxArgumentValues must be a positive integer/,
    );
  });

  it('refuses JSON text that nests past the same depth limit, counted from the arguments', async () => {
    const list = prepareTools([echoTool('list', z.object({ rows: z.array(z.unknown()) }))]).tools[0]!;
    const text = `${'['.repeat(64)}${']'.repeat(64)}`;
    const check = await checkCall(list, { rows: text }, callPolicy(settleOptions()));
    expect(check).toMatchObject({
      ok: false,
      messages: [expect.stringMatching(/^rows: the JSON text nests deeper than 64/)],
    });
  });
});

describe('texts that stay short however large the arguments', () => {
  it('names the first 10 of 20,000 ignored keys with suggestions and counts the rest', async () => {
    const tool = prepareTools([echoTool('query', z.object({ table: z.string() }))]).tools[0]!;
    const args: Record<string, unknown> = { table: 't', tabel: 'x' };
    for (let i = 0; i < 20_000; i++) args[`k${i}`] = i;
    const check = await checkCall(tool, args, callPolicy(settleOptions()));
    expect(check.ok).toBe(true);
    if (!check.ok) return;
    const lines = check.value.notice!.split('\n');
    expect(lines).toHaveLength(11);
    expect(lines[0]).toBe('ignored `tabel`: not an argument of query; did you mean `table`?');
    expect(lines[10]).toBe('ignored 19991 more keys not named here (20001 in all)');
    expect(check.value.notice!.length).toBeLessThan(1000);
    expect(check.value.ignored).toHaveLength(100);
  });

  it('names the first 20 of 100,000 failing paths and counts the rest', async () => {
    const tool = prepareTools([echoTool('sum', z.object({ items: z.array(z.number()) }))]).tools[0]!;
    const check = await checkCall(tool, { items: new Array(100_000).fill(true) }, callPolicy(settleOptions()));
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.messages).toHaveLength(21);
    expect(check.messages[0]).toBe('items[0]: expected number, received boolean');
    expect(check.messages[20]).toBe('…and 99980 more failures not shown; fix these and send again');
  });

  it('names ten keys of a strict object that refuses 5,000', async () => {
    const tool = prepareTools([echoTool('strict', z.strictObject({ a: z.string() }))]).tools[0]!;
    const args: Record<string, unknown> = { a: 'x' };
    for (let i = 0; i < 5000; i++) args[`k${i}`] = i;
    const check = await checkCall(tool, args, callPolicy(settleOptions()));
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.messages).toEqual(['k0, k1, k2, k3, k4, k5, k6, k7, k8, k9 and 4990 more: unrecognized keys']);
  });
});
