import {
  grammarAnyValue,
  LOCAL_GRAMMAR_ANY_VALUE,
  LOCAL_GRAMMAR_FORMATS,
  LOCAL_GRAMMAR_LIMITS,
} from '../../json-schema/client-limits.js';
import {
  ANNOTATION_KEYWORDS,
  declaredTypes,
  forEachSubschema,
  isNullableWrapper,
  isNullOnly,
  type JsonType,
  META_KEYWORDS,
  mapSubschemas,
  TYPE_FAMILIES,
  unionKeyword,
} from '../../json-schema/keywords.js';
import { setOwn } from '../../json-schema/own-properties.js';
import { isPlainObject, type JsonSchema } from '../../json-schema/types.js';
import { type RefResolver, typeAtoms } from '../type-atoms.js';
import { joinUnion, overlay } from './combinators.js';
import { dropFormatsOutside, intersectionToNode, requireEveryKey } from './common.js';
import { withNull } from './nulls.js';
import type { Rewrite, Rewrites } from './walk.js';

// The subset of JSON Schema local grammar engines read (docs/decisions/0030-local-grammar-subset.md):
// node-llama-cpp compiles each node by the first of `$ref` (to `#/$defs/<name>`), `oneOf`, `const`, `enum`,
// `type: "object"`, `type: "array"`, `type: "string"`, a `type` of scalars; every key `properties` lists is
// written, in order; `additionalProperties` left out means none; a node with none of these is `null`.

const BOUNDS = ['maxLength', 'minLength', 'maxItems', 'minItems'] as const;

/** SUPERSET: a length or item bound a grammar would unroll that many times is not advertised. */
const dropLargeBounds: Rewrite = (node) => {
  const large = BOUNDS.filter((k) => typeof node[k] === 'number' && node[k] >= LOCAL_GRAMMAR_LIMITS.repetition);
  if (large.length === 0) return undefined;
  const out: JsonSchema = { ...node };
  for (const k of large) delete out[k];
  return out;
};

/** SUPERSET: a pattern longer than grammar converters handle is not advertised. */
const dropLongPattern: Rewrite = (node) => {
  if (typeof node.pattern !== 'string' || node.pattern.length <= LOCAL_GRAMMAR_LIMITS.patternLength) return undefined;
  const { pattern: _pattern, ...rest } = node;
  return rest;
};

/** The JSON types a schema admits (`integer` counted as `number`), or undefined when they cannot be proven. */
function typesOf(schema: unknown, resolve: RefResolver): Set<JsonType> | undefined {
  const atoms = typeAtoms(schema, resolve);
  if (atoms === 'any') return undefined;
  return new Set(atoms.map((a) => (a.type === 'integer' ? 'number' : a.type)));
}

/** No two members admit a value of the same JSON type: then `oneOf` and `anyOf` admit the same values. */
function disjoint(members: readonly unknown[], resolve: RefResolver): boolean {
  const seen = new Set<JsonType>();
  for (const member of members) {
    const types = typesOf(member, resolve);
    if (!types) return false;
    for (const t of types) {
      if (seen.has(t)) return false;
      seen.add(t);
    }
  }
  return true;
}

const onlyAnnotations = (node: JsonSchema) =>
  Object.keys(node).every((k) => ANNOTATION_KEYWORDS.has(k) || META_KEYWORDS.has(k));

/**
 * A union as the engines read it. Members of disjoint JSON types (a nullable wrapper around an object or a
 * `$ref`, `string | string[]`): `oneOf`, which admits what the `anyOf` did (EXACT). A nullable wrapper whose
 * member takes null already: that member (EXACT). Any other union: the typed join of its members, one node
 * (SUPERSET), whose type list `typeListAsOneOf` splits next.
 */
