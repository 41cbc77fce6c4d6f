/**
 * Validation errors as lines a model can act on: one line per failing path, naming the path, what
 * was expected and what was received, e.g. `media[0].url: expected string, received number`.
 *
 * Zod's own messages are written for developers (`Invalid input`), and nest union failures in a
 * tree. An `isError` result is read by a model that must fix its next call, so each line says
 * exactly where and what; inside a discriminated union it also says which fields the chosen tag
 * requires. Repair's own refusals (`{ path, message }`, no `code`) format the same way.
 */
import type { z } from 'zod';
import { valueAt } from '../json-schema/pointer.js';
import { tagValueText } from '../json-schema/tag-values.js';
import type { Schema } from '../zod/def.js';
import { expectedName, shortLiteral, typeName } from './describe.js';
import { formatPath } from './path.js';
import { alternativesAt, alternativesLine, failedTag, onlyMissing, tagRequirements, tagValues } from './union-text.js';
import { variantContext } from './variant-context.js';

/** A repair issue, or any issue-shaped record with a path and a message. */
interface PlainIssue {
  readonly path: ReadonlyArray<PropertyKey>;
  readonly message: string;
  readonly code?: undefined;
}

export type FormattableIssue = z.core.$ZodIssue | PlainIssue;

/** One formatted failure before grouping by path. */
interface Entry {
  /** Where the failure is; for unknown keys, the object holding them. */
  at: PropertyKey[];
  /** How the path is shown (unknown keys show each key's own path). */
  shown: string;
  text: string;
  /** False for a failure the variant hint would mislead on (a key the variant does not know). */
  hint?: false;
}

/**
 * Formats Zod issues (and repair issues) as one line per failing path, for the first 20 paths; one more
 * line counts the failures not shown, so the text stays short however many there are. `schema` and
 * `value` are optional: with the value, "received" names the type actually sent (and a missing key reads
 * `required`); with both, a failure inside a discriminated union names the chosen variant's
 * required fields.
 */
export function formatIssues(
  error: z.ZodError | z.core.$ZodError | ReadonlyArray<FormattableIssue>,
  // A rest tuple rather than two optional parameters: "value given as undefined" (no arguments
  // sent, so every key is missing) must differ from "value not given" (received unknown).
  ...context: [schema?: Schema, value?: unknown]
): string[] {
  const [schema, value] = context;
  const issues: ReadonlyArray<FormattableIssue> = isIssueList(error) ? error : (error.issues as FormattableIssue[]);
  const hasValue = context.length >= 2;
  const entries: Entry[] = [];
  const shownPaths = new Set<string>();
  let unread = 0;
  for (let i = 0; i < issues.length; i++) {
    // Enough to act on: the rest are counted, never formatted (a call can fail at a million paths).
    if (shownPaths.size >= MAX_LINES) {
      unread = issues.length - i;
      break;
    }
    const issue = issues[i]!;
    const before = entries.length;
    try {
      collect(issue, [], entries, hasValue ? { value, schema } : undefined);
    } catch {
      // An issue of a shape this code does not know still reaches the model with Zod's words.
      entries.length = before;
    }
    if (entries.length === before) add(entries, [...(issue.path ?? [])], issue.message);
    for (let e = before; e < entries.length; e++) shownPaths.add(entries[e]!.shown);
  }

  const order: string[] = [];
  const byShown = new Map<string, { at: PropertyKey[]; texts: string[]; hint: boolean }>();
  for (const e of entries) {
    let group = byShown.get(e.shown);
    if (!group) {
      group = { at: e.at, texts: [], hint: true };
      byShown.set(e.shown, group);
      order.push(e.shown);
    }
    if (!group.texts.includes(e.text)) group.texts.push(e.text);
    if (e.hint === false) group.hint = false;
  }
  const lines = order.slice(0, MAX_LINES).map((shown) => {
    const group = byShown.get(shown)!;
    let line = `${shown === '' ? '(root)' : shown}: ${group.texts.join('; ')}`;
    if (schema && hasValue && group.hint) line += variantSuffix(schema, value, group.at);
    return line;
  });
  const more = unread + Math.max(0, order.length - MAX_LINES);
  if (more > 0)
    lines.push(`…and ${more} more ${more === 1 ? 'failure' : 'failures'} not shown; fix these and send again`);
  return lines;
}

