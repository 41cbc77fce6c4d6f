import { z } from 'zod';
import { type JsonSchema, pointer } from './json-schema.js';

/** Result of converting one Zod schema to JSON Schema. */
export type Conversion =
  | { ok: true; schema: JsonSchema }
  | {
      ok: false;
      message: string /** JSON Pointer of the first field that cannot be converted, when found. */;
      path: string;
    };

/**
 * Zod to JSON Schema 2020-12, via Zod's own `toJSONSchema`.
 * `io: 'input'` for what callers send: a defaulted field is optional and a plain object is open
 * (DEVELOPERS.md, Environment). Unrepresentable types (`z.date()`, `z.bigint()`, `z.map()`, `z.custom()`...)
 * fail instead of being served as `{}`.
 */
export function toJsonSchema(schema: z.ZodType, io: 'input' | 'output'): Conversion {
  if (!isZod4(schema)) {
    return {
      ok: false,
      path: '',
      message: 'not a Zod 4 schema (Zod 3 schemas, `zod/v3`, cannot be converted); import { z } from "zod" (>= 4.2)',
    };
  }
  try {
    const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'throw', cycles: 'ref' });
    return { ok: true, schema: json as JsonSchema };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, message: withAdvice(message), path: locateUnconvertible(schema, io, '') ?? '' };
  }
}

function isZod4(schema: unknown): schema is z.ZodType {
  return typeof schema === 'object' && schema !== null && '_zod' in schema;
}

function withAdvice(message: string): string {
  if (/^Date\b/.test(message)) return `${message}; use z.iso.datetime() (served as format "date-time")`;
  if (/BigInt/i.test(message)) return `${message}; use z.number().int() or a numeric string`;
  if (/^(Map|Set)\b/.test(message)) return `${message}; use z.record() or z.array()`;
  if (/Custom/i.test(message)) return `${message}; declare a concrete Zod type`;
  return message;
}

/** Finds the pointer of the first sub-schema that cannot be converted, by converting the parts alone. */
function locateUnconvertible(schema: z.ZodType, io: 'input' | 'output', at: string): string | undefined {
  const def = (schema as any)._zod?.def;
  if (!def) return undefined;
  const fails = (s: z.ZodType) => {
    try {
      z.toJSONSchema(s, { io, unrepresentable: 'throw', cycles: 'ref' });
      return false;
    } catch {
      return true;
    }
  };
  const inner = (s: z.ZodType, p: string) => (fails(s) ? (locateUnconvertible(s, io, p) ?? p) : undefined);
  switch (def.type) {
    case 'object':
      for (const [key, value] of Object.entries(def.shape as Record<string, z.ZodType>)) {
        const found = inner(value, pointer(at, 'properties', key));
        if (found !== undefined) return found;
      }
      return at;
    case 'array':
      return inner(def.element, pointer(at, 'items')) ?? at;
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'nonoptional':
    case 'catch':
      return locateUnconvertible(def.innerType, io, at);
    default:
      return at;
  }
}
