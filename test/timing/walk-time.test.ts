/**
 * The time of the whole argument check grows linearly with the arguments, for every hostile shape and
 * position: the check at 2n takes at most about 2.5 times the check at n, compared as a ratio in one
 * process, never as a duration. Its own vitest project, run alone (`npm run test:timing`), so no other test
 * file shares the CPU with it. The caps are raised out of the way, as for the work counters
 * (test/unit/serve/walk-growth.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { checkCall } from '../../src/core/arguments/call.js';
import { fastest, POSITIONS, preparedAt, SHAPES, UNCAPPED } from '../support/hostile.js';

const TIME_SIZE: Record<string, number> = {
  'deep arrays': 10_000,
  'deep objects': 10_000,
  'wide objects': 20_000,
  'long arrays': 100_000,
  'long strings': 1_000_000,
  'many short strings': 100_000,
  'deep JSON text': 10_000,
};

describe.each(Object.keys(POSITIONS))('arguments at %s', (where) => {
  const position = POSITIONS[where]!;

  it.each(Object.keys(SHAPES))(
    '%s: the whole check takes at most about twice as long for twice the size',
    async (name) => {
      const shape = SHAPES[name]!;
      const { tool, config } = preparedAt(position, UNCAPPED);
      const n = TIME_SIZE[name]!;
      const small = position.args(shape.value(n));
      const large = position.args(shape.value(2 * n));
      await checkCall(tool, small, config); // warm-up: compile the walks before timing them
      // A quadratic walk shows a ratio near 4 at every attempt; noise on a shared machine does not repeat.
      let ratio = Number.POSITIVE_INFINITY;
      for (let attempt = 0; attempt < 5 && ratio > 2.5; attempt++) {
        const t1 = await fastest(() => checkCall(tool, small, config), 5);
        const t2 = await fastest(() => checkCall(tool, large, config), 5);
        // Below a millisecond the clock's grain dominates: such a check is capped, constant work.
        ratio = Math.min(ratio, Math.max(t2, 1) / Math.max(t1, 1));
      }
      expect(ratio).toBeLessThanOrEqual(2.5);
    },
  );
});
