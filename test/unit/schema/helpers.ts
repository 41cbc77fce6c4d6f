// Named import: under NodeNext the CJS default import types as the module namespace, not the class.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { z } from 'zod';
import { isPlainObject, type JsonSchema, pointer } from '../../../src/core/json-schema.js';
import { flattenWithReport, inlineRefs } from '../../../src/core/schema/index.js';

/** What Zod serves before any projection: the input side, draft 2020-12. */
export function toJson(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input' }) as JsonSchema;
}

/** The served document as the mount computes it: inline refs, then flatten. */
export function project(schema: z.ZodType) {
  return flattenWithReport(inlineRefs(toJson(schema)).schema);
}

/** Ajv 2020 as clients use it; formats are not checked (ajv-formats is not installed). */
export const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });

export function accepts(schema: JsonSchema, value: unknown): boolean {
  return ajv.validate(schema, value) === true;
}

/** The node at a JSON Pointer, or undefined. */
export function at(doc: unknown, ptr: string): any {
  if (ptr === '') return doc;
  let node: any = doc;
  for (const raw of ptr.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !(token in node)) return undefined;
    node = node[token];
  }
  return node;
}

/** Pointers of every schema node (not data) that carries `keyword`. */
export function pointersWith(doc: unknown, keyword: string): string[] {
  const out: string[] = [];
  const data = new Set(['const', 'enum', 'default', 'examples', 'required']);
  const maps = new Set(['properties', '$defs', 'definitions', 'patternProperties', 'dependentSchemas']);
  const visit = (node: unknown, ptr: string) => {
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) visit(node[i], pointer(ptr, i));
    }
    if (!isPlainObject(node)) return;
    if (keyword in node) out.push(ptr);
    for (const [k, v] of Object.entries(node)) {
      if (data.has(k)) continue;
      if (maps.has(k) && isPlainObject(v)) {
        for (const [name, child] of Object.entries(v)) visit(child, pointer(ptr, k, name));
      } else visit(v, pointer(ptr, k));
    }
  };
  visit(doc, '');
  return out;
}

/** Union keywords left anywhere in a document. */
export function unionsIn(doc: unknown): string[] {
  return [...pointersWith(doc, 'oneOf'), ...pointersWith(doc, 'anyOf')];
}

/** The `type` keyword as a sorted list, for set comparisons. */
export function typeSet(node: any): string[] {
  const t = node?.type;
  return (Array.isArray(t) ? [...t] : t === undefined ? [] : [t]).sort();
}

/**
 * Asserts the superset invariant for concrete values: every value the original Zod schema accepts must
 * pass the served document. Returns the values that Zod accepted (so a test can check it tried some).
 */
export function zodAcceptedValuesPass(schema: z.ZodType, served: JsonSchema, values: unknown[]): unknown[] {
  const accepted = values.filter((v) => schema.safeParse(v).success);
  const validate = ajv.compile(served);
  for (const v of accepted) {
    if (!validate(v)) {
      throw new Error(
        `Zod accepts ${JSON.stringify(v)} but the served schema rejects it: ${JSON.stringify(validate.errors)}\n${JSON.stringify(served)}`,
      );
    }
  }
  return accepted;
}

/** `z.discriminatedUnion('kind', [{kind:'a', f: A}, {kind:'b', f: B}])`, as flatten.md writes "f: A in a, f: B in b". */
export function twoVariants(a: z.ZodType, b: z.ZodType, key = 'f') {
  return z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('a'), [key]: a }),
    z.object({ kind: z.literal('b'), [key]: b }),
  ]);
}

/** The shared union of flatten.md. */
export const DU = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('a'), x: z.string() }),
  z.object({ kind: z.literal('b'), y: z.number() }),
]);