/** Failing paths named, at most; the rest are counted in one last line. */
const MAX_LINES = 20;

/** Keys one "unrecognized keys" line names, at most. */
const MAX_KEYS_NAMED = 10;

function isIssueList(x: unknown): x is ReadonlyArray<FormattableIssue> {
  return Array.isArray(x);
}

function variantSuffix(schema: Schema, value: unknown, at: PropertyKey[]): string {
  let ctx: ReturnType<typeof variantContext>;
  try {
    ctx = variantContext(schema, value, at);
  } catch {
    return ''; // a throwing lazy getter must not hide the error itself
  }
  // Only for a failure on the variant object or one of its own fields: deeper down (`media[0].url`) the
  // variant's required keys are present, and naming them again would mislead.
  if (!ctx || ctx.required.length === 0 || at.length > ctx.depth + 1) return '';
  return ` (${ctx.discriminator} = ${tagValueText(ctx.tag)} requires ${ctx.required.join(', ')})`;
}

/** What was sent, and the schema it was parsed with, when the caller gave them. */
type Sent = { value: unknown; schema?: Schema } | undefined;

/** What was sent at `path`: a type name, `required` when the key is missing, or undefined when unknown. */
function received(path: PropertyKey[], issue: FormattableIssue, sent: Sent): string | undefined {
  if (sent) {
    const r = valueAt(sent.value, path);
    return r.found && r.value !== undefined ? typeName(r.value) : 'required';
  }
  if ('input' in issue && issue.input !== undefined) return typeName(issue.input);
  // Zod 4.6 names the received type on the issue (`-Infinity` too), and in its message.
  const named = 'received' in issue && typeof issue.received === 'string' ? issue.received : undefined;
  const got = named ?? /received (-?\w+)/.exec(issue.message)?.[1];
  if (got) return got === 'undefined' ? 'required' : got;
  return undefined;
}

function receivedLiteral(path: PropertyKey[], issue: FormattableIssue, sent: Sent): string | undefined {
  if (sent) {
    const r = valueAt(sent.value, path);
    return r.found && r.value !== undefined ? shortLiteral(r.value) : 'required';
  }
  if ('input' in issue && issue.input !== undefined) return shortLiteral(issue.input);
  return undefined;
}

function typeLine(expected: string, got: string | undefined): string {
  if (got === 'required') return `required, expected ${expected}`;
  return got === undefined ? `expected ${expected}` : `expected ${expected}, received ${got}`;
}

function oneOf(values: ReadonlyArray<unknown>): string {
  const shown = values.map((v) => shortLiteral(v));
  return shown.length === 1 ? shown[0]! : `one of ${shown.join(' | ')}`;
}

function add(entries: Entry[], at: PropertyKey[], text: string): void {
  entries.push({ at, shown: formatPath(at), text });
}

