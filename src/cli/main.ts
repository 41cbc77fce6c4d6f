import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { ValidationReport } from '../core/prepare/report.js';
import { PROFILES } from '../core/probe/index.js';
import { isProjectionName, PROJECTION_NAMES, type ProjectionName } from '../core/projection/names.js';
import type { McpMountOptions } from '../core/serve/options.js';
import { diffSchemaLock, projectionOptionOf, type SchemaLockDiff, writeSchemaLock } from '../lockfile/lockfile.js';
import { checkTools, emitDocuments, verifyDocumentsFile } from './emit.js';
import { formatCheckReport, type ProjectionView } from './format.js';
import { loadDefaultExport, loadToolModule, ModuleLoadError } from './load.js';

/** Where the CLI writes; the process streams in `index.ts`, buffers in tests. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
}

/** Exit codes: 0 ok; 1 schema errors or lockfile drift; 2 usage, module or lockfile-read error. */
const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

const USAGE = `Usage: mcp-mount check <module> [options]

Loads <module> (named exports \`tools\` and optional \`options\`, or a default export that is the
tools array or { tools, options }), runs validateMcpSchemas on exactly what a mount with those
options serves, and prints every issue by tool, with JSON Pointers. .ts modules are loaded with tsx.

Options:
  --projection auto|NAME
                       check the mount as if its \`projection\` option were auto or NAME (what it serves;
                       replaces the module's projection and flattenUnionInput; auto keeps its serve list)
  --flat               set flattenUnionInput: true (shorthand for --projection flat)
  --show NAME          show the issues of one projection the mount serves (its \`projection\` option decides
                       which): ${PROJECTION_NAMES.join(', ')}; --json prints its documents too
  --all-projections    show every projection the mount serves, one section each
                       (without either: the default projection, and a line naming the others)
  --profile NAME       also check against a client profile (repeatable): ${Object.keys(PROFILES).join(', ')}
  --require-typed-properties
                       every property must carry type, enum or const (requireTypedProperties)
  --allow-untyped TOOL:POINTER
                       exempt one property from --require-typed-properties (repeatable; allowUntyped)
  --require-portable-formats
                       only formats common clients accept (requirePortableFormats)
  --allow-format NAME  accept one more format under --require-portable-formats (repeatable; allowFormats)
  --json               print the ValidationReport, every projection, as JSON (with "lock" when --check-lock is given)
  --write FILE         write the schema lockfile: every served projection's tools/list (only when there are no errors)
  --check-lock FILE    compare every served projection with a schema lockfile; fail with a diff on drift
  --emit FILE          write the build-time documents module (.js or .ts): every served projection's documents
                       and a stamp per tool, for a mount given \`documents\` (only when there are no errors,
                       and only when its text changed)
  --verify FILE        check that the documents module FILE is exactly what --emit would write now; fail,
                       naming each stale tool and the command to write it again (run it in CI and the build)
  -h, --help           show this help

Errors in any served projection fail the check, shown or not, as they fail the mount.
Exit codes: 0 ok; 1 schema errors, lockfile drift or stale documents; 2 usage, module or lockfile error.`;

type Parsed = ReturnType<typeof parse>;
type Values = Parsed['values'];

/** A `check` the command line asked for. */
interface CheckCommand {
  modulePath: string;
  values: Values;
}

