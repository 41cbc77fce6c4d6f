import type { z } from 'zod';
import type { JsonSchema } from '../../../src/core/json-schema/types.js';
import { flattenWithReport } from '../../../src/core/projection/flatten.js';
import { dropSafeIntegerBounds, inlineRefs } from '../../../src/core/projection/index.js';
import { toJsonSchema } from '../../../src/core/zod/convert.js';
import { ajv } from '../../support/documents.js';
import { two } from '../../support/unions.js';

// Zod's conversion, Ajv and the document lookups are shared with the case suites (test/support/documents.ts).
export { ajv, at, pointersWith, toJson, typeSet, unionsIn } from '../../support/documents.js';

/**
 * The mount's conversion (`toJsonSchema`): Zod's document with what it fixes (flagged patterns, finite-keyed
 * records, integers beyond 2^53). Throws on a schema that does not convert.
 */
export function converted(schema: z.ZodType): JsonSchema {
  const out = toJsonSchema(schema, 'input');
  if (!out.ok) throw new Error(`does not convert: ${out.message}`);
  return out.schema;
}

/** The served document as the mount computes it: convert, inline refs, drop the safe-integer bounds, then flatten. */
export function project(schema: z.ZodType) {
  return flattenWithReport(dropSafeIntegerBounds(inlineRefs(converted(schema)).schema) as JsonSchema);
}

export function accepts(schema: JsonSchema, value: unknown): boolean {
  return ajv.validate(schema, value) === true;
}

/**
 * Asserts the superset invariant for concrete values: every value the original Zod schema accepts must
 * pass the served document. Returns the values that Zod accepted (so a test can check it tried some).
 */
export function zodAcceptedValuesPass(schema: z.ZodType, served: JsonSchema, values: unknown[]): unknown[] {
  const accepted = values.filter((v) => schema.safeParse(v).success);
  const validate = ajv.compile(served);
  for (const v of accepted) {
    if (!validate(v)) {
      throw new Error(
        `Zod accepts ${JSON.stringify(v)} but the served schema rejects it: ${JSON.stringify(validate.errors)}\n${JSON.stringify(served)}`,
      );
    }
  }
  return accepted;
}

/** `z.discriminatedUnion('kind', [{kind:'a', f: A}, {kind:'b', f: B}])`: "f: A in a, f: B in b". */
export function twoVariants(a: z.ZodType, b: z.ZodType, key = 'f') {
  return two(key, a, b);
}

/** The plain two-variant union the flatten cases build on. */
export { DU } from '../../support/unions.js';
