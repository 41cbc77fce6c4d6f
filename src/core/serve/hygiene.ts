/**
 * Argument hygiene: a string argument that holds tool-call markup is refused before the parse. Some
 * clients' parameter parsers swallow the parameters after a string into it (`content` ends in
 * `</content>\n<parameter name="reason">because…</parameter>` and `reason` is missing); the call would
 * "succeed", and the damage be found days later. The refusal names the polluted field and the declared
 * arguments that went missing, so the model resends them apart.
 */
import { isPlainObject } from '../json-schema/types.js';
import { formatPath } from '../messages/path.js';

/** Residue of tool-call grammars that no argument written on purpose is expected to carry. */
export const TOOL_CALL_MARKUP: readonly string[] = [
  '</parameter>',
  '<parameter name=',
  '</invoke>',
  '<invoke name=',
  '</function_calls>',
];

/** Values looked at before giving up (the body limit already caps what a call can carry). */
const MAX_VALUES = 100_000;

const NAMED = /<parameter name=["']?([^"'>\s]+)/g;

/**
 * Error lines for the strings in `args` that hold tool-call markup, at any depth (keys are not looked at),
 * then one line per argument that is missing and either required or named in that markup. Empty when
 * the arguments are clean.
 */
export function markupLines(
  args: Record<string, unknown>,
  declared: readonly string[],
  required: readonly string[],
): string[] {
  const polluted: Array<{ path: PropertyKey[]; marker: string; text: string }> = [];
  const stack: Array<{ value: unknown; path: PropertyKey[] }> = [{ value: args, path: [] }];
  for (let seen = 0; stack.length > 0 && seen < MAX_VALUES; seen++) {
    const { value, path } = stack.pop()!;
    if (typeof value === 'string') {
      const marker = TOOL_CALL_MARKUP.find((m) => value.includes(m));
      if (marker) polluted.push({ path, marker, text: value });
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], path: [...path, i] });
    } else if (isPlainObject(value)) {
      const keys = Object.keys(value);
      for (let i = keys.length - 1; i >= 0; i--) stack.push({ value: value[keys[i]!], path: [...path, keys[i]!] });
    }
  }
  if (polluted.length === 0) return [];
  const lines = polluted.map(
    ({ path, marker }) =>
      `${formatPath(path)}: the text holds tool-call markup (\`${marker}\`), so the client folded later arguments into it; send ${formatPath(path)} again without the markup`,
  );
  const named = new Map<string, string>();
  for (const { path, text } of polluted) {
    for (const match of text.matchAll(NAMED)) if (!named.has(match[1]!)) named.set(match[1]!, formatPath(path));
  }
  for (const key of declared) {
    if (Object.hasOwn(args, key)) continue;
    const inside = named.get(key);
    if (inside)
      lines.push(
        `${formatPath([key])}: missing, but named in the markup inside ${inside}; send it as its own argument`,
      );
    else if (required.includes(key))
      lines.push(`${formatPath([key])}: required, and missing; send it as its own argument`);
  }
  return lines;
}
