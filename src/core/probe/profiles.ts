import {
  GEMINI_FORMATS,
  grammarAnyValue,
  LOCAL_GRAMMAR_FORMATS,
  LOCAL_GRAMMAR_LIMITS,
  OPENAI_STRICT_FORMATS,
} from '../json-schema/client-limits.js';
import {
  ANNOTATION_KEYWORDS,
  declaredTypes,
  isNullableWrapper,
  isNullOnly,
  META_KEYWORDS,
  typeOfValue,
} from '../json-schema/keywords.js';
import { ownValue } from '../json-schema/own-properties.js';
import { pointer } from '../json-schema/pointer.js';
import { isPlainObject } from '../json-schema/types.js';
import { shortLiteral } from '../messages/describe.js';
import { describeUntyped, isTyped } from './option-rules.js';
import { declaredProperties, findingsAt, positionRule, typedPositions } from './positions.js';
import { isObjectLike, subject, unionOf } from './schema-facts.js';
import type { Finding, Profile, Rule, RuleContext, SchemaVisit } from './types.js';

// Client profiles as data: each rule names the limit it enforces and why. A profile only reports;
// the served document stays as prepared, so a nullable field keeps accepting null even where a profile
// complains. To support a new client, add an entry to PROFILES; to add a limit, add a rule.

const each = (
  keywords: readonly string[],
  visit: SchemaVisit,
  finding: (keyword: string) => Finding | undefined,
): Finding[] => keywords.filter((k) => k in visit.node).flatMap((k) => finding(k) ?? []);

// --- Rules shared by more than one profile -------------------------------------------------------

const rootCombinator = (client: string): Rule => ({
  id: 'root-combinator',
  reason: `${client} rejects oneOf/anyOf/allOf at the top level of a tool schema`,
  severity: 'error',
  check: (visit) =>
    visit.parent
      ? undefined
      : each(['oneOf', 'anyOf', 'allOf'], visit, (k) => ({
          message: `${client} rejects a root \`${k}\`; serve one object (flattenUnionInput, or a tagged union)`,
        })),
});

const formatList = (client: string, allowed: readonly string[], advice: string): Rule => ({
  id: 'unsupported-format',
  reason: `${client} accepts only the formats ${allowed.join(', ')}`,
  severity: 'error',
  check: (visit) =>
    typeof visit.node.format === 'string' && !allowed.includes(visit.node.format)
      ? { message: `${subject(visit)} has format "${visit.node.format}", which ${client} rejects; ${advice}` }
      : undefined,
});

const formatAdvice =
  'put the format in the description (e.g. `z.string().describe("URL").pipe(z.url())`) and keep the check in Zod';

/** Object properties that fail `test`, one finding per property, at the property's pointer. */
const perProperty = (visit: SchemaVisit, test: (key: string, schema: unknown) => string | undefined): Finding[] =>
  findingsAt(declaredProperties(visit.node, visit.pointer), ({ key, schema }) => test(key, schema));

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

// --- local-grammar: the subset node-llama-cpp compiles to a grammar -------------------------------------
//
// node-llama-cpp builds a node's grammar from the first of `$ref` (`#/$defs/<name>`), `oneOf`, `const`,
// `enum`, `type: "object"`, `type: "array"`, `type: "string"`, a `type` of scalars; any other node is `null`.
// It writes every key `properties` lists; reads `additionalProperties` left out as none; never reads `anyOf`,
// `allOf` or `patternProperties`; leaves `object` and `array` out of a type list. The rules report what it
// would build a grammar for that refuses values the document admits, on the nodes it reads.

const { repetition, patternLength, depth } = LOCAL_GRAMMAR_LIMITS;
const ENGINE = 'node-llama-cpp';
const GRAMMAR_FIX = "serve `projection: 'local-grammar'` (or 'auto')";

/** How node-llama-cpp reads a node: by the first keyword of its order that the node has. */
type GrammarForm = 'ref' | 'oneOf' | 'literal' | 'object' | 'array' | 'string' | 'types' | 'none';

