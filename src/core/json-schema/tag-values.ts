// The values a discriminated union's tag can pin, and how a model reads them in text. One place, so the
// flat object's hints (`Required if v = 1`), the error lines (`(v = 1 requires a)`) and the ignored-keys
// notice (`when ok = false`) spell a tag value the same way.

/**
 * A tag value as a model reads it in a description or an error line: a string as it is (`kind = create`),
 * any other value as JSON (`v = 1`, `ok = true`, `kind = null`). A string that would read as another value
 * or as more than one is JSON-quoted: `"1"`, `"true"`, `"null"` (beside the number 1, `true` and `null`),
 * `""`, text with edge spaces, a `|` (the separator between values), a quote or a control character.
 *
 * @example tagValueText('create') // 'create'
 * @example tagValueText('1') // '"1"'
 * @example tagValueText(1) // '1'
 */
export function tagValueText(value: unknown): string {
  if (typeof value !== 'string') {
    if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
    return JSON.stringify(value) ?? String(value);
  }
  return readsAsOther(value) ? JSON.stringify(value) : value;
}

/** `a | b | 1`: tag values joined as `tagValueText` writes each. */
export function tagValuesText(values: readonly unknown[]): string {
  return values.map(tagValueText).join(' | ');
}

function readsAsOther(s: string): boolean {
  if (s.length === 0 || s.trim() !== s || s.includes('|')) return true;
  // A quote, a backslash or a control character: JSON writes it escaped.
  if (JSON.stringify(s).length !== s.length + 2) return true;
  if (/^(?:true|false|null)$/i.test(s)) return true;
  // Anything a reader could take for a number: `1`, `-2.5`, `1e3`, `0x10`, `Infinity`.
  return !Number.isNaN(Number(s));
}
