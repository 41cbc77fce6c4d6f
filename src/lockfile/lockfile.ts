import { jsonEqual, sortKeys } from '../core/json-schema/compare.js';
import { setOwn } from '../core/json-schema/own-properties.js';
import { pointer } from '../core/json-schema/pointer.js';
import { isPlainObject, type JsonValue } from '../core/json-schema/types.js';
import type { ServedTool, ValidationReport } from '../core/prepare/report.js';
import type { McpMountOptions } from '../core/serve/options.js';

/**
 * The schema lockfile: the exact `tools/list` documents a mount serves, written once and compared on
 * every check, so that a Zod or SDK upgrade that changes what clients see fails CI with a readable diff.
 * See docs/decisions/0006-cli-and-schema-lockfile.md.
 */

/**
 * Bumped when the file's shape changes; a lockfile of another version is refused, never misread.
 * 1: one document per tool (`tools`). 2: one `tools/list` per served projection (`projections`).
 */
const SCHEMA_LOCKFILE_VERSION = 2;

/** The options that change the served documents, as recorded in the lockfile header. */
export interface SchemaLockOptions {
  /**
   * The mount's `projection` option: a projection name, `'auto'`, or `'function'` for a function
   * (`flattenUnionInput: true` is recorded as `'flat'`, the projection it is shorthand for).
   */
  projection: string;
  /** The keys `extend` adds (to every tool its `filter` accepts), in declaration order. */
  extendKeys: string[];
}

/** One projection's `tools/list`, in the lockfile. */
interface SchemaLockProjection {
  tools: ServedTool[];
}

/**
 * What a lockfile holds: per served projection (in the mount's order, the default first), the tools a
 * client of that projection is listed, in `tools/list` order; keys inside every document are sorted.
 */
interface SchemaLock {
  lockfileVersion: typeof SCHEMA_LOCKFILE_VERSION;
  options: SchemaLockOptions;
  projections: Record<string, SchemaLockProjection>;
}

/**
 * One difference between a lockfile and the documents served now. `projection` names the projection
 * whose `tools/list` differs; pointers are into the tool's document (`/inputSchema/...`).
 */
export type SchemaLockChange =
  | { kind: 'option-changed'; option: keyof SchemaLockOptions; before: JsonValue; after: JsonValue }
  | { kind: 'projection-added'; projection: string }
  | { kind: 'projection-removed'; projection: string }
  | { kind: 'tool-added'; projection: string; tool: string }
  | { kind: 'tool-removed'; projection: string; tool: string }
  | { kind: 'added'; projection: string; tool: string; pointer: string; after: JsonValue }
  | { kind: 'removed'; projection: string; tool: string; pointer: string; before: JsonValue }
  | { kind: 'changed'; projection: string; tool: string; pointer: string; before: JsonValue; after: JsonValue };

export interface SchemaLockDiff {
  /** True when the served documents and options are exactly those of the lockfile. */
  ok: boolean;
  changes: SchemaLockChange[];
  /** Human-readable rendering of `changes`, grouped by tool and projection; one line when `ok`. */
  text: string;
}

/** The lockfile object for a report: every served projection's tools and the document-shaping options. */
function schemaLockOf(report: ValidationReport, options: McpMountOptions = {}): SchemaLock {
  const projections: Record<string, SchemaLockProjection> = {};
  for (const [name, served] of servedProjections(report)) projections[name] = { tools: served.map(lockedTool) };
  return { lockfileVersion: SCHEMA_LOCKFILE_VERSION, options: lockOptions(options), projections };
}

/**
 * The lockfile text for a report: 2-space JSON with a trailing newline, keys of every schema sorted,
 * so that the same documents always give the same bytes.
 *
 * @param report what `validateMcpSchemas(tools, options)` returned; every projection in
 *   `report.projections` is recorded (a report without `projections` records `tools` as its `projection`)
 * @param options the same options (only `projection`/`flattenUnionInput` and the `extend` keys are recorded)
 *
 * @example
 * ```ts
 * import { writeFileSync } from 'node:fs';
 * import { validateMcpSchemas } from 'mcp-mount';
 * import { writeSchemaLock } from 'mcp-mount/lockfile';
 *
 * writeFileSync('mcp-schema.lock.json', writeSchemaLock(validateMcpSchemas(tools, options), options));
 * ```
 */
