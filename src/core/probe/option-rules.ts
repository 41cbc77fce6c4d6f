import { PORTABLE_FORMATS } from '../json-schema/client-limits.js';
import { ANNOTATION_KEYWORDS } from '../json-schema/keywords.js';
import { isPlainObject } from '../json-schema/types.js';
import { shortLiteral } from '../messages/describe.js';
import { positionRule, typedPositions } from './positions.js';
import { unionOf } from './schema-facts.js';
import type { CheckOptions, Rule } from './types.js';

/**
 * A schema gives the model a type when it has `type`, `enum` or `const`, or when every union branch
 * (or some `allOf` branch) does. A `$ref` counts as typed: its target is checked where it stands.
 */
export function isTyped(schema: unknown): boolean {
  if (!isPlainObject(schema)) return false;
  if ('type' in schema || 'enum' in schema || 'const' in schema || '$ref' in schema) return true;
  const union = unionOf(schema);
  if (union && union.branches.length > 0 && union.branches.every(isTyped)) return true;
  return Array.isArray(schema.allOf) && schema.allOf.some(isTyped);
}

/** How to say what an untyped property is, quoting a lone description. */
export function describeUntyped(schema: unknown): string {
  if (!isPlainObject(schema)) return `is ${shortLiteral(schema)} and has no type`;
  const onlyAnnotations = Object.keys(schema).every((k) => ANNOTATION_KEYWORDS.has(k));
  if (onlyAnnotations && typeof schema.description === 'string')
    return `has only a description (${shortLiteral(schema.description)}) and no type`;
  return 'has no type, enum or const';
}

/** `allowUntyped` entries are `<tool>:<pointer>`, e.g. `search:/properties/payload`. */
function untypedKey(tool: string, path: string): string {
  return `${tool}:${path}`;
}

const requireTypedProperties = positionRule({
  id: 'untyped-property',
  reason: 'clients stringify arguments whose schema has no type; repair cannot undo that where a string is valid',
  severity: 'error',
  positions: (visit) => typedPositions(visit.node, visit),
  // The position's path is read only for an untyped one: it is spelled when first read.
  message: (position, ctx) =>
    isTyped(position.schema) || (ctx.options.allowUntyped ?? []).includes(untypedKey(ctx.tool, position.path))
      ? undefined
      : `${position.name} ${describeUntyped(position.schema)}; give it a typed schema (z.string(), z.number(), z.object({...}), z.record(...)) so clients send a real value, or allow it with allowUntyped: ['${untypedKey(ctx.tool, position.path)}']`,
});

const requirePortableFormats: Rule = {
  id: 'non-portable-format',
  reason: 'formats outside JSON Schema are ignored by some validators and refused by strict ones',
  severity: 'error',
  check: ({ node }, ctx) => {
    if (typeof node.format !== 'string') return undefined;
    const allowed = new Set([...PORTABLE_FORMATS, ...(ctx.options.allowFormats ?? [])]);
    if (allowed.has(node.format)) return undefined;
    return {
      message: `format "${node.format}" is not portable (portable: ${PORTABLE_FORMATS.join(', ')}); if your clients accept it, add it to allowFormats, otherwise describe it in the description and keep the check in Zod`,
    };
  },
};

/** The rules the options switch on. */
export function optionRules(options: CheckOptions): Rule[] {
  return [
    ...(options.requireTypedProperties ? [requireTypedProperties] : []),
    ...(options.requirePortableFormats ? [requirePortableFormats] : []),
  ];
}
