/**
 * Reading JSON Schema documents in tests, shared by the case suites (test/cases, through cases.ts) and the
 * unit suites (test/unit/projection, test/unit/probe): Zod's own conversion, one Ajv 2020 instance as clients
 * use it, and structural lookups (node at a pointer, pointers of a keyword, union keywords, type sets).
 */
// Named import: under NodeNext the CJS default import types as the module namespace, not the class.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { z } from 'zod';

/** A served document or node, read structurally in assertions. */
export type Doc = any;

/** A whole JSON Schema document (the shape of the package's own `JsonSchema`). */
export type JsonDoc = { [key: string]: any };

/** What Zod serves before any projection: the input side, draft 2020-12 (before ref inlining and flattening). */
export function toJson(schema: z.ZodType): JsonDoc {
  return z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input' }) as JsonDoc;
}

/** Ajv 2020 as clients use it; formats are not checked (ajv-formats is not installed). */
export const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });

/** The node at a JSON Pointer, or undefined. */
export function at(doc: unknown, ptr: string): Doc {
  if (ptr === '') return doc;
  let node: Doc = doc;
  for (const raw of ptr.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !(token in node)) return undefined;
    node = node[token];
  }
  return node;
}

export function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

const esc = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** Pointers of every schema node (not data) that carries `keyword`. */
export function pointersWith(doc: unknown, keyword: string): string[] {
  const out: string[] = [];
  const data = new Set(['const', 'enum', 'default', 'examples', 'required']);
  const maps = new Set(['properties', '$defs', 'definitions', 'patternProperties', 'dependentSchemas']);
  const visit = (node: unknown, ptr: string) => {
    if (Array.isArray(node)) {
      for (const [i, child] of node.entries()) visit(child, `${ptr}/${i}`);
    }
    if (!isObject(node)) return;
    if (keyword in node) out.push(ptr);
    for (const [k, v] of Object.entries(node)) {
      if (data.has(k)) continue;
      if (maps.has(k) && isObject(v)) {
        for (const [name, child] of Object.entries(v)) visit(child, `${ptr}/${k}/${esc(name)}`);
      } else visit(v, `${ptr}/${esc(k)}`);
    }
  };
  visit(doc, '');
  return out;
}

/** Union keywords (`oneOf`, `anyOf`) left anywhere in a document. */
export function unionsIn(doc: unknown): string[] {
  return [...pointersWith(doc, 'oneOf'), ...pointersWith(doc, 'anyOf')];
}

/** The `type` keyword as a sorted list, for set comparisons. */
export function typeSet(node: Doc): string[] {
  const t = node?.type;
  return (Array.isArray(t) ? [...t] : t === undefined ? [] : [t]).sort();
}