export function writeSchemaLock(report: ValidationReport, options: McpMountOptions = {}): string {
  return `${JSON.stringify(schemaLockOf(report, options), null, 2)}\n`;
}

/**
 * Reads lockfile text. Throws an `Error` naming the problem when the text is not JSON, not a lockfile,
 * or of another `lockfileVersion` (a version-1 file says to regenerate it: it holds one document per
 * tool, and comparing it with per-projection documents would report drift that is only the new format).
 */
function parseSchemaLock(text: string): SchemaLock {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`not a schema lockfile: invalid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  if (!isPlainObject(value)) throw new Error('not a schema lockfile: expected a JSON object');
  if (value.lockfileVersion === 1) {
    throw new Error(
      `lockfileVersion 1 is the format of an older mcp-mount (one document per tool); this version records every served projection (lockfileVersion ${SCHEMA_LOCKFILE_VERSION}): regenerate the file with --write (or writeSchemaLock) and review the change`,
    );
  }
  if (value.lockfileVersion !== SCHEMA_LOCKFILE_VERSION) {
    throw new Error(
      `unsupported lockfileVersion ${JSON.stringify(value.lockfileVersion)} (this version of mcp-mount reads ${SCHEMA_LOCKFILE_VERSION}); write it again with --write`,
    );
  }
  const projections = value.projections;
  if (!isPlainObject(projections)) {
    throw new Error('not a schema lockfile: `projections` must be an object of projection names to { tools }');
  }
  const read: Record<string, SchemaLockProjection> = {};
  for (const [name, entry] of Object.entries(projections)) {
    const tools = isPlainObject(entry) ? entry.tools : undefined;
    if (!Array.isArray(tools) || !tools.every((t) => isPlainObject(t) && typeof t.name === 'string')) {
      throw new Error(
        `not a schema lockfile: \`projections.${name}.tools\` must be an array of tool documents with a \`name\``,
      );
    }
    // As an own key: a file naming `__proto__` must not set the object's prototype.
    setOwn(read, name, { tools: tools as unknown as ServedTool[] });
  }
  const options = isPlainObject(value.options) ? value.options : {};
  return {
    lockfileVersion: SCHEMA_LOCKFILE_VERSION,
    options: {
      projection: typeof options.projection === 'string' ? options.projection : '',
      extendKeys: Array.isArray(options.extendKeys) ? options.extendKeys.map(String) : [],
    },
    projections: read,
  };
}

/**
 * Compares a lockfile with the documents served now: options, added and removed projections, and per
 * projection the added and removed tools and, per tool, the JSON Pointers added, removed or changed (old
 * and new values). Projection order, tool order and key order are not compared.
 *
 * @param expectedText the lockfile text (as `writeSchemaLock` wrote it)
 * @param report what `validateMcpSchemas(tools, options)` returns now
 * @param options the options the report was made with
 * @throws Error when `expectedText` is not a lockfile this version reads (including a version-1 file)
 *
 * @example
 * ```ts
 * import { readFileSync } from 'node:fs';
 * import { validateMcpSchemas } from 'mcp-mount';
 * import { diffSchemaLock } from 'mcp-mount/lockfile';
 *
 * const diff = diffSchemaLock(readFileSync('mcp-schema.lock.json', 'utf8'), validateMcpSchemas(tools, options), options);
 * if (!diff.ok) throw new Error(diff.text);
 * ```
 */
