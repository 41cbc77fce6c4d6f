/**
 * Text a client chose, as it may appear in a log line or on a span: every character that could start a new
 * line, move a terminal's cursor, recolour or reorder what an operator reads (C0 and C1 controls, DEL, the
 * Unicode line and paragraph separators, bidirectional marks and overrides, zero-width characters, lone
 * surrogates) is written as an escape (`\n`, `\u001b`), a backslash as `\\`, and the whole is cut to a fixed
 * length with an ellipsis and its length. So a JSON-RPC id such as `"7)\nmcp-mount: auth error (caller admin"`
 * stays on the one line it belongs to, visibly a value. The rule is the same wherever a client's text is
 * logged or traced.
 */

/**
 * Characters of a value kept in a log line or a span attribute; past it the value is cut.
 * @internal exported for its tests alone
 */
export const LOG_VALUE_CHARS = 256;

/** What must never reach a log or span as it is. */
const UNSAFE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this finds.
  /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\\]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const SHORT: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\\': '\\\\' };

/** A value written plainly in a log line: a short token that holds nothing a reader could take for structure. */
const PLAIN = /^[A-Za-z0-9_.:@+-]{1,128}$/;

/**
 * `text` with every unsafe character escaped, cut to `max` characters (`…(1048576 characters)` after the
 * cut). Linear in the part kept: a megabyte value costs its first `max` characters.
 * @example escapedText('a\nb') // 'a\\nb'
 */
export function escapedText(text: string, max = LOG_VALUE_CHARS): string {
  const kept = cut(text, max);
  const escaped = kept.replace(UNSAFE, escapeChar);
  return kept.length === text.length ? escaped : `${escaped}…(${text.length} characters)`;
}

/**
 * A client-chosen value as a log line shows it: a number as it is, a short plain token (`7`, `get_weather`,
 * `ada@example.com`) as it is, anything else quoted and escaped (`"7)\nmcp-mount: …"`), so a reader can
 * always tell where the value ends.
 * @example logValue('a b') // '"a b"'
 */
export function logValue(value: unknown): string {
  if (typeof value === 'number') return String(value);
  const text = String(value);
  if (PLAIN.test(text)) return text;
  return `"${escapedText(text).replaceAll('"', '\\"')}"`;
}

/**
 * What a logger is handed beside the line: `error` itself, or, when its message holds unsafe characters or
 * runs past `LOG_MESSAGE_CHARS` (a message may quote what the client sent), a copy of the same class whose
 * message, and the message's part of the stack, are escaped and cut. The stack's frames stay as they are:
 * they come from code. Anything that is not an `Error` is handed on unchanged.
 */
export function loggedError(error: unknown): unknown {
  if (!(error instanceof Error) || typeof error.message !== 'string') return error;
  const { message } = error;
  UNSAFE.lastIndex = 0;
  if (message.length <= LOG_MESSAGE_CHARS && !UNSAFE.test(message)) return error;
  const shown = escapedText(message, LOG_MESSAGE_CHARS);
  const copy = Object.create(Object.getPrototypeOf(error)) as Error;
  for (const key of Reflect.ownKeys(error)) {
    const descriptor = Object.getOwnPropertyDescriptor(error, key)!;
    Object.defineProperty(copy, key, descriptor);
  }
  const stack = typeof error.stack === 'string' ? error.stack : undefined;
  const at = stack?.indexOf(message) ?? -1;
  Object.defineProperty(copy, 'message', { value: shown, writable: true, configurable: true, enumerable: false });
  if (stack !== undefined) {
    const frames = at >= 0 ? stack.slice(at + message.length) : '';
    const head = at >= 0 ? stack.slice(0, at) : `${error.name}: `;
    Object.defineProperty(copy, 'stack', {
      value: `${head}${shown}${frames}`,
      writable: true,
      configurable: true,
      enumerable: false,
    });
  }
  return copy;
}

/** An error message's characters kept in the log, past which it is cut. */
const LOG_MESSAGE_CHARS = 4096;

/** `text`'s first `max` characters, never splitting a surrogate pair. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const last = text.charCodeAt(max - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
}

function escapeChar(char: string): string {
  return SHORT[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}