const unionAsOneOf: Rewrite = (node, ctx) => {
  const keyword = unionKeyword(node);
  if (!keyword) return undefined;
  const members: unknown[] = node[keyword];
  const { [keyword]: _members, ...own } = node;
  if (members.length > 0 && onlyAnnotations(own) && disjoint(members, ctx.resolve)) {
    return keyword === 'oneOf' ? undefined : { ...own, oneOf: members };
  }
  if (isNullableWrapper(node)) {
    const inner = members.find((m) => !isNullOnly(m));
    if (isPlainObject(inner) && (typesOf(inner, ctx.resolve)?.has('null') ?? true)) return overlay(inner, own);
  }
  return joinUnion(node, ctx.resolve, { wrappers: true });
};

/**
 * EXACT: a `type` list holding `object` or `array` beside other types becomes `oneOf` one member per
 * container type and one for the scalars, each with its own family's keywords (node-llama-cpp drops
 * `object` and `array` from a type list, so `["object", "null"]` would admit null alone). A one-type list
 * becomes that type. A list beside `const`/`enum` stays: the literal is what the engines read.
 */
const typeListAsOneOf: Rewrite = (node) => {
  if (!Array.isArray(node.type)) return undefined;
  const types = declaredTypes(node);
  if (!types) return undefined;
  const unique = [...new Set(types)];
  if (unique.length === 1) return { ...node, type: unique[0] };
  const containers = unique.filter((t) => t === 'object' || t === 'array');
  if (containers.length === 0 || 'const' in node || Array.isArray(node.enum)) return undefined;
  const scalars = unique.filter((t) => t !== 'object' && t !== 'array');
  const outer: JsonSchema = {};
  const shared: JsonSchema = {};
  const familyKeys = new Set(Object.values(TYPE_FAMILIES).flat());
  for (const [key, value] of Object.entries(node)) {
    if (key === 'type' || familyKeys.has(key)) continue;
    setOwn(ANNOTATION_KEYWORDS.has(key) || META_KEYWORDS.has(key) ? outer : shared, key, value);
  }
  const member = (memberTypes: readonly JsonType[]): JsonSchema => {
    const out: JsonSchema = { type: memberTypes.length === 1 ? memberTypes[0] : [...memberTypes], ...shared };
    for (const t of memberTypes) for (const key of TYPE_FAMILIES[t]) if (key in node) setOwn(out, key, node[key]);
    return out;
  };
  const members = [...(scalars.length > 0 ? [member(scalars)] : []), ...containers.map((t) => member([t]))];
  return { ...outer, oneOf: members };
};

/** True sub-schemas (any value) as `{}`, which `untypedAsAnyValue` writes out: node-llama-cpp reads `true` as null. */
const trueAsEmpty: Rewrite = (node) => {
  const props = isPlainObject(node.properties) ? node.properties : undefined;
  const trueProps = props !== undefined && Object.values(props).some((v) => v === true);
  if (!trueProps && node.items !== true) return undefined;
  const out: JsonSchema = { ...node };
  if (trueProps) {
    const next: JsonSchema = {};
    for (const [key, value] of Object.entries(props)) setOwn(next, key, value === true ? {} : value);
    out.properties = next;
  }
  if (node.items === true) out.items = {};
  return out;
};

/**
 * SUPERSET: `prefixItems` (a tuple) join `items`: node-llama-cpp writes every prefix item whatever `minItems`
 * says (a tuple's optional elements, a tuple joined with an array), and llama.cpp documents its `prefixItems`
 * as broken. Each position then takes any of the tuple's schemas (exactly its own where they are all one),
 * `minItems` and `maxItems` (the tuple's length, where it took no more) still bounding the length.
 */
const prefixAsItems: Rewrite = (node, ctx) => {
  if (!Array.isArray(node.prefixItems)) return undefined;
  const prefix: unknown[] = node.prefixItems;
  const tail: unknown[] = node.items === undefined ? [{}] : node.items === false ? [] : [node.items];
  const members = [...prefix, ...tail];
  const { prefixItems: _prefix, ...out } = node;
  if (node.items === false) {
    out.maxItems = typeof node.maxItems === 'number' ? Math.min(node.maxItems, prefix.length) : prefix.length;
  }
  const distinct = members.filter((m, i) => members.findIndex((n) => JSON.stringify(n) === JSON.stringify(m)) === i);
  out.items =
    distinct.length === 0
      ? false
      : distinct.length === 1
        ? distinct[0]
        : distinct.some((m) => !isPlainObject(m))
          ? {}
          : (joinUnion({ anyOf: distinct }, ctx.resolve) ?? {});
  return out;
};

