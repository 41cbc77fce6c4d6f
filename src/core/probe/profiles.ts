import { GEMINI_FORMATS, OPENAI_STRICT_FORMATS } from '../json-schema/client-limits.js';
import { declaredTypes, isNullableWrapper, isNullOnly, typeOfValue } from '../json-schema/keywords.js';
import { ownValue } from '../json-schema/own-properties.js';
import { isPlainObject } from '../json-schema/types.js';
import { shortLiteral } from '../messages/describe.js';
import { localGrammar } from './local-grammar-profile.js';
import { describeUntyped } from './option-rules.js';
import { each, formatAdvice, formatList, perProperty, rootCombinator } from './profile-rules.js';
import { isObjectLike, subject, unionOf } from './schema-facts.js';
import type { Profile } from './types.js';

// Client profiles as data: each rule names the limit it enforces and why. A profile only reports;
// the served document stays as prepared, so a nullable field keeps accepting null even where a profile
// complains. To support a new client, add an entry to PROFILES; to add a limit, add a rule.

/** `additionalProperties` that admits anything besides declared keys and no declared keys: a `z.record`. */
const isOpenRecord = (node: Record<string, any>): boolean =>
  (node.additionalProperties !== undefined && node.additionalProperties !== false) ||
  'patternProperties' in node ||
  'propertyNames' in node
    ? !isPlainObject(node.properties) || Object.keys(node.properties).length === 0
    : false;

// --- Profiles ------------------------------------------------------------------------------------

const anthropic: Profile = {
  name: 'anthropic',
  summary: 'Anthropic Messages API tools: input_schema must be an object without top-level oneOf/anyOf/allOf',
  rules: [rootCombinator('Anthropic')],
};

const openaiStrict: Profile = {
  name: 'openai-strict',
  summary: 'OpenAI function calling with strict: true (structured outputs subset of JSON Schema)',
  rules: [
    rootCombinator('OpenAI strict mode'),
    {
      id: 'additional-properties-not-false',
      reason: 'strict mode requires additionalProperties:false on every object',
      severity: 'error',
      check: ({ node }) =>
        isObjectLike(node) && !isOpenRecord(node) && node.additionalProperties !== false
          ? {
              message: `this object's additionalProperties is ${node.additionalProperties === undefined ? 'missing' : shortLiteral(node.additionalProperties)}, strict mode needs \`false\` (z.strictObject)`,
            }
          : undefined,
    },
    {
      id: 'optional-key',
      reason: 'strict mode requires every property to be listed in required',
      severity: 'error',
      check: (visit, ctx) => {
        const required: unknown[] = Array.isArray(visit.node.required) ? visit.node.required : [];
        // A flattened union makes every key that some variant lacks optional; the Zod fix does not apply there.
        const flattened = (key: string) =>
          ctx.flattenRequested &&
          /\b(Required if|Only for) /.test(String(visit.node.properties?.[key]?.description ?? ''));
        return perProperty(visit, (key) =>
          required.includes(key)
            ? undefined
            : flattened(key)
              ? `\`${key}\` is optional because flattenUnionInput merged variants that do not all require it; OpenAI strict mode and a flattened union conflict: serve this tool to strict-mode clients without flattenUnionInput, or give every variant the same keys`
              : `\`${key}\` is not in required (optional or defaulted); strict mode needs every key required: use .nullable() instead so the model can send null`,
        );
      },
    },
    {
      id: 'open-record',
      reason: 'strict mode cannot express free-form keys (`z.record`)',
      severity: 'error',
      check: (visit) =>
        isObjectLike(visit.node) && isOpenRecord(visit.node)
          ? {
              message: `${subject(visit)} is an open record (free-form keys); strict mode needs every key declared: use z.object with fixed keys or an array of { key, value }`,
            }
          : undefined,
    },
    {
      id: 'nested-union',
      reason: 'strict mode rejects oneOf and handles nested anyOf unions of shapes poorly',
      severity: 'error',
      check: (visit) => {
        const union = unionOf(visit.node);
        if (!visit.parent || !union || (union.keyword === 'anyOf' && isNullableWrapper(visit.node))) return undefined;
        return {
          message: `${subject(visit)} is a nested ${union.keyword}; strict mode does not take it as is: use one type, or a tagged union with flattenUnionInput`,
        };
      },
    },
    formatList('OpenAI strict mode', OPENAI_STRICT_FORMATS, formatAdvice),
  ],
};

