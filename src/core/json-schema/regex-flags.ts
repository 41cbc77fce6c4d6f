// A JSON Schema `pattern` has no flags (2020-12 section 6.3.3: an ECMA-262 regular expression, read as
// Unicode-aware by the validators MCP clients use). A Zod regex with flags is served as a flag-free source
// with the same meaning, or not at all: serving the bare source would refuse values the parse accepts.

/** The flag-free source that means what `source` with `flags` means, or undefined when there is none here. */
export function flagFreePattern(source: string, flags: string): string | undefined {
  let out = source;
  // `g` and `d` change nothing a test sees (Zod resets `lastIndex` before each check); `u` is how JSON
  // Schema patterns are read anyway.
  const left = flags.replace(/[gdu]/g, '');
  // `v` reads classes (and `\p` of strings) in a syntax of its own.
  if (left.includes('v')) {
    return hasClass(source) || /\\[pPq]/.test(source) ? undefined : flagFreePattern(source, left.replace('v', 'u'));
  }
  // Under `i` and `u` together, `\w` and `\b` also take U+017F and U+212A; no ASCII class says that.
  if (left.includes('i') && flags.includes('u') && /\\[wWbB]/.test(source)) return undefined;
  if (left.includes('m') && /[\^$]/.test(withoutEscapesAndClasses(source))) return undefined;
  if (left.includes('s')) out = dotAll(out);
  if (left.includes('i')) {
    const folded = caseless(out, flags.includes('u'));
    if (folded === undefined) return undefined;
    out = folded;
  }
  // Sticky: the match must start where the test starts, at 0. (With `m` a `^` would not say that, but a
  // source with `^` or `$` under `m` has no rewrite above.)
  if (left.includes('y')) out = `^(?:${out})`;
  return out;
}

/** The source with every escape and every character class blanked, to look for bare metacharacters. */
function withoutEscapesAndClasses(source: string): string {
  let out = '';
  for (const token of tokens(source)) if (token.kind === 'char') out += token.text;
  return out;
}

function hasClass(source: string): boolean {
  return tokens(source).some((t) => t.kind === 'class');
}

type Token = { kind: 'char' | 'escape' | 'class' | 'group-open'; text: string };

/** Top-level tokens of a regex source: plain characters, escapes, whole `[...]` classes, group openers. */
function tokens(source: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    if (c === '\\') {
      out.push({ kind: 'escape', text: source.slice(i, i + 2) });
      i += 2;
    } else if (c === '[') {
      let j = i + 1;
      if (source[j] === '^') j++;
      while (j < source.length && source[j] !== ']') j += source[j] === '\\' ? 2 : 1;
      out.push({ kind: 'class', text: source.slice(i, j + 1) });
      i = j + 1;
    } else if (c === '(' && source[i + 1] === '?') {
      // `(?:`, `(?=`, `(?!`, `(?<=`, `(?<!`, `(?<name>`: copied whole, so a group name is never rewritten.
      const named = /^\(\?<(?![=!])[^>]*>/.exec(source.slice(i));
      const text = named ? named[0] : source.slice(i, i + (source[i + 2] === '<' ? 4 : 3));
      out.push({ kind: 'group-open', text });
      i += text.length;
    } else {
      out.push({ kind: 'char', text: c });
      i++;
    }
  }
  return out;
}

/** `s`: every bare `.` matches any character, line terminators included. */
function dotAll(source: string): string {
  return tokens(source)
    .map((t) => (t.kind === 'char' && t.text === '.' ? '[\\s\\S]' : t.text))
    .join('');
}

const ASCII_LETTER = /^[A-Za-z]$/;

/**
 * `i` for ASCII letters: each bare letter becomes `[aA]`, each class gains the other case of its letters
 * and letter ranges. Anything whose case-insensitive meaning is not that simple has no rewrite here: a
 * cased letter outside ASCII, a back-reference, a property or code-point escape, an inline modifier group.
 */
