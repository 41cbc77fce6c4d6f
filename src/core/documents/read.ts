/**
 * Build-time documents: the module `mcp-mount check --emit` writes, and the reader a mount checks it with
 * (docs/decisions/0024-build-time-documents.md). The reader imports no conversion, projection or probe, so
 * that an entry serving these documents leaves them out of its bundle: it only stamps the tools (stamps.ts)
 * and compares. `mcp-mount check --verify` compares the documents themselves (verify.ts).
 */
import { deepFreeze } from '../json-schema/freeze.js';
import type { JsonSchema } from '../json-schema/types.js';
import type { AnyTool } from '../model/tool.js';
import type { SchemaIssue } from '../probe/issue.js';
import type { ProjectionName } from '../projection/names.js';
import { changedParts, type DocumentsShape, type OptionsStamp, optionsStamp, toolStamp } from './stamps.js';

/**
 * The one format this version reads and writes: a new one each time what a module records changes (4: stamps
 * in place of the fingerprints of 2 and 3), so that a module of an earlier format is reported stale for its
 * format, not as every tool changed.
 */
export const BUILT_DOCUMENTS_FORMAT = 4;

/** One tool in a documents module. Documents are indexes into `BuiltDocuments.documents`. */
export interface BuiltTool {
  name: string;
  /** `toolStamp` of the tool when the documents were built. */
  stamp: string;
  /** False when no projection can serve it (never in an emitted module: it is written only without errors). */
  servable: boolean;
  /** Top-level keys every call must carry (the mount's `PreparedTool.requiredKeys`). */
  requiredKeys: string[];
  /** The index of its `inputSchema` text, per served projection that can serve it. */
  input: Partial<Record<ProjectionName, number>>;
  /** The index of its `outputSchema` text, per served projection, when the tool declares `output`. */
  output?: Partial<Record<ProjectionName, number>>;
}

/** What a documents module exports (`export default`). */
export interface BuiltDocuments {
  format: typeof BUILT_DOCUMENTS_FORMAT;
  /** The command that wrote it, for the stale reasons to repeat. */
  command?: string;
  options: OptionsStamp;
  /** The projections the documents are for, in the mount's order, and the default one. */
  projections: { default: ProjectionName; served: ProjectionName[] };
  /** The tools in the mount's order. */
  tools: BuiltTool[];
  /** The probe's issues (warnings and notes: a module is written only without errors). */
  issues: SchemaIssue[];
  /** Every distinct document as its JSON text, exactly as `tools/list` sends it; tools refer to them by index. */
  documents: string[];
}

/** A tool whose documents match: what it serves, as text and (parsed on first use, deep-frozen) as objects. */
export interface MatchedTool {
  readonly name: string;
  readonly servable: boolean;
  readonly requiredKeys: readonly string[];
  /** The projections with an input document for it, in the mount's order. */
  readonly projections: readonly ProjectionName[];
  readonly hasOutput: boolean;
  inputText(projection: ProjectionName): string | undefined;
  inputSchema(projection: ProjectionName): JsonSchema | undefined;
  outputText(projection: ProjectionName): string | undefined;
  outputSchema(projection: ProjectionName): JsonSchema | undefined;
}

/** Why documents cannot be served; `tool` names a tool of the mount or of the module, absent for the whole module. */
export interface StaleDocuments {
  kind: 'format' | 'options' | 'changed' | 'added' | 'removed' | 'unreadable';
  tool?: string;
  /** What changed and the command to run, for a person: `tool "x": its input schema changed since ...`. */
  reason: string;
}

/** What `matchDocuments` found. */
export interface DocumentsMatch {
  /** The tools whose documents can be served, by name; every other tool must be prepared. */
  matched: ReadonlyMap<string, MatchedTool>;
  /** Each reason a tool (or the whole module) cannot be served from the documents; empty when all match. */
  stale: StaleDocuments[];
  /** The module's issues of the matched tools, and those of no tool (names, the server hook). */
  issues: SchemaIssue[];
  projections: { readonly default: ProjectionName; readonly served: readonly ProjectionName[] };
}

/**
 * Matches a documents module against the tools and options a mount is given. Never throws: a module that is
 * not one, of another format, for other options, and each tool changed, added or removed, is a `stale` entry
 * with a reason to act on. With a module-wide reason (`format`, `options`) no tool matches.
 *
 * @param tools the mount's tools, in its order
 * @param shape what of the mount's options shapes its documents
 * @param built the default export of the module `mcp-mount check <module> --emit <file>` wrote
 * @example
 * ```ts
 * const match = matchDocuments(tools, { projections, validation, extend }, documents);
 * if (match.stale.length > 0) throw new Error(match.stale.map((s) => s.reason).join('\n'));
 * const text = match.matched.get('search')!.inputText('flat'); // the inputSchema, as JSON text
 * ```
 */