/** Runs the CLI with `argv` (without `node` and the script) and returns the exit code. Never throws. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const command = readCommand(argv, io);
  if (typeof command === 'number') return command;
  const { modulePath, values } = command;
  let loaded: Awaited<ReturnType<typeof loadToolModule>>;
  try {
    loaded = await loadToolModule(modulePath, io.cwd);
  } catch (error) {
    const why = error instanceof ModuleLoadError ? error.message : `cannot load ${modulePath}: ${messageOf(error)}`;
    io.stderr(`mcp-mount: ${why}\n`);
    return EXIT.usage;
  }
  const options = withFlags(loaded.options, flagsOf(values));
  const checked = checkTools(loaded.tools, options);
  const { report } = checked;
  const view = viewOf(values);
  const unserved = unservedView(view, report, options);
  if (unserved) {
    io.stderr(unserved);
    return EXIT.usage;
  }
  const notes: string[] = [];
  const lock = await checkLock(values['check-lock'], report, options, io, notes);
  if (lock === 'unreadable') return EXIT.usage;
  await writeLock(values.write, report, options, io, notes);
  await emitDocuments(values.emit, checked, commandLine(argv), io.cwd, notes);
  const emit = commandLine(argv.map((a) => (a === '--verify' ? '--emit' : a)));
  const load = (path: string) => loadDefaultExport(path, io.cwd);
  const verified = await verifyDocumentsFile(values.verify, checked, emit, load, notes);
  print(
    {
      modulePath,
      names: loaded.tools.map((t) => t.name),
      report,
      options,
      view,
      lock,
      notes,
      json: values.json === true,
    },
    io,
  );
  return report.ok && lock?.ok !== false && verified !== 'stale' ? EXIT.ok : EXIT.failed;
}

/** The command, or the exit code when there is none to run (help, a usage error, already reported). */
function readCommand(argv: readonly string[], io: CliIo): CheckCommand | number {
  let parsed: Parsed;
  try {
    parsed = parse(argv);
  } catch (error) {
    io.stderr(`mcp-mount: ${messageOf(error)}\n\n${USAGE}\n`);
    return EXIT.usage;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout(`${USAGE}\n`);
    return EXIT.ok;
  }
  const [command, modulePath, ...extra] = positionals;
  const problem =
    command === undefined
      ? 'no command'
      : command !== 'check'
        ? `unknown command "${command}"`
        : modulePath === undefined
          ? 'check needs a module path'
          : extra.length > 0
            ? `unexpected argument "${extra[0]}"`
            : undefined;
  if (problem !== undefined || modulePath === undefined) {
    io.stderr(`mcp-mount: ${problem}\n\n${USAGE}\n`);
    return EXIT.usage;
  }
  if (values.write !== undefined && values['check-lock'] !== undefined) {
    io.stderr('mcp-mount: use either --write or --check-lock, not both\n');
    return EXIT.usage;
  }
  return { modulePath, values };
}

function flagsOf(values: Values): CheckFlags {
  return {
    flat: values.flat === true,
    projection: values.projection as ProjectionName | 'auto' | undefined,
    profiles: values.profile ?? [],
    requireTypedProperties: values['require-typed-properties'] === true,
    allowUntyped: values['allow-untyped'] ?? [],
    requirePortableFormats: values['require-portable-formats'] === true,
    allowFormats: values['allow-format'] ?? [],
  };
}

function viewOf(values: Values): ProjectionView {
  if (values['all-projections']) return { kind: 'all' };
  if (values.show !== undefined) return { kind: 'one', projection: values.show as ProjectionName };
  return { kind: 'default' };
}

/** The usage error for `--show` of a projection the mount does not serve, else undefined. */
function unservedView(view: ProjectionView, report: ValidationReport, options: McpMountOptions): string | undefined {
  const served = Object.keys(report.projections);
  // An empty `projections` means the check stopped before any tool (an invalid option): that report is shown.
  if (view.kind !== 'one' || served.length === 0 || served.includes(view.projection)) return undefined;
  const name = view.projection;
  return (
    `mcp-mount: --show ${name}: the mount does not serve it; it serves ${served.join(', ')} ` +
    `(its projection option is ${projectionOptionOf(options)}). To check a mount that serves ${name}, ` +
    `add --projection ${name}${name !== 'faithful' ? ' or --projection auto' : ''}.\n`
  );
}

/** `--check-lock`: the diff (its line added to `notes`), or `'unreadable'` once reported. */
async function checkLock(
  lockPath: string | undefined,
  report: ValidationReport,
  options: McpMountOptions,
  io: CliIo,
  notes: string[],
): Promise<SchemaLockDiff | 'unreadable' | undefined> {
  if (lockPath === undefined) return undefined;
  let lock: SchemaLockDiff;
  try {
    lock = diffSchemaLock(await readFile(resolve(io.cwd, lockPath), 'utf8'), report, options);
  } catch (error) {
    io.stderr(`mcp-mount: cannot check ${lockPath}: ${messageOf(error)}\n`);
    return 'unreadable';
  }
  notes.push(`${lockPath}: ${lock.text}`);
  return lock;
}

