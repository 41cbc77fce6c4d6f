import { stableStringify } from '../json-schema/compare.js';
import { declaredTypes, type JsonType, typeOfValue } from '../json-schema/keywords.js';
import { isPlainObject, type JsonSchema } from '../json-schema/types.js';
import { shortLiteral } from '../messages/describe.js';
import { kindsOfType } from './schema-facts.js';

/**
 * Why no value can pass `node`, judged from the constraints that must all hold at once: its own `type`,
 * `const` and `enum`, and those of every `allOf` branch (nested `allOf` included). `undefined` when a value
 * may pass. Only these keywords are compared; that is enough for what Zod emits for contradictory
 * intersections (`allOf:[{type:"string"},{type:"number"}]`) and never claims a satisfiable schema is empty.
 */
export function unsatisfiableReason(node: JsonSchema): string | undefined {
  // The common case, a `const` beside its one `type` (a union's tag) and nothing to intersect: satisfiable
  // when the value is of that type, which is what the general reading below finds for it.
  if (typeof node.type === 'string' && 'const' in node && !('enum' in node) && !Array.isArray(node.allOf)) {
    const kind = typeOfValue(node.const);
    if (kind === node.type || (node.type === 'number' && kind === 'integer')) return undefined;
  }
  const conjuncts: unknown[] = [];
  const collect = (schema: unknown, seen: Set<unknown>) => {
    if (seen.has(schema)) return;
    seen.add(schema);
    conjuncts.push(schema);
    if (isPlainObject(schema) && Array.isArray(schema.allOf)) for (const b of schema.allOf) collect(b, seen);
  };
  // Most nodes asked about are a `const` beside its `type` (a union's tag), with no `allOf` to follow.
  if (Array.isArray(node.allOf)) collect(node, new Set());
  else conjuncts.push(node);
  if (conjuncts.includes(false)) return 'one of its allOf branches is `false`';

  let kinds: Set<JsonType> | undefined;
  const typeNames: string[] = [];
  let values: unknown[] | undefined;
  for (const part of conjuncts) {
    if (!isPlainObject(part)) continue;
    const types = declaredTypes(part);
    if (types) {
      typeNames.push(types.join('|'));
      const next = new Set(types.flatMap(kindsOfType));
      kinds = kinds ? new Set([...kinds].filter((k) => next.has(k))) : next;
    }
    const allowed = 'const' in part ? [part.const] : Array.isArray(part.enum) ? part.enum : undefined;
    if (allowed && values === undefined) values = allowed;
    else if (allowed) {
      const keys = new Set(allowed.map(stableStringify));
      values = values!.filter((v) => keys.has(stableStringify(v)));
    }
  }
  if (kinds && kinds.size === 0) return `it must be ${typeNames.join(' and ')} at once`;
  if (values && values.length === 0) return 'its const/enum values have nothing in common';
  if (values && kinds) {
    const k = kinds;
    if (!values.some((v) => k.has(typeOfValue(v))))
      return `none of its allowed values (${shortLiteral(values)}) is of type ${typeNames.join(' and ')}`;
  }
  return undefined;
}