function grammarForm(node: Record<string, any>): GrammarForm {
  if (typeof node.$ref === 'string') return 'ref';
  if (Array.isArray(node.oneOf)) return 'oneOf';
  if ('const' in node || Array.isArray(node.enum)) return 'literal';
  if (node.type === 'object') return 'object';
  if (node.type === 'array') return 'array';
  if (node.type === 'string') return 'string';
  return declaredTypes(node) ? 'types' : 'none';
}

/** The keywords under which a node of each form reads its sub-schemas (`$defs` entries are read through refs). */
const READS: Partial<Record<GrammarForm, readonly string[]>> = {
  ref: ['$defs'],
  oneOf: ['oneOf', '$defs'],
  object: ['properties', 'additionalProperties', '$defs'],
  array: ['items', 'prefixItems', '$defs'],
};

/** Per visit: whether node-llama-cpp reads the node at all (not below `anyOf`, `allOf`, `not`, ...). */
const readByEngine = new WeakMap<SchemaVisit, boolean>();

function grammarReads(visit: SchemaVisit): boolean {
  const cached = readByEngine.get(visit);
  if (cached !== undefined) return cached;
  const { parent, keyword } = visit;
  const reads =
    !parent || (grammarReads(parent) && (READS[grammarForm(parent.node)] ?? ['$defs']).includes(keyword ?? ''));
  readByEngine.set(visit, reads);
  return reads;
}

/** A rule on the nodes node-llama-cpp reads only. */
const grammarRule = (rule: Rule): Rule => ({
  ...rule,
  check: (visit, ctx) => (grammarReads(visit) ? rule.check(visit, ctx) : undefined),
});

/** Admits no value at all (`not: {}`): the engine's `null` for it refuses nothing the document admits. */
const admitsNothing = (node: Record<string, any>) => isPlainObject(node.not) && Object.keys(node.not).length === 0;

/** The sub-schemas written `true` where node-llama-cpp reads a schema (it reads `true` as null; not a visit of their own). */
function trueSubschemas(visit: SchemaVisit): string[] {
  const { node, pointer: at } = visit;
  const form = grammarForm(node);
  const out: string[] = [];
  const list = (keyword: string) => {
    const members: unknown = node[keyword];
    if (!Array.isArray(members)) return;
    for (let i = 0; i < members.length; i++) if (members[i] === true) out.push(pointer(at, keyword, i));
  };
  if (form === 'object' && isPlainObject(node.properties)) {
    for (const [key, schema] of Object.entries(node.properties))
      if (schema === true) out.push(pointer(at, 'properties', key));
  }
  if (form === 'array') {
    if (node.items === true) out.push(pointer(at, 'items'));
    list('prefixItems');
  }
  if (form === 'oneOf') list('oneOf');
  return out;
}

/**
 * A `$ref` at `path` to the projection's "any JSON value" definition, from outside it: as unguided as no type
 * at all. (The definition's own array items refer to it too.)
 */
function isAnyValueRef(schema: unknown, path: string, ctx: RuleContext): boolean {
  if (!isPlainObject(schema) || typeof schema.$ref !== 'string') return false;
  const target = ctx.refs.resolve(schema.$ref);
  if (!target || path.startsWith(`${target.pointer}/`)) return false;
  return JSON.stringify(target.node) === JSON.stringify(grammarAnyValue(schema.$ref));
}