/** `--write`: the lockfile, only for a report without errors; either way a line in `notes`. */
async function writeLock(
  writePath: string | undefined,
  report: ValidationReport,
  options: McpMountOptions,
  io: CliIo,
  notes: string[],
): Promise<void> {
  if (writePath === undefined) return;
  if (!report.ok) {
    notes.push(`did not write ${writePath}: fix the errors first (a mount with these schemas serves nothing)`);
    return;
  }
  await writeFile(resolve(io.cwd, writePath), writeSchemaLock(report, options));
  const served = Object.keys(report.projections);
  const count = Math.max(1, served.length);
  const documents = `${report.tools.length} tool document${report.tools.length === 1 ? '' : 's'}`;
  notes.push(
    `wrote ${writePath}: ${documents}${count > 1 ? ` in each of ${count} projections (${served.join(', ')})` : ''}`,
  );
}

/** What a check prints. */
interface Printed {
  modulePath: string;
  names: string[];
  report: ValidationReport;
  options: McpMountOptions;
  view: ProjectionView;
  lock: SchemaLockDiff | undefined;
  notes: string[];
  json: boolean;
}

/** The report (JSON, notes on stderr; or the human report, notes after it). */
function print(p: Printed, io: CliIo): void {
  if (p.json) {
    const lock = p.lock && { ok: p.lock.ok, changes: p.lock.changes };
    io.stdout(`${JSON.stringify(lock ? { ...p.report, lock } : p.report, null, 2)}\n`);
    if (p.notes.length > 0) io.stderr(`${p.notes.join('\n')}\n`);
    return;
  }
  io.stdout(`${formatCheckReport(p.modulePath, p.names, p.report, p.options, p.view)}\n`);
  if (p.notes.length > 0) io.stdout(`\n${p.notes.join('\n')}\n`);
}

/** The flags 0.0 spelt otherwise: refused with their new spelling rather than "unknown option". */
const RENAMED_FLAGS: Readonly<Record<string, string>> = {
  '--projection-option': '--projection-option is --projection since 0.1 (what the mount serves)',
};

/**
 * Parses the arguments. A value no option can take is a usage error (exit 2), like an unknown flag: an
 * unknown `--profile`, an `--allow-untyped` that is not `TOOL:POINTER`.
 *
 * @throws TypeError for any usage error.
 */
function parse(argv: readonly string[]) {
  for (const arg of argv) {
    const renamed = RENAMED_FLAGS[arg.split('=')[0]!];
    if (renamed) throw new TypeError(renamed);
  }
  const parsed = parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      projection: { type: 'string' },
      flat: { type: 'boolean' },
      show: { type: 'string' },
      'all-projections': { type: 'boolean' },
      profile: { type: 'string', multiple: true },
      'require-typed-properties': { type: 'boolean' },
      'allow-untyped': { type: 'string', multiple: true },
      'require-portable-formats': { type: 'boolean' },
      'allow-format': { type: 'string', multiple: true },
      json: { type: 'boolean' },
      write: { type: 'string' },
      'check-lock': { type: 'string' },
      emit: { type: 'string' },
      verify: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  checkProjectionFlags(parsed.values);
  checkValidationFlags(parsed.values);
  return parsed;
}

/** `--projection`, `--flat`, `--show`, `--all-projections`. @throws TypeError for a usage error. */
function checkProjectionFlags(values: {
  projection?: string;
  flat?: boolean;
  show?: string;
  'all-projections'?: boolean;
}) {
  const { projection, flat, show, 'all-projections': all } = values;
  if (show !== undefined && !isProjectionName(show)) {
    throw new TypeError(`--show: unknown projection "${show}" (known: ${PROJECTION_NAMES.join(', ')})`);
  }
  if (show !== undefined && all) throw new TypeError('use either --show or --all-projections, not both');
  if (projection !== undefined && projection !== 'auto' && !isProjectionName(projection)) {
    throw new TypeError(
      `--projection takes auto or a projection name (${PROJECTION_NAMES.join(', ')}), got "${projection}"`,
    );
  }
  if (flat && projection !== undefined && projection !== 'flat') {
    throw new TypeError(`--flat is --projection flat; it cannot be combined with --projection ${projection}`);
  }
}

