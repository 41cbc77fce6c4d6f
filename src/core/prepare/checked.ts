/**
 * What a tool serves, checked: each projection's input document and the output document, run through the
 * probe's checks and deep-frozen (the documents `tools/list` serves are these objects).
 */
import type * as z from 'zod';
import { deepFreeze } from '../json-schema/freeze.js';
import type { JsonSchema } from '../json-schema/types.js';
import { checkDocument } from '../probe/index.js';
import type { SchemaIssue, SchemaIssueCode } from '../probe/issue.js';
import { boundedUnroll } from '../projection/flat-served.js';
import { inlineRefs } from '../projection/index.js';
import { isProfileProjection, type ProjectionName } from '../projection/names.js';
import { toJsonSchema } from '../zod/convert.js';
import { conversionNoteIssues } from './conversion-notes.js';
import { familyDocument } from './family-fallback.js';
import {
  type ConvertedSides,
  documentProjector,
  isPlainObjectRoot,
  type KeyConflict,
  type ProjectedDocument,
  stripDialect,
} from './projector.js';
import type { PreparePolicy } from './settle.js';

/**
 * What a tool serves as its input: the default projection's document, checked at construction, and every
 * other served projection's when first asked for (docs/decisions/0026-projections-prepared-on-first-use.md).
 */
export interface ServedInput {
  /** The document `projection` lists the tool with (checked, deep-frozen), or undefined where it is not listed. Memoised. */
  at(projection: ProjectionName): JsonSchema | undefined;
  /** Top-level keys the tool requires, from its own merged document (a strict-mode profile lists every key). */
  requiredKeys: readonly string[];
  /**
   * Whether some served projection lists the tool. Known at construction: when the default projection cannot
   * list it, every projection is prepared then, to find one that can.
   */
  servable: boolean;
  /** The issues found so far, in the mount's order of projections; grows as projections are prepared. */
  issues(): SchemaIssue[];
}

/** A tool whose slices did not all convert: no document, and nothing to check. */
export function notServed(): ServedInput {
  return { at: () => undefined, requiredKeys: [], servable: false, issues: () => [] };
}

/**
 * The tool's input documents, each projection's checked and frozen when first asked for; `onLate` hears the
 * issues of each projection prepared after construction. Prepares the default projection now, and every
 * projection now when `eager` or when the default cannot list the tool.
 */
export function serveInput(
  tool: string,
  sides: ConvertedSides,
  policy: PreparePolicy,
  options: { eager: boolean; onLate?: (issues: SchemaIssue[]) => void },
): ServedInput {
  const { served: projections, default: byDefault } = policy.projection;
  const projector = documentProjector(sides, { faithfulOnly: projections.every((p) => p === 'faithful') });
  const notes = sides.flatMap(({ side }) => (side.converted.ok ? side.converted.notes : []));
  const noteIssues = conversionNoteIssues(tool, notes, 'input');
  const zodShapeKeys = [...new Set(sides.flatMap(({ side }) => side.shapeKeys))];
  // Per projection prepared: what it lists the tool with (none where it does not), and what its checks found.
  const prepared = new Map<ProjectionName, { schema?: JsonSchema; issues: SchemaIssue[] }>();
  let fallback: (ProjectedDocument & { issues: SchemaIssue[] }) | undefined;
  let conflicted = false;

  const prepare = (projection: ProjectionName): { schema?: JsonSchema; issues: SchemaIssue[] } => {
    const doc = projector.document(projection);
    if ('conflicts' in doc) {
      conflicted = true;
      return { issues: doc.conflicts.map((c) => keyConflict(tool, c)) };
    }
    const checked = { ...doc, issues: documentIssues(tool, doc, zodShapeKeys, policy) };
    if (projection === byDefault && checked.servable) fallback = checked;
    const family = familyDocument(
      tool,
      checked,
      fallback,
      (schema) => documentIssues(tool, { ...doc, schema: schema as JsonSchema, narrowed: [] }, zodShapeKeys, policy),
      policy,
    );
    const { schema, issues } = family;
    return { ...(schema !== undefined && { schema: deepFreeze(schema as JsonSchema) }), issues };
  };
  const at = (projection: ProjectionName, late: boolean): JsonSchema | undefined => {
    let known = prepared.get(projection);
    if (!known) {
      known = prepare(projection);
      prepared.set(projection, known);
      if (late && known.issues.length > 0) options.onLate?.(known.issues);
    }
    return known.schema;
  };

  const listedByDefault = at(byDefault, false) !== undefined;
  if (options.eager || !listedByDefault) for (const p of projections) at(p, false);
  // A conflict makes the tool unservable everywhere, and it is the one issue worth reading.
  const servable = !conflicted && projections.some((p) => prepared.get(p)?.schema !== undefined);
  return {
    at: (projection) => (conflicted || !projections.includes(projection) ? undefined : at(projection, true)),
    requiredKeys: projector.required(byDefault),
    servable,
    issues: () => {
      const own = projections.flatMap((p) => prepared.get(p)?.issues ?? []);
      const conflicts = own.filter((i) => i.code === 'key-conflict');
      return conflicts.length > 0 ? [...onceEach(conflicts, 'key-conflict'), ...noteIssues] : [...noteIssues, ...own];
    },
  };
}

function keyConflict(tool: string, c: KeyConflict): SchemaIssue {
  return schemaIssue(
    tool,
    `/properties/${c.key}`,
    'key-conflict',
    `tool "${tool}": key "${c.key}" is declared by both ${c.slices.join(' and ')}; the arguments are split by key, so each key may belong to one of params, input and extend only`,
  );
}

/**
 * `issues` with each issue of `code` kept once per message: what several documents find alike is one issue (a
 * key conflict each family finds; an unknown profile name each tool's check finds).
 */
export function onceEach(issues: SchemaIssue[], code: SchemaIssueCode): SchemaIssue[] {
  const seen = new Set<string>();
  return issues.filter((i) => {
    if (i.code !== code) return true;
    if (seen.has(i.message)) return false;
    seen.add(i.message);
    return true;
  });
}

/** The probe's checks on one projection's document, and what its profile narrowed. */
function documentIssues(
  tool: string,
  doc: ProjectedDocument,
  zodShapeKeys: string[],
  policy: PreparePolicy,
): SchemaIssue[] {
  const { validation, projection } = policy;
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
export function serveOutput(tool: string, output: z.ZodType, policy: PreparePolicy): ServedOutput {
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
  const { served, default: byDefault } = policy.projection;
  const docOf = (p: ProjectionName) => (p === 'faithful' ? faithful : unrolled);
  const check = (doc: JsonSchema) =>
    checkDocument(doc, { tool, side: 'output', flattenRequested: false, options: policy.validation });
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