const localGrammar: Profile = {
  name: 'local-grammar',
  summary:
    'local models that compile JSON Schema to a sampling grammar (node-llama-cpp, llama.cpp): the subset node-llama-cpp reads, and what makes grammars large',
  rules: [
    grammarRule({
      id: 'optional-key',
      reason: `${ENGINE} writes every key an object lists, so a grammar cannot leave an optional key out`,
      severity: 'error',
      check: (visit) => {
        if (grammarForm(visit.node) !== 'object') return undefined;
        const required: unknown[] = Array.isArray(visit.node.required) ? visit.node.required : [];
        return perProperty(visit, (key) =>
          required.includes(key)
            ? undefined
            : `\`${key}\` is not in required (optional or defaulted), and ${ENGINE}'s grammar writes every listed key, so a model cannot leave it out; ${GRAMMAR_FIX}, which lists it nullable and reads null as left out`,
        );
      },
    }),
    grammarRule({
      id: 'untyped',
      reason: `${ENGINE} compiles a schema with no type, const, enum, oneOf or $ref (anyOf and allOf are not read) to null alone`,
      severity: 'error',
      check: (visit) => {
        const { node } = visit;
        const found: Finding[] = trueSubschemas(visit).map((path) => ({
          path,
          message: `this schema is \`true\`, which ${ENGINE} compiles to null alone; ${GRAMMAR_FIX}, which writes any JSON value there`,
        }));
        if (grammarForm(node) === 'none' && !admitsNothing(node)) {
          const unread = ['anyOf', 'allOf'].filter((k) => k in node);
          found.push({
            message:
              unread.length > 0
                ? `${subject(visit)} uses \`${unread.join('`, `')}\`, which ${ENGINE} does not read: its grammar takes null alone here; ${GRAMMAR_FIX}, which writes unions as oneOf`
                : `${subject(visit)} ${describeUntyped(node)}, and ${ENGINE} compiles it to null alone; give it a type, or ${GRAMMAR_FIX}, which writes any JSON value there`,
          });
        }
        return found;
      },
    }),
    grammarRule({
      id: 'type-list',
      reason: `${ENGINE} leaves object and array out of a type list`,
      severity: 'error',
      check: ({ node }) => {
        if (grammarForm(node) !== 'types' || !Array.isArray(node.type)) return undefined;
        const containers = node.type.filter((t: unknown) => t === 'object' || t === 'array');
        return containers.length === 0
          ? undefined
          : {
              message: `type ${shortLiteral(node.type)} lists ${containers.join(' and ')}, which ${ENGINE} leaves out of a type list: its grammar refuses every ${containers.join(' and ')} here; ${GRAMMAR_FIX}, which writes it as oneOf`,
            };
      },
    }),
    grammarRule({
      id: 'prefix-items',
      reason: `${ENGINE} writes every prefix item whatever minItems says, and llama.cpp documents its prefixItems as broken`,
      severity: 'error',
      check: ({ node }) =>
        grammarForm(node) === 'array' && Array.isArray(node.prefixItems)
          ? {
              message: `this tuple's prefixItems: ${ENGINE} writes every prefix item (minItems ${typeof node.minItems === 'number' ? node.minItems : 0} here), and llama.cpp's converter mishandles them; ${GRAMMAR_FIX}, which writes the tuple's positions as items`,
            }
          : undefined,
    }),
    grammarRule({
      id: 'unsupported-format',
      reason: `${ENGINE} writes a format other than ${LOCAL_GRAMMAR_FORMATS.join(', ')} as the empty string alone, or more strictly than JSON Schema means it (date-time, time)`,
      severity: 'error',
      check: (visit) =>
        grammarForm(visit.node) === 'string' &&
        typeof visit.node.format === 'string' &&
        !LOCAL_GRAMMAR_FORMATS.includes(visit.node.format)
          ? {
              message: `${subject(visit)} has format "${visit.node.format}", which ${ENGINE}'s grammar ${['date-time', 'time'].includes(visit.node.format) ? 'writes only with seconds, three fraction digits and an offset' : 'writes as "" alone'}; ${GRAMMAR_FIX}, which leaves it to the Zod check`,
            }
          : undefined,
    }),
    grammarRule({
      id: 'union',
      reason: `${ENGINE} compiles a oneOf alone, without the keywords beside it, and checks the result by those keywords`,
      severity: 'error',
      check: (visit) => {
        if (grammarForm(visit.node) !== 'oneOf') return undefined;
        const beside = Object.keys(visit.node).filter(
          (k) => k !== 'oneOf' && !ANNOTATION_KEYWORDS.has(k) && !META_KEYWORDS.has(k),
        );
        return beside.length === 0
          ? undefined
          : {
              message: `${subject(visit)} has \`oneOf\` beside \`${beside.join('`, `')}\`: ${ENGINE}'s grammar writes a member alone and its check reads the rest; ${GRAMMAR_FIX}`,
            };
      },
    }),
    grammarRule({
      id: 'record-keyword',
      reason: `${ENGINE} does not read patternProperties, and refuses every key additionalProperties does not take`,
      severity: 'error',
      check: (visit) =>
        grammarForm(visit.node) === 'object' &&
        isPlainObject(visit.node.patternProperties) &&
        visit.node.additionalProperties !== true
          ? {
              message: `${subject(visit)} has \`patternProperties\`, which ${ENGINE} does not read: its grammar takes no key the patterns match unless additionalProperties does; ${GRAMMAR_FIX}`,
            }
          : undefined,
    }),
    grammarRule({
      id: 'object-literal',
      reason: `${ENGINE} cannot build a grammar for a const or enum value that is an object or array`,
      severity: 'error',
      check: (visit) => {
        if (grammarForm(visit.node) !== 'literal') return undefined;
        const values: unknown[] = 'const' in visit.node ? [visit.node.const] : visit.node.enum;
        const bad = values.filter((v) => typeof v === 'object' && v !== null);
        return bad.length === 0
          ? undefined
          : {
              message: `${subject(visit)} lists ${shortLiteral(bad[0])} as a ${'const' in visit.node ? 'const' : 'enum value'}, and ${ENGINE} cannot build a grammar for an object or array literal; describe it with a typed schema and check the value in Zod`,
            };
      },
    }),
    grammarRule({
      id: 'unresolved-ref',
      reason: `${ENGINE} resolves only #/$defs/<name> references, and writes any JSON value for others`,
      severity: 'warning',
      check: ({ node }) =>
        typeof node.$ref === 'string' && !/^#\/\$defs\/[^/]+$/.test(node.$ref)
          ? {
              message: `\`$ref\` ${shortLiteral(node.$ref)} is not a #/$defs/<name> reference, so ${ENGINE} writes any JSON value there; ${GRAMMAR_FIX}, which names a recursive root in $defs`,
            }
          : undefined,
    }),
    {
      id: 'large-bound',
      reason: `length and item bounds of ${repetition} or more unroll into very large grammars`,
      severity: 'warning',
      check: (visit) =>
        each(['maxLength', 'minLength', 'maxItems', 'minItems'], visit, (k) =>
          typeof visit.node[k] === 'number' && visit.node[k] >= repetition
            ? {
                message: `${subject(visit)} has ${k} ${visit.node[k]}, which a grammar unrolls ${visit.node[k]} times; keep the check in Zod with a smaller or no advertised bound`,
              }
            : undefined,
        ),
    },
    {
      id: 'long-pattern',
      reason: `patterns longer than ${patternLength} characters are slow or unsupported in grammar converters`,
      severity: 'warning',
      check: (visit) =>
        typeof visit.node.pattern === 'string' && visit.node.pattern.length > patternLength
          ? {
              message: `${subject(visit)} has a ${visit.node.pattern.length}-character pattern; grammar converters handle few of them, consider a description and a Zod check`,
            }
          : undefined,
    },
    positionRule({
      id: 'untyped-item',
      reason: 'an array item without a type compiles to a grammar for any JSON value, large and unguided',
      severity: 'warning',
      positions: ({ node, pointer: at }) => typedPositions(node, at).filter((p) => p.kind === 'item'),
      message: ({ schema, name, path }, ctx) =>
        isTyped(schema) && !isAnyValueRef(schema, path, ctx)
          ? undefined
          : `${name} ${isTyped(schema) ? 'takes any JSON value' : describeUntyped(schema)}; the grammar must allow any JSON value there, give it a type`,
    }),
    {
      id: 'deep-nesting',
      reason: `values nested more than ${depth} levels deep make large grammars`,
      severity: 'warning',
      // Reported once, where a branch first crosses the limit.
      check: (visit) =>
        visit.depth > depth && (visit.parent?.depth ?? 0) <= depth
          ? {
              message: `${subject(visit)} is nested ${visit.depth} levels deep (limit ${depth}); flatten the structure`,
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
