/**
 * Each served projection's input document for one tool, from its slices converted once (docs/design/flatten.md,
 * The pipeline; docs/decisions/0014-per-client-projections.md), and the helpers the output document shares.
 */
import type { z } from 'zod';
import { cloneJson, frozenCopy } from '../json-schema/compare.js';
import type { JsonSchema } from '../json-schema/types.js';
import { perProjection } from '../model/per-projection.js';
import type { AnyZodObject } from '../model/tool.js';
import { rootProblem } from '../probe/index.js';
import { servedFlat } from '../projection/flat-served.js';
import { flattenShared } from '../projection/flatten.js';
import { collapseNullable, dropSafeIntegerBounds, relaxIntersections } from '../projection/index.js';
import { inlineRefsShared } from '../projection/inline-refs.js';
import { mergeRootObjects, type RootPart } from '../projection/merge-slices.js';
import { isProfileProjection, type ProjectionName } from '../projection/names.js';
import { projectForProfile } from '../projection/profiles/index.js';
import { localResolver } from '../projection/type-atoms.js';
import { findUnflattened } from '../projection/unflattened.js';
import { type Conversion, toJsonSchema } from '../zod/convert.js';
import { shapeKeys } from '../zod/shape-keys.js';

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
  /** What the projection left unflattened: found when first asked for (only a union reported reads it). */
  unflattened: () => Array<{ pointer: string; reason: string }>;
  narrowed: Array<{ pointer: string; reason: string }>;
}

/** A key two slices declare: the arguments are split by key, so the tool cannot be served. */
export type KeyConflict = { key: string; slices: string[] };

/** One tool's documents, each projection's computed when first asked for (docs/decisions/0026-projections-prepared-on-first-use.md). */
export interface DocumentProjector {
  /**
   * `projection`'s merged root document, before the checks, or the keys two slices both declare. A projection
   * whose slice root is not an object gets that root, unservable, for the checks to explain: a union root is no
   * object in `faithful` but one in `flat`, so a tool can be served in some projections and not in others.
   * Memoised; the `flat` family's slices are flattened once for all of its projections.
   */
  document(projection: ProjectionName): ProjectedDocument | { conflicts: KeyConflict[] };
  /** The top-level keys `projection`'s family requires, from its merged root (before any profile's rewrite). */
  required(projection: ProjectionName): readonly string[];
}

type Family = {
  /** Each slice's projection; what its flattening left is found only for the documents that report it. */
  parts: Array<{ slice: RootPart['slice']; schema: JsonSchema; unflattened: ProjectedDocument['unflattened'] }>;
  merged?: JsonSchema;
  nonObject?: JsonSchema;
  conflicts: KeyConflict[];
};

/**
 * The projector of one tool, from its converted slices (all converted). Nothing is computed until asked.
 * `faithfulOnly`: the mount serves `faithful` alone, so no other family reads the converted slices after it.
 */
export function documentProjector(
  sides: ReadonlyArray<{ slice: RootPart['slice']; side: ConvertedSide }>,
  options: { faithfulOnly?: boolean } = {},
): DocumentProjector {
  const converted = sides.map(({ slice, side }) => ({
    slice,
    schema: (side.converted as { schema: JsonSchema }).schema,
    safeIntegerBounds: (side.converted as { safeIntegerBounds: boolean }).safeIntegerBounds,
  }));
  const families = new Map<'faithful' | 'flat', Family>();
  const family = (name: 'faithful' | 'flat'): Family => {
    let found = families.get(name);
    if (found) return found;
    const parts = converted.map((c) => ({
      slice: c.slice,
      // The mount's `extend` is converted once for every tool: each tool's served documents are copies.
      ...(name === 'faithful'
        ? faithfulSide(c.schema, options.faithfulOnly && c.slice !== 'extend')
        : flatSide(c.schema, c.safeIntegerBounds)),
    }));
    const nonObject = parts.find(({ schema }) => !isPlainObjectRoot(schema))?.schema;
    const merged = nonObject ? undefined : mergeRootObjects(parts, { keepRootKeywords: name === 'faithful' });
    found = {
      parts,
      ...(nonObject && { nonObject }),
      ...(merged?.ok && { merged: merged.schema }),
      conflicts: merged && !merged.ok ? merged.conflicts : [],
    };
    families.set(name, found);
    return found;
  };
  return {
    document: perProjection((projection): ProjectedDocument | { conflicts: KeyConflict[] } => {
      const f = family(projection === 'faithful' ? 'faithful' : 'flat');
      const unflattened = once(() => f.parts.flatMap((p) => p.unflattened()));
      let doc: ProjectedDocument | { conflicts: KeyConflict[] };
      if (f.nonObject) doc = { projection, schema: f.nonObject, servable: false, unflattened, narrowed: [] };
      else if (!f.merged) doc = { conflicts: f.conflicts };
      else if (projection === 'faithful')
        doc = { projection, schema: f.merged, servable: true, unflattened: NOTHING_LEFT, narrowed: [] };
      else if (isProfileProjection(projection))
        doc = { projection, servable: true, unflattened, ...projectForProfile(projection, f.merged) };
      // `flat` reports what is left in its served document, found there.
      else doc = { projection, servable: true, ...flatDocument(f.merged) };
      return doc;
    }),
    required(projection) {
      const { merged } = family(projection === 'faithful' ? 'faithful' : 'flat');
      return Array.isArray(merged?.required) ? (merged.required as string[]) : [];
    },
  };
}

