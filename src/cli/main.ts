import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { McpMountOptions } from '../core/mount/options.js';
import { validateMcpSchemas } from '../core/mount/report.js';
import { PROFILES } from '../core/probe/index.js';
import { isProjectionName, PROJECTION_NAMES, type ProjectionName } from '../core/projection/names.js';
import { diffSchemaLock, projectionOptionOf, type SchemaLockDiff, writeSchemaLock } from '../lockfile/lockfile.js';
import { formatCheckReport, type ProjectionView } from './format.js';
import { loadToolModule, ModuleLoadError } from './load.js';

/** Where the CLI writes; the process streams in `index.ts`, buffers in tests. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
}

/** Exit codes: 0 ok; 1 schema errors or lockfile drift; 2 usage, module or lockfile-read error. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

export const USAGE = `Usage: mcp-mount check <module> [options]

Loads <module> (named exports \`tools\` and optional \`options\`, or a default export that is the
tools array or { tools, options }), runs validateMcpSchemas on exactly what a mount with those
options serves, and prints every issue by tool, with JSON Pointers. .ts modules are loaded with tsx.

Options:
  --projection NAME    show the issues of one projection the mount serves (its \`projection\` option decides
                       which): ${PROJECTION_NAMES.join(', ')}; --json prints its documents too
  --all-projections    show every projection the mount serves, one section each
                       (without either: the default projection, and a line naming the others)
  --projection-option VALUE
                       check the mount as if its \`projection\` option were VALUE: auto or a projection name
                       (replaces the module's projection, projections and flattenUnionInput)
  --flat               set flattenUnionInput: true (shorthand for --projection-option flat)
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
  -h, --help           show this help

Errors in any served projection fail the check, shown or not, as they fail the mount.
Exit codes: 0 ok; 1 schema errors or lockfile drift; 2 usage, module or lockfile error.`;

/** Runs the CLI with `argv` (without `node` and the script) and returns the exit code. Never throws. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let parsed: ReturnType<typeof parse>;
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
  if (command !== 'check' || modulePath === undefined || extra.length > 0) {
    const problem =
      command === undefined
        ? 'no command'
        : command !== 'check'
          ? `unknown command "${command}"`
          : modulePath === undefined
            ? 'check needs a module path'
            : `unexpected argument "${extra[0]}"`;
    io.stderr(`mcp-mount: ${problem}\n\n${USAGE}\n`);
    return EXIT.usage;
  }
  if (values.write !== undefined && values['check-lock'] !== undefined) {
    io.stderr('mcp-mount: use either --write or --check-lock, not both\n');
    return EXIT.usage;
  }

  let loaded: Awaited<ReturnType<typeof loadToolModule>>;
  try {
    loaded = await loadToolModule(modulePath, io.cwd);
  } catch (error) {
    io.stderr(
      `mcp-mount: ${error instanceof ModuleLoadError ? error.message : `cannot load ${modulePath}: ${messageOf(error)}`}\n`,
    );
    return EXIT.usage;
  }

  const options = withFlags(loaded.options, {
    flat: values.flat === true,
    projection: values['projection-option'] as ProjectionName | 'auto' | undefined,
    profiles: values.profile ?? [],
    requireTypedProperties: values['require-typed-properties'] === true,
    allowUntyped: values['allow-untyped'] ?? [],
    requirePortableFormats: values['require-portable-formats'] === true,
    allowFormats: values['allow-format'] ?? [],
  });
  const report = validateMcpSchemas(loaded.tools, options);
  const view: ProjectionView = values['all-projections']
    ? { kind: 'all' }
    : values.projection !== undefined
      ? { kind: 'one', projection: values.projection as ProjectionName }
      : { kind: 'default' };
  const served = Object.keys(report.projections);
  // An empty `projections` means the check stopped before any tool (an invalid option): that report is shown.
  if (view.kind === 'one' && served.length > 0 && !served.includes(view.projection)) {
    io.stderr(
      `mcp-mount: --projection ${view.projection}: the mount does not serve it; it serves ${served.join(', ')} ` +
        `(its projection option is ${projectionOptionOf(options)}). To check a mount that serves ${view.projection}, ` +
        `add --projection-option ${view.projection}${view.projection !== 'faithful' ? ' or --projection-option auto' : ''}.\n`,
    );
    return EXIT.usage;
  }
  let exit: number = report.ok ? EXIT.ok : EXIT.failed;
  const notes: string[] = [];

  let lock: SchemaLockDiff | undefined;
  const lockPath = values['check-lock'];
  if (lockPath !== undefined) {
    try {
      lock = diffSchemaLock(await readFile(resolve(io.cwd, lockPath), 'utf8'), report, options);
    } catch (error) {
      io.stderr(`mcp-mount: cannot check ${lockPath}: ${messageOf(error)}\n`);
      return EXIT.usage;
    }
    if (!lock.ok) exit = EXIT.failed;
    notes.push(`${lockPath}: ${lock.text}`);
  }

  const writePath = values.write;
  if (writePath !== undefined) {
    if (report.ok) {
      await writeFile(resolve(io.cwd, writePath), writeSchemaLock(report, options));
      const count = Math.max(1, served.length);
      notes.push(
        `wrote ${writePath}: ${report.tools.length} tool document${report.tools.length === 1 ? '' : 's'}` +
          (count > 1 ? ` in each of ${count} projections (${served.join(', ')})` : ''),
      );
    } else {
      notes.push(`did not write ${writePath}: fix the errors first (a mount with these schemas serves nothing)`);
    }
  }

  if (values.json) {
    io.stdout(
      `${JSON.stringify(lock ? { ...report, lock: { ok: lock.ok, changes: lock.changes } } : report, null, 2)}\n`,
    );
    if (notes.length > 0) io.stderr(`${notes.join('\n')}\n`);
  } else {
    const names = loaded.tools.map((t) => t.name);
    io.stdout(`${formatCheckReport(modulePath, names, report, options, view)}\n`);
    if (notes.length > 0) io.stdout(`\n${notes.join('\n')}\n`);
  }
  return exit;
}

/**
 * Parses the arguments. A value no option can take is a usage error (exit 2), like an unknown flag: an
 * unknown `--profile`, an `--allow-untyped` that is not `TOOL:POINTER`.
 *
 * @throws TypeError for any usage error.
 */
