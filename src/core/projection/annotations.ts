import { jsonEqual, memoTable, stableStringify } from '../json-schema/compare.js';
import { ANNOTATION_KEYWORDS, mapSubschemas, mapSubschemasShared, type Position } from '../json-schema/keywords.js';
import { ownValue, setOwn } from '../json-schema/own-properties.js';
import { isPlainObject, type JsonSchema } from '../json-schema/types.js';

// Annotations of merged schemas. Descriptions are the model's only view of what each variant means, so
// they are kept (labelled by variant when they differ); a default is kept only where it is true for every
// variant that reaches the node, because a model reads an advertised default as applying everywhere.

/**
 * Joins the annotations of schemas that accept the same values (equal `validationKey`), position by
 * position. `labels[i]` names the variant `schemas[i]` came from, e.g. `kind = a`.
 * With `dropDefault`, the top-level `default` is removed even when all agree (the flattened key's
 * defaults are applied by the original parse, per variant).
 */
export function joinAnnotations(schemas: readonly unknown[], labels: readonly string[], dropDefault: boolean): unknown {
  const first = schemas[0];
  if (!isPlainObject(first)) return first;
  if (schemas.every((s) => jsonEqual(s, first))) return ownAnnotations(first, dropDefault);
  const objects = schemas.filter(isPlainObject) as JsonSchema[];
  const out = mapSubschemas(first, (_child, at) =>
    joinAnnotations(
      objects.map((s) => childAt(s, at)),
      labels,
      false,
    ),
  );
  for (const key of ANNOTATION_KEYWORDS) {
    delete out[key];
    if (key === 'description') {
      const text = labelledText(
        objects.map((s) => s.description),
        labels,
      );
      if (text !== undefined) out.description = text;
      continue;
    }
    if (key === 'default' && dropDefault) continue;
    const values = objects.map((s) => s[key]);
    if (values.every((v) => v !== undefined && stableStringify(v) === stableStringify(values[0]))) {
      out[key] = values[0];
    }
  }
  return out;
}

/**
 * `joinAnnotations` of schemas the caller knows are equal JSON (the same field in every variant): every
 * text and value is the same in all of them, so the first one's own annotations are the join. One walk
 * instead of one per variant.
 */
export function joinEqualAnnotations(schema: unknown, dropDefault: boolean): unknown {
  return isPlainObject(schema) ? ownAnnotations(schema, dropDefault) : schema;
}

const OWN_ANNOTATIONS = Symbol('ownAnnotations');
const ANNOTATION_ORDER: readonly string[] = [...ANNOTATION_KEYWORDS];

/**
 * `joinAnnotations([schema], ...)`: the annotations of every node moved after its other keywords, in
 * `ANNOTATION_KEYWORDS` order, a description that is not a non-empty string dropped (and the top-level
 * `default` with `dropDefault`). A node already in that form is returned itself, and inside `withMemo`
 * each node is done once, so joining the same sub-tree again at every level of a nested union is cheap.
 */
function ownAnnotations(schema: JsonSchema, dropDefault: boolean): JsonSchema {
  const table = memoTable<JsonSchema>(OWN_ANNOTATIONS);
  const known = dropDefault ? undefined : table?.get(schema);
  if (known !== undefined) return known;
  const walked = mapSubschemasShared(schema, (child) => (isPlainObject(child) ? ownAnnotations(child, false) : child));
  let out = walked;
  if (!inAnnotationOrder(walked, dropDefault)) {
    out = walked === schema ? copyOwn(schema) : walked;
    for (const key of ANNOTATION_ORDER) {
      const value = out[key];
      delete out[key];
      if (key === 'default' && dropDefault) continue;
      if (key === 'description' ? typeof value === 'string' && value.length > 0 : value !== undefined) {
        out[key] = value;
      }
    }
  }
  // The result is in that form, so it maps to itself; `schema` maps to it unless its default was dropped.
  if (!dropDefault) table?.set(schema, out);
  if (out !== schema || dropDefault) table?.set(out, out);
  return out;
}

/** True when `ownAnnotations` would not change `node`'s own keys (its sub-schemas aside). */
function inAnnotationOrder(node: JsonSchema, dropDefault: boolean): boolean {
  let next = 0; // position in ANNOTATION_ORDER the next annotation key must come at or after
  for (const key of Object.keys(node)) {
    if (!ANNOTATION_KEYWORDS.has(key)) {
      if (next > 0) return false; // a validation keyword after an annotation
      continue;
    }
    const at = ANNOTATION_ORDER.indexOf(key);
    if (at < next) return false;
    next = at + 1;
    const value = node[key];
    if (key === 'description' ? typeof value !== 'string' || value.length === 0 : value === undefined) return false;
    if (key === 'default' && dropDefault) return false;
  }
  return true;
}

function copyOwn(node: JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  for (const key of Object.keys(node)) setOwn(out, key, node[key]);
  return out;
}

function childAt(schema: JsonSchema, at: Position): unknown {
  const value = ownValue(schema, at.keyword);
  return at.key === undefined ? value : ownValue(value, at.key);
}

/**
 * One description from per-variant texts: the text itself when every variant carries the same one,
 * otherwise each text prefixed by the variants that carry it (`kind = a: ...; kind = b: ...`).
 */
export function labelledText(texts: ReadonlyArray<unknown>, labels: readonly string[]): string | undefined {
  const byText = new Map<string, string[]>();
  texts.forEach((t, i) => {
    if (typeof t !== 'string' || t.length === 0) return;
    byText.set(t, [...(byText.get(t) ?? []), labels[i] ?? '']);
  });
  if (byText.size === 0) return undefined;
  // Unlabelled only when every variant says it: a text only some carry is theirs, not everyone's.
  if (byText.size === 1 && [...byText.values()][0]!.length === texts.length) return [...byText.keys()][0];
  return [...byText].map(([text, ls]) => `${mergeLabels(ls)}: ${text}`).join('; ');
}

/** `kind = a`, `kind = b` → `kind = a | b`; labels of other forms are listed with commas. */
export function mergeLabels(labels: readonly string[]): string {
  const parsed = labels.map((l) => /^(.+?) = (.+)$/.exec(l));
  const prefix = parsed[0]?.[1];
  if (parsed.every((m) => m !== null && m[1] === prefix && !m[2]!.includes('('))) {
    return `${prefix} = ${parsed.map((m) => m![2]).join(' | ')}`;
  }
  return labels.join(', ');
}

/** Joins description parts into sentences, keeping author text verbatim and in front. */
export function composeDescription(parts: ReadonlyArray<string | undefined>): string | undefined {
  const present = parts.filter((p): p is string => typeof p === 'string' && p.trim().length > 0);
  if (present.length === 0) return undefined;
  if (present.length === 1) return present[0];
  return present.map((p, i) => (i < present.length - 1 && !/[.!?:;]\s*$/.test(p) ? `${p}.` : p)).join(' ');
}
