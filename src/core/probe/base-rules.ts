import { isAssertionOnly } from '../json-schema/assertions.js';
import { stableStringify } from '../json-schema/compare.js';
import { analyzeUnion } from '../json-schema/discriminator.js';
import { declaredTypes } from '../json-schema/keywords.js';
import { pointer } from '../json-schema/pointer.js';
import { isFlattenedTag } from '../json-schema/tag-values.js';
import { isPlainObject } from '../json-schema/types.js';
import { shortLiteral } from '../messages/describe.js';
import { positionRule, requiredProperties } from './positions.js';
import { rootKeysServed, rootNotObject, unflattenedReason } from './root.js';
import { unsatisfiableReason } from './satisfiable.js';
import { admittedKinds, hasKind, hasType, isNullable, isObjectLike, subject, unionOf } from './schema-facts.js';
import type { Finding, Rule, SchemaVisit } from './types.js';

// Checks that always run on the served document. Errors are documents no client can use as meant;
// warnings are documents that are served but will mislead models or argument repair.

const requiredInProperties: Rule = {
  id: 'required-not-in-properties',
  reason: 'a required key with no schema tells the model it must send something it cannot know',
  severity: 'error',
  check: (visit) => {
    const { node } = visit;
    if (!('required' in node) || !(isPlainObject(node.properties) || hasType(node, 'object'))) return undefined;
    if (!Array.isArray(node.required) || !node.required.every((k: unknown) => typeof k === 'string'))
      return { path: pointer(visit.pointer, 'required'), message: '`required` must be an array of property names' };
    const properties = isPlainObject(node.properties) ? node.properties : {};
    let found: Finding[] | undefined;
    for (let i = 0; i < node.required.length; i++) {
      const key = node.required[i] as string;
      if (Object.hasOwn(properties, key)) continue;
      found ??= [];
      found.push({
        path: pointer(visit.pointer, 'required', i),
        message: `\`${key}\` is required but has no entry in \`properties\``,
      });
    }
    return found;
  },
};

const enumValues: Rule = {
  id: 'invalid-enum',
  reason: 'an empty enum admits nothing; duplicate values are invalid JSON Schema and strict validators reject them',
  severity: 'error',
  check: (visit) => {
    const { node } = visit;
    if (!('enum' in node)) return undefined;
    if (!Array.isArray(node.enum) || node.enum.length === 0)
      return { message: '`enum` is empty or not an array, so no value can pass' };
    if (distinctScalars(node.enum)) return undefined;
    const keys: string[] = node.enum.map(stableStringify);
    return node.enum.flatMap((value: unknown, i: number): Finding[] =>
      keys.indexOf(keys[i]!) < i
        ? [{ path: pointer(visit.pointer, 'enum', i), message: `\`enum\` lists ${shortLiteral(value)} more than once` }]
        : [],
    );
  },
};

/**
 * True when every value is a string, a boolean, null or a finite number and none is there twice: then no two
 * have the same JSON text either (a set tells 0 from -0 no more than JSON does). Most enums are such.
 */
function distinctScalars(values: unknown[]): boolean {
  for (const v of values) {
    if (typeof v === 'number' ? !Number.isFinite(v) : v !== null && typeof v !== 'string' && typeof v !== 'boolean')
      return false;
  }
  return new Set(values).size === values.length;
}

const refLeft: Rule = {
  id: 'ref-not-inlined',
  reason:
    'many clients do not resolve $ref; non-recursive refs are inlined before serving, only z.lazy recursion may stay',
  severity: 'error',
  check: ({ node }, ctx) => {
    if (!('$ref' in node)) return undefined;
    const target = typeof node.$ref === 'string' ? ctx.refs.resolve(node.$ref) : undefined;
    if (!target) return { message: `\`$ref\` ${shortLiteral(node.$ref)} points to nothing in this document` };
    if (ctx.keepsRefs || ctx.refs.isRecursive(target.pointer)) return undefined;
    return {
      message: `\`$ref\` ${shortLiteral(node.$ref)} is not recursive but was left in place; it should have been inlined`,
    };
  },
};

const unionNotFlattened: Rule = {
  id: 'union-not-flattened',
  reason: 'flattenUnionInput was asked for, yet a union of objects is still served; some clients drop or mangle it',
  severity: 'warning',
  sides: ['input'],
  check: (visit, ctx) => {
    const { node, parent } = visit;
    if (!ctx.flattenRequested || !parent) return undefined;
    const union = unionOf(node);
    if (!union) return undefined;
    // Only a choice between object shapes is what flattening is for. A string-or-object union and
    // a nullable wrapper are served as intended, even when the flattener lists them as left.
    if (union.branches.filter(isObjectLike).length < 2) return undefined;
    const verdict = analyzeUnion(union.branches);
    const why = unflattenedReason(ctx, visit.pointer) ?? (verdict.ok ? undefined : verdict.reason);
    return {
      message: `a union of objects (${union.keyword}) is still served although flattenUnionInput was asked for${why ? `: ${why}` : ''}; give every variant a required literal tag of its own to flatten it`,
    };
  },
};

