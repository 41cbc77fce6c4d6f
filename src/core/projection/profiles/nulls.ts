import { declaredTypes, isNullOnly, unionKeyword } from '../../json-schema/keywords.js';
import { isPlainObject, type JsonSchema } from '../../json-schema/types.js';
import { overlay } from './combinators.js';

// Nullability, taken out for clients that refuse it and put in for clients that need every key present.

/**
 * `node` without `null`: a nullable wrapper `anyOf: [S, {type: "null"}]` becomes S (with the node's own
 * keywords), a `type` list loses `"null"`, an `enum` loses `null`. A NARROWING: it admits exactly the
 * non-null values `node` admits. Undefined when `node` admits no null to take away, or nothing else.
 */
export function withoutNull(node: JsonSchema): JsonSchema | undefined {
  const keyword = unionKeyword(node);
  if (keyword) {
    const members: unknown[] = node[keyword];
    const rest = members.filter((m) => !isNullOnly(m));
    if (rest.length === members.length || rest.length === 0) return undefined;
    const { [keyword]: _members, ...own } = node;
    if (rest.length > 1) return { ...own, [keyword]: rest };
    return isPlainObject(rest[0]) ? overlay(rest[0], own) : undefined;
  }
  const types = declaredTypes(node);
  const enumValues: unknown[] | undefined = Array.isArray(node.enum) ? node.enum : undefined;
  const typeHasNull = types !== undefined && types.length > 1 && types.includes('null');
  const enumHasNull = enumValues !== undefined && enumValues.length > 1 && enumValues.includes(null);
  if (!typeHasNull && !enumHasNull) return undefined;
  const out: JsonSchema = { ...node };
  if (typeHasNull) {
    const kept = types.filter((t) => t !== 'null');
    out.type = kept.length === 1 ? kept[0] : kept;
  }
  if (enumValues?.includes(null)) {
    const kept = enumValues.filter((v) => v !== null);
    if (kept.length === 0) return undefined;
    out.enum = kept;
  }
  if (out.const === null) return undefined;
  return out;
}

const TYPING = ['type', 'const', 'enum', 'anyOf', 'oneOf', 'allOf', '$ref', '$dynamicRef', 'not', 'if'];

/**
 * `node` that also admits `null`: `"null"` added to its `type` (and `null` to its `enum`, a `const`
 * becoming an `enum`), or, where no type says it (a `$ref`, a combinator), a nullable wrapper around it.
 * A node with no type that admits anything already admits null and is returned as it is.
 */
export function withNull(node: unknown): unknown {
  if (!isPlainObject(node)) return node; // `true` admits null; `false` is the author's "never"
  const types = declaredTypes(node);
  if (types?.includes('null') && !('const' in node) && (!Array.isArray(node.enum) || node.enum.includes(null))) {
    return node;
  }
  if (types) {
    const out: JsonSchema = { ...node, type: types.includes('null') ? node.type : [...types, 'null'] };
    if ('const' in node) {
      delete out.const;
      out.enum = node.const === null ? [null] : [node.const, null];
    } else if (Array.isArray(node.enum) && !node.enum.includes(null)) out.enum = [...node.enum, null];
    return out;
  }
  if (Array.isArray(node.enum) && !['anyOf', 'oneOf', 'allOf', '$ref', 'not'].some((k) => k in node)) {
    return node.enum.includes(null) ? node : { ...node, enum: [...node.enum, null] };
  }
  if ('const' in node && !['anyOf', 'oneOf', 'allOf', '$ref', 'not'].some((k) => k in node)) {
    const { const: value, ...rest } = node;
    return value === null ? node : { ...rest, enum: [value, null] };
  }
  // No keyword that could refuse null: every other keyword constrains one type only.
  if (!TYPING.some((k) => k in node)) return node;
  const unionKw = unionKeyword(node);
  if (unionKw && Object.keys(node).every((k) => k === unionKw || k === 'description' || k === 'title')) {
    const members = node[unionKw] as unknown[];
    if (members.some(isNullOnly)) return node;
    return { ...node, [unionKw]: [...members, { type: 'null' }] };
  }
  const { description, title, ...inner } = node;
  const out: JsonSchema = { anyOf: [inner, { type: 'null' }] };
  if (title !== undefined) out.title = title;
  if (description !== undefined) out.description = description;
  return out;
}
