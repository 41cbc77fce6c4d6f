/**
 * The tagged unions the flatten and probe suites build their schemas from, shared by the case suites
 * (test/cases) and the unit suites (test/unit/projection, test/unit/probe).
 */
import { z } from 'zod';

/** The plain two-variant union: `kind` is `a` (with a string `x`) or `b` (with a number `y`). */
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

/** `media` is `one` in variant `one` and an array of `{ id }` in variant `many`: an object-or-array collision. */
export function media(one: z.ZodType) {
  return z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('one'), media: one }),
    z.object({ kind: z.literal('many'), media: z.array(z.object({ id: z.string() })) }),
  ]);
}

// Unions tagged by values other than strings: flattened like string tags, the tag typed by its values.

/** The tag `k` is a number literal (1 or 2). */
export const numericTag = z.discriminatedUnion('k', [
  z.object({ k: z.literal(1), x: z.string() }),
  z.object({ k: z.literal(2), y: z.string() }),
]);

/** The tag `k` is a boolean literal. */
export const booleanTag = z.discriminatedUnion('k', [
  z.object({ k: z.literal(true), x: z.string() }),
  z.object({ k: z.literal(false), y: z.string() }),
]);

/** The tag `k` is a string, null or a number: `{type: ["string", "integer", "null"]}` flattened. */
export const mixedTag = z.discriminatedUnion('k', [
  z.object({ k: z.literal('a'), x: z.string() }),
  z.object({ k: z.null(), y: z.string() }),
  z.object({ k: z.literal(2), z: z.number() }),
]);

// A union whose tag is not required everywhere, so flattening does not apply to it.

/** The tag `k` is optional in one variant. */
export const optionalTag = z.discriminatedUnion('k', [
  z.object({ k: z.literal('a').optional(), x: z.string() }),
  z.object({ k: z.literal('b'), y: z.string() }),
]);

/**
 * Two strict variants tagged by `type` that share `title`; `open` has optional fields of its own (`cwd`,
 * `direction`) that a `send` call must not carry.
 */
export const strictVariantsWithOwnOptionals = z.discriminatedUnion('type', [
  z.object({ type: z.literal('send'), title: z.string(), input: z.string() }).strict(),
  z
    .object({
      type: z.literal('open'),
      title: z.string(),
      target: z.string(),
      cwd: z.string().optional(),
      direction: z.string().optional(),
    })
    .strict(),
]);
