import { grammarAnyValue, LOCAL_GRAMMAR_FORMATS, LOCAL_GRAMMAR_LIMITS } from '../json-schema/client-limits.js';
import { ANNOTATION_KEYWORDS, declaredTypes, META_KEYWORDS } from '../json-schema/keywords.js';
import { pointer } from '../json-schema/pointer.js';
import { isPlainObject } from '../json-schema/types.js';
import { shortLiteral } from '../messages/describe.js';
import { describeUntyped, isTyped } from './option-rules.js';
import { positionRule, typedPositions } from './positions.js';
import { each, perProperty } from './profile-rules.js';
import { subject } from './schema-facts.js';
import type { Finding, Profile, Rule, RuleContext, SchemaVisit } from './types.js';

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
  const { node } = visit;
  const form = grammarForm(node);
  const out: string[] = [];
  const list = (keyword: string) => {
    const members: unknown = node[keyword];
    if (!Array.isArray(members)) return;
    for (let i = 0; i < members.length; i++) if (members[i] === true) out.push(pointer(visit.pointer, keyword, i));
  };
  if (form === 'object' && isPlainObject(node.properties)) {
    for (const [key, schema] of Object.entries(node.properties))
      if (schema === true) out.push(pointer(visit.pointer, 'properties', key));
  }
  if (form === 'array') {
    if (node.items === true) out.push(pointer(visit.pointer, 'items'));
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

export const localGrammar: Profile = {
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
      positions: (visit) => typedPositions(visit.node, visit).filter((p) => p.kind === 'item'),
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
