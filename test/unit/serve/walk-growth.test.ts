/**
 * Every walk over a call's arguments is linear in their size, for every hostile shape, wherever the value
 * sits (the input root, a union variant, `params`, `extend`): doubling the input at most doubles the work,
 * as the walks' own work counters count it (deterministic). The caps are raised far out of the way, so the
 * walks behind them are held to it on their own; past a cap, the work stops growing at all. The time of the
 * same checks, as a ratio, is test/timing/walk-time.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { checkCall } from '../../../src/core/arguments/call.js';
import { POSITIONS, preparedAt, SHAPES, UNCAPPED } from '../../support/hostile.js';

/** Sizes per shape: depth, key count, length or characters. The second is always twice the first. */
const WORK_SIZE: Record<string, number> = {
  'deep arrays': 4000,
  'deep objects': 4000,
  'wide objects': 20_000,
  'long arrays': 20_000,
  'long strings': 200_000,
  'many short strings': 20_000,
  'deep JSON text': 4000,
};
describe.each(Object.keys(POSITIONS))('arguments at %s', (where) => {
  const position = POSITIONS[where]!;

  it.each(Object.keys(SHAPES))('%s: each walk does at most twice the work for twice the size', async (name) => {
    const shape = SHAPES[name]!;
    const { tool, config } = preparedAt(position, UNCAPPED);
    const n = WORK_SIZE[name]!;
    const small = await checkCall(tool, position.args(shape.value(n)), config);
    const large = await checkCall(tool, position.args(shape.value(2 * n)), config);
    for (const walk of ['sent', 'repair', 'stripped'] as const) {
      // +8: a walk's fixed steps (the arguments object, the slot) do not double.
      expect(large.work[walk], `${walk}: ${small.work[walk]} → ${large.work[walk]}`).toBeLessThanOrEqual(
        2 * small.work[walk] + 8,
      );
    }
  });
});

describe('arguments past a cap', () => {
  const position = POSITIONS['the input root']!;

  it.each(['deep arrays', 'deep objects', 'deep JSON text'])(
    '%s past the depth cap cost the same at any depth',
    async (name) => {
      const { tool, config } = preparedAt(position);
      const shallow = await checkCall(tool, position.args(SHAPES[name]!.value(1000)), config);
      const deep = await checkCall(tool, position.args(SHAPES[name]!.value(100_000)), config);
      expect(deep.work).toEqual(shallow.work);
      expect(deep.ok).toBe(false);
    },
  );
});
