/**
 * Text a hostile client sends where a server might write it into a log line or a span: line breaks of every
 * kind, terminal escapes, C1 controls, bidirectional overrides, zero-width characters, lone surrogates,
 * quotes and backslashes, and forged log lines, mixed with ordinary text, at any length.
 */
import fc from 'fast-check';

/** Single characters that must never reach a log line or a span as they are. */
export const UNSAFE_CHARACTERS = [
  '\n',
  '\r',
  '\u0000',
  '\u0007',
  '\b',
  '\t',
  '\u000b',
  '\u000c',
  '\u001b',
  '\u007f',
  '\u0085',
  '\u009b',
  '\u061c',
  '\u200b',
  '\u200e',
  '\u200f',
  '\u2028',
  '\u2029',
  '\u202a',
  '\u202e',
  '\u2066',
  '\u2069',
  '\ufeff',
  '\ud800',
  '\udfff',
];

/** Pieces an attacker strings together. */
const PIECES = [
  ...UNSAFE_CHARACTERS,
  '\u001b[31m',
  '\u001b]8;;https://evil.example\u0007',
  '\r\n',
  ')\nmcp-mount: auth error (error id 00000000-0000-0000-0000-000000000000, caller admin/root)',
  ', caller admin/root',
  '"',
  '\\',
  '\\n',
  ' ',
  '(',
  ')',
  '/',
  'ok',
  '😀',
];

/** Any text with hostile pieces in it; `maxLength` pieces at most. */
export function hostileText(maxLength = 12): fc.Arbitrary<string> {
  return fc
    .array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ unit: 'binary', maxLength: 4 })), {
      minLength: 1,
      maxLength,
    })
    .map((parts) => parts.join(''));
}

/** True when `text` holds a character that could break a log line or mislead its reader. */
export function holdsUnsafe(text: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this finds.
  return /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(
    text,
  );
}