export function diffSchemaLock(
  expectedText: string,
  report: ValidationReport,
  options: McpMountOptions = {},
): SchemaLockDiff {
  const expected = parseSchemaLock(expectedText);
  const actual = schemaLockOf(report, options);
  const changes: SchemaLockChange[] = [];

  for (const option of ['projection', 'extendKeys'] as const) {
    const before = expected.options[option];
    const after = actual.options[option];
    if (!jsonEqual(before, after)) changes.push({ kind: 'option-changed', option, before, after });
  }

  for (const projection of Object.keys(expected.projections)) {
    if (!Object.hasOwn(actual.projections, projection)) changes.push({ kind: 'projection-removed', projection });
  }
  for (const [projection, now] of Object.entries(actual.projections)) {
    const then = expected.projections[projection];
    if (!then || !Object.hasOwn(expected.projections, projection)) {
      changes.push({ kind: 'projection-added', projection });
      continue;
    }
    const before = new Map(then.tools.map((t) => [t.name, t]));
    const after = new Map(now.tools.map((t) => [t.name, t]));
    for (const tool of before.keys()) if (!after.has(tool)) changes.push({ kind: 'tool-removed', projection, tool });
    for (const [tool, doc] of after) {
      const old = before.get(tool);
      if (!old) changes.push({ kind: 'tool-added', projection, tool });
      else diffValues(projection, tool, '', old as unknown as JsonValue, doc as unknown as JsonValue, changes);
    }
  }
  const toolCount = new Set(Object.values(actual.projections).flatMap((p) => p.tools.map((t) => t.name))).size;
  const projectionNames = [...new Set([...Object.keys(actual.projections), ...Object.keys(expected.projections)])];
  return { ok: changes.length === 0, changes, text: renderChanges(changes, toolCount, projectionNames) };
}

/** Structural diff of two JSON values of one tool in one projection; appends one change per differing pointer. */
function diffValues(
  projection: string,
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
      if (!Object.hasOwn(a, key)) out.push({ kind: 'removed', projection, tool, pointer: p, before: b[key]! });
      else if (!Object.hasOwn(b, key)) out.push({ kind: 'added', projection, tool, pointer: p, after: a[key]! });
      else diffValues(projection, tool, p, b[key]!, a[key]!, out);
    }
    return;
  }
  // Arrays of scalars (`required`, `enum`, `type`) read best whole; arrays of schemas are compared by index.
  if (Array.isArray(before) && Array.isArray(after) && !(allScalars(before) && allScalars(after))) {
    const n = Math.max(before.length, after.length);
    for (let i = 0; i < n; i++) {
      const p = pointer(at, i);
      if (i >= after.length) out.push({ kind: 'removed', projection, tool, pointer: p, before: before[i]! });
      else if (i >= before.length) out.push({ kind: 'added', projection, tool, pointer: p, after: after[i]! });
      else diffValues(projection, tool, p, before[i]!, after[i]!, out);
    }
    return;
  }
  out.push({ kind: 'changed', projection, tool, pointer: at, before, after });
}

type ToolChange = Extract<SchemaLockChange, { tool: string }>;

/**
 * Renders changes grouped: options first, then added and removed projections, then per tool (in
 * alphabetical order) and per projection. With several projections, a tool's change that is the same in
 * every projection of both sides (a new description, say) is shown once, under `(every projection)`;
 * `changes` still lists it per projection. With one projection the tool heading carries no projection.
 *
 * @param projections every projection of either side, in order (the lockfile's header order is kept)
 */