/** `--profile`, `--allow-untyped`. @throws TypeError for a value no option can take. */
function checkValidationFlags(values: { profile?: string[]; 'allow-untyped'?: string[] }) {
  for (const profile of values.profile ?? []) {
    if (!Object.hasOwn(PROFILES, profile)) {
      throw new TypeError(`unknown profile "${profile}" (known: ${Object.keys(PROFILES).join(', ')})`);
    }
  }
  for (const entry of values['allow-untyped'] ?? []) {
    // `<tool>:<JSON pointer>`, the pointer `""` or starting with `/` (docs/design/probe.md).
    if (!/^[^:]+:(\/.*)?$/.test(entry)) {
      throw new TypeError(`--allow-untyped takes TOOL:POINTER, e.g. search:/properties/payload, got "${entry}"`);
    }
  }
}

/** What the command line adds to the module's options. */
interface CheckFlags {
  /** `--flat`: `flattenUnionInput: true`, in place of the module's `projection` and `flattenUnionInput`. */
  flat?: boolean;
  /** `--projection`: the `projection` option, in place of the module's `projection` and `flattenUnionInput`. */
  projection?: ProjectionName | 'auto';
  /** `--profile` (repeatable): added to `schemaValidation.profiles`. */
  profiles?: readonly string[];
  /** `--require-typed-properties`: `schemaValidation.requireTypedProperties: true`. */
  requireTypedProperties?: boolean;
  /** `--allow-untyped` (repeatable): added to `schemaValidation.allowUntyped`. */
  allowUntyped?: readonly string[];
  /** `--require-portable-formats`: `schemaValidation.requirePortableFormats: true`. */
  requirePortableFormats?: boolean;
  /** `--allow-format` (repeatable): added to `schemaValidation.allowFormats`. */
  allowFormats?: readonly string[];
}

/**
 * The module's options with the flags on top. A check flag only ever adds: a boolean flag turns its check
 * on, a list flag adds to the module's list (each value once). The projection flags (`--projection`,
 * `--flat`) replace the module's choice of documents, as a command line overrides a config file: the
 * options cannot hold both a `projection` and `flattenUnionInput: true`. The rest is kept as it is.
 * @internal exported for its tests alone
 */
export function withFlags(options: McpMountOptions, flags: CheckFlags): McpMountOptions {
  const out: McpMountOptions = { ...options };
  if (flags.projection !== undefined || flags.flat) {
    delete out.projection;
    delete out.flattenUnionInput;
    // The module's `serve` list stays with 'auto'; a named projection decides alone what is served now.
    const listed = typeof options.projection === 'object' ? options.projection.serve : undefined;
    if (flags.projection === 'auto' && listed) out.projection = { choose: 'auto', serve: listed };
    else if (flags.projection !== undefined) out.projection = flags.projection;
    else out.flattenUnionInput = true;
  }
  const validation = { ...options.schemaValidation };
  const union = (existing: readonly string[] | undefined, added: readonly string[] | undefined) =>
    added && added.length > 0 ? [...new Set([...(existing ?? []), ...added])] : undefined;
  const profiles = union(validation.profiles, flags.profiles);
  const allowUntyped = union(validation.allowUntyped, flags.allowUntyped);
  const allowFormats = union(validation.allowFormats, flags.allowFormats);
  let changed = false;
  if (profiles) [validation.profiles, changed] = [profiles, true];
  if (allowUntyped) [validation.allowUntyped, changed] = [allowUntyped, true];
  if (allowFormats) [validation.allowFormats, changed] = [allowFormats, true];
  if (flags.requireTypedProperties) [validation.requireTypedProperties, changed] = [true, true];
  if (flags.requirePortableFormats) [validation.requirePortableFormats, changed] = [true, true];
  if (changed) out.schemaValidation = validation;
  return out;
}

/** The command as typed, for the documents' header and stale reasons to repeat; arguments with spaces quoted. */
function commandLine(argv: readonly string[]): string {
  return ['mcp-mount', ...argv.map((a) => (/^[\w./:=@+-]+$/.test(a) ? a : JSON.stringify(a)))].join(' ');
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