function collect(issue: FormattableIssue, prefix: PropertyKey[], entries: Entry[], sent: Sent): void {
  const path = [...prefix, ...issue.path];
  switch (issue.code) {
    case undefined:
      add(entries, path, issue.message);
      return;
    case 'invalid_type':
      add(entries, path, typeLine(expectedName(issue.expected), received(path, issue, sent)));
      return;
    case 'unrecognized_keys': {
      // No variant hint: the key is not the variant's, and "kind = a requires ..." would not say why.
      const named = issue.keys.slice(0, MAX_KEYS_NAMED).map((k) => formatPath([...path, k]));
      const rest = issue.keys.length - named.length;
      const shown = rest > 0 ? `${named.join(', ')} and ${rest} more` : named.join(', ');
      const text = issue.keys.length === 1 ? 'unrecognized key' : 'unrecognized keys';
      entries.push({ at: path, shown, text, hint: false });
      return;
    }
    case 'invalid_value': {
      const got = receivedLiteral(path, issue, sent);
      const expected = `expected ${oneOf(issue.values)}`;
      add(
        entries,
        path,
        got === 'required' ? `required, ${expected}` : got ? `${expected}, received ${got}` : expected,
      );
      return;
    }
    case 'invalid_union':
      collectUnion(issue, path, entries, sent);
      return;
    case 'too_small':
    case 'too_big':
      add(entries, path, boundText(issue));
      return;
    case 'invalid_format':
      add(entries, path, formatText(issue));
      return;
    case 'not_multiple_of':
      add(entries, path, `expected a multiple of ${issue.divisor}`);
      return;
    case 'invalid_key':
    case 'invalid_element': {
      const inner = issue.issues.map((i) => i.message).join('; ');
      add(
        entries,
        path,
        `${issue.code === 'invalid_key' ? 'invalid key' : 'invalid element'}${inner ? `: ${inner}` : ''}`,
      );
      return;
    }
    default:
      add(entries, path, issue.message);
  }
}

function collectUnion(issue: z.core.$ZodIssueInvalidUnion, path: PropertyKey[], entries: Entry[], sent: Sent): void {
  if (issue.discriminator !== undefined && issue.errors.length === 0) {
    // Unknown or missing tag: Zod already points the path at the tag.
    const options = 'options' in issue && Array.isArray(issue.options) ? issue.options : [];
    const needs = sent?.schema ? tagRequirements(sent.schema, sent.value, path.slice(0, -1), issue.discriminator) : '';
    addTagLine(
      entries,
      path,
      options.length ? `expected ${oneOf(options)}` : 'expected a known value',
      needs,
      issue,
      sent,
    );
    return;
  }
  if (issue.errors.length === 0) {
    add(
      entries,
      path,
      issue.inclusive === false ? 'matched more than one option; it must match exactly one' : 'matched no option',
    );
    return;
  }
  // Every member failed on the kind alone: name all the kinds that would do.
  const kindOnly = issue.errors.every(
    (alt) => alt.length === 1 && alt[0]!.code === 'invalid_type' && alt[0]!.path.length === 0,
  );
  if (kindOnly) {
    const expected = [
      ...new Set(issue.errors.map((alt) => expectedName((alt[0] as z.core.$ZodIssueInvalidType).expected))),
    ];
    // Without the value, the first member's own message still says what was received.
    add(entries, path, typeLine(expected.join(' | '), received(path, sent ? issue : issue.errors[0]![0]!, sent)));
    return;
  }
  if (sent?.schema && plainUnionText(issue, path, entries, sent)) return;
  // Some member took the kind and failed inside: report the closest member's failures rather than a
  // tree of every member's. Closest: a member whose literal keys (its tag) matched the value, then the
  // fewest issues. A tagged `z.union` (not `z.discriminatedUnion`) then says what the chosen variant lacks,
  // not that the tag should have been another variant's.
  const inside = issue.errors.filter(
    (alt) => !(alt.length === 1 && alt[0]!.path.length === 0 && alt[0]!.code === 'invalid_type'),
  );
  const best = inside.reduce((a, b) => {
    if (b.length === 0) return a;
    if (a.length === 0) return b;
    const byTag = tagMissed(b) - tagMissed(a);
    return byTag < 0 || (byTag === 0 && b.length < a.length) ? b : a;
  }, inside[0] ?? []);
  for (const sub of best) collect(sub, path, entries, sent);
}

/** 1 when a member failed on one of its literal keys (its tag did not match), else 0. */
function tagMissed(alt: readonly z.core.$ZodIssue[]): number {
  return alt.some((sub) => sub.code === 'invalid_value' && sub.path.length === 1) ? 1 : 0;
}

