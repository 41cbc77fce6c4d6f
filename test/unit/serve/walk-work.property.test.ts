/**
 * Arguments of random shape and size: every walk's work counter stays within a constant of the number of
 * values sent, and sending the same value twice over at most doubles it. A walk that copies a path per
 * level, searches inside a loop over keys, or visits a value more than a fixed number of times fails one of
 * the two, whatever the shape fast-check finds.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkCall } from '../../../src/core/arguments/call.js';
import { POSITIONS, preparedAt } from '../../support/hostile.js';

/** Values the `Node` tree describes, with keys it ignores, numbers and lists sent as text, and markup-free strings. */
const { tree } = fc.letrec<{ tree: unknown }>((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.integer(),
    fc.constantFrom('ab', '12', 'true', '[1,[2]]', '{"v":1}', ''),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('tree'), { maxLength: 8 }),
    fc.record(
      { v: fc.oneof(fc.integer(), fc.constant('3')), next: tie('tree'), extra: fc.integer() },
      { requiredKeys: [] },
    ),
    fc.dictionary(fc.string({ maxLength: 4 }), tie('tree'), { maxKeys: 6 }),
  ),
}));

/** Values in `v`, counted as the first pass counts them (containers and scalars alike). */
function size(v: unknown): number {
  let count = 0;
  const stack = [v];
  while (stack.length > 0) {
    const x = stack.pop();
    count++;
    if (Array.isArray(x)) stack.push(...x);
    else if (typeof x === 'object' && x !== null) stack.push(...Object.values(x));
  }
  return count;
}

const RUNS = 150;

describe.each(Object.keys(POSITIONS))('work counters for random arguments at %s', (where) => {
  const position = POSITIONS[where]!;
  const { tool, config } = preparedAt(position);
  const work = async (items: unknown) => (await checkCall(tool, position.args(items), config)).work;

  it('stay within a constant of the values sent', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(tree, { maxLength: 6 }), async (items) => {
        const w = await work(items);
        const n = size(position.args(items));
        expect(w.sent).toBe(n);
        // Text parsed by repair ('[1,[2]]') adds its own values: at most 4 per sent string.
        expect(w.repair).toBeLessThanOrEqual(5 * n);
        // A value is read by at most a few schemas on its way (lazy, union, member).
        expect(w.stripped).toBeLessThanOrEqual(4 * n + 4);
      }),
      { numRuns: RUNS },
    );
  });

  it('at most double when the same value is sent twice', async () => {
    await fc.assert(
      fc.asyncProperty(tree, async (item) => {
        const once = await work([item]);
        const twice = await work([item, structuredClone(item)]);
        for (const walk of ['sent', 'repair', 'stripped'] as const) {
          expect(twice[walk]).toBeLessThanOrEqual(2 * once[walk] + 2);
        }
      }),
      { numRuns: RUNS },
    );
  });
});
