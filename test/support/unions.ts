/**
 * The tagged unions flatten.md writes its cases with, shared by the case suites (test/cases) and the unit
 * suites (test/unit/schema, test/unit/probe).
 */
import { z } from 'zod';

/** The shared union of flatten.md. */
export const DU = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('a'), x: z.string() }),
  z.object({ kind: z.literal('b'), y: z.number() }),
]);

/** `z.discriminatedUnion('kind', [{kind:'a', [key]: A}, {kind:'b', [key]: B}])`: "`key: A` in a, `key: B` in b". */
export function two(key: string, a: z.ZodType, b: z.ZodType) {
  return z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('a'), [key]: a }),
    z.object({ kind: z.literal('b'), [key]: b }),
  ]);
}

/** SK-1/SK-2: `media` is `one` in variant `one` and an array of `{ id }` in variant `many`. */
export function media(one: z.ZodType) {
  return z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('one'), media: one }),
    z.object({ kind: z.literal('many'), media: z.array(z.object({ id: z.string() })) }),
  ]);
}
