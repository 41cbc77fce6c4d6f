import { ANNOTATION_KEYWORDS, declaredTypes, isObjectTyped, typeOfValue } from './keywords.js';
import { isTagValue, type TagValue, tagValueText } from './tag-values.js';
import { isPlainObject, type JsonSchema } from './types.js';

// Deciding whether a union is a discriminated union the flat projection can represent. The projection is
// only honest when one key, required everywhere, selects exactly one member by its value (a string, a
// number, a boolean or null, as `z.literal` and `z.enum` pin them): then the flat `enum` plus
// "Required if k = v" hints say all there is to say. Anything else is left as it is, with a reason a
// developer can act on.

/**
 * `untagged` marks a union of plain objects where no key is even a would-be tag (no key every member
 * pins): the projection serves it as one object with every key optional.
 */
export type UnionAnalysis =
  | { ok: true; tag: string; values: TagValue[][] }
  | { ok: false; reason: string; untagged?: boolean };

const NO_TAG = 'no shared required key with distinct const/enum values';

/** Keywords a member may carry and still be merged into the flat object. */
const MEMBER_KEYWORDS: ReadonlySet<string> = new Set([
  ...ANNOTATION_KEYWORDS,
  'type',
  'properties',
  'required',
  'additionalProperties',
  '$schema',
  '$id',
]);

/** Finds the discriminator of a union's members, or the reason there is none. */
export function analyzeUnion(members: readonly unknown[]): UnionAnalysis {
  if (members.length < 2) return { ok: false, reason: 'a union needs at least two members to be flattened' };
  for (let i = 0; i < members.length; i++) {
    const problem = memberProblem(members[i]);
    if (problem) return { ok: false, reason: `member ${i} ${problem}` };
  }
  const objects = members as JsonSchema[];
  let firstFailure: string | undefined;
  for (const key of candidateKeys(objects)) {
    const verdict = checkTag(objects, key);
    if (verdict.ok) return verdict;
    // A key that is not a literal everywhere is not a would-be tag; its failure explains nothing.
    if (verdict.reason !== NO_TAG) firstFailure ??= verdict.reason;
  }
  return firstFailure ? { ok: false, reason: firstFailure } : { ok: false, reason: NO_TAG, untagged: true };
}

function memberProblem(member: unknown): string | undefined {
  if (!isPlainObject(member)) return 'is not an object';
  if (typeof member.$ref === 'string') return `is a $ref (${member.$ref}) that was not inlined`;
  if (!isObjectTyped(member)) {
    for (const kw of ['anyOf', 'oneOf', 'allOf'] as const) {
      if (kw in member) return `is not an object (\`${kw}\` that could not be flattened)`;
    }
    return 'is not an object';
  }
  const extra = Object.keys(member).find((k) => !MEMBER_KEYWORDS.has(k));
  if (extra) return `has \`${extra}\`, which a flat object cannot carry per variant`;
  if (member.properties !== undefined && !isPlainObject(member.properties)) return 'has malformed `properties`';
  return undefined;
}

/** Keys declared by every member, in the first member's order. */
function candidateKeys(members: readonly JsonSchema[]): string[] {
  const keys = Object.keys(members[0]?.properties ?? {});
  return keys.filter((k) => members.every((m) => isPlainObject(m.properties) && Object.hasOwn(m.properties, k)));
}

/**
 * Tag values of one member's property schema: pinned values, or undefined when it pins none. A schema
 * whose one type is `null` pins `null`: Zod writes a `z.null()` tag as `{type: "null"}`, with no `const`.
 */
function pinnedValues(schema: unknown): unknown[] | undefined {
  if (!isPlainObject(schema)) return undefined;
  if ('const' in schema) return [schema.const];
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum;
  if (declaredTypes(schema)?.every((t) => t === 'null')) return [null];
  return undefined;
}

function checkTag(members: readonly JsonSchema[], key: string): UnionAnalysis {
  const values: TagValue[][] = [];
  for (let i = 0; i < members.length; i++) {
    const pinned = pinnedValues(members[i]!.properties[key]);
    if (!pinned) return { ok: false, reason: NO_TAG };
    // Zod pins scalars only; a hand-written document may pin an object or an array, which no flat `enum`
    // plus hint can name.
    const bad = pinned.find((v) => !isTagValue(v));
    if (bad !== undefined) {
      const kind = 'const' in members[i]!.properties[key] ? 'const' : 'enum';
      return {
        ok: false,
        reason: `discriminator \`${key}\` pins a value that is not a scalar (${typeOfValue(bad)} ${kind})`,
      };
    }
    values.push(pinned as TagValue[]);
  }
  for (let i = 0; i < members.length; i++) {
    const required = members[i]!.required;
    if (!Array.isArray(required) || !required.includes(key)) {
      return { ok: false, reason: `discriminator \`${key}\` is optional in variant ${i}` };
    }
  }
  // A Set tells `1` from `"1"` and `null` from `"null"`, as JSON does (and `0` is `-0`, as in JSON).
  const seen = new Set<TagValue>();
  const overlap = new Set<TagValue>();
  for (const list of values) {
    for (const v of new Set(list)) {
      if (seen.has(v)) overlap.add(v);
      seen.add(v);
    }
  }
  if (overlap.size > 0) {
    return {
      ok: false,
      reason: `tag values overlap: ${[...overlap].map(tagValueText).join(', ')} (discriminator \`${key}\` does not select one variant)`,
    };
  }
  return { ok: true, tag: key, values: values.map((l) => [...new Set(l)]) };
}
