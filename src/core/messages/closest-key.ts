/**
 * The declared key a misspelt one most likely meant. Similarity is the share of characters the two keys
 * have in common, in order (their longest common subsequence, case aside: an edit distance that counts
 * insertions and deletions), so `stauts` finds `status` and `sort` finds `orderBy`. A candidate sharing
 * fewer than two characters, or less than a third of both keys, is no suggestion at all.
 */

/** The closest of `candidates` to `key`, or undefined when none is close enough. */
export function closestKey(key: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestScore = 1 / 3;
  for (const candidate of candidates) {
    if (candidate === key) continue;
    const common = commonLength(key.toLowerCase(), candidate.toLowerCase());
    const score = (2 * common) / (key.length + candidate.length);
    if (common >= 2 && (score > bestScore || (score === bestScore && best === undefined))) {
      best = candidate;
      bestScore = score;
    }
  }
  return best;
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
