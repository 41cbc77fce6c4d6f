import * as z from 'zod';
import { pointer } from '../json-schema/pointer.js';
import type { JsonSchema } from '../json-schema/types.js';
import { dropUnsafeNumbers } from '../json-schema/unsafe-numbers.js';
import { defOf, hasZodInternals, isSchema } from './def.js';
import { type ConversionNote, servedFixes } from './served-fixes.js';

export type { ConversionNote };

/** Result of converting one Zod schema to JSON Schema. */
export type Conversion =
  | {
      ok: true;
      schema: JsonSchema;
      /** What conversion left out so that the document accepts what the parse accepts (reported as `info`). */
      notes: ConversionNote[];
      /** False when no number in `schema` is ±(2^53 - 1): no safe-integer bound for a projection to drop. */
      safeIntegerBounds: boolean;
    }
  | {
      ok: false;
      message: string;
      /** JSON Pointer of the first field that cannot be converted (`""` when none could be located). */
      path: string;
      /** Every field that cannot be converted, each with Zod's reason, so one run reports them all. */
      fields: Array<{ path: string; message: string }>;
    };

/**
 * Zod to JSON Schema 2020-12, via Zod's own `toJSONSchema`.
 * `io: 'input'` for what callers send: a defaulted field is optional and a plain object is open
 * (docs/design/flatten.md, The pipeline). Unrepresentable types (`z.date()`, `z.bigint()`, `z.map()`, `z.custom()`...)
 * fail instead of being served as `{}`. A regex's flags, a finite-keyed record and integers beyond ±(2^53 - 1)
 * are fixed here, so every projection starts from a document that says what the parse accepts
 * (docs/design/flatten.md, What conversion fixes).
 */
export function toJsonSchema(schema: z.ZodType, io: 'input' | 'output'): Conversion {
  if (!hasZodInternals(schema)) {
    const message =
      'not a Zod 4 schema (Zod 3 schemas, `zod/v3`, cannot be converted); import { z } from "zod" (>= 4.2)';
    return { ok: false, path: '', message, fields: [{ path: '', message }] };
  }
  try {
    const notes: ConversionNote[] = [];
    const json = z.toJSONSchema(schema, {
      target: 'draft-2020-12',
      io,
      unrepresentable: 'throw',
      cycles: 'ref',
      override: servedFixes(notes) as never,
    });
    const safe = dropUnsafeNumbers(json as JsonSchema);
    for (const note of safe.notes) notes.push({ ...note, code: 'unsafe-number' });
    return { ok: true, schema: safe.schema, notes, safeIntegerBounds: safe.safeIntegerBounds };
  } catch (error) {
    const message = withAdvice(error instanceof Error ? error.message : String(error));
    const fields = locateUnconvertible(schema, io, '');
    return {
      ok: false,
      message,
      path: fields[0]?.path ?? '',
      fields: fields.length > 0 ? fields : [{ path: '', message }],
    };
  }
}

function withAdvice(message: string): string {
  if (/^Date\b/.test(message)) return `${message}; use z.iso.datetime() (served as format "date-time")`;
  if (/BigInt/i.test(message)) return `${message}; use z.number().int() or a numeric string`;
  if (/^(Map|Set)\b/.test(message)) return `${message}; use z.record() or z.array()`;
  if (/Custom/i.test(message)) return `${message}; declare a concrete Zod type`;
  return message;
}

/** Every sub-schema that cannot be converted, found by converting the parts alone, deepest first. */
function locateUnconvertible(
  schema: z.ZodType,
  io: 'input' | 'output',
  at: string,
): Array<{ path: string; message: string }> {
  if (!isSchema(schema)) return [];
  const def = defOf(schema);
  const failure = (s: z.ZodType): string | undefined => {
    try {
      z.toJSONSchema(s, { io, unrepresentable: 'throw', cycles: 'ref' });
      return undefined;
    } catch (error) {
      return withAdvice(error instanceof Error ? error.message : String(error));
    }
  };
  const inner = (s: z.ZodType, p: string) => {
    const why = failure(s);
    if (why === undefined) return [];
    const deeper = locateUnconvertible(s, io, p);
    return deeper.length > 0 ? deeper : [{ path: p, message: why }];
  };
  switch (def.type) {
    case 'object':
      return Object.entries(def.shape!).flatMap(([key, value]) =>
        inner(value as z.ZodType, pointer(at, 'properties', key)),
      );
    case 'array':
      return inner(def.element as z.ZodType, pointer(at, 'items'));
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'nonoptional':
    case 'catch':
      return locateUnconvertible(def.innerType as z.ZodType, io, at);
    default:
      return [];
  }
}
