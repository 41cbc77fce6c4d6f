/**
 * Keys the tool's schema would have dropped without a word, as the model and the hooks read them:
 * `ignored \`sort\`: not an argument of query_records; did you mean \`orderBy\`?`. A model that sees only
 * a successful result presents unsorted rows as sorted; one line per key lets it resend the call.
 */
import type { StrippedKey } from '../zod/stripped-keys.js';
import { closestKey } from './closest-key.js';
import { formatPath } from './path.js';

/** One key the arguments carried and the schema ignored. */
export interface IgnoredKey {
  /** Where the key was, spelled as in error lines: `sort`, `filters.stauts`, `rows[0].x`. */
  path: string;
  key: string;
  /** The declared key it most likely meant. */
  didYouMean?: string;
}

export interface IgnoredContext {
  /** The tool's name, as the line says it. */
  tool: string;
  /** Every top-level key the tool declares, in any slice: suggestions at the root draw on all of them. */
  rootKeys: readonly string[];
  /** Top-level keys clients add on their own (`toolCallId`): never reported. */
  injected: readonly string[];
}

/** Keys the notice names one by one (with a suggestion each); past them it says how many more. */
const NOTICE_KEYS = 10;

/**
 * The ignored keys (injected root keys left out), and the notice's lines: one per key for the first few, in
 * the order met, each with its suggestion, then one line counting the rest (`more` keys were only counted
 * upstream). The lines stay short however many keys were ignored; the suggestions are computed for the keys
 * named only.
 */
export function ignoredKeys(
  stripped: readonly StrippedKey[],
  more: number,
  ctx: IgnoredContext,
): { ignored: IgnoredKey[]; lines: string[] } {
  const injected = new Set(ctx.injected);
  const ignored: IgnoredKey[] = [];
  const lines: string[] = [];
  let rootCandidates: readonly string[] | undefined;
  for (const k of stripped) {
    if (k.path.length === 0 && injected.has(k.key)) continue;
    const path = formatPath([...k.path, k.key]);
    if (lines.length >= NOTICE_KEYS) {
      ignored.push({ path, key: k.key });
      continue;
    }
    let candidates = k.declared;
    if (k.path.length === 0) candidates = rootCandidates ??= [...new Set([...k.declared, ...ctx.rootKeys])];
    // A key another form of the union takes is not misspelt: the model mixed two forms.
    const didYouMean = k.otherForm ? undefined : closestKey(k.key, candidates, k.hints);
    const where = k.path.length === 0 ? `not an argument of ${ctx.tool}` : `not a key of \`${formatPath(k.path)}\``;
    const form = k.within === undefined ? '' : ` when ${k.within}`;
    const hint = k.otherForm
      ? '; it belongs to another form, send one form only'
      : didYouMean === undefined
        ? ''
        : `; did you mean \`${didYouMean}\`?`;
    ignored.push({ path, key: k.key, ...(didYouMean !== undefined && { didYouMean }) });
    lines.push(`ignored \`${path}\`: ${where}${form}${hint}`);
  }
  const rest = ignored.length - lines.length + more;
  if (rest > 0)
    lines.push(`ignored ${rest} more ${rest === 1 ? 'key' : 'keys'} not named here (${lines.length + rest} in all)`);
  return { ignored, lines };
}