function renderChanges(
  changes: readonly SchemaLockChange[],
  toolCount: number,
  projections: readonly string[] = [],
): string {
  if (changes.length === 0) return `schema lock matches: ${toolCount} tool${toolCount === 1 ? '' : 's'}, no changes`;
  const lines = [`schema lock drift: ${changes.length} change${changes.length === 1 ? '' : 's'}`];
  const options = changes.filter((c) => c.kind === 'option-changed');
  if (options.length > 0) {
    lines.push('  options');
    for (const c of options) lines.push(`    ~ ${c.option}: ${show(c.before)} → ${show(c.after)}`);
  }
  const whole = new Set<string>();
  for (const c of changes) {
    if (c.kind === 'projection-added') {
      lines.push(`  + projection ${c.projection}: served now, not in the lockfile`);
      whole.add(c.projection);
    } else if (c.kind === 'projection-removed') {
      lines.push(`  - projection ${c.projection}: in the lockfile, no longer served`);
      whole.add(c.projection);
    }
  }
  // Projections both sides serve: a change found in each of them is shown once.
  const compared = projections.filter((p) => !whole.has(p));
  const several = projections.length > 1;
  const key = (c: ToolChange) => JSON.stringify({ ...c, projection: undefined });
  const seen = new Map<string, number>();
  const toolChanges = changes.filter((c): c is ToolChange => 'tool' in c);
  for (const c of toolChanges) seen.set(key(c), (seen.get(key(c)) ?? 0) + 1);
  const everywhere = (c: ToolChange) => several && compared.length > 1 && seen.get(key(c)) === compared.length;

  const order = (p: string) => (compared.indexOf(p) === -1 ? compared.length : compared.indexOf(p));
  for (const tool of [...new Set(toolChanges.map((c) => c.tool))].sort()) {
    const own = toolChanges.filter((c) => c.tool === tool);
    const groups = new Map<string, ToolChange[]>();
    const shown = new Set<string>();
    for (const c of [...own].sort((a, b) => order(a.projection) - order(b.projection))) {
      const group = everywhere(c) ? '' : c.projection;
      if (group === '' && shown.has(key(c))) continue;
      if (group === '') shown.add(key(c));
      groups.set(group, [...(groups.get(group) ?? []), c]);
    }
    // The changes shared by every projection come first, then each projection's own.
    for (const [group, list] of [...groups].sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : 0))) {
      const heading = !several ? tool : `${tool} (${group === '' ? 'every projection' : group})`;
      for (const c of list) {
        if (c.kind === 'tool-added') lines.push(`  + ${heading}: tool added (not in the lockfile)`);
        else if (c.kind === 'tool-removed')
          lines.push(`  - ${heading}: tool removed (in the lockfile, no longer served)`);
      }
      const inner = list.filter((c) => c.kind === 'added' || c.kind === 'removed' || c.kind === 'changed');
      if (inner.length === 0) continue;
      lines.push(`  ${heading}`);
      for (const c of inner) {
        if (c.kind === 'added') lines.push(`    + ${c.pointer || '(root)'}: ${show(c.after)}`);
        else if (c.kind === 'removed') lines.push(`    - ${c.pointer || '(root)'}: ${show(c.before)}`);
        else if (c.kind === 'changed')
          lines.push(`    ~ ${c.pointer || '(root)'}: ${show(c.before)} → ${show(c.after)}`);
      }
    }
  }
  return lines.join('\n');
}

/** The projections a report serves, in its order; a report without `projections` is its `tools` alone. */
function servedProjections(report: ValidationReport): Array<[string, readonly ServedTool[]]> {
  const entries = Object.entries(report.projections ?? {}).filter(
    (entry): entry is [string, NonNullable<(typeof entry)[1]>] => entry[1] !== undefined,
  );
  if (entries.length > 0) return entries.map(([name, p]) => [name, p.tools]);
  return [[report.projection ?? 'faithful', report.tools]];
}

function lockOptions(options: McpMountOptions): SchemaLockOptions {
  return {
    projection: projectionOptionOf(options),
    extendKeys: options.arguments?.extend ? Object.keys(options.arguments.extend.schema.shape) : [],
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
  if (t.icons !== undefined) out.icons = sortKeys(t.icons);
  if (t.execution !== undefined) out.execution = sortKeys(t.execution);
  if (t._meta !== undefined) out._meta = sortKeys(t._meta);
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

/**
 * The `projection` option as the lockfile and `mcp-mount check` name it: a projection name, `'auto'`, or
 * `'function'` (`{ choose, serve }` by its `choose`); without it `'flat'` under `flattenUnionInput: true`,
 * else `'faithful'` (the defaults).
 */
export function projectionOptionOf(options: McpMountOptions): string {
  const { flattenUnionInput } = options;
  const projection = typeof options.projection === 'object' ? options.projection.choose : options.projection;
  if (typeof projection === 'function') return 'function';
  return projection ?? (flattenUnionInput === true ? 'flat' : 'faithful');
}
