import { cloneJson, cloneJsonOrSelf, withMemo } from '../json-schema/compare.js';
import { isPlainObject, type JsonSchema } from '../json-schema/types.js';
import { flattenNode, type Repeats } from './flatten-node.js';
import { openRefMembers } from './intersections.js';
import { definesNothing, localResolver } from './type-atoms.js';
import { findUnflattened, type Unflattened } from './unflattened.js';

export type { Unflattened } from './unflattened.js';

/**
 * The `flattenUnionInput` projection: every union of objects (a discriminated union by its tag, whatever
 * the tag's values' types, a union of objects without one with every key optional) becomes one flat
 * object, at any depth; below the root,
 * a union of objects and other types becomes one node with a `type` list; every `allOf` of objects
 * becomes one object. Presentation only: the result accepts a SUPERSET of what the
 * input accepts on every path (the original Zod schema still parses each call), so a model is never
 * refused a value the tool would take. Pure: never mutates `schema`, never throws, same input → same output.
 * Rules and the merge table: docs/design/flatten.md.
 * @internal exported for its tests alone
 */
export function flattenUnionsDeep(schema: JsonSchema): JsonSchema {
  return flattenWithReport(schema).schema;
}

/**
 * `flattenUnionsDeep`, plus every union it had to leave (a tag optional in a variant, overlapping tag
 * values, a member that is not an object or a `$ref` left in place), by JSON Pointer into the returned
 * document, with a reason naming why. The probe turns these into issues. The result shares nothing with
 * `schema` (the mount's own pipeline uses `flattenShared` and copies once, at its end).
 * @internal exported for its tests alone
 */
export function flattenWithReport(schema: JsonSchema): { schema: JsonSchema; unflattened: Unflattened[] } {
  try {
    if (!isPlainObject(schema)) return { schema: cloneJson(schema), unflattened: [] };
    // Cloned at the end so the result shares nothing with the input (callers freeze what they serve).
    // Intersections are opened while merging; their `$ref` members need the finished document.
    const result = cloneJson(flattenOnce(schema));
    return { schema: result, unflattened: findUnflattened(result, localResolver(result)) };
  } catch (error) {
    // Defensive only: a projection bug must not take the mount down. The input is served as it is.
    return { schema: cloneJsonOrSelf(schema), unflattened: failed(error) };
  }
}

/**
 * `flattenWithReport` for a pipeline that copies the finished document itself (the mount's: prepare/projector.ts):
 * the result may share sub-trees with `schema` (neither is ever mutated), and what was left unflattened is
 * found when first asked for, since only some projections read it. The same document, the same report.
 */
export function flattenShared(schema: JsonSchema): { schema: JsonSchema; unflattened: () => Unflattened[] } {
  try {
    if (!isPlainObject(schema)) return { schema, unflattened: () => [] };
    // A document without definitions resolves no reference: its rewrites hold in any other such document.
    const result = flattenOnce(
      schema,
      acrossDocuments !== undefined && definesNothing(schema) ? acrossDocuments : undefined,
    );
    let found: Unflattened[] | undefined;
    return { schema: result, unflattened: () => (found ??= findUnflattened(result, localResolver(result))) };
  } catch (error) {
    const unflattened = failed(error);
    return { schema, unflattened: () => unflattened };
  }
}

/**
 * The rewrite itself; intersections are opened while merging, and their `$ref` members need the finished
 * document (a document without definitions has none to open). `repeats`: rewrites remembered beyond this
 * document (`flattenAcrossDocuments`).
 */
function flattenOnce(schema: JsonSchema, repeats?: Repeats): JsonSchema {
  const flat = withMemo(() => flattenNode(schema, localResolver(schema), true, repeats)) as JsonSchema;
  return definesNothing(flat) ? flat : openRefMembers(flat);
}

/** The rewrites `flattenShared` shares between documents while `flattenAcrossDocuments` runs. */
let acrossDocuments: Repeats | undefined;

/**
 * From now until the returned function is called, the combinator rewrites of every `flattenShared` document
 * without definitions are remembered for the others: tools often hold the same union (one Zod schema in
 * several tools, or the same shape written again), and it is then flattened once per mount, not once per
 * tool. The same documents: a rewrite depends only on the node's JSON and the document's definitions.
 * Opened around a mount's construction and closed after it, so that nothing is kept; opened again while
 * open, it shares the outer scope. Not a callback wrapper: the mount's own frames stay where they are in
 * a profile.
 */
export function flattenAcrossDocuments(): () => void {
  if (acrossDocuments !== undefined) return KEEP_OPEN;
  acrossDocuments = new Map();
  return () => {
    acrossDocuments = undefined;
  };
}

const KEEP_OPEN = (): void => {};

function failed(error: unknown): Unflattened[] {
  return [{ pointer: '', reason: `flattening failed and was skipped: ${(error as Error)?.message ?? error}` }];
}