export function matchDocuments(tools: readonly AnyTool[], shape: DocumentsShape, built: unknown): DocumentsMatch {
  const { projections } = shape;
  const none = (stale: StaleDocuments): DocumentsMatch => ({
    matched: new Map(),
    stale: [stale],
    issues: [],
    projections,
  });
  const module = readModule(built);
  if (typeof module === 'string') return none({ kind: 'format', reason: module });
  const rerun = `run \`${module.command ?? 'mcp-mount check <module> --emit <file>'}\` again`;
  const options = optionsMismatch(module.options, optionsStamp(shape));
  if (options)
    return none({ kind: 'options', reason: `the documents were built for other options: ${options}; ${rerun}` });
  const texts = new DocumentTexts(module.documents);
  const byName = new Map(module.tools.map((t) => [t.name, t]));
  const matched = new Map<string, MatchedTool>();
  const stale: StaleDocuments[] = [];
  for (const tool of tools) {
    const entry = byName.get(tool.name);
    byName.delete(tool.name);
    const reason = entry
      ? staleReason(tool, entry, shape, texts)
      : 'is not in the documents (added since they were built)';
    if (reason === undefined) matched.set(tool.name, matchedTool(entry!, projections.served, texts));
    else
      stale.push({
        kind: entry ? 'changed' : 'added',
        tool: tool.name,
        reason: `tool "${tool.name}" ${reason}; ${rerun}`,
      });
  }
  for (const name of byName.keys()) {
    stale.push({
      kind: 'removed',
      tool: name,
      reason: `tool "${name}" is in the documents but not in the mount (removed since they were built); ${rerun}`,
    });
  }
  const names = new Set(module.tools.map((t) => t.name));
  const issues = module.issues.filter((i) => matched.has(i.tool) || !names.has(i.tool));
  return { matched, stale, issues, projections };
}

/** The module, or why it is not one this version reads. */
function readModule(built: unknown): BuiltDocuments | string {
  const expected = 'expected the default export of a module written by `mcp-mount check <module> --emit <file>`';
  if (typeof built !== 'object' || built === null) return `the documents are not an object; ${expected}`;
  const module = built as Partial<BuiltDocuments>;
  if (module.format !== BUILT_DOCUMENTS_FORMAT) {
    return `the documents are of format ${JSON.stringify(module.format)}, and this version of mcp-mount reads format ${BUILT_DOCUMENTS_FORMAT}: write them again with the same mcp-mount the server runs`;
  }
  const ok =
    Array.isArray(module.tools) &&
    Array.isArray(module.issues) &&
    Array.isArray(module.documents) &&
    typeof module.options === 'object' &&
    module.options !== null;
  return ok ? (module as BuiltDocuments) : `the documents lack tools, issues, documents or options; ${expected}`;
}

const OPTION_PARTS: ReadonlyArray<[keyof OptionsStamp, string]> = [
  ['mount', 'the mcp-mount version'],
  ['zod', 'the Zod version'],
  ['projections', 'the projections served (default:served)'],
  ['validation', 'the schemaValidation options'],
  ['extend', "extend's keys"],
];

/** The options parts that differ, named, with the values where they mean something to a person. */
function optionsMismatch(before: OptionsStamp, now: OptionsStamp): string | undefined {
  const changed = OPTION_PARTS.filter(([key]) => before[key] !== now[key]).map(([key, name]) =>
    key === 'mount' || key === 'zod' || key === 'projections'
      ? `${name} ${before[key] ?? 'unrecorded'} → ${now[key]}`
      : `${name} changed`,
  );
  return changed.length > 0 ? changed.join(', ') : undefined;
}

/** Why a tool's entry no longer describes it, or undefined when it does (as far as its stamp can tell). */
function staleReason(tool: AnyTool, entry: BuiltTool, shape: DocumentsShape, texts: DocumentTexts): string | undefined {
  let now: string;
  try {
    now = toolStamp(tool, shape.extend);
  } catch (error) {
    return `cannot be stamped (${error instanceof Error ? error.message : String(error)})`;
  }
  if (now !== entry.stamp) {
    const parts = changedParts(entry.stamp, now).map((p) =>
      p === 'extend' ? 'whether extend applies to it' : `${p} schema's top-level keys`,
    );
    return `changed since the documents were built: ${parts.join(' and ')}`;
  }
  const indexes = [...Object.values(entry.input), ...Object.values(entry.output ?? {})];
  if (!indexes.every((i) => texts.has(i))) return 'refers to documents the module does not hold (the file was edited)';
  return undefined;
}

/** The module's texts, each parsed (and deep-frozen) once, on first use, for every tool that shares it. */
class DocumentTexts {
  private readonly parsed: Array<JsonSchema | undefined> = [];
  constructor(private readonly texts: readonly string[]) {}

  has(index: unknown): boolean {
    return typeof index === 'number' && typeof this.texts[index] === 'string';
  }

  text(index: number | undefined): string | undefined {
    return index === undefined ? undefined : this.texts[index];
  }

  schema(index: number | undefined): JsonSchema | undefined {
    if (index === undefined) return undefined;
    this.parsed[index] ??= deepFreeze(JSON.parse(this.texts[index]!) as JsonSchema);
    return this.parsed[index];
  }
}

function matchedTool(entry: BuiltTool, served: readonly ProjectionName[], texts: DocumentTexts): MatchedTool {
  const { input, output } = entry;
  return {
    name: entry.name,
    servable: entry.servable,
    requiredKeys: Object.freeze([...entry.requiredKeys]),
    projections: served.filter((p) => input[p] !== undefined),
    hasOutput: output !== undefined,
    inputText: (p) => texts.text(input[p]),
    inputSchema: (p) => texts.schema(input[p]),
    outputText: (p) => texts.text(output?.[p]),
    outputSchema: (p) => texts.schema(output?.[p]),
  };
}
