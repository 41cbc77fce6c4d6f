import { cloneJson, cloneJsonOrSelf } from '../json-schema/compare.js';
import {
  ANNOTATION_KEYWORDS,
  forEachSubschema,
  META_KEYWORDS,
  mapSubschemasShared,
  type Position,
  subschemaShape,
} from '../json-schema/keywords.js';
import { setOwn } from '../json-schema/own-properties.js';
import { parseLocalDefRef, positionPointer } from '../json-schema/pointer.js';
import { isPlainObject, type JsonSchema } from '../json-schema/types.js';

// Zod puts every schema with `.meta({ id })` (and every z.lazy cycle) in `$defs` and points at it with
// `$ref`. Many clients do not resolve `$ref` (docs/design/flatten.md, `$ref` inlining), so every local
// definition that can be written out is written out. Recursive ones cannot (the document would be
// infinite), so they keep their `$ref` and their `$defs` entry.

/** Above this many schema nodes a definition is kept as a `$ref` rather than copied at each use. */
const MAX_INLINED_NODES = 20_000;

type DefKey = string; // `$defs/Name` or `definitions/Name`

/**
 * Inlines every local `$ref` (`#/$defs/X`, `#/definitions/X`) whose definition is not recursive, keeps
 * recursive ones (and their `$defs` entries), and drops definitions nothing refers to any more.
 * `unresolved` lists the JSON Pointers (into the result) of every `$ref` left. Pure; never throws.
 */
export function inlineRefs(schema: JsonSchema): { schema: JsonSchema; unresolved: string[] } {
  try {
    if (!isPlainObject(schema)) return { schema: cloneJson(schema), unresolved: [] };
    if (!hasDefinitions(schema)) {
      // Nothing to inline (most documents): the copy and the `$ref` scan are one walk.
      const { $defs: _d, definitions: _defs, ...body } = schema;
      const unresolved: string[] = [];
      return { schema: copyFindingRefs(body, [], unresolved), unresolved };
    }
    const result = inline(schema);
    return { schema: result, unresolved: refPointers(result) };
  } catch {
    // Defensive only (e.g. a cyclic JS object): serve the document as it was.
    return { schema: cloneJsonOrSelf(schema), unresolved: [] };
  }
}

/**
 * `inlineRefs(schema).schema` for a pipeline that copies the finished document itself (the mount's `flat`
 * family): a document without definitions (most) is returned without its `$defs`/`definitions` keys and
 * otherwise as it is, not copied; `schema` is never mutated.
 */
export function inlineRefsShared(schema: JsonSchema): JsonSchema {
  if (isPlainObject(schema) && !hasDefinitions(schema)) {
    if (!('$defs' in schema) && !('definitions' in schema)) return schema;
    const { $defs: _d, definitions: _defs, ...body } = schema;
    return body;
  }
  return inlineRefs(schema).schema;
}

function inline(root: JsonSchema): JsonSchema {
  const defs = definitionsOf(root);
  const keyOf = (ref: unknown) => defKey(defs, ref);
  const rewrite = rewriter(defs, inlinableOf(root, defs, keyOf), keyOf);

  const { $defs: _d, definitions: _defs, ...body } = root;
  // Without definitions no `$ref` can be inlined, and the rewrite would return `body` itself.
  const out = cloneJson(defs.size === 0 ? body : rewrite(body)) as JsonSchema;

  const keptBodies = keptDefinitions(out, defs, rewrite, keyOf);
  for (const container of ['$defs', 'definitions'] as const) {
    if (!isPlainObject(root[container])) continue;
    const kept: JsonSchema = {};
    for (const name of Object.keys(root[container])) {
      const key = `${container}/${name}`;
      if (keptBodies.has(key)) setOwn(kept, name, keptBodies.get(key));
    }
    if (Object.keys(kept).length > 0) out[container] = kept;
  }
  return out;
}

/** The document's local definitions by key (`$defs/Name`, `definitions/Name`). */
function definitionsOf(root: JsonSchema): Map<DefKey, unknown> {
  const defs = new Map<DefKey, unknown>();
  for (const container of ['$defs', 'definitions'] as const) {
    if (!isPlainObject(root[container])) continue;
    for (const [name, body] of Object.entries(root[container])) defs.set(`${container}/${name}`, body);
  }
  return defs;
}

/** The definition a `$ref` names, when it is a local one the document has. */
function defKey(defs: ReadonlyMap<DefKey, unknown>, ref: unknown): DefKey | undefined {
  if (typeof ref !== 'string') return undefined;
  const parsed = parseLocalDefRef(ref);
  const key = parsed && `${parsed.container}/${parsed.name}`;
  return key !== undefined && defs.has(key) ? key : undefined;
}

