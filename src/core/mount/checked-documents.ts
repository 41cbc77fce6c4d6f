/**
 * What a tool serves, checked: each projection's input document and the output document, run through the
 * probe's checks and deep-frozen (the documents `tools/list` serves are these objects).
 */
import type * as z from 'zod';
import type { JsonSchema } from '../json-schema/types.js';
import { checkDocument } from '../probe/index.js';
import type { SchemaIssue, SchemaIssueCode } from '../probe/issue.js';
import { boundedUnroll } from '../projection/flat-served.js';
import { inlineRefs } from '../projection/index.js';
import { isProfileProjection, type ProjectionName } from '../projection/names.js';
import { toJsonSchema } from '../zod/convert.js';
import type { MountConfig } from './config.js';
import { conversionNoteIssues } from './conversion-notes.js';
import {
  type ConvertedSides,
  isPlainObjectRoot,
  type ProjectedDocument,
  projectDocuments,
  stripDialect,
} from './documents.js';
import { familyDocument } from './family-fallback.js';

/** What a tool serves as its input, per projection, and whether any projection can serve it. */
export type ServedInput = {
  inputSchema: JsonSchema;
  inputSchemas: Readonly<Partial<Record<ProjectionName, JsonSchema>>>;
  requiredKeys: readonly string[];
  servable: boolean;
  issues: SchemaIssue[];
};

/** A tool whose slices did not all convert: no document, and nothing to check. */
export function notServed(): ServedInput {
  return { inputSchema: {}, inputSchemas: {}, requiredKeys: [], servable: false, issues: [] };
}

/** Every served projection's input document, checked, frozen; a key two slices declare is a conflict. */
export function serveInput(tool: string, sides: ConvertedSides, config: MountConfig): ServedInput {
  const projectionPolicy = config.projection;
  const { served: projections } = projectionPolicy;
  const documents = projectDocuments(sides, projections);
  const issues = documents.conflicts.map((c) =>
    schemaIssue(
      tool,
      `/properties/${c.key}`,
      'key-conflict',
      `tool "${tool}": key "${c.key}" is declared by both ${c.slices.join(' and ')}; the arguments are split by key, so each key may belong to one of params, input and extend only`,
    ),
  );
  const notes = sides.flatMap(({ side }) => (side.converted.ok ? side.converted.notes : []));
  issues.push(...conversionNoteIssues(tool, notes, 'input'));
  const zodShapeKeys = [...new Set(sides.flatMap(({ side }) => side.shapeKeys))];
  const served: Partial<Record<ProjectionName, JsonSchema>> = {};
  const checkedDocs = documents.documents.map((doc) => ({
    ...doc,
    issues: documentIssues(tool, doc, zodShapeKeys, config),
  }));
  const fallback = checkedDocs.find((d) => d.projection === projectionPolicy.default && d.servable);
  for (const checked of checkedDocs) {
    const { issues: _own, ...doc } = checked;
    const family = familyDocument(
      tool,
      checked,
      fallback,
      (schema) => documentIssues(tool, { ...doc, schema: schema as JsonSchema, narrowed: [] }, zodShapeKeys, config),
      config,
    );
    issues.push(...family.issues);
    if (family.schema !== undefined) served[doc.projection] = deepFreeze(family.schema as JsonSchema);
  }
  const first = projections.find((p) => served[p] !== undefined);
  const inputSchema = first === undefined ? {} : served[first]!;
  // The top-level keys every call must carry, from a document that states the tool's own (a strict-mode
  // profile lists every key as required).
  const base = served.faithful ?? served.flat ?? inputSchema;
  const requiredKeys = Array.isArray(base.required) ? (base.required as string[]) : [];
  return { inputSchema, inputSchemas: Object.freeze(served), requiredKeys, servable: first !== undefined, issues };
}

/** The probe's checks on one projection's document, and what its profile narrowed. */
function documentIssues(
  tool: string,
  doc: ProjectedDocument,
  zodShapeKeys: string[],
  config: MountConfig,
): SchemaIssue[] {
  const { validation, projection } = config;
  // Named only when the mount serves several: one document needs no name.
  const tag = projection.served.length > 1 ? { projection: doc.projection } : {};
  const profiles = isProfileProjection(doc.projection)
    ? [...new Set([...(validation.profiles ?? []), doc.projection])]
    : validation.profiles;
  const checked = checkDocument(doc.schema, {
    tool,
    side: 'input',
    flattenRequested: doc.projection !== 'faithful',
    keepsRefs: doc.projection === 'faithful',
    projection: doc.projection,
    zodShapeKeys,
    unflattened: doc.unflattened,
    options: { ...validation, ...(profiles && { profiles }) },
  });
  const narrowed = doc.narrowed.map(
    (n): SchemaIssue => ({
      tool,
      path: n.pointer,
      code: 'narrowed',
      message: n.reason,
      severity: 'info',
      side: 'input',
      ...tag,
    }),
  );
  return [...checked.map((i) => ({ ...i, ...tag })), ...narrowed];
}

/** What a tool serves as its output, per projection, and whether it can be served. */
export type ServedOutput = {
  outputSchema?: JsonSchema;
  outputSchemas?: Readonly<Partial<Record<ProjectionName, JsonSchema>>>;
  servable: boolean;
  issues: SchemaIssue[];
};

/** A tool without `output`. */
export const NO_OUTPUT: ServedOutput = Object.freeze({ servable: true, issues: Object.freeze([]) as never });

/**
 * The output document per projection, checked and frozen; a tool whose output root is no object is not
 * served. `faithful` keeps a recursive definition's `$ref` cycle; every other projection is served it
 * unrolled to a bounded depth with open leaves (docs/decisions/0018-flat-for-clients-that-never-name-themselves.md):
 * some clients drop every tool of a server whose output schema is recursive. Each distinct document is
 * checked once; its issues name each projection served it when the mount serves several.
 */
export function serveOutput(tool: string, output: z.ZodType, config: MountConfig): ServedOutput {
  const out = toJsonSchema(output, 'output');
  if (!out.ok) {
    const issues = out.fields.map((field) =>
      schemaIssue(
        tool,
        field.path,
        'output-conversion-failed',
        `output schema cannot be converted to JSON Schema: ${field.message}`,
        'output',
      ),
    );
    return { servable: false, issues };
  }
  const faithful = deepFreeze(inlineRefs(stripDialect(out.schema)).schema);
  const unrolled = deepFreeze(boundedUnroll(faithful));
  const { served, default: byDefault } = config.projection;
  const docOf = (p: ProjectionName) => (p === 'faithful' ? faithful : unrolled);
  const check = (doc: JsonSchema) =>
    checkDocument(doc, { tool, side: 'output', flattenRequested: false, options: config.validation });
  let issues: SchemaIssue[];
  if (unrolled === faithful || served.length === 1) issues = check(docOf(byDefault));
  else {
    const found = new Map([faithful, unrolled].map((doc) => [doc, check(doc)]));
    issues = served.flatMap((p) => found.get(docOf(p))!.map((i) => ({ ...i, projection: p })));
  }
  issues = [...conversionNoteIssues(tool, out.notes, 'output'), ...issues];
  const outputSchemas = Object.freeze(Object.fromEntries(served.map((p) => [p, docOf(p)])));
  return { outputSchema: docOf(byDefault), outputSchemas, servable: isPlainObjectRoot(faithful), issues };
}

export function schemaIssue(
  tool: string,
  path: string,
  code: SchemaIssueCode,
  message: string,
  side: SchemaIssue['side'] = 'input',
): SchemaIssue {
  return { tool, path, code, message, severity: 'error', side };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
