/**
 * Each served projection's input document for one tool, from its slices converted once (docs/design/flatten.md,
 * The pipeline; docs/decisions/0014-per-client-projections.md), and the helpers the output document shares.
 */
import type { z } from 'zod';
import { cloneJson } from '../json-schema/compare.js';
import type { JsonSchema } from '../json-schema/types.js';
import { rootProblem } from '../probe/index.js';
import { servedFlat } from '../projection/flat-served.js';
import {
  collapseNullable,
  dropSafeIntegerBounds,
  flattenWithReport,
  inlineRefs,
  relaxIntersections,
} from '../projection/index.js';
import { mergeRootObjects, type RootPart } from '../projection/merge-slices.js';
import { isProfileProjection, type ProjectionName } from '../projection/names.js';
import { type Narrowing, projectForProfile } from '../projection/profiles/index.js';
import { localResolver } from '../projection/type-atoms.js';
import { findUnflattened } from '../projection/unflattened.js';
import { type Conversion, toJsonSchema } from '../zod/convert.js';
import { shapeKeys } from '../zod/shape-keys.js';
import type { AnyZodObject } from './tool.js';

/** One slice converted once; each projection is computed from it. */
export interface ConvertedSide {
  converted: Conversion;
  shapeKeys: string[];
}

export function convertSide(schema: z.ZodType | AnyZodObject): ConvertedSide {
  return { converted: toJsonSchema(schema, 'input'), shapeKeys: shapeKeys(schema) };
}

/** A tool's slices, each converted once, in the order the documents merge them. */
export type ConvertedSides = Array<{ slice: RootPart['slice']; side: ConvertedSide }>;

/** One projection's merged root document, before the checks. */
export interface ProjectedDocument {
  projection: ProjectionName;
  schema: JsonSchema;
  /** False when the root is not an object: the document is then only shown to the checks, which say why. */
  servable: boolean;
  unflattened: Array<{ pointer: string; reason: string }>;
  narrowed: Array<{ pointer: string; reason: string }>;
}

/**
 * Every served projection's document for one tool, from its converted slices (all converted). A projection
 * whose slice root is not an object gets that root, unservable, for the checks to explain: a union root is
 * no object in `faithful` but one in `flat`, so a tool can be served in some projections and not in others.
 * A key two slices declare is a conflict for every projection alike.
 */
export function projectDocuments(
  sides: ReadonlyArray<{ slice: RootPart['slice']; side: ConvertedSide }>,
  served: readonly ProjectionName[],
): { documents: ProjectedDocument[]; conflicts: Array<{ key: string; slices: string[] }> } {
  const converted = sides.map(({ slice, side }) => ({
    slice,
    schema: (side.converted as { schema: JsonSchema }).schema,
  }));
  const documents: ProjectedDocument[] = [];
  const family = (
    parts: Array<{ slice: RootPart['slice']; schema: JsonSchema; unflattened: ProjectedDocument['unflattened'] }>,
    keepRootKeywords: boolean,
    projections: readonly ProjectionName[],
    derive: (
      projection: ProjectionName,
      merged: JsonSchema,
    ) => { schema: JsonSchema; narrowed: Narrowing[]; unflattened?: ProjectedDocument['unflattened'] },
  ) => {
    const unflattened = parts.flatMap((p) => p.unflattened);
    const nonObject = parts.find(({ schema }) => !isPlainObjectRoot(schema));
    if (nonObject) {
      for (const projection of projections) {
        documents.push({ projection, schema: nonObject.schema, servable: false, unflattened, narrowed: [] });
      }
      return [];
    }
    const merged = mergeRootObjects(parts, { keepRootKeywords });
    if (!merged.ok) return merged.conflicts;
    for (const projection of projections) {
      documents.push({ projection, servable: true, unflattened, ...derive(projection, merged.schema) });
    }
    return [];
  };

  let conflicts: Array<{ key: string; slices: string[] }> = [];
  if (served.includes('faithful')) {
    const parts = converted.map((c) => ({ ...c, ...faithfulSide(c.schema) }));
    conflicts = family(parts, true, ['faithful'], (_, schema) => ({ schema, narrowed: [] }));
  }
  const flatFamily = served.filter((p) => p !== 'faithful');
  if (flatFamily.length > 0) {
    const parts = converted.map((c) => ({ ...c, ...flatSide(c.schema) }));
    const found = family(parts, false, flatFamily, (projection, schema) =>
      isProfileProjection(projection) ? projectForProfile(projection, schema) : flatDocument(schema),
    );
    if (conflicts.length === 0) conflicts = found;
  }
  // A conflict makes the tool unservable everywhere, and it is the one issue worth reading.
  if (conflicts.length > 0) return { documents: [], conflicts };
  // The checks and the served list both follow the mount's order of projections.
  documents.sort((a, b) => served.indexOf(a.projection) - served.indexOf(b.projection));
  return { documents, conflicts };
}

/**
 * The `faithful` projection of one slice: Zod's 2020-12 document with `$schema`, `$defs` and `$ref` kept, and
 * only the relaxation the superset rule needs: JSON Schema's `allOf` refuses a key one strict member lacks,
 * where Zod refuses only keys no side knows (docs/decisions/0014-per-client-projections.md).
 */
function faithfulSide(schema: JsonSchema): { schema: JsonSchema; unflattened: [] } {
  return { schema: relaxIntersections(schema), unflattened: [] };
}

/** The `flat` projection of one slice (docs/design/flatten.md, The pipeline). */
function flatSide(schema: JsonSchema): { schema: JsonSchema; unflattened: Array<{ pointer: string; reason: string }> } {
  // Zod's safe-integer bounds go first, so that merged keys never compare them.
  const inlined = dropSafeIntegerBounds(inlineRefs(stripDialect(schema)).schema) as JsonSchema;
  const projected = flattenWithReport(inlined);
  // Last, so that a nullable union flattened into one object is served as a nullable object too.
  return { schema: collapseNullable(projected.schema) as JsonSchema, unflattened: projected.unflattened };
}

/**
 * The served `flat` document from the merged flattened one: recursion unrolled, scalar unions joined
 * (docs/decisions/0018-flat-for-clients-that-never-name-themselves.md); what it left unflattened, found again
 * on the result so the pointers are into what is served.
 */
function flatDocument(merged: JsonSchema): Pick<ProjectedDocument, 'schema' | 'narrowed' | 'unflattened'> {
  const schema = cloneJson(servedFlat(merged)) as JsonSchema;
  return { schema, narrowed: [], unflattened: findUnflattened(schema, localResolver(schema)) };
}

/** `$schema` is dropped from flat documents and output schemas: MCP's default dialect is 2020-12 already. */
export function stripDialect(schema: JsonSchema): JsonSchema {
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}

/** The probe's own root rule decides, so serving and the `root-not-object` issue never disagree. */
export function isPlainObjectRoot(schema: JsonSchema): boolean {
  return rootProblem(schema, { tool: '', side: 'input', flattenRequested: false, options: {} }) === undefined;
}
