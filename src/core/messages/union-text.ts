/**
 * Error text for a union a value matched no member of, when the plain "closest member" reading would
 * mislead: `{}` sent to "give a name or a path" names both alternatives, and a missing or unknown tag
 * lists the tag values with what each requires, so the model can pick one and send it whole.
 */
import type { z } from 'zod';
import { valueAt } from '../json-schema/pointer.js';
import { tagValueText } from '../json-schema/tag-values.js';
import { isPlainObject } from '../json-schema/types.js';
import type { Schema } from '../zod/def.js';
import { memberTagValues, objectMemberKeys, unionAt } from '../zod/union-at.js';
import { formatPath } from './path.js';

type Issue = z.core.$ZodIssue;

/** ` (a requires x, y; b requires z)`, grouping tag values that require the same; `''` when unknown. */
export function tagRequirements(
  schema: Schema,
  value: unknown,
  unionPath: readonly PropertyKey[],
  tag: string,
): string {
  const union = unionAt(schema, value, unionPath);
  if (!union) return '';
  const byNeeds = new Map<string, string[]>();
  for (const option of union.options) {
    const keys = objectMemberKeys(option);
    const values = memberTagValues(option, tag);
    if (!keys || values.length === 0) return '';
    const needs = keys.required.filter((k) => k !== tag).join(', ');
    byNeeds.set(needs, [...(byNeeds.get(needs) ?? []), ...values.map(tagValueText)]);
  }
  const parts = [...byNeeds].map(([needs, values]) => {
    const verb = values.length > 1 ? 'require' : 'requires';
    return needs ? `${values.join(' | ')} ${verb} ${needs}` : `${values.join(' | ')} ${verb} nothing else`;
  });
  return ` (${parts.join('; ')})`;
}

/**
 * For a plain union that every member refused: the key every member pinned and failed on (a tag in all
 * but name), when there is one.
 */
export function failedTag(alternatives: ReadonlyArray<readonly Issue[]>): string | undefined {
  const keysOf = (alt: readonly Issue[]) =>
    alt.filter((i) => i.code === 'invalid_value' && i.path.length === 1).map((i) => String(i.path[0]));
  const first = keysOf(alternatives[0] ?? []);
  return first.find((k) => alternatives.every((alt) => keysOf(alt).includes(k)));
}

/** The values the members' failed tag issues allowed, in member order. */
export function tagValues(alternatives: ReadonlyArray<readonly Issue[]>, tag: string): unknown[] {
  const out: unknown[] = [];
  for (const alt of alternatives) {
    for (const issue of alt) {
      if (issue.code === 'invalid_value' && issue.path.length === 1 && String(issue.path[0]) === tag)
        for (const v of issue.values) if (!out.includes(v)) out.push(v);
    }
  }
  return out;
}

/** What the members of an untagged union of objects ask for, and how close the sent object came to each. */
export interface Alternatives {
  /** `content + filename`, `source_url`, ... in member order. */
  labels: string[];
  /** Per member: how many sent keys it declares. */
  scores: number[];
}

/** The alternatives of the union at `path`, when it is a union of objects and an object was sent there. */
export function alternativesAt(
  schema: Schema,
  value: unknown,
  path: readonly PropertyKey[],
  count: number,
): Alternatives | undefined {
  const sent = valueAt(value, path);
  if (!sent.found || !isPlainObject(sent.value)) return undefined;
  const union = unionAt(schema, value, path);
  if (!union || union.discriminator !== undefined || union.options.length !== count) return undefined;
  const labels: string[] = [];
  const scores: number[] = [];
  const sentKeys = Object.keys(sent.value);
  for (const option of union.options) {
    const keys = objectMemberKeys(option);
    if (!keys) return undefined;
    const optional = keys.declared.length > 0 ? keys.declared.map((k) => `${k}?`).join(' + ') : '{}';
    labels.push(keys.required.length > 0 ? keys.required.join(' + ') : optional);
    scores.push(sentKeys.filter((k) => keys.declared.includes(k)).length);
  }
  return { labels, scores };
}

/** True when every issue of a member says a key is missing (so sending that member's keys would do). */
export function onlyMissing(alt: readonly Issue[], value: unknown, path: readonly PropertyKey[]): boolean {
  return alt.every((i) => {
    if (i.code !== 'invalid_type' || i.path.length !== 1) return false;
    return !valueAt(value, [...path, ...i.path]).found;
  });
}

/** `id, slug: none was sent; give one of: id | slug`, the missing keys shown as failing paths. */
export function alternativesLine(
  alternatives: ReadonlyArray<readonly Issue[]>,
  labels: readonly string[],
  path: readonly PropertyKey[],
): { shown: string; text: string } {
  const keys: PropertyKey[] = [];
  for (const alt of alternatives) for (const i of alt) if (!keys.includes(i.path[0]!)) keys.push(i.path[0]!);
  const shown = keys.map((k) => formatPath([...path, k])).join(', ');
  return { shown, text: `none was sent; give one of: ${[...new Set(labels)].join(' | ')}` };
}
