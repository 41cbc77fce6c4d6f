import { jsonEqual, sortKeys } from '../core/json-schema/compare.js';
import { pointer } from '../core/json-schema/pointer.js';
import { isPlainObject, type JsonValue } from '../core/json-schema/types.js';
import type { PrepareOptions } from '../core/mount/options.js';
import type { ServedTool, ValidationReport } from '../core/mount/report.js';

/**
 * The schema lockfile: the exact `tools/list` documents a mount serves, written once and compared on
 * every check, so that a Zod or SDK upgrade that changes what clients see fails CI with a readable diff.
 * See docs/decisions/0006-cli-and-schema-lockfile.md.
 */

/** Bumped when the file's shape changes; a lockfile of another version is refused, never misread. */
export const SCHEMA_LOCKFILE_VERSION = 1;

/** The options that change the served documents, as recorded in the lockfile header. */
export interface SchemaLockOptions {
  flattenUnionInput: boolean;
  /** The keys `extend` adds (to every tool its `filter` accepts), in declaration order. */
  extendKeys: string[];
}

/** What a lockfile holds. Tool documents keep the `tools/list` order; keys inside them are sorted. */
export interface SchemaLock {
  lockfileVersion: typeof SCHEMA_LOCKFILE_VERSION;
  options: SchemaLockOptions;
  tools: ServedTool[];
}

/** One difference between a lockfile and the documents served now. Pointers are into the tool's document (`/inputSchema/...`). */
export type SchemaLockChange =
  | { kind: 'option-changed'; option: keyof SchemaLockOptions; before: JsonValue; after: JsonValue }
  | { kind: 'tool-added'; tool: string }
  | { kind: 'tool-removed'; tool: string }
  | { kind: 'added'; tool: string; pointer: string; after: JsonValue }
  | { kind: 'removed'; tool: string; pointer: string; before: JsonValue }
  | { kind: 'changed'; tool: string; pointer: string; before: JsonValue; after: JsonValue };

export interface SchemaLockDiff {
  /** True when the served documents and options are exactly those of the lockfile. */
  ok: boolean;
  changes: SchemaLockChange[];
  /** Human-readable rendering of `changes`, grouped by tool; one line when `ok`. */
  text: string;
}

/** The lockfile object for a report: its served tools and the document-shaping options. */
export function schemaLockOf(report: ValidationReport, options: PrepareOptions = {}): SchemaLock {
  return {
    lockfileVersion: SCHEMA_LOCKFILE_VERSION,
    options: lockOptions(options),
    tools: report.tools.map(lockedTool),
  };
}

/**
 * The lockfile text for a report: 2-space JSON with a trailing newline, keys of every schema sorted,
 * so that the same documents always give the same bytes.
 *
 * @param report what `validateMcpSchemas(tools, options)` returned
 * @param options the same options (only `flattenUnionInput` and the `extend` keys are recorded)
 *
 * @example
 * ```ts
 * import { writeFileSync } from 'node:fs';
 * import { validateMcpSchemas, writeSchemaLock } from 'mcp-mount';
 *
 * writeFileSync('mcp-schema.lock.json', writeSchemaLock(validateMcpSchemas(tools, options), options));
 * ```
 */
export function writeSchemaLock(report: ValidationReport, options: PrepareOptions = {}): string {
  return `${JSON.stringify(schemaLockOf(report, options), null, 2)}\n`;
}

/**
 * Reads lockfile text. Throws an `Error` naming the problem when the text is not JSON, not a lockfile,
 * or of another `lockfileVersion`.
 */
