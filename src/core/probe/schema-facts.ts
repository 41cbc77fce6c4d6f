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
  if (Array.isArray(node.oneOf)) return { keyword: 'oneOf', branches: node.oneOf };
  if (Array.isArray(node.anyOf)) return { keyword: 'anyOf', branches: node.anyOf };
  return undefined;
}

/**
 * The kinds of value a node can admit, one bit per kind (`hasKind`, `kindCount`), from `type`, `const`, `enum`
 * and its union branches; `undefined` means any kind (no constraint found, or a branch that admits anything).
 * Bits, not sets: the probe asks this of every required property and every union of every document.
 */
export function admittedKinds(node: unknown): number | undefined {
  if (!isPlainObject(node)) return node === false ? 0 : undefined;
  let kinds: number | undefined;
  const types = declaredTypes(node);
  if (types) {
    let bits = 0;
    for (const type of types) bits |= type === 'number' ? KIND.number | KIND.integer : KIND[type];
    kinds = bits;
  }
  if ('const' in node) kinds = narrow(kinds, kindBit(node.const));
  if (Array.isArray(node.enum)) {
    let bits = 0;
    for (const value of node.enum) bits |= kindBit(value);
    kinds = narrow(kinds, bits);
  }
  const union = unionOf(node);
  if (union) {
    let bits: number | undefined = 0;
    for (const branch of union.branches) {
      const branchKinds = admittedKinds(branch);
      if (branchKinds === undefined) {
        bits = undefined;
        break;
      }
      bits |= branchKinds;
    }
    if (bits !== undefined) kinds = narrow(kinds, bits);
  }
  return kinds;
}

/**
 * A bit per kind `typeOfValue` names: the JSON types, and what a document that is not JSON may hold, which
 * counts as a kind of its own (the value scan reports it).
 */
const KIND = {
  null: 1,
  boolean: 2,
  object: 4,
  array: 8,
  string: 16,
  number: 32,
  integer: 64,
  bigint: 128,
  symbol: 256,
  undefined: 512,
  function: 1024,
} as const;

function kindBit(value: unknown): number {
  return KIND[typeOfValue(value) as keyof typeof KIND] ?? 0;
}

function narrow(kinds: number | undefined, next: number): number {
  return kinds === undefined ? next : kinds & next;
}

/** Whether `kinds` (from `admittedKinds`) holds `kind`. */
export function hasKind(kinds: number, kind: JsonType): boolean {
  return (kinds & KIND[kind]) !== 0;
}

/** How many kinds `kinds` (from `admittedKinds`) holds. */
function kindCount(kinds: number): number {
  let count = 0;
  for (let bits = kinds; bits !== 0; bits &= bits - 1) count++;
  return count;
}

/** Accepts null next to at least one other kind (a nullable value, not a literal null). */
export function isNullable(node: unknown): boolean {
  // One type name and nothing else that narrows or widens it: one kind (two for `number`, neither null).
  if (isPlainObject(node) && typeof node.type === 'string' && !hasKindKeyword(node)) return false;
  const kinds = admittedKinds(node);
  return kinds !== undefined && hasKind(kinds, 'null') && kindCount(kinds) > 1;
}

/** Keywords besides `type` that `admittedKinds` reads. */
function hasKindKeyword(node: JsonSchema): boolean {
  return 'const' in node || 'enum' in node || 'oneOf' in node || 'anyOf' in node;
}

/** The property name when the node is reached as `properties/<name>`. */
function propertyName(visit: SchemaVisit): string | undefined {
  return visit.keyword === 'properties' ? visit.key : undefined;
}

/** "field `x`" for a named property, "the root" or "this schema" otherwise; for message subjects. */
export function subject(visit: SchemaVisit): string {
  const name = propertyName(visit);
  if (name !== undefined) return `field \`${name}\``;
  return visit.parent ? 'this schema' : 'the root';
}