const unsatisfiable: Rule = {
  id: 'unsatisfiable',
  reason: 'a schema no value can pass makes the tool impossible to call',
  severity: 'error',
  check: ({ node }) => {
    const relevant = 'allOf' in node || ('type' in node && ('const' in node || Array.isArray(node.enum)));
    if (!relevant || (Array.isArray(node.enum) && node.enum.length === 0)) return undefined; // empty enum: invalid-enum
    const reason = unsatisfiableReason(node);
    return reason ? { message: `no value can pass: ${reason}` } : undefined;
  },
};

const objectKeywordsNeedObjectType: Rule = {
  id: 'properties-without-object-type',
  reason: 'Gemini and OpenAI reject properties/required on a node that is not type:"object"',
  severity: 'error',
  check: (visit) => {
    const { node, parent } = visit;
    if (!parent || !('properties' in node || 'required' in node) || hasType(node, 'object')) return undefined;
    if (assertsAboutObject(visit)) return undefined;
    const types = declaredTypes(node);
    return {
      message: `has ${'properties' in node ? '`properties`' : '`required`'} but ${types ? `type ${types.join('|')}` : 'no type'}; add \`type:"object"\``,
    };
  },
};

/** Keywords whose sub-schema applies to the same value as the schema holding it. */
const SAME_VALUE = new Set(['allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else']);

/**
 * An assertion-only sub-schema (`isAssertionOnly`: `required` lists, conditions on declared keys) applied to
 * the same value as an object-typed ancestor, e.g. a root `allOf: [{anyOf: [{required: ["email"]}]}]`: the
 * ancestor's `type: "object"` is its type.
 */
function assertsAboutObject(visit: SchemaVisit): boolean {
  let at: SchemaVisit | undefined = visit;
  while (at?.parent && at.keyword !== undefined && SAME_VALUE.has(at.keyword)) {
    at = at.parent;
    if (hasType(at.node, 'object')) {
      const declared = new Set(isPlainObject(at.node.properties) ? Object.keys(at.node.properties) : []);
      return isAssertionOnly(visit.node, declared);
    }
  }
  return false;
}

const arrayNeedsItems: Rule = {
  id: 'array-without-items',
  reason: 'Gemini and OpenAI reject type:"array" without items',
  severity: 'error',
  check: ({ node }) =>
    hasType(node, 'array') && !('items' in node) && !('prefixItems' in node)
      ? { message: 'is type "array" with neither `items` nor `prefixItems`' }
      : undefined,
};

const stringOrStructure: Rule = {
  id: 'ambiguous-string-union',
  reason:
    'clients often send objects and arrays as JSON strings; where a string is also valid, repair cannot tell them apart',
  severity: 'warning',
  sides: ['input'],
  check: (visit) => {
    const { node } = visit;
    if (!unionOf(node) && (declaredTypes(node)?.length ?? 0) <= 1) return undefined; // only where the choice is made
    const kinds = admittedKinds(node);
    if (kinds === undefined || !hasKind(kinds, 'string')) return undefined;
    const structures = (['object', 'array'] as const).filter((k) => hasKind(kinds, k));
    if (structures.length === 0) return undefined;
    return {
      message: `${subject(visit)} accepts a string or an ${structures.join(' or ')}; when a client sends the ${structures[0]} as a JSON string, argument repair cannot tell it from a real string`,
    };
  },
};

const requiredNullable = positionRule({
  id: 'required-nullable',
  reason: 'models omit or fill required nullable fields unpredictably, and several clients reject null type lists',
  severity: 'warning',
  // The openai-strict and local-grammar projections make every key required and nullable on purpose: nothing
  // to change.
  positions: (visit, ctx) =>
    ctx.projection === 'openai-strict' || ctx.projection === 'local-grammar'
      ? []
      : requiredProperties(visit.node, visit),
  // A flattened union's tag that lists null selects a variant with it: there null is a value to choose.
  message: ({ key, schema }) =>
    isNullable(schema) && !isFlattenedTag(schema)
      ? `\`${key}\` is required but nullable; prefer \`.optional()\` so the model can leave it out`
      : undefined,
});

/** Per document check (one `RuleContext` each): each `$anchor` and the pointer that declared it first. */
const anchorsOf = new WeakMap<object, Map<string, string>>();

const duplicateAnchor: Rule = {
  id: 'duplicate-anchor',
  reason: 'an $anchor declared twice in one document is invalid JSON Schema 2020-12: validators refuse to compile it',
  severity: 'error',
  check: (visit, ctx) => {
    const { node } = visit;
    if (typeof node.$anchor !== 'string') return undefined;
    const seen = anchorsOf.get(ctx) ?? new Map<string, string>();
    anchorsOf.set(ctx, seen);
    const first = seen.get(node.$anchor);
    if (first === undefined) {
      seen.set(node.$anchor, visit.pointer);
      return undefined;
    }
    return {
      message: `\`$anchor\` ${shortLiteral(node.$anchor)} is declared again (first at ${first || '(root)'}), which no 2020-12 validator compiles; a schema reused in several places (or slices) carries its anchor to each: give it an \`id\` (\`.meta({ id })\`) instead`,
    };
  },
};

/** Base checks, in the order their issues are listed for one node. */
export const BASE_RULES: readonly Rule[] = [
  rootNotObject,
  rootKeysServed,
  requiredInProperties,
  enumValues,
  refLeft,
  duplicateAnchor,
  unionNotFlattened,
  unsatisfiable,
  objectKeywordsNeedObjectType,
  arrayNeedsItems,
  stringOrStructure,
  requiredNullable,
];
