import { declaredTypes, type JsonType, typeOfValue } from '../json-schema/keywords.js';
import { isPlainObject, type JsonSchema } from '../json-schema/types.js';
import type { SchemaVisit } from './types.js';

// Small read-only questions about one schema node that the base rules and the profiles share.
// Keyword tables, `declaredTypes`, `typeOfValue` and `isNullableWrapper` come from json-schema/keywords.ts,
// the same ones the flattener uses, so probe and projection read a schema the same way.

/** The kinds of value a `type` name admits: `number` admits integers too. */
export function kindsOfType(type: JsonType): JsonType[] {
  return type === 'number' ? ['number', 'integer'] : [type];
}

export function hasType(node: JsonSchema, type: JsonType): boolean {
  return declaredTypes(node)?.includes(type) ?? false;
}

/** A node that describes object instances: typed object, or carrying `properties`. */
export function isObjectLike(node: unknown): boolean {
  return isPlainObject(node) && (hasType(node, 'object') || isPlainObject(node.properties));
}

/** The branches of a `oneOf`/`anyOf` on this node (`oneOf` first when, unusually, both are there). */
export function unionOf(node: JsonSchema): { keyword: 'oneOf' | 'anyOf'; branches: unknown[] } | undefined {
  for (const keyword of ['oneOf', 'anyOf'] as const) {
    if (Array.isArray(node[keyword])) return { keyword, branches: node[keyword] };
  }
  return undefined;
}

/**
 * The kinds of value a node can admit, from `type`, `const`, `enum` and its union branches;
 * `undefined` means any kind (no constraint found, or a branch that admits anything).
 */
export function admittedKinds(node: unknown): Set<JsonType> | undefined {
  if (!isPlainObject(node)) return node === false ? new Set() : undefined;
  let kinds: Set<JsonType> | undefined;
  const narrow = (next: Iterable<JsonType>) => {
    const nextSet = new Set(next);
    kinds = kinds ? new Set([...kinds].filter((k) => nextSet.has(k))) : nextSet;
  };
  const types = declaredTypes(node);
  if (types) narrow(types.flatMap(kindsOfType));
  if ('const' in node) narrow([typeOfValue(node.const)]);
  if (Array.isArray(node.enum)) narrow(node.enum.map(typeOfValue));
  const union = unionOf(node);
  if (union) {
    const branchKinds = union.branches.map(admittedKinds);
    if (!branchKinds.includes(undefined)) narrow(branchKinds.flatMap((s) => [...s!]));
  }
  return kinds;
}

/** Accepts null next to at least one other kind (a nullable value, not a literal null). */
export function isNullable(node: unknown): boolean {
  // One type name and nothing else that narrows or widens it: one kind (two for `number`, neither null).
  if (isPlainObject(node) && typeof node.type === 'string' && !hasKindKeyword(node)) return false;
  const kinds = admittedKinds(node);
  return kinds ? kinds.has('null') && kinds.size > 1 : false;
}

/** Keywords besides `type` that `admittedKinds` reads. */
function hasKindKeyword(node: JsonSchema): boolean {
  return 'const' in node || 'enum' in node || 'oneOf' in node || 'anyOf' in node;
}

/** The property name when the node is reached as `properties/<name>`. */
export function propertyName(visit: SchemaVisit): string | undefined {
  return visit.keyword === 'properties' ? visit.key : undefined;
}

/** "field `x`" for a named property, "the root" or "this schema" otherwise; for message subjects. */
export function subject(visit: SchemaVisit): string {
  const name = propertyName(visit);
  if (name !== undefined) return `field \`${name}\``;
  return visit.parent ? 'this schema' : 'the root';
}
