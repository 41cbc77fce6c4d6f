import { isPlainObject, type JsonSchema } from '../json-schema.js';
import type { SchemaVisit } from './types.js';

// Small read-only questions about one schema node, shared by the base rules and the profiles.

/** JSON Schema instance types; `integer` is the subset of `number` with no fraction. */
export type Kind = 'null' | 'boolean' | 'object' | 'array' | 'string' | 'number' | 'integer';

/** The `type` keyword as a list (`undefined` when absent or malformed). */
export function declaredTypes(node: JsonSchema): string[] | undefined {
  if (typeof node.type === 'string') return [node.type];
  if (Array.isArray(node.type) && node.type.every((t: unknown) => typeof t === 'string')) return node.type;
  return undefined;
}

export function hasType(node: JsonSchema, type: string): boolean {
  return declaredTypes(node)?.includes(type) ?? false;
}

/** A node that describes object instances: typed object, or carrying object keywords. */
export function isObjectLike(node: unknown): boolean {
  return isPlainObject(node) && (hasType(node, 'object') || isPlainObject(node.properties));
}

/** The branches of a `oneOf`/`anyOf` on this node (`oneOf` first, as Zod emits one or the other). */
export function unionOf(node: JsonSchema): { keyword: 'oneOf' | 'anyOf'; branches: unknown[] } | undefined {
  for (const keyword of ['oneOf', 'anyOf'] as const) {
    if (Array.isArray(node[keyword])) return { keyword, branches: node[keyword] };
  }
  return undefined;
}

/** `{type:"null"}` or an equivalent single-null schema. */
export function isNullSchema(node: unknown): boolean {
  if (!isPlainObject(node)) return false;
  const types = declaredTypes(node);
  if (types) return types.length === 1 && types[0] === 'null';
  return node.const === null || (Array.isArray(node.enum) && node.enum.length === 1 && node.enum[0] === null);
}

/** `anyOf:[X, {type:"null"}]`: a nullable wrapper around one real branch, not a choice between shapes. */
export function isNullableWrapper(node: JsonSchema): boolean {
  const union = unionOf(node);
  if (!union) return false;
  const nulls = union.branches.filter(isNullSchema).length;
  return nulls > 0 && union.branches.length - nulls === 1;
}

export function valueKind(value: unknown): Kind {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (typeof value === 'object') return 'object';
  return typeof value as Kind;
}

/** Kinds a `type` name admits: `number` admits integers too. */
export function kindsOfType(type: string): Kind[] {
  return type === 'number' ? ['number', 'integer'] : [type as Kind];
}

/**
 * The instance kinds a node can admit, from `type`, `const`, `enum` and its union branches;
 * `undefined` means any kind (no constraint found, or a branch that admits anything).
 */
export function admittedKinds(node: unknown): Set<Kind> | undefined {
  if (!isPlainObject(node)) return node === false ? new Set() : undefined;
  let kinds: Set<Kind> | undefined;
  const narrow = (next: Iterable<Kind>) => {
    const nextSet = new Set(next);
    kinds = kinds ? new Set([...kinds].filter((k) => nextSet.has(k))) : nextSet;
  };
  const types = declaredTypes(node);
  if (types) narrow(types.flatMap(kindsOfType));
  if ('const' in node) narrow([valueKind(node.const)]);
  if (Array.isArray(node.enum)) narrow(node.enum.map(valueKind));
  const union = unionOf(node);
  if (union) {
    const branchKinds = union.branches.map(admittedKinds);
    if (!branchKinds.includes(undefined)) narrow(branchKinds.flatMap((s) => [...s!]));
  }
  return kinds;
}

/** Accepts null next to at least one other kind (a nullable value, not a literal null). */
export function isNullable(node: unknown): boolean {
  const kinds = admittedKinds(node);
  return kinds ? kinds.has('null') && kinds.size > 1 : false;
}

/** Deep equality of JSON values (key order does not matter). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => jsonEqual(v, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k], b[k]));
  }
  return false;
}

/** The property name when the node is reached as `properties/<name>`. */
export function propertyName(visit: SchemaVisit): string | undefined {
  return visit.keyword === 'properties' ? visit.key : undefined;
}

/** A JSON-ish rendering for messages, kept short. */
export function show(value: unknown): string {
  let text: string;
  try {
    text = typeof value === 'bigint' ? `${value}n` : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** "field `x`" for a named property, "the root" or "this schema" otherwise; for message subjects. */
export function subject(visit: SchemaVisit): string {
  const name = propertyName(visit);
  if (name !== undefined) return `field \`${name}\``;
  return visit.parent ? 'this schema' : 'the root';
}

/** "a string", "an object", "a number" (integers are numbers to a reader). */
export function aKind(value: unknown): string {
  const kind = valueKind(value) === 'integer' ? 'number' : valueKind(value);
  return `${kind === 'object' || kind === 'array' ? 'an' : 'a'} ${kind}`;
}
