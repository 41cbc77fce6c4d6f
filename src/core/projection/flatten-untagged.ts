import { isPlainObject, type JsonSchema } from '../json-schema/types.js';
import { flatObject } from './flat-object.js';
import type { RefResolver } from './type-atoms.js';

/**
 * Replaces a union of objects that share no tag ("give either a name or a path") by one object holding
 * every member's keys, each optional unless every member requires it, with a description that names the
 * alternatives: `Give one of: flowName | flowPath.` It is a superset of the union; the original Zod
 * union still parses the call and refuses a value that fits no member.
 */
export function flattenUntagged(
  node: JsonSchema,
  keyword: 'anyOf' | 'oneOf',
  members: readonly JsonSchema[],
  resolve: RefResolver,
): JsonSchema {
  const alternatives = members.map(alternative);
  const distinct = [...new Set(alternatives)];
  // Alternatives spelled alike (`a` as a string in one, a number in the other) are told apart by position.
  const labels = alternatives.map((a, i) =>
    alternatives.indexOf(a) === alternatives.lastIndexOf(a) ? a : `${a} (variant ${i + 1})`,
  );
  const summary = distinct.length > 1 ? `Give one of: ${distinct.join(' | ')}.` : undefined;
  return flatObject(node, keyword, members, { labels, head: {}, summary }, resolve);
}

/** What a member asks for: its required keys (`content + filename`), else its keys as optional, else `{}`. */
function alternative(member: JsonSchema): string {
  const declared = isPlainObject(member.properties) ? Object.keys(member.properties) : [];
  const required = Array.isArray(member.required) ? declared.filter((k) => member.required.includes(k)) : [];
  if (required.length > 0) return required.join(' + ');
  return declared.length > 0 ? declared.map((k) => `${k}?`).join(' + ') : '{}';
}
