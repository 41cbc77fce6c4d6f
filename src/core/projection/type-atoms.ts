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
  /**
   * The local `$ref`s followed to reach this atom (with those already being expanded by the caller). A
   * merge that goes into the fragment's sub-schemas carries them on, so a recursive definition is
   * expanded once per path, never forever.
   */
  via: ReadonlySet<string>;
  /**
   * True when the atom comes from a `$ref` already in `via`: only its type is known, and a merge must
   * treat its fragment as unknown (open), never as unconstrained-by-omission.
   */
  shallow?: boolean;
}

/** Looks a `$ref` up in the document; undefined when it cannot be resolved locally. */
export type RefResolver = (ref: string) => unknown;

/**
 * The atoms of `schema`, or `'any'` when no type can be proven (`{}`, `true`, an unresolved `$ref`,
 * a bare `not`). Every atom list is a SUPERSET description: a value the schema accepts has the type of
 * some atom and satisfies that atom's fragment (a shallow atom's fragment is unknown). Where precision
 * would need intersection logic (`allOf`, `$ref` with siblings), the view is loosened, never tightened.
 * `expanding` lists the `$ref`s the caller is already inside.
 */
export function typeAtoms(
  schema: unknown,
  resolve: RefResolver,
  expanding: ReadonlySet<string> = NONE,
): TypeAtom[] | 'any' {
  return atomsOf(schema, resolve, expanding, NONE);
}

const NONE: ReadonlySet<string> = new Set();

/** `chain` holds the `$ref`s followed inside this one call, so `{$ref: a}` → `{$ref: a}` ends. */
function atomsOf(
  schema: unknown,
  resolve: RefResolver,
  via: ReadonlySet<string>,
  chain: ReadonlySet<string>,
): TypeAtom[] | 'any' {
  if (schema === false) return [];
  if (!isPlainObject(schema)) return 'any';
  const types = declaredTypes(schema);
  if (types) return atomsFromTypes(schema, types, via);
  if ('const' in schema) return [{ type: typeOfValue(schema.const), fragment: { const: schema.const }, via }];
  if (Array.isArray(schema.enum)) return atomsFromEnum(schema.enum, via);
  for (const kw of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(schema[kw])) {
      const all: TypeAtom[] = [];
      for (const member of schema[kw]) {
        const atoms = atomsOf(member, resolve, via, chain);
        if (atoms === 'any') return 'any';
        all.push(...atoms);
      }
      return all;
    }
  }
  if (Array.isArray(schema.allOf)) {
    // A value passes every member, so any one member's atoms already describe it.
    for (const member of schema.allOf) {
      const atoms = atomsOf(member, resolve, via, chain);
      if (atoms !== 'any') return atoms;
    }
    return 'any';
  }
  const ref = schema.$ref;
  if (typeof ref === 'string' && !chain.has(ref)) {
    const target = resolve(ref);
    if (target !== undefined) {
      const atoms = atomsOf(target, resolve, new Set([...via, ref]), new Set([...chain, ref]));
      // Met again below itself: a recursive definition. Its type is still known; its shape is not
      // expanded a second time.
      if (via.has(ref) && atoms !== 'any')
        return atoms.map((a) => ({ type: a.type, fragment: {}, via, shallow: true }));
      return atoms;
    }
  }
  if (isPlainObject(schema.not) && Object.keys(schema.not).length === 0) return [];
  return 'any';
}

function atomsFromTypes(schema: JsonSchema, types: readonly JsonType[], via: ReadonlySet<string>): TypeAtom[] {
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
    atoms.push({ type, fragment, via });
  }
  return atoms;
}

function atomsFromEnum(values: unknown[], via: ReadonlySet<string>): TypeAtom[] {
  const byType = new Map<JsonType, unknown[]>();
  for (const v of values) {
    const t = typeOfValue(v);
    byType.set(t, [...(byType.get(t) ?? []), v]);
  }
  return [...byType].map(([type, vals]) => ({ type, fragment: { enum: vals }, via }));
}

/** Whether a value of JSON type `typeOfValue(v)` is admitted by `type` (`number` admits integers). */
function admits(type: JsonType, value: unknown): boolean {
  const t = typeOfValue(value);
  return t === type || (type === 'number' && t === 'integer');
}

/**
 * Whether `root` holds no definitions `localResolver` could find: then every reference in it resolves to
 * nothing, whatever the document, and what is computed from its nodes does not depend on the document.
 */
export function definesNothing(root: JsonSchema): boolean {
  return !isPlainObject(root.$defs) && !isPlainObject(root.definitions);
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