/**
 * The `faithful` projection of one slice: Zod's 2020-12 document with `$schema`, `$defs` and `$ref` kept, and
 * only the relaxation the superset rule needs: JSON Schema's `allOf` refuses a key one strict member lacks,
 * where Zod refuses only keys no side knows (docs/decisions/0014-per-client-projections.md).
 */
function faithfulSide(schema: JsonSchema, owned = false): { schema: JsonSchema; unflattened: () => [] } {
  // Only an intersection is relaxed, and most documents have none: those are served as conversion wrote
  // them, which is what the relaxation returns (a copy) for them, without its two walks. A copy still where
  // another family or tool reads the converted slice too: what is served here is frozen.
  if (holdsAllOf(schema)) return { schema: relaxIntersections(schema), unflattened: NOTHING_LEFT };
  return { schema: owned ? schema : cloneJson(schema), unflattened: NOTHING_LEFT };
}

const NOTHING_LEFT = (): [] => [];

/** `find`, run on the first call only. */
function once<T>(find: () => T): () => T {
  let found: T | undefined;
  return () => (found ??= find());
}

/** Whether any object in `value` has an `allOf` key (a schema keyword or not: a cheap over-approximation). */
function holdsAllOf(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(holdsAllOf);
  if (typeof value !== 'object' || value === null) return false;
  if (Object.hasOwn(value, 'allOf')) return true;
  for (const key in value) if (holdsAllOf((value as Record<string, unknown>)[key])) return true;
  return false;
}

/**
 * The `flat` projection of one slice (docs/design/flatten.md, The pipeline). Every step keeps what it does
 * not change, and none mutates its input: the result shares sub-trees with the converted slice (which other
 * families and tools read too), and each document served from it is copied once, at its end (`flatDocument`,
 * `projectForProfile`), rather than at every step.
 */
function flatSide(
  schema: JsonSchema,
  safeIntegerBounds: boolean,
): {
  schema: JsonSchema;
  unflattened: () => Array<{ pointer: string; reason: string }>;
} {
  // Zod's safe-integer bounds go first, so that merged keys never compare them; conversion found whether
  // there are any (most documents without `.int()` have none, and the walk would return its input).
  const refsInlined = inlineRefsShared(stripDialect(schema));
  const inlined = safeIntegerBounds ? (dropSafeIntegerBounds(refsInlined) as JsonSchema) : refsInlined;
  const projected = flattenShared(inlined);
  // Last, so that a nullable union flattened into one object is served as a nullable object too.
  return { schema: collapseNullable(projected.schema) as JsonSchema, unflattened: projected.unflattened };
}

/**
 * The served `flat` document from the merged flattened one: recursion unrolled, scalar unions joined
 * (docs/decisions/0018-flat-for-clients-that-never-name-themselves.md); what it left unflattened, found again
 * on the result so the pointers are into what is served.
 */
function flatDocument(merged: JsonSchema): Pick<ProjectedDocument, 'schema' | 'narrowed' | 'unflattened'> {
  // Copied and frozen in one walk: nothing changes a document between here and serving it (checked.ts).
  const schema = frozenCopy(servedFlat(merged)) as JsonSchema;
  return { schema, narrowed: [], unflattened: once(() => findUnflattened(schema, localResolver(schema))) };
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