export function parseSchemaLock(text: string): SchemaLock {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`not a schema lockfile: invalid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  if (!isPlainObject(value)) throw new Error('not a schema lockfile: expected a JSON object');
  if (value.lockfileVersion !== SCHEMA_LOCKFILE_VERSION) {
    throw new Error(
      `unsupported lockfileVersion ${JSON.stringify(value.lockfileVersion)} (this version of mcp-mount reads ${SCHEMA_LOCKFILE_VERSION}); write it again with --write`,
    );
  }
  const tools = value.tools;
  if (!Array.isArray(tools) || !tools.every((t) => isPlainObject(t) && typeof t.name === 'string')) {
    throw new Error('not a schema lockfile: `tools` must be an array of tool documents with a `name`');
  }
  const options = isPlainObject(value.options) ? value.options : {};
  return {
    lockfileVersion: SCHEMA_LOCKFILE_VERSION,
    options: {
      flattenUnionInput: options.flattenUnionInput === true,
      extendKeys: Array.isArray(options.extendKeys) ? options.extendKeys.map(String) : [],
    },
    tools: tools as unknown as ServedTool[],
  };
}

/**
 * Compares a lockfile with the documents served now: options, added and removed tools, and per tool the
 * JSON Pointers added, removed or changed (old and new values). Tool order and key order are not compared.
 *
 * @param expectedText the lockfile text (as `writeSchemaLock` wrote it)
 * @param report what `validateMcpSchemas(tools, options)` returns now
 * @param options the options the report was made with
 * @throws Error when `expectedText` is not a lockfile this version reads
 *
 * @example
 * ```ts
 * import { readFileSync } from 'node:fs';
 * import { diffSchemaLock, validateMcpSchemas } from 'mcp-mount';
 *
 * const diff = diffSchemaLock(readFileSync('mcp-schema.lock.json', 'utf8'), validateMcpSchemas(tools, options), options);
 * if (!diff.ok) throw new Error(diff.text);
 * ```
 */
export function diffSchemaLock(
  expectedText: string,
  report: ValidationReport,
  options: PrepareOptions = {},
): SchemaLockDiff {
  const expected = parseSchemaLock(expectedText);
  const actual = schemaLockOf(report, options);
  const changes: SchemaLockChange[] = [];

  for (const option of ['flattenUnionInput', 'extendKeys'] as const) {
    const before = expected.options[option];
    const after = actual.options[option];
    if (!jsonEqual(before, after)) changes.push({ kind: 'option-changed', option, before, after });
  }

  const before = new Map(expected.tools.map((t) => [t.name, t]));
  const after = new Map(actual.tools.map((t) => [t.name, t]));
  for (const name of before.keys()) if (!after.has(name)) changes.push({ kind: 'tool-removed', tool: name });
  for (const [name, doc] of after) {
    const old = before.get(name);
    if (!old) {
      changes.push({ kind: 'tool-added', tool: name });
      continue;
    }
    diffValues(name, '', old as unknown as JsonValue, doc as unknown as JsonValue, changes);
  }
  return { ok: changes.length === 0, changes, text: renderChanges(changes, actual.tools.length) };
}

/** Structural diff of two JSON values; appends one change per differing pointer. */
export function diffValues(
  tool: string,
  at: string,
  before: JsonValue,
  after: JsonValue,
  out: SchemaLockChange[],
): void {
  if (jsonEqual(before, after)) return;
  if (isPlainObject(before) && isPlainObject(after)) {
    const b = before as Record<string, JsonValue>;
    const a = after as Record<string, JsonValue>;
    for (const key of sortedUnion(Object.keys(b), Object.keys(a))) {
      const p = pointer(at, key);
      if (!Object.hasOwn(a, key)) out.push({ kind: 'removed', tool, pointer: p, before: b[key]! });
      else if (!Object.hasOwn(b, key)) out.push({ kind: 'added', tool, pointer: p, after: a[key]! });
      else diffValues(tool, p, b[key]!, a[key]!, out);
    }
    return;
  }
  // Arrays of scalars (`required`, `enum`, `type`) read best whole; arrays of schemas are compared by index.
  if (Array.isArray(before) && Array.isArray(after) && !(allScalars(before) && allScalars(after))) {
    const n = Math.max(before.length, after.length);
    for (let i = 0; i < n; i++) {
      const p = pointer(at, i);
      if (i >= after.length) out.push({ kind: 'removed', tool, pointer: p, before: before[i]! });
      else if (i >= before.length) out.push({ kind: 'added', tool, pointer: p, after: after[i]! });
      else diffValues(tool, p, before[i]!, after[i]!, out);
    }
    return;
  }
  out.push({ kind: 'changed', tool, pointer: at, before, after });
}

/** Renders changes grouped: options first, then per tool (tools in alphabetical order). */
export function renderChanges(changes: readonly SchemaLockChange[], toolCount: number): string {
  if (changes.length === 0) return `schema lock matches: ${toolCount} tool${toolCount === 1 ? '' : 's'}, no changes`;
  const lines = [`schema lock drift: ${changes.length} change${changes.length === 1 ? '' : 's'}`];
  const options = changes.filter((c) => c.kind === 'option-changed');
  if (options.length > 0) {
    lines.push('  options');
    for (const c of options) lines.push(`    ~ ${c.option}: ${show(c.before)} → ${show(c.after)}`);
  }
  const byTool = new Map<string, SchemaLockChange[]>();
  for (const c of changes) {
    if (c.kind === 'option-changed') continue;
    const list = byTool.get(c.tool) ?? [];
    list.push(c);
    byTool.set(c.tool, list);
  }
  for (const tool of [...byTool.keys()].sort()) {
    for (const c of byTool.get(tool)!) {
      if (c.kind === 'tool-added') lines.push(`  + ${tool}: tool added (not in the lockfile)`);
      else if (c.kind === 'tool-removed') lines.push(`  - ${tool}: tool removed (in the lockfile, no longer served)`);
    }
    const inner = byTool.get(tool)!.filter((c) => c.kind === 'added' || c.kind === 'removed' || c.kind === 'changed');
    if (inner.length === 0) continue;
    lines.push(`  ${tool}`);
    for (const c of inner) {
      if (c.kind === 'added') lines.push(`    + ${c.pointer || '(root)'}: ${show(c.after)}`);
      else if (c.kind === 'removed') lines.push(`    - ${c.pointer || '(root)'}: ${show(c.before)}`);
      else if (c.kind === 'changed') lines.push(`    ~ ${c.pointer || '(root)'}: ${show(c.before)} → ${show(c.after)}`);
    }
  }
  return lines.join('\n');
}

function lockOptions(options: PrepareOptions): SchemaLockOptions {
  return {
    flattenUnionInput: options.flattenUnionInput === true,
    extendKeys: options.extend ? Object.keys(options.extend.schema.shape) : [],
  };
}

/** A served tool in lockfile form: the `tools/list` key order at the top, every key inside sorted. */
function lockedTool(t: ServedTool): ServedTool {
  const out: Record<string, unknown> = { name: t.name };
  if (t.title !== undefined) out.title = t.title;
  if (t.description !== undefined) out.description = t.description;
  out.inputSchema = sortKeys(t.inputSchema);
  if (t.outputSchema !== undefined) out.outputSchema = sortKeys(t.outputSchema);
  if (t.annotations !== undefined) out.annotations = sortKeys(t.annotations);
  return out as unknown as ServedTool;
}

function allScalars(values: readonly JsonValue[]): boolean {
  return values.every((v) => v === null || typeof v !== 'object');
}

function sortedUnion(a: string[], b: string[]): string[] {
  return [...new Set([...a, ...b])].sort();
}

/** A value on one line, cut at 100 characters. */
function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 100 ? `${text.slice(0, 97)}...` : text;
}
