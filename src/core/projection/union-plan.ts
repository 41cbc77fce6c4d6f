import { analyzeUnion } from '../json-schema/discriminator.js';
import {
  ANNOTATION_KEYWORDS,
  declaredTypes,
  isNullableWrapper,
  isObjectTyped,
  META_KEYWORDS,
} from '../json-schema/keywords.js';
import type { TagValue } from '../json-schema/tag-values.js';
import { isPlainObject, type JsonSchema } from '../json-schema/types.js';
import { type RefResolver, typeAtoms } from './type-atoms.js';

/** How a union node is served: as a flat object (tagged or not), as a typed join, or left with a reason. */
export type UnionPlan =
  | { kind: 'tagged'; tag: string; values: TagValue[][] }
  | { kind: 'untagged' }
  | { kind: 'mixed' }
  | { kind: 'left'; reason: string };

/**
 * The plan for the union on `node` (two or more members):
 * - a discriminated union (a required tag whose values, strings, numbers, booleans or null, select one
 *   member) → the tagged flat object;
 * - plain objects with no would-be tag at all → the untagged flat object;
 * - below the root, objects beside other types (strings, arrays, null) whose types are all provable →
 *   the typed join (a `type` list); at the root that would still not be one object;
 * - anything else is left, with the reason. A would-be tag that fails (optional in a variant, values
 *   that overlap) is left too: the author meant a tag, and the fix is to make it one.
 * The node may carry only annotations and document keywords beside the union (and `type: "object"` for
 * object unions): anything else would be an extra constraint the result would have to fold in.
 */
export function unionPlan(
  node: JsonSchema,
  keyword: 'anyOf' | 'oneOf',
  atRoot: boolean,
  resolve: RefResolver,
): UnionPlan {
  for (const key of Object.keys(node)) {
    if (key === keyword || ANNOTATION_KEYWORDS.has(key) || META_KEYWORDS.has(key) || key === 'discriminator') continue;
    if (key === 'type' && isObjectTyped(node)) continue;
    return { kind: 'left', reason: `the union node also carries \`${key}\`, which flattening would have to fold in` };
  }
  const members: unknown[] = node[keyword];
  const verdict = analyzeUnion(members);
  if (verdict.ok) return { kind: 'tagged', tag: verdict.tag, values: verdict.values };
  if (verdict.untagged) return { kind: 'untagged' };
  const mixed = mixedTypes(node, members, resolve);
  if (mixed === undefined) return { kind: 'left', reason: verdict.reason };
  if (atRoot || 'type' in node) {
    return {
      kind: 'left',
      reason: `the union mixes objects with ${mixed.join(', ')}, which only a position below the root can serve as one node`,
    };
  }
  return { kind: 'mixed' };
}

/**
 * The types beside `object` when the members are objects and other provable types, else undefined. Not
 * joined: an untyped member, a `$ref` whose shape is unknown here, and a member that is itself a union or
 * intersection left as it is (its own reason stands; joining would hide it). A nullable wrapper is
 * `collapseNullable`'s.
 */
function mixedTypes(node: JsonSchema, members: readonly unknown[], resolve: RefResolver): string[] | undefined {
  if (isNullableWrapper(node)) return undefined;
  const others = new Set<string>();
  let objects = false;
  for (const member of members) {
    if (!isPlainObject(member) || typeof member.$ref === 'string') return undefined;
    if ('allOf' in member || (('anyOf' in member || 'oneOf' in member) && !isNullableWrapper(member))) return undefined;
    const atoms = typeAtoms(member, resolve);
    if (atoms === 'any') return undefined;
    for (const atom of atoms) {
      if (atom.type === 'object') objects = true;
      else others.add(atom.type === 'integer' ? 'number' : atom.type);
    }
  }
  const allObjects = members.every((m) => isPlainObject(m) && declaredTypes(m)?.every((t) => t === 'object'));
  return objects && others.size > 0 && !allObjects ? [...others] : undefined;
}