function addTagLine(
  entries: Entry[],
  path: PropertyKey[],
  expected: string,
  needs: string,
  issue: FormattableIssue,
  sent: Sent,
) {
  const got = receivedLiteral(path, issue, sent);
  const text = got === 'required' ? `required, ${expected}` : got ? `${expected}, received ${got}` : expected;
  entries.push({ at: path, shown: formatPath(path), text: `${text}${needs}`, hint: false });
}

/**
 * A plain union of objects that every member refused, read with the schema: a key every member pinned
 * and missed is a tag (its values, and what each requires); `{}` against untagged alternatives names
 * them all; a value that is closest to one member by its keys gets that member's failures. True when
 * it wrote the lines.
 */
function plainUnionText(
  issue: z.core.$ZodIssueInvalidUnion,
  path: PropertyKey[],
  entries: Entry[],
  sent: NonNullable<Sent>,
): boolean {
  const schema = sent.schema!;
  const tag = failedTag(issue.errors);
  if (tag !== undefined) {
    const at = [...path, tag];
    addTagLine(
      entries,
      at,
      `expected ${oneOf(tagValues(issue.errors, tag))}`,
      tagRequirements(schema, sent.value, path, tag),
      issue,
      sent,
    );
    return true;
  }
  const alternatives = alternativesAt(schema, sent.value, path, issue.errors.length);
  if (!alternatives) return false;
  // Closest: a member whose literal keys matched, then the one that declares most of the keys sent.
  const rank = alternatives.scores.map((score, i) => score - 1000 * tagMissed(issue.errors[i]!));
  const best = Math.max(...rank);
  const tied = rank.flatMap((r, i) => (r === best ? [i] : []));
  if (best === 0 && tied.length > 1 && issue.errors.every((alt) => onlyMissing(alt, sent.value, path))) {
    const { shown, text } = alternativesLine(issue.errors, alternatives.labels, path);
    entries.push({ at: path, shown, text, hint: false });
    return true;
  }
  if (tied.length !== 1) return false;
  for (const sub of issue.errors[tied[0]!]!) collect(sub, path, entries, sent);
  return true;
}

function boundText(issue: z.core.$ZodIssueTooSmall | z.core.$ZodIssueTooBig): string {
  const small = issue.code === 'too_small';
  const bound = small ? (issue as z.core.$ZodIssueTooSmall).minimum : (issue as z.core.$ZodIssueTooBig).maximum;
  const inclusive = issue.inclusive !== false;
  const unit =
    issue.origin === 'string' ? 'characters' : issue.origin === 'array' || issue.origin === 'set' ? 'items' : undefined;
  if (unit) {
    if (issue.exact) return `expected exactly ${bound} ${unit}`;
    if (small) return `expected at least ${inclusive ? bound : Number(bound) + 1} ${unit}`;
    return `expected at most ${inclusive ? bound : Number(bound) - 1} ${unit}`;
  }
  if (issue.origin === 'number' || issue.origin === 'int' || issue.origin === 'bigint') {
    const what = issue.origin === 'int' ? 'an integer' : 'a number';
    const op = small ? (inclusive ? '>=' : '>') : inclusive ? '<=' : '<';
    return `expected ${what} ${op} ${bound}`;
  }
  return issue.message;
}

function formatText(issue: z.core.$ZodIssueInvalidStringFormat): string {
  const i = issue as z.core.$ZodIssueInvalidStringFormat & { prefix?: string; suffix?: string; includes?: string };
  switch (issue.format) {
    case 'regex':
      return `expected a string matching ${issue.pattern ?? 'the pattern'}`;
    case 'starts_with':
      return `expected a string starting with ${JSON.stringify(i.prefix)}`;
    case 'ends_with':
      return `expected a string ending with ${JSON.stringify(i.suffix)}`;
    case 'includes':
      return `expected a string including ${JSON.stringify(i.includes)}`;
    default:
      return `expected a valid ${issue.format}`;
  }
}
