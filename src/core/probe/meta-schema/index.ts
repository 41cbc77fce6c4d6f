import { plainlyValid } from './plainly-valid.js';
import { validate } from './validate-2020-12.js';

/** One place a document breaks the JSON Schema 2020-12 meta-schema. */
export interface MetaSchemaViolation {
  /** JSON Pointer of the offending value in the document (`/properties/a/deprecated`). */
  path: string;
  /** What the meta-schema expects there, from Ajv (`must be boolean`). */
  expected: string;
}

interface AjvError {
  instancePath: string;
  keyword: string;
  message?: string;
}

const checked = validate as unknown as ((data: unknown) => boolean) & { errors?: AjvError[] | null };

// Keywords whose failure only repeats a failure below them (the meta-schema is a tree of `allOf`s and
// `$dynamicRef`s, and `type` is an `anyOf` of a name and a list).
const ECHOES: ReadonlySet<string> = new Set(['anyOf', 'oneOf', 'allOf', 'not', 'if', '$ref', '$dynamicRef']);

/**
 * Where `doc` is not a valid JSON Schema 2020-12 document, one violation per offending value (in the
 * meta-schema's order of vocabularies): checked by Ajv's validator for the meta-schema, compiled ahead of time (no Ajv and no
 * `new Function` at run time: docs/decisions/0017-meta-schema-check.md). `format` is not asserted (an
 * annotation in 2020-12). A document `plainlyValid` vouches for is not run through it: at startup, where
 * the validator's code is cold, it costs several times that check (docs/decisions/0027-meta-schema-check-for-plain-documents.md).
 * Pure; linear in the document's size.
 */
export function metaSchemaViolations(doc: unknown): MetaSchemaViolation[] {
  if (plainlyValid(doc) || checked(doc)) return [];
  const errors = checked.errors ?? [];
  const specific = errors.filter((e) => !ECHOES.has(e.keyword));
  const out = new Map<string, MetaSchemaViolation>();
  for (const e of specific.length > 0 ? specific : errors) {
    if (!out.has(e.instancePath)) out.set(e.instancePath, { path: e.instancePath, expected: e.message ?? e.keyword });
  }
  return [...out.values()];
}