function caseless(source: string, unicode: boolean): string | undefined {
  let out = '';
  for (const t of tokens(source)) {
    if (t.kind === 'group-open') {
      if (!/^\(\?(?::|=|!|<=|<!|<[^>]*>)$/.test(t.text)) return undefined;
      out += t.text;
    } else if (t.kind === 'escape') {
      if (/^\\[1-9kpPuxc]$/.test(t.text)) return undefined;
      out += t.text;
    } else if (t.kind === 'class') {
      const folded = caselessClass(t.text, unicode);
      if (folded === undefined) return undefined;
      out += folded;
    } else if (ASCII_LETTER.test(t.text)) {
      const lower = t.text.toLowerCase();
      out += `[${lower}${t.text.toUpperCase()}${unicode ? (UNICODE_FOLDS[lower] ?? '') : ''}]`;
    } else if (isCased(t.text)) return undefined;
    else out += t.text;
  }
  return out;
}

/**
 * Under `iu` (and `iv`) Unicode simple case folding also maps U+212A KELVIN SIGN to `k` and U+017F LATIN
 * SMALL LETTER LONG S to `s`; no other code point outside ASCII folds to an ASCII letter. Without `u` the
 * canonicalisation never maps a non-ASCII character to an ASCII one (ECMA-262 22.2.2.7.3 Canonicalize).
 */
const UNICODE_FOLDS: Record<string, string> = { k: '\\u212A', s: '\\u017F' };

function isCased(c: string): boolean {
  return c.toLowerCase() !== c.toUpperCase();
}

/** One `[...]` class with both cases of every ASCII letter it holds, or undefined. */
function caselessClass(text: string, unicode: boolean): string | undefined {
  const negated = text[1] === '^';
  const body = text.slice(negated ? 2 : 1, -1);
  let extra = '';
  // The letters k and s the class holds in either case, for the non-ASCII code points that fold to them.
  const holds = new Set<string>();
  const mark = (lo: number, hi: number) => {
    for (const l of Object.keys(UNICODE_FOLDS)) {
      const lower = l.charCodeAt(0);
      if ((lo <= lower && lower <= hi) || (lo <= lower - 0x20 && lower - 0x20 <= hi)) holds.add(l);
    }
  };
  let i = 0;
  while (i < body.length) {
    const c = body[i]!;
    if (c === '\\') {
      // An escape as a range's end point hides which letters the range holds.
      if (/^\\[1-9kpPuxc]$/.test(body.slice(i, i + 2)) || (body[i + 2] === '-' && i + 3 < body.length)) {
        return undefined;
      }
      i += 2;
      continue;
    }
    if (body[i + 1] === '-' && i + 2 < body.length) {
      if (body[i + 2] === '\\') return undefined;
      const range = otherCaseRange(c, body[i + 2]!);
      if (range === undefined) return undefined;
      extra += range;
      mark(c.charCodeAt(0), body.charCodeAt(i + 2));
      i += 3;
      continue;
    }
    if (ASCII_LETTER.test(c)) {
      extra += c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase();
      mark(c.charCodeAt(0), c.charCodeAt(0));
    } else if (isCased(c)) return undefined;
    i++;
  }
  if (unicode) for (const l of holds) extra += UNICODE_FOLDS[l];
  // A literal `-` that ended the class would start a range with what is appended: escaped, it stays a `-`.
  const kept = extra !== '' && endsInLiteralDash(body) ? `${body.slice(0, -1)}\\-` : body;
  return `[${negated ? '^' : ''}${kept}${extra}]`;
}

/** True when `body` ends in a `-` that no backslash escapes. */
function endsInLiteralDash(body: string): boolean {
  if (!body.endsWith('-')) return false;
  let slashes = 0;
  for (let i = body.length - 2; i >= 0 && body[i] === '\\'; i--) slashes++;
  return slashes % 2 === 0;
}

/** The other case of every ASCII letter in `from`-`to`, as ranges; undefined for a range with other cased letters. */
function otherCaseRange(from: string, to: string): string | undefined {
  const lo = from.charCodeAt(0);
  const hi = to.charCodeAt(0);
  if (hi > 0x7f) return undefined;
  const pieces: string[] = [];
  const add = (a: number, b: number, shift: number) => {
    const start = Math.max(lo, a);
    const end = Math.min(hi, b);
    if (start <= end) pieces.push(`${String.fromCharCode(start + shift)}-${String.fromCharCode(end + shift)}`);
  };
  add(0x41, 0x5a, 0x20);
  add(0x61, 0x7a, -0x20);
  return pieces.join('');
}
