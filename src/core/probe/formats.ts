/**
 * Formats treated as portable by `requirePortableFormats`: defined by JSON Schema 2020-12 and validated by
 * ajv-formats, which the MCP SDKs use to check structured output. Zod's own formats (cuid, cuid2, ulid,
 * nanoid, base64, emoji, cidrv4, e164, jwt, ...) are not in the spec, so a client's validator either ignores
 * them or, in strict mode, refuses the schema. Provider profiles keep their own, stricter lists.
 */
export const PORTABLE_FORMATS: readonly string[] = [
  'date-time',
  'date',
  'time',
  'duration',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uri',
  'uri-reference',
  'uuid',
];

/** Formats OpenAI structured outputs (strict mode) accept for strings. */
export const OPENAI_STRICT_FORMATS: readonly string[] = [
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uuid',
];

/** Formats the Gemini function-declaration schema accepts (strings: enum, date-time; numbers: float, double, int32, int64). */
export const GEMINI_FORMATS: readonly string[] = ['enum', 'date-time', 'float', 'double', 'int32', 'int64'];