function parse(argv: readonly string[]) {
  const parsed = parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      projection: { type: 'string' },
      'all-projections': { type: 'boolean' },
      'projection-option': { type: 'string' },
      flat: { type: 'boolean' },
      profile: { type: 'string', multiple: true },
      'require-typed-properties': { type: 'boolean' },
      'allow-untyped': { type: 'string', multiple: true },
      'require-portable-formats': { type: 'boolean' },
      'allow-format': { type: 'string', multiple: true },
      json: { type: 'boolean' },
      write: { type: 'string' },
      'check-lock': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const { projection, 'projection-option': option, 'all-projections': all, flat } = parsed.values;
  if (projection !== undefined && !isProjectionName(projection)) {
    throw new TypeError(`unknown projection "${projection}" (known: ${PROJECTION_NAMES.join(', ')})`);
  }
  if (projection !== undefined && all) throw new TypeError('use either --projection or --all-projections, not both');
  if (option !== undefined && option !== 'auto' && !isProjectionName(option)) {
    throw new TypeError(
      `--projection-option takes auto or a projection name (${PROJECTION_NAMES.join(', ')}), got "${option}"`,
    );
  }
  if (flat && option !== undefined && option !== 'flat') {
    throw new TypeError(`--flat is --projection-option flat; it cannot be combined with --projection-option ${option}`);
  }
  for (const profile of parsed.values.profile ?? []) {
    if (!Object.hasOwn(PROFILES, profile)) {
      throw new TypeError(`unknown profile "${profile}" (known: ${Object.keys(PROFILES).join(', ')})`);
    }
  }
  for (const entry of parsed.values['allow-untyped'] ?? []) {
    // `<tool>:<JSON pointer>`, the pointer `""` or starting with `/` (docs/design/probe.md).
    if (!/^[^:]+:(\/.*)?$/.test(entry)) {
      throw new TypeError(`--allow-untyped takes TOOL:POINTER, e.g. search:/properties/payload, got "${entry}"`);
    }
  }
  return parsed;
}

/** What the command line adds to the module's options. */
export interface CheckFlags {
  /** `--flat`: `flattenUnionInput: true`, in place of the module's `projection` and `flattenUnionInput`. */
  flat?: boolean;
  /** `--projection-option`: the `projection` option, in place of the module's `projection` and `flattenUnionInput`. */
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
 * on, a list flag adds to the module's list (each value once). The projection flags (`--projection-option`,
 * `--flat`) replace the module's choice of documents, as a command line overrides a config file: the
 * options cannot hold both a `projection` and `flattenUnionInput: true`. The rest is kept as it is.
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

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