const gemini: Profile = {
  name: 'gemini',
  summary: 'Gemini API function declarations and the Gemini CLI (an OpenAPI 3.0 subset of JSON Schema)',
  rules: [
    {
      id: 'type-list',
      reason: 'Gemini takes one type per schema, never a list',
      severity: 'error',
      check: ({ node }) => {
        if (!Array.isArray(node.type)) return undefined;
        const nullable = node.type.includes('null');
        return {
          message: `type ${shortLiteral(node.type)} is a list, which Gemini rejects${nullable ? '; prefer .optional() to .nullable() (the served schema keeps accepting null)' : ''}`,
        };
      },
    },
    {
      id: 'null-branch',
      reason: 'Gemini rejects a {type:"null"} branch',
      severity: 'error',
      check: (visit) => {
        const union = unionOf(visit.node);
        if (!union?.branches.some(isNullOnly)) return undefined;
        return {
          message: `${subject(visit)} is served as ${union.keyword} with a null branch and no type of its own, which Gemini rejects; prefer .optional() to .nullable() (the served schema keeps accepting null)`,
        };
      },
    },
    {
      id: 'union',
      reason: 'Gemini function declarations reject anyOf/oneOf/allOf between shapes',
      severity: 'error',
      check: (visit) =>
        each(['anyOf', 'oneOf', 'allOf'], visit, (k) =>
          k !== 'allOf' && isNullableWrapper(visit.node)
            ? undefined // reported by null-branch
            : {
                message: `${subject(visit)} uses \`${k}\`, which Gemini rejects; use one type or a flattened tagged union`,
              },
        ),
    },
    {
      id: 'const',
      reason: 'Gemini rejects const',
      severity: 'error',
      check: (visit) =>
        'const' in visit.node
          ? {
              message:
                typeof visit.node.const === 'string'
                  ? `${subject(visit)} uses const ${shortLiteral(visit.node.const)}, which Gemini rejects; use z.enum([${shortLiteral(visit.node.const)}])`
                  : `${subject(visit)} uses const ${shortLiteral(visit.node.const)}, which Gemini rejects (${typeOfValue(visit.node.const)} const); use a plain type and check the value in Zod`,
            }
          : undefined,
    },
    {
      id: 'non-string-enum',
      reason: 'Gemini accepts enums of strings only',
      severity: 'error',
      check: (visit) => {
        const enumValues: unknown[] = Array.isArray(visit.node.enum) ? visit.node.enum : [];
        const kinds = [...new Set(enumValues.filter((v) => typeof v !== 'string').map(typeOfValue))];
        return kinds.length === 0
          ? undefined
          : {
              message: `${subject(visit)} has a ${kinds.join('/')} enum (${shortLiteral(visit.node.enum)}), which Gemini rejects; use string values or a plain type checked in Zod`,
            };
      },
    },
    {
      id: 'record-keyword',
      reason: 'Gemini rejects additionalProperties, propertyNames and patternProperties',
      severity: 'error',
      check: (visit) =>
        each(['additionalProperties', 'propertyNames', 'patternProperties'], visit, (k) => ({
          message:
            k === 'additionalProperties' && visit.node[k] === false
              ? `${subject(visit)} has \`additionalProperties: false\` (a strict object), and Gemini rejects the keyword even then; use a plain z.object for Gemini`
              : `${subject(visit)} has \`${k}\`, which Gemini rejects; declare fixed keys, or use an array of { key, value }`,
        })),
    },
    {
      id: 'ref',
      reason: 'Gemini does not resolve $ref; only recursive refs are left after inlining',
      severity: 'error',
      check: ({ node }, ctx) => {
        if (typeof node.$ref !== 'string') return undefined;
        const target = ctx.refs.resolve(node.$ref);
        const recursive = target ? ctx.refs.isRecursive(target.pointer) : false;
        return {
          message: `\`$ref\` ${shortLiteral(node.$ref)} is left${recursive ? ' because the schema is recursive (z.lazy)' : ''}, and Gemini does not resolve refs; limit the recursion to a fixed depth for Gemini`,
        };
      },
    },
    formatList('Gemini', GEMINI_FORMATS, formatAdvice),
    {
      id: 'untyped',
      reason: 'the Gemini CLI skips tools whose parameters have no type',
      severity: 'error',
      check: (visit) =>
        perProperty(visit, (key, schema) =>
          isPlainObject(schema) && ['type', 'anyOf', 'oneOf', 'allOf', '$ref'].some((k) => k in schema)
            ? undefined // typed, or reported by the union/null-branch/ref rules
            : `\`${key}\` ${describeUntyped(schema)}, and the Gemini CLI skips tools with untyped parameters; give it a type`,
        ),
    },
  ],
};