/** The definitions to write out at their uses: which refer to which, and which anchors are named. */
function inlinableOf(
  root: JsonSchema,
  defs: Map<DefKey, unknown>,
  keyOf: (ref: unknown) => DefKey | undefined,
): Set<DefKey> {
  const edges = new Map<DefKey, DefKey[]>();
  for (const [key, body] of defs)
    edges.set(
      key,
      collectRefs(body).flatMap((r) => keyOf(r) ?? []),
    );
  // A `$ref` by anchor (`#name`) needs the anchor where it is; without one, an anchor names nothing.
  const anchorRefs = new Set(collectRefs(root).filter((r) => /^#[^/]/.test(r)));
  return decideInlinable(defs, edges, anchorRefs);
}

/**
 * The rewrite of a node: every `$ref` to an inlinable definition replaced by the definition, itself rewritten
 * (once per definition, copied at each use). Shares what it leaves alone with its input; every caller copies the
 * result (`cloneJson`) before returning it.
 */
function rewriter(
  defs: ReadonlyMap<DefKey, unknown>,
  inlinable: ReadonlySet<DefKey>,
  keyOf: (ref: unknown) => DefKey | undefined,
): (node: unknown) => unknown {
  const memo = new Map<DefKey, unknown>();
  const expand = (key: DefKey): unknown => {
    if (!memo.has(key)) memo.set(key, withoutAnchors(rewrite(defs.get(key))));
    return cloneJson(memo.get(key));
  };
  const rewrite = (node: unknown): unknown => {
    if (!isPlainObject(node)) return node;
    const walked = mapSubschemasShared(node, rewrite);
    const key = keyOf(walked.$ref);
    if (key === undefined || !inlinable.has(key)) return walked;
    const { $ref: _ref, ...rest } = walked;
    return combine(rest, expand(key));
  };
  return rewrite;
}

/**
 * The definitions still referred to, from the document or (transitively) from kept definitions, by key, with
 * their rewritten bodies: an inlined definition may have carried a reference along.
 */
function keptDefinitions(
  out: JsonSchema,
  defs: ReadonlyMap<DefKey, unknown>,
  rewrite: (node: unknown) => unknown,
  keyOf: (ref: unknown) => DefKey | undefined,
): Map<DefKey, unknown> {
  const keptBodies = new Map<DefKey, unknown>();
  const pending = defs.size === 0 ? [] : collectRefs(out).flatMap((r) => keyOf(r) ?? []);
  while (pending.length > 0) {
    const key = pending.pop()!;
    if (keptBodies.has(key)) continue;
    const rewritten = cloneJson(rewrite(defs.get(key)));
    keptBodies.set(key, rewritten);
    pending.push(...collectRefs(rewritten).flatMap((r) => keyOf(r) ?? []));
  }
  return keptBodies;
}

/** Definitions on no reference cycle, with no `$id` and no anchor a `$ref` names, small enough to copy. */
function decideInlinable(
  defs: Map<DefKey, unknown>,
  edges: Map<DefKey, DefKey[]>,
  anchorRefs: ReadonlySet<string>,
): Set<DefKey> {
  const reaches = (from: DefKey, target: DefKey): boolean => {
    const seen = new Set<DefKey>();
    const stack = [...(edges.get(from) ?? [])];
    while (stack.length > 0) {
      const k = stack.pop()!;
      if (k === target) return true;
      if (seen.has(k)) continue;
      seen.add(k);
      stack.push(...(edges.get(k) ?? []));
    }
    return false;
  };
  const candidates = new Set<DefKey>();
  for (const [key, body] of defs) {
    // `$id` changes the base of every reference inside; an anchor something refers to must stay one place.
    const anchored =
      isPlainObject(body) &&
      ('$id' in body ||
        [body.$anchor, body.$dynamicAnchor].some((a) => typeof a === 'string' && anchorRefs.has(`#${a}`)));
    if (!anchored && !reaches(key, key)) candidates.add(key);
  }
  // Expanded size, counting each use of an inlinable definition at its full size. No cycles among
  // candidates, so the recursion terminates.
  const sizes = new Map<DefKey, number>();
  const inlinable = new Set<DefKey>();
  const sizeOf = (key: DefKey): number => {
    const known = sizes.get(key);
    if (known !== undefined) return known;
    let size = countNodes(defs.get(key));
    for (const dep of edges.get(key) ?? []) if (candidates.has(dep)) size += sizeOf(dep);
    sizes.set(key, size);
    if (size <= MAX_INLINED_NODES) inlinable.add(key);
    return size;
  };
  for (const key of candidates) sizeOf(key);
  // A candidate too big to copy stays a `$ref`, so callers count it as 1, which only ever shrinks sizes.
  return inlinable;
}

/**
 * A `$ref` node's own keywords laid over the definition's body. In 2020-12 siblings of `$ref` apply
 * together with it; writing them into one object is equivalent or looser, unless both constrain the
 * same keyword differently, in which case both are kept under `allOf`.
 */
function combine(rest: JsonSchema, body: unknown): unknown {
  if (Object.keys(rest).length === 0) return body;
  const informational = (k: string) => ANNOTATION_KEYWORDS.has(k) || META_KEYWORDS.has(k) || k === '$comment';
  if (!isPlainObject(body)) return { ...rest, allOf: [body] };
  const clash = Object.keys(rest).some(
    (k) => !informational(k) && Object.hasOwn(body, k) && JSON.stringify(rest[k]) !== JSON.stringify(body[k]),
  );
  if (clash) {
    const outer: JsonSchema = {};
    const validation: JsonSchema = {};
    for (const [k, v] of Object.entries(rest)) setOwn(informational(k) ? outer : validation, k, v);
    return { ...outer, allOf: [body, validation] };
  }
  const out: JsonSchema = {};
  if ('$schema' in rest) out.$schema = rest.$schema;
  // Not Object.assign: it assigns, so a key named `__proto__` would set the prototype.
  for (const source of [body, rest]) for (const k of Object.keys(source)) setOwn(out, k, source[k]);
  return out;
}

/** Every `$ref` string under `node`, in document order. */
function collectRefs(node: unknown): string[] {
  const out: string[] = [];
  const visit = (n: unknown) => {
    if (!isPlainObject(n)) return;
    if (typeof n.$ref === 'string') out.push(n.$ref);
    forEachSubschema(n, visit);
  };
  visit(node);
  return out;
}

function countNodes(node: unknown): number {
  let count = 0;
  const visit = (n: unknown) => {
    if (!isPlainObject(n)) return;
    count++;
    forEachSubschema(n, visit);
  };
  visit(node);
  return count;
}

function hasDefinitions(root: JsonSchema): boolean {
  return (['$defs', 'definitions'] as const).some((c) => isPlainObject(root[c]) && Object.keys(root[c]).length > 0);
}

/**
 * `cloneJson(node)`, pushing onto `found` the JSON Pointer of every sub-schema that carries `$ref`, in the
 * order `refPointers` lists them. `path`: the positions from the document root down to `node`.
 */
function copyFindingRefs(node: JsonSchema, path: Position[], found: string[]): JsonSchema {
  if (typeof node.$ref === 'string') found.push(path.reduce(positionPointer, ''));
  const child = (value: unknown, at: Position): unknown => {
    if (!isPlainObject(value)) return cloneJson(value);
    path.push(at);
    const copy = copyFindingRefs(value, path, found);
    path.pop();
    return copy;
  };
  const out: JsonSchema = {};
  for (const keyword of Object.keys(node)) {
    const value = node[keyword];
    const shape = subschemaShape(keyword);
    let copy: unknown;
    if (shape === 'single' && !Array.isArray(value)) copy = child(value, { keyword });
    else if ((shape === 'single' || shape === 'list') && Array.isArray(value)) {
      copy = value.map((v, i) => child(v, { keyword, key: i }));
    } else if (shape === 'map' && isPlainObject(value)) {
      const map: JsonSchema = {};
      for (const name of Object.keys(value)) setOwn(map, name, child(value[name], { keyword, key: name }));
      copy = map;
    } else copy = cloneJson(value);
    setOwn(out, keyword, copy);
  }
  return out;
}

/**
 * JSON Pointers of every node that still carries `$ref`, in document order (as `walkSchemas` visits them:
 * object sub-schemas only, a cycle in the object graph not followed). A pointer is spelled only for a hit.
 */
function refPointers(doc: JsonSchema): string[] {
  const out: string[] = [];
  const path: Position[] = [];
  const ancestors = new Set<object>();
  const visit = (node: JsonSchema) => {
    if (ancestors.has(node)) return;
    if (typeof node.$ref === 'string') out.push(path.reduce(positionPointer, ''));
    ancestors.add(node);
    forEachSubschema(node, (child, at) => {
      if (!isPlainObject(child)) return;
      path.push(at);
      visit(child);
      path.pop();
    });
    ancestors.delete(node);
  };
  visit(doc);
  return out;
}

/**
 * A definition's body as copied to each use: its own `$anchor`/`$dynamicAnchor` left out, since nothing refers
 * to it by anchor (else it is not inlined) and one anchor declared at several places is invalid 2020-12.
 */
function withoutAnchors(body: unknown): unknown {
  if (!isPlainObject(body) || !('$anchor' in body || '$dynamicAnchor' in body)) return body;
  const { $anchor: _a, $dynamicAnchor: _d, ...rest } = body;
  return rest;
}
