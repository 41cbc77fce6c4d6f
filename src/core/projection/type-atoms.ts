import { declaredTypes, type JsonType, TYPE_FAMILIES, typeOfValue } from '../json-schema/keywords.js';
import { ownValue } from '../json-schema/own-properties.js';
import { parseLocalDefRef } from '../json-schema/pointer.js';
import { isPlainObject, type JsonSchema } from '../json-schema/types.js';

/**
 * One JSON type a schema admits, with the keywords that constrain values of that type ("fragment",
 * no annotations, no `type`). A schema is viewed as the list of its atoms, so that the merge can compare
 * and combine variants type by type instead of keyword soup against keyword soup.
 */
export interface TypeAtom {
  type: JsonType;
  fragment: JsonSchema;
}

/** Looks a `$ref` up in the document; undefined when it cannot be resolved locally. */
export type RefResolver = (ref: string) => unknown;

/**
 * The atoms of `schema`, or `'any'` when no type can be proven (`{}`, `true`, an unresolved `$ref`,
 * a bare `not`). Every atom list is a SUPERSET description: a value the schema accepts has the type of
 * some atom and satisfies that atom's fragment. Where precision would need intersection logic
 * (`allOf`, `$ref` with siblings), the view is loosened, never tightened.
 */
export function typeAtoms(
  schema: unknown,
  resolve: RefResolver,
  seen: ReadonlySet<string> = new Set(),
): TypeAtom[] | 'any' {
  if (schema === false) return [];
  if (!isPlainObject(schema)) return 'any';
  const types = declaredTypes(schema);
  if (types) return atomsFromTypes(schema, types);
  if ('const' in schema) return [{ type: typeOfValue(schema.const), fragment: { const: schema.const } }];
  if (Array.isArray(schema.enum)) return atomsFromEnum(schema.enum);
  for (const kw of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(schema[kw])) {
      const all: TypeAtom[] = [];
      for (const member of schema[kw]) {
        const atoms = typeAtoms(member, resolve, seen);
        if (atoms === 'any') return 'any';
        all.push(...atoms);
      }
      return all;
    }
  }
  if (Array.isArray(schema.allOf)) {
    // A value passes every member, so any one member's atoms already describe it.
    for (const member of schema.allOf) {
      const atoms = typeAtoms(member, resolve, seen);
      if (atoms !== 'any') return atoms;
    }
    return 'any';
  }
  if (typeof schema.$ref === 'string' && !seen.has(schema.$ref)) {
    const target = resolve(schema.$ref);
    if (target !== undefined) return typeAtoms(target, resolve, new Set([...seen, schema.$ref]));
  }
  if (isPlainObject(schema.not) && Object.keys(schema.not).length === 0) return [];
  return 'any';
}

function atomsFromTypes(schema: JsonSchema, types: JsonType[]): TypeAtom[] {
  const atoms: TypeAtom[] = [];
  for (const type of new Set(types)) {
    const fragment: JsonSchema = {};
    for (const key of TYPE_FAMILIES[type]) if (key in schema) fragment[key] = schema[key];
    if ('const' in schema) {
      if (!admits(type, schema.const)) continue;
      fragment.const = schema.const;
    } else if (Array.isArray(schema.enum)) {
      const values = schema.enum.filter((v: unknown) => admits(type, v));
      if (values.length === 0) continue;
      fragment.enum = values;
    }
    atoms.push({ type, fragment });
  }
  return atoms;
}

function atomsFromEnum(values: unknown[]): TypeAtom[] {
  const byType = new Map<JsonType, unknown[]>();
  for (const v of values) {
    const t = typeOfValue(v);
    byType.set(t, [...(byType.get(t) ?? []), v]);
  }
  return [...byType].map(([type, vals]) => ({ type, fragment: { enum: vals } }));
}

/** Whether a value of JSON type `typeOfValue(v)` is admitted by `type` (`number` admits integers). */
function admits(type: JsonType, value: unknown): boolean {
  const t = typeOfValue(value);
  return t === type || (type === 'number' && t === 'integer');
}

/** A resolver for local `#/$defs/X` and `#/definitions/X` references in `root`. */
export function localResolver(root: unknown): RefResolver {
  return (ref) => {
    const parsed = parseLocalDefRef(ref);
    if (!parsed || !isPlainObject(root)) return undefined;
    const container = root[parsed.container];
    return isPlainObject(container) ? ownValue(container, parsed.name) : undefined;
  };
}