const cursor: Profile = {
  name: 'cursor',
  summary: 'Cursor MCP client: no combinator and no type list anywhere in a tool schema',
  rules: [
    {
      id: 'combinator',
      reason: 'Cursor rejects oneOf/anyOf/allOf anywhere in a tool schema (every request of that client fails)',
      severity: 'error',
      check: (visit) =>
        each(['oneOf', 'anyOf', 'allOf'], visit, (k) => ({
          message: `${subject(visit)} uses \`${k}\`, which Cursor rejects anywhere in a tool; serve Cursor \`projection: 'cursor'\` (or 'auto'), which writes it as one node`,
        })),
    },
    {
      id: 'type-list',
      reason: 'Cursor rejects a type list such as ["string","number"]',
      severity: 'error',
      check: (visit) =>
        Array.isArray(visit.node.type) && !visit.node.type.includes('null')
          ? {
              message: `${subject(visit)} has type ${shortLiteral(visit.node.type)}, a list Cursor rejects; serve Cursor \`projection: 'cursor'\` (or 'auto')`,
            }
          : undefined, // with null: nullable-type-list
    },
    {
      id: 'property-name',
      reason: 'Cursor accepts property names made of [A-Za-z0-9_.-] only',
      severity: 'error',
      check: (visit) =>
        perProperty(visit, (key) =>
          /^[A-Za-z0-9_.-]+$/.test(key)
            ? undefined
            : `property name ${shortLiteral(key)} has characters Cursor rejects; use only letters, digits, _ . -`,
        ),
    },
    {
      id: 'nullable-type-list',
      reason: 'Cursor rejects type lists with null, e.g. ["string","null"]',
      severity: 'error',
      check: (visit) =>
        declaredTypes(visit.node)?.includes('null') && Array.isArray(visit.node.type)
          ? {
              message: `${subject(visit)} has type ${shortLiteral(visit.node.type)}, which Cursor rejects; make it optional instead of nullable (.optional() rather than .nullable())`,
            }
          : undefined,
    },
  ],
};

/** Every known profile by name. */
export const PROFILES: Readonly<Record<string, Profile>> = Object.fromEntries(
  [anthropic, openaiStrict, gemini, cursor, localGrammar].map((p) => [p.name, p]),
);

/** Profiles for the given names, and the names that match none. */
export function resolveProfiles(names: readonly string[]): { profiles: Profile[]; unknown: string[] } {
  const profiles: Profile[] = [];
  const unknown: string[] = [];
  for (const name of names) {
    const profile = ownValue(PROFILES, name) as Profile | undefined;
    if (profile) profiles.push(profile);
    else unknown.push(name);
  }
  return { profiles, unknown };
}