/** The key's schema admitting null too; a key that admits nothing (`false`) admits null alone. */
const nullable = (schema: unknown): unknown => (schema === false ? { type: 'null' } : withNull(schema));

/**
 * Every object (`type: "object"`), as the engines write it:
 * - each key `properties` lists is required; one that was optional is made nullable: NARROWING modulo
 *   repair (node-llama-cpp writes every listed key; the model sends null for one it leaves out, and repair
 *   reads null for a key whose schema refuses null as absent, `nullAsAbsent`), reported at the key;
 * - `additionalProperties` left out becomes `false` where the object declares `properties` (the engines read
 *   it so; Zod drops a strip object's undeclared keys before the handler, so nothing a call could use is lost,
 *   and it is not reported), `true` where it declares none (`{type: "object"}` says any object: EXACT); one
 *   that admits anything becomes `true` (EXACT: node-llama-cpp reads `{}` as null, `true` as any value);
 * - `patternProperties` (which the engines do not read, refusing every such key) joins `additionalProperties`:
 *   SUPERSET (keys no pattern matches are admitted too).
 */
const everyKeyListed: Rewrite = (node, ctx) => {
  if (node.type !== 'object') return undefined;
  const properties: JsonSchema = isPlainObject(node.properties) ? node.properties : {};
  const required: unknown[] = Array.isArray(node.required) ? node.required : [];
  const keys = Object.keys(properties);
  const missing = keys.filter((k) => !required.includes(k));
  const patterns = isPlainObject(node.patternProperties) ? Object.values(node.patternProperties) : undefined;
  const anything =
    isPlainObject(node.additionalProperties) &&
    Object.keys(node.additionalProperties).every((k) => ANNOTATION_KEYWORDS.has(k));
  if (missing.length === 0 && !patterns && node.additionalProperties !== undefined && !anything) return undefined;

  const out: JsonSchema = { ...node };
  if (patterns) {
    delete out.patternProperties;
    const rest = node.additionalProperties;
    const members = [...patterns, ...(rest === undefined || rest === false ? [] : [rest])];
    out.additionalProperties =
      rest === true || members.some((m) => m === true)
        ? true
        : members.length === 1
          ? members[0]
          : (joinUnion({ anyOf: members }, ctx.resolve) ?? true);
  } else if (anything) out.additionalProperties = true;
  else if (node.additionalProperties === undefined) out.additionalProperties = !isPlainObject(node.properties);
  requireEveryKey(
    out,
    { properties, required, missing },
    nullable,
    'since a local grammar writes every key it lists',
    ctx,
  );
  return out;
};

/** The keywords by which node-llama-cpp compiles a node; with none of them it compiles to `null` alone. */
const hasGrammarForm = (node: JsonSchema) =>
  declaredTypes(node) !== undefined ||
  'const' in node ||
  Array.isArray(node.enum) ||
  typeof node.$ref === 'string' ||
  ['anyOf', 'oneOf', 'allOf'].some((k) => Array.isArray(node[k]));

/** The `$defs` name of "any JSON value" in this document: `JsonValue`, numbered when the document has one. */
function anyValueRef(resolve: RefResolver): string {
  for (let n = 0; ; n++) {
    const ref = `#/$defs/${LOCAL_GRAMMAR_ANY_VALUE}${n === 0 ? '' : n}`;
    if (resolve(ref) === undefined) return ref;
  }
}

