import { isAssertionOnly } from '../json-schema/assertions.js';
import { analyzeUnion } from '../json-schema/discriminator.js';
import { declaredTypes } from '../json-schema/keywords.js';
import { pointer } from '../json-schema/pointer.js';
import { isPlainObject, type JsonSchema } from '../json-schema/types.js';
import { unionOf } from './schema-facts.js';
import type { CheckContext, Rule } from './types.js';

// A root `$ref` brings in another schema's keys and rules, which a client reading one object never sees.
const COMBINATORS = ['oneOf', 'anyOf', 'allOf', 'not', '$ref', '$dynamicRef'] as const;

/**
 * Why the root cannot be served as a tool schema, or `undefined` when it can. MCP requires
 * `type:"object"` at the root of `inputSchema` and `outputSchema`, and clients (Anthropic, OpenAI) reject a root
 * combinator even beside `type:"object"`. The message says what to change for the shape at hand.
 */
export function rootProblem(doc: unknown, ctx: CheckContext): string | undefined {
  if (!isPlainObject(doc)) return `the root is ${JSON.stringify(doc) ?? String(doc)}, not a schema object`;
  const combinator = COMBINATORS.find((k) => k in doc && !rootAssertion(doc, k));
  const types = declaredTypes(doc);
  if (types?.length === 1 && types[0] === 'object' && !combinator) return undefined;

  const wrap = 'wrap it in an object, e.g. `z.object({ value: ... })`';
  if (combinator === 'oneOf' || combinator === 'anyOf') return unionRootMessage(doc, combinator, ctx);
  if (combinator === 'allOf')
    return 'the root is an intersection (allOf) that was not merged into one object; build one object instead, e.g. `a.extend(b.shape)`';
  if (combinator === 'not') return `the root has \`not\`; MCP clients need a plain object root, so ${wrap}`;
  if (combinator === '$ref' || combinator === '$dynamicRef')
    return `the root has \`${combinator}\` beside its own keywords; MCP clients read one plain object at the root: declare the keys in the root object itself`;
  if (types?.includes('array'))
    return `the root is an array; MCP ${ctx.side === 'output' ? 'structured content' : 'tool arguments'} must be an object, so wrap it: \`z.object({ items: z.array(...) })\``;
  if (types) return `the root has type ${types.join('|')}, not "object"; ${wrap}`;
  return `the root has no \`type:"object"\`; ${wrap}`;
}

/** Why the flattener left the union at `pointer`, when it says. */
export function unflattenedReason(ctx: CheckContext, pointer: string): string | undefined {
  const left = typeof ctx.unflattened === 'function' ? ctx.unflattened() : ctx.unflattened;
  return left?.find((u) => u.pointer === pointer)?.reason;
}

function unionRootMessage(doc: JsonSchema, keyword: 'oneOf' | 'anyOf', ctx: CheckContext): string {
  const head = `the root is a union (${keyword}); MCP clients need one object at the root`;
  const branches = unionOf(doc)?.branches ?? [];
  if (ctx.side === 'output') return `${head}; wrap it, e.g. \`z.object({ result: <the union> })\``;
  // The flattener's own analysis, so this message and its `unflattened` reasons never disagree.
  const verdict = analyzeUnion(branches);
  const objects = branches.every((b) => isPlainObject(b) && declaredTypes(b)?.every((t) => t === 'object'));
  const tagAdvice = "give every variant a required literal tag of its own, e.g. `kind: z.literal('...')`";
  const wrapAdvice = 'wrap it in an object, e.g. `z.object({ value: <the union> })`';
  if (!ctx.flattenRequested) {
    if (verdict.ok)
      return `${head}; its variants share the tag \`${verdict.tag}\`, so \`flattenUnionInput: true\` (\`projection: 'flat'\` or 'auto') serves it as one object`;
    if (verdict.untagged)
      return `${head}; its variants are objects, so \`flattenUnionInput: true\` (\`projection: 'flat'\` or 'auto') serves it as one object: every key optional, the union still checks each call (${tagAdvice} to have each key marked for its variant)`;
    const advice = objects ? `${tagAdvice}, and set \`flattenUnionInput: true\`` : wrapAdvice;
    return `${head}; \`flattenUnionInput\` cannot help as it is (${verdict.reason}): ${advice}`;
  }
  const reason = unflattenedReason(ctx, '') ?? (verdict.ok ? undefined : verdict.reason);
  return `${head}, and flattenUnionInput did not flatten it${reason ? `: ${reason}` : ''}; ${objects ? tagAdvice : wrapAdvice}`;
}

/**
 * A root combinator or conditional beside `type: "object"` that only asserts about the declared keys
 * (`isAssertionOnly`): the object is still one object with every field at the root. Client profiles that
 * refuse any root combinator (Anthropic, OpenAI) still report it.
 */
function rootAssertion(doc: JsonSchema, keyword: string): boolean {
  if (declaredTypes(doc)?.join() !== 'object') return false;
  const declared = new Set(isPlainObject(doc.properties) ? Object.keys(doc.properties) : []);
  const value = doc[keyword];
  return Array.isArray(value) ? value.every((m) => isAssertionOnly(m, declared)) : isAssertionOnly(value, declared);
}

/** The root must be a served object (see `rootProblem`). */
export const rootNotObject: Rule = {
  id: 'root-not-object',
  reason: 'MCP requires type:"object" at the schema root; Anthropic and OpenAI reject root combinators',
  severity: 'error',
  rootOnly: true,
  check: (visit, ctx) => {
    if (visit.parent) return undefined;
    const problem = rootProblem(visit.node, ctx);
    return problem ? { message: problem } : undefined;
  },
};

/**
 * The served root keeps the Zod keys. Empty or missing `properties` for a non-empty shape means
 * the preparation lost them, and the model would call the tool with nothing.
 */
export const rootKeysServed: Rule = {
  id: 'zod-keys-missing',
  reason: 'a served root without the Zod keys lets the model call the tool with no arguments',
  severity: 'error',
  rootOnly: true,
  check: ({ node, parent }, ctx) => {
    const keys = ctx.zodShapeKeys ?? [];
    if (parent || keys.length === 0 || rootProblem(node, ctx)) return undefined;
    const served = isPlainObject(node.properties) ? node.properties : {};
    const path = isPlainObject(node.properties) ? pointer('', 'properties') : '';
    if (Object.keys(served).length === 0)
      return {
        path,
        message: `the root has no properties, but the Zod shape has ${keys.map((k) => `\`${k}\``).join(', ')}`,
      };
    const missing = keys.filter((k) => !Object.hasOwn(served, k));
    if (missing.length === 0) return undefined;
    return { path, message: `the root is missing ${missing.map((k) => `\`${k}\``).join(', ')} from the Zod shape` };
  },
};
