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

/** Each ignored key with its line, in the order met, with the suggestion; injected root keys left out. */
export function ignoredKeys(
  stripped: readonly StrippedKey[],
  ctx: IgnoredContext,
): Array<{ key: IgnoredKey; line: string }> {
  return stripped
    .filter((k) => k.path.length > 0 || !ctx.injected.includes(k.key))
    .map((k) => {
      const candidates = k.path.length === 0 ? [...new Set([...k.declared, ...ctx.rootKeys])] : k.declared;
      // A key another form of the union takes is not misspelt: the model mixed two forms.
      const didYouMean = k.otherForm ? undefined : closestKey(k.key, candidates);
      const path = formatPath([...k.path, k.key]);
      const where = k.path.length === 0 ? `not an argument of ${ctx.tool}` : `not a key of \`${formatPath(k.path)}\``;
      const form = k.within === undefined ? '' : ` when ${k.within}`;
      const hint = k.otherForm
        ? '; it belongs to another form, send one form only'
        : didYouMean === undefined
          ? ''
          : `; did you mean \`${didYouMean}\`?`;
      return {
        key: { path, key: k.key, ...(didYouMean !== undefined && { didYouMean }) },
        line: `ignored \`${path}\`: ${where}${form}${hint}`,
      };
    });
}