/**
 * SUPERSET: a node with no type the engines read (`z.unknown()`, `z.any()`, a bare `not`) becomes a
 * reference to any JSON value (`grammarAnyValue`), its annotations kept; what it asserted besides is
 * left to the Zod parse. A node that admits nothing (`not: {}`) stays: null is what the engines give it.
 */
const untypedAsAnyValue: Rewrite = (node, ctx) => {
  if (hasGrammarForm(node)) return undefined;
  const atoms = typeAtoms(node, ctx.resolve);
  if (atoms !== 'any' && atoms.length === 0) return undefined;
  const out: JsonSchema = { $ref: anyValueRef(ctx.resolve) };
  for (const key of Object.keys(node)) if (ANNOTATION_KEYWORDS.has(key)) setOwn(out, key, node[key]);
  return out;
};

/** At the root, after every node: the definition of any JSON value, when something refers to it. */
const anyValueDefinition: Rewrite = (node, ctx) => {
  if (!ctx.atRoot) return undefined;
  const ref = anyValueRef(ctx.resolve);
  if (!refersTo(node, ref)) return undefined;
  const defs: JsonSchema = isPlainObject(node.$defs) ? { ...node.$defs } : {};
  setOwn(defs, ref.slice('#/$defs/'.length), grammarAnyValue(ref));
  return { ...node, $defs: defs };
};

/** Whether any schema position in `node` holds `$ref: ref`. */
function refersTo(node: unknown, ref: string): boolean {
  if (!isPlainObject(node)) return false;
  if (node.$ref === ref) return true;
  let found = false;
  forEachSubschema(node, (child) => {
    found ||= refersTo(child, ref);
  });
  return found;
}

/**
 * A recursive root (`z.lazy` at the top refers to it as `#`) named in `$defs`, since the engines resolve
 * `#/$defs/<name>` only (node-llama-cpp reads `#` as any value): the root stays, a copy of it becomes the
 * definition, and every `#` refers to that (EXACT). `doc` itself when nothing refers to the root.
 */
export function nameRootRecursion(doc: JsonSchema): JsonSchema {
  if (!refersTo(doc, '#')) return doc;
  const defs: JsonSchema = isPlainObject(doc.$defs) ? doc.$defs : {};
  let name = 'Root';
  for (let n = 1; Object.hasOwn(defs, name); n++) name = `Root${n}`;
  const ref = `#/$defs/${name}`;
  const renamed = renameRef(doc, '#', ref) as JsonSchema;
  const { $defs: renamedDefs, ...body } = renamed;
  const nextDefs: JsonSchema = isPlainObject(renamedDefs) ? { ...renamedDefs } : {};
  setOwn(nextDefs, name, body);
  return { ...renamed, $defs: nextDefs };
}

function renameRef(node: unknown, from: string, to: string): unknown {
  if (!isPlainObject(node)) return node;
  const out = mapSubschemas(node, (child) => renameRef(child, from, to));
  return out.$ref === from ? { ...out, $ref: to } : out;
}

/**
 * `local-grammar`: models that compile the schema to a sampling grammar (node-llama-cpp, llama.cpp), held to
 * the subset those engines read (docs/design/projections.md): intersections become one object and unions
 * `oneOf` of disjoint types or one joined node; type lists holding `object` or `array` become `oneOf`; every
 * object lists every key as required, optional ones nullable (NARROWING modulo repair), and says which other
 * keys it takes; untyped positions refer to any JSON value; formats but `date`, large bounds and long
 * patterns are not advertised (SUPERSET; the Zod checks still run on every call). A recursive root is named
 * in `$defs` before the walk (`nameRootRecursion`).
 */
export const LOCAL_GRAMMAR: Rewrites = {
  pre: [
    intersectionToNode,
    unionAsOneOf,
    typeListAsOneOf,
    trueAsEmpty,
    prefixAsItems,
    everyKeyListed,
    untypedAsAnyValue,
    dropFormatsOutside(LOCAL_GRAMMAR_FORMATS),
    dropLargeBounds,
    dropLongPattern,
  ],
  post: [anyValueDefinition],
};
