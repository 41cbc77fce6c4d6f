/**
 * What a text sent back to a client may quote of the request: the first characters of a value, an ellipsis,
 * and how long it was, so an answer stays within a small fixed budget however large the request (docs/design/
 * repair.md, Limits). `kkkkkkkk…(1048576 characters)`.
 */

/** Characters of a key a path names before it is cut: a declared key is never longer (closest-key.ts). */
export const QUOTED_KEY_CHARS = 64;

/** Characters of a whole path (`media[0].url`) in a message; past it the middle levels are left out. */
export const QUOTED_PATH_CHARS = 256;

/** Characters of the failure lines of one refused call, past which further lines are counted, not shown. */
export const FAILURE_TEXT_CHARS = 8192;

/**
 * `text` whole when it has at most `max` characters, else its first `max` (never half a surrogate pair), an
 * ellipsis and its length. Costs the part kept.
 * @example boundedText('k'.repeat(100), 4) // 'kkkk…(100 characters)'
 */
export function boundedText(text: string, max: number): string {
  if (text.length <= max) return text;
  const last = text.charCodeAt(max - 1);
  const kept = text.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
  return `${kept}…(${text.length} characters)`;
}
