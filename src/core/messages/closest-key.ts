/**
 * The declared key a misspelt or reworded one most likely meant, by the better of two readings:
 *
 * - characters: the share of characters the two keys have in common, in order (their longest common
 *   subsequence, case aside: an edit distance that counts insertions and deletions), so `stauts` finds
 *   `status`. Fewer than two characters, or less than a third of both keys, is no match;
 * - words: the key's words (camelCase, snake_case, kebab-case and digits split; plurals read as their
 *   singular) against a declared key's own words, as a Dice share (`user_ids` finds `userId`; `id` alone is
 *   not `userId`), or against its nested field names (weight 0.9: `skus` finds `items` whose items declare
 *   `sku`) and its description's words (0.75: `tags` finds `labels` described "Tags to attach"), as the
 *   share of the key's words they hold. Half or more is a match.
 *
 * Bounded per call: keys over 64 characters compare by equality only, and each candidate brings at most
 * `HINT_WORDS` nested names and description words (docs/design/request-cost.md).
 */
import type { KeyHints } from '../zod/key-hints.js';

/**
 * The closest of `candidates` to `key`, or undefined when none scores above `floor` (default a third: a
 * model's reworded argument; option names, typed by a developer, ask for more: `OPTION_FLOOR`).
 */
export function closestKey(
  key: string,
  candidates: readonly string[],
  hints?: KeyHints,
  floor = 1 / 3,
): string | undefined {
  const words = wordsOf(key);
  let best: string | undefined;
  let bestScore = floor;
  for (const candidate of candidates) {
    if (candidate === key) continue;
    const score = Math.max(characterScore(key, candidate), wordScore(words, candidate, hints?.get(candidate)));
    if (score > bestScore || (score === bestScore && best === undefined && score > 0)) {
      best = candidate;
      bestScore = score;
    }
  }
  return best;
}

/**
 * The score an option name must pass to be suggested: a typo (`acess`, `stal`, `timeout`) passes, a name
 * that only shares letters (`repair` and `server`) does not.
 */
export const OPTION_FLOOR = 0.7;

function characterScore(key: string, candidate: string): number {
  const common = commonLength(key.toLowerCase(), candidate.toLowerCase());
  return common >= 2 ? (2 * common) / (key.length + candidate.length) : 0;
}

function wordScore(
  words: readonly string[],
  candidate: string,
  hint: { fields: readonly string[]; words: readonly string[] } | undefined,
): number {
  if (words.length === 0) return 0;
  const own = wordsOf(candidate);
  const nested = new Set(hint?.fields.flatMap(wordsOf) ?? []);
  const described = new Set(hint?.words.flatMap(wordsOf) ?? []);
  let ownFound = 0;
  let hinted = 0;
  for (const w of words) {
    if (own.includes(w)) ownFound++;
    else hinted += nested.has(w) ? 0.9 : described.has(w) ? 0.75 : 0;
  }
  // Own words as a Dice share (`id` is not `userId`), hints as the share of the key they explain.
  const score = Math.max((2 * ownFound) / (words.length + own.length), hinted / words.length);
  return score >= 0.5 ? score : 0;
}

/** `userIds` → `user`, `id`; `order_by` → `order`, `by`; lower case, plurals as their singular. */
function wordsOf(name: string): string[] {
  if (name.length > 64) return [];
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+|(?<=[A-Za-z])(?=[0-9])|(?<=[0-9])(?=[A-Za-z])/)
    .filter((w) => w.length > 0)
    .map((w) => singular(w.toLowerCase()));
}

function singular(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && /(?:s|x|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** Longest common subsequence length; keys are short, so the quadratic table is cheap (at most 64 × 64). */
function commonLength(a: string, b: string): number {
  if (a.length > 64 || b.length > 64) return a === b ? a.length : 0;
  let previous = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    const row = new Array<number>(b.length + 1).fill(0);
    for (let j = 1; j <= b.length; j++) {
      row[j] = a[i - 1] === b[j - 1] ? previous[j - 1]! + 1 : Math.max(previous[j]!, row[j - 1]!);
    }
    previous = row;
  }
  return previous[b.length]!;
}
