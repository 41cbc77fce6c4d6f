// The places below a node where a value sits that a model writes (a property, an array or tuple item, a
// record's values), and the one walker the rules about them share: a finding per position, at its pointer.

import { pointer } from '../json-schema/pointer.js';
import { isPlainObject, type JsonSchema } from '../json-schema/types.js';
import type { Finding, Rule, RuleContext, SchemaVisit } from './types.js';

/** A position below a node where a value the model writes sits, and how to name it. */
export interface ValuePosition {
  path: string;
  schema: unknown;
  kind: 'property' | 'item' | 'record';
  /** `` `key` ``, `each array item`, `tuple item 0`, `each record value`. */
  name: string;
  /** The property's key, for a property. */
  key?: string;
}

/** A property's position: its key is known. */
export type PropertyPosition = ValuePosition & { kind: 'property'; key: string };

/** Where a node sits: its pointer, read only for a position a rule reports (a `SchemaVisit` is one). */
export interface Located {
  readonly pointer: string;
}

/** Each property `node` declares, in `properties` order. */
export function declaredProperties(node: JsonSchema, at: Located): PropertyPosition[] {
  const { properties } = node;
  if (!isPlainObject(properties)) return [];
  const keys = Object.keys(properties);
  const out: PropertyPosition[] = [];
  for (let i = 0; i < keys.length; i++) out.push(new PropertyAt(at, keys[i]!, properties[keys[i]!]));
  return out;
}

/** Each key `node` requires that it also declares, in `required` order (a key listed twice counts twice). */
export function requiredProperties(node: JsonSchema, at: Located): PropertyPosition[] {
  const { properties, required } = node;
  if (!isPlainObject(properties) || !Array.isArray(required)) return [];
  const out: PropertyPosition[] = [];
  for (let i = 0; i < required.length; i++) {
    const key: unknown = required[i];
    if (typeof key === 'string' && Object.hasOwn(properties, key)) out.push(new PropertyAt(at, key, properties[key]));
  }
  return out;
}

/**
 * A property's position, its pointer and name spelled when first read: the probe looks at every property of
 * every document at startup, and reports few of them.
 */
class PropertyAt implements PropertyPosition {
  readonly kind = 'property';
  #path: string | undefined;
  constructor(
    private readonly at: Located,
    readonly key: string,
    readonly schema: unknown,
  ) {}
  get path(): string {
    this.#path ??= pointer(this.at.pointer, 'properties', this.key);
    return this.#path;
  }
  get name(): string {
    return `\`${this.key}\``;
  }
}

/**
 * The positions of `node` a model fills in: each property, the array items (and each tuple item), and the
 * values of a record (`additionalProperties` or `patternProperties` on an object with no declared
 * properties, or with `propertyNames`). A loose object's `additionalProperties: {}` beside declared
 * properties only lets extra keys through, and is not one.
 */
export function typedPositions(node: JsonSchema, visit: Located): ValuePosition[] {
  const out: ValuePosition[] = declaredProperties(node, visit);
  // Few nodes have other positions than properties: only theirs spell the node's pointer here.
  if ('items' in node && node.items !== false && !Array.isArray(node.items))
    out.push({ path: pointer(visit.pointer, 'items'), schema: node.items, kind: 'item', name: 'each array item' });
  if (Array.isArray(node.prefixItems)) {
    for (const [i, schema] of (node.prefixItems as unknown[]).entries())
      out.push({ path: pointer(visit.pointer, 'prefixItems', i), schema, kind: 'item', name: `tuple item ${i}` });
  }
  const record =
    !isPlainObject(node.properties) || Object.keys(node.properties).length === 0 || 'propertyNames' in node;
  if (record && 'additionalProperties' in node && node.additionalProperties !== false)
    out.push({
      path: pointer(visit.pointer, 'additionalProperties'),
      schema: node.additionalProperties,
      kind: 'record',
      name: 'each record value',
    });
  if (record && isPlainObject(node.patternProperties)) {
    for (const [pattern, schema] of Object.entries(node.patternProperties))
      out.push({
        path: pointer(visit.pointer, 'patternProperties', pattern),
        schema,
        kind: 'record',
        name: `each value of a key matching /${pattern}/`,
      });
  }
  return out;
}

/** The walker: one finding per position `message` has something to say about, at that position's pointer. */
export function findingsAt<P extends ValuePosition>(
  positions: readonly P[],
  message: (position: P) => string | undefined,
): Finding[] {
  const found: Finding[] = [];
  for (let i = 0; i < positions.length; i++) {
    const text = message(positions[i]!);
    if (text !== undefined) found.push({ path: positions[i]!.path, message: text });
  }
  return found;
}

/** What a rule over positions is: its data, which positions of a node it reads, and what it says of one. */
export interface PositionRule extends Omit<Rule, 'sides' | 'check'> {
  positions(visit: SchemaVisit, ctx: RuleContext): ValuePosition[];
  message(position: ValuePosition, ctx: RuleContext): string | undefined;
}

/**
 * A rule that walks positions (`findingsAt`). Input side only: these are the values a model writes, while on
 * the output side the server does.
 */
export function positionRule({ positions, message, ...data }: PositionRule): Rule {
  return {
    ...data,
    sides: ['input'],
    check: (visit, ctx) => findingsAt(positions(visit, ctx), (position) => message(position, ctx)),
  };
}
