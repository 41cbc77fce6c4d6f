import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isPlainObject } from '../core/json-schema/types.js';
import type { AnyTool } from '../core/model/tool.js';
import type { McpMountOptions } from '../core/serve/options.js';

/** What a checked module provides. */
export interface LoadedModule {
  tools: AnyTool[];
  options: McpMountOptions;
}

/** A problem with the module itself (not found, wrong exports, TypeScript without tsx); exit code 2. */
export class ModuleLoadError extends Error {
  override name = 'ModuleLoadError';
}

const TS_EXTENSIONS = new Set(['.ts', '.mts', '.cts', '.tsx']);

const CONTRACT =
  'export `tools` (an array of defineTool(...) results) and optionally `options`, or a default export that is the array or `{ tools, options }`';

/**
 * Imports the module at `path` (relative to `cwd`) and reads its tools and options.
 * TypeScript files are imported with tsx's `tsImport`, with the nearest `tsconfig.json` above the
 * module (so its `paths` apply, as they do under `tsx` itself).
 */
export async function loadToolModule(path: string, cwd: string): Promise<LoadedModule> {
  return readExports(await importModule(path, cwd), path);
}

/** The default export of the module at `path` (a documents module, say), loaded as `loadToolModule` loads one. */
export async function loadDefaultExport(path: string, cwd: string): Promise<unknown> {
  return (await importModule(path, cwd)).default;
}

async function importModule(path: string, cwd: string): Promise<Record<string, unknown>> {
  const file = resolve(cwd, path);
  if (!existsSync(file)) throw new ModuleLoadError(`module not found: ${file}`);
  return TS_EXTENSIONS.has(extname(file)) ? await importTypeScript(file, cwd) : await importPlain(file);
}

async function importPlain(file: string): Promise<Record<string, unknown>> {
  try {
    return await import(pathToFileURL(file).href);
  } catch (error) {
    throw new ModuleLoadError(`cannot import ${file}: ${messageOf(error)}`);
  }
}

type TsImport = (specifier: string, options: { parentURL: string; tsconfig?: string | false }) => Promise<any>;

async function importTypeScript(file: string, cwd: string): Promise<Record<string, unknown>> {
  const tsImport = await findTsImport(cwd);
  if (!tsImport) {
    // No tsx to call: a loader the process already runs under (tsx, Node's type stripping) may still do.
    try {
      return await import(pathToFileURL(file).href);
    } catch (error) {
      if ((error as { code?: unknown })?.code !== 'ERR_UNKNOWN_FILE_EXTENSION') {
        throw new ModuleLoadError(`cannot import ${file}: ${messageOf(error)}`);
      }
      throw new ModuleLoadError(
        `${file} is TypeScript, and tsx (used to load it) is not installed. Install it (npm i -D tsx), ` +
          'or run the CLI under tsx (npx tsx node_modules/mcp-mount/dist/cli/index.js check ...), ' +
          'or build the module and check the .js file.',
      );
    }
  }
  const tsconfig = nearestTsconfig(dirname(file));
  try {
    return await tsImport(pathToFileURL(file).href, { parentURL: import.meta.url, ...(tsconfig ? { tsconfig } : {}) });
  } catch (error) {
    throw new ModuleLoadError(`cannot import ${file}: ${messageOf(error)}`);
  }
}

/** tsx is an optional peer: resolved from mcp-mount itself, then from the working directory. */
async function findTsImport(cwd: string): Promise<TsImport | undefined> {
  try {
    return ((await import('tsx/esm/api')) as { tsImport: TsImport }).tsImport;
  } catch {
    try {
      return (createRequire(join(cwd, 'noop.js'))('tsx/esm/api') as { tsImport: TsImport }).tsImport;
    } catch {
      return undefined;
    }
  }
}

function nearestTsconfig(dir: string): string | undefined {
  for (let d = dir; ; d = dirname(d)) {
    const candidate = join(d, 'tsconfig.json');
    if (existsSync(candidate)) return candidate;
    if (dirname(d) === d) return undefined;
  }
}

function readExports(namespace: Record<string, unknown>, path: string): LoadedModule {
  const fallback = namespace.default;
  let tools: unknown = namespace.tools;
  let options: unknown = namespace.options;
  if (tools === undefined) {
    if (Array.isArray(fallback)) tools = fallback;
    else if (isPlainObject(fallback)) {
      tools = fallback.tools;
      options ??= fallback.options;
    }
  }
  if (!Array.isArray(tools)) throw new ModuleLoadError(`${path} exports no tools: ${CONTRACT}`);
  const bad = tools.findIndex((t) => !isPlainObject(t) || typeof t.name !== 'string');
  if (bad !== -1) throw new ModuleLoadError(`${path}: tools[${bad}] is not a tool (an object with a string \`name\`)`);
  if (options !== undefined && !isPlainObject(options))
    throw new ModuleLoadError(`${path}: \`options\` must be an object`);
  return { tools: tools as AnyTool[], options: (options ?? {}) as McpMountOptions };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
