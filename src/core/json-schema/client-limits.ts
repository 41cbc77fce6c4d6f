// What clients take in a tool schema (format lists, grammar thresholds), as data: the probe reports a
// document that exceeds them and the client-profile projections rewrite a document to stay within them.

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

/** Thresholds of the `local-grammar` profile, where JSON Schema is compiled to a sampling grammar. */
export const LOCAL_GRAMMAR_LIMITS = {
  /** `maxLength`/`minLength`/`maxItems`/`minItems` at or above this unroll into huge grammars. */
  repetition: 2000,
  /** Longer `pattern`s are slow to compile or unsupported by grammar converters. */
  patternLength: 200,
  /** Values nested deeper than this (objects and arrays) blow up grammar size. */
  depth: 6,
} as const;

/**
 * Formats local grammar engines write as JSON Schema means them. node-llama-cpp's grammar takes `date` as
 * `YYYY-MM-DD` with months 01-12 and days 01-31 (every full-date and more); its `time` and `date-time` need
 * seconds, exactly three fraction digits and an offset, and any other format compiles to `""` alone.
 */
export const LOCAL_GRAMMAR_FORMATS: readonly string[] = ['date'];

/** The `$defs` name the `local-grammar` projection gives "any JSON value", numbered when a document uses it. */
export const LOCAL_GRAMMAR_ANY_VALUE = 'JsonValue';

/**
 * Any JSON value, in the subset local grammar engines read: no type list holds `object` or `array`, and a
 * node without a type compiles to `null` alone in node-llama-cpp, so the scalars, an array of any values
 * (through `ref`, this definition's own reference) and an object of any values are three `oneOf` members.
 */
export function grammarAnyValue(ref: string): Record<string, unknown> {
  return {
    oneOf: [
      { type: ['string', 'number', 'boolean', 'null'] },
      { type: 'array', items: { $ref: ref } },
      { type: 'object', additionalProperties: true },
    ],
  };
}
