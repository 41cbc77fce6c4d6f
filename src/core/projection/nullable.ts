import { ANNOTATION_KEYWORDS, mapPositiveSubschemasShared } from '../json-schema/keywords.js';
import { isPlainObject, type JsonSchema } from '../json-schema/types.js';

/**
 * Serves Zod's nullable wrapper `anyOf: [S, { type: "null" }]` as S with `"null"` added to its `type`
 * (and to its `enum`, or its `const` as an `enum`), at every positive position. It accepts exactly the
 * same values (S's other keywords constrain only S's own type), and it puts S's sub-schemas where clients
 * and the probe look for them: a nullable array's `items` sit at `/…/items`, not `/…/anyOf/0/items`,
 * and no `{type: "null"}` branch is left for Gemini to refuse. Zod already serves nullable scalars this
 * way; this makes every nullable alike.
 * Wrappers whose S has no single `type`, or carries a combinator or `$ref`, are left as they are.
 * Pure; the result shares the sub-trees it did not change with `node` (the mount copies what it serves).
 */
export function collapseNullable(node: unknown): unknown {
  if (!isPlainObject(node)) return node;
  const walked = mapPositiveSubschemasShared(node, collapseNullable);
  return collapseOne(walked) ?? walked;
}

function collapseOne(node: JsonSchema): JsonSchema | undefined {
  const keyword = Array.isArray(node.anyOf) ? 'anyOf' : Array.isArray(node.oneOf) ? 'oneOf' : undefined;
  if (!keyword || node[keyword].length !== 2) return undefined;
  // Only annotations may stand beside the wrapper; anything else would also constrain the null branch.
  if (Object.keys(node).some((k) => k !== keyword && !ANNOTATION_KEYWORDS.has(k))) return undefined;
  const members = node[keyword] as unknown[];
  const nullAt = members.findIndex((m) => isPlainObject(m) && m.type === 'null' && Object.keys(m).length === 1);
  const inner = members[1 - nullAt];
  if (nullAt < 0 || !isPlainObject(inner) || typeof inner.type !== 'string' || inner.type === 'null') return undefined;
  if (['anyOf', 'oneOf', 'allOf', 'not', 'if', '$ref', '$dynamicRef'].some((k) => k in inner)) return undefined;

  const { [keyword]: _members, ...annotations } = node;
  const out: JsonSchema = { ...inner, type: [inner.type, 'null'] };
  if (Array.isArray(inner.enum) && !inner.enum.includes(null)) out.enum = [...inner.enum, null];
  if ('const' in inner) {
    delete out.const;
    out.enum = [inner.const, null];
  }
  return { ...out, ...annotations };
}
