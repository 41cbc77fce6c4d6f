/**
 * Argument hygiene: a string argument that holds tool-call markup is refused before the parse. Some
 * clients' parameter parsers swallow the parameters after a string into it (`content` ends in
 * `</content>\n<parameter name="reason">because…</parameter>` and `reason` is missing); the call would
 * "succeed", and the damage be found days later. The refusal names the polluted field and the declared
 * arguments that went missing, so the model resends them apart. The strings are found by the one pass over
 * the sent arguments (sent-values.ts).
 */
import { formatPath } from '../messages/path.js';

/**
 * Residue of tool-call grammars that no argument written on purpose is expected to carry.
 * @internal exported for its tests alone
 */
export const TOOL_CALL_MARKUP: readonly string[] = [
  '</parameter>',
  '<parameter name=',
  '</invoke>',
  '<invoke name=',
  '</function_calls>',
];

/** A string holding tool-call markup: where it is, the marker found, and the text. */
export interface PollutedString {
  path: PropertyKey[];
  marker: string;
  text: string;
}

const NAMED = /<parameter name=["']?([^"'>\s]+)/g;

/** The first marker `text` holds, or undefined. Every marker starts with `<`: most strings need one scan. */
export function markupIn(text: string): string | undefined {
  if (!text.includes('<')) return undefined;
  return TOOL_CALL_MARKUP.find((m) => text.includes(m));
}

/**
 * Error lines for the polluted strings (`more` of them not recorded), then one line per argument that is
 * missing and either required or named in that markup. Empty when nothing is polluted.
 */
export function markupLines(
  polluted: readonly PollutedString[],
  more: number,
  args: Record<string, unknown>,
  declared: readonly string[],
  required: readonly string[],
): string[] {
  if (polluted.length === 0) return [];
  const lines = polluted.map(
    ({ path, marker }) =>
      `${formatPath(path)}: the text holds tool-call markup (\`${marker}\`), so the client folded later arguments into it; send ${formatPath(path)} again without the markup`,
  );
  if (more > 0) lines.push(`…and ${more} more strings holding tool-call markup`);
  const named = new Map<string, string>();
  for (const { path, text } of polluted) {
    for (const match of text.matchAll(NAMED)) if (!named.has(match[1]!)) named.set(match[1]!, formatPath(path));
  }
  const requiredSet = new Set(required);
  for (const key of declared) {
    if (Object.hasOwn(args, key)) continue;
    const inside = named.get(key);
    if (inside)
      lines.push(
        `${formatPath([key])}: missing, but named in the markup inside ${inside}; send it as its own argument`,
      );
    else if (requiredSet.has(key))
      lines.push(`${formatPath([key])}: required, and missing; send it as its own argument`);
  }
  return lines;
}
