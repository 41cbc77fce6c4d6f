/**
 * `--emit FILE`: the build-time documents module (docs/decisions/0024-build-time-documents.md), written from the
 * same preparation the check reports on, so the documents are exactly those the check vetted.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { buildDocuments, documentsModule } from '../core/documents/emit.js';
import type { DocumentsSetup } from '../core/documents/preparation.js';
import { verifyDocuments } from '../core/documents/verify.js';
import type { Preparation } from '../core/model/prepared.js';
import type { AnyTool } from '../core/model/tool.js';
import { prepareTools } from '../core/prepare/prepare.js';
import { reportOf, type ValidationReport } from '../core/prepare/report.js';
import { documentsSetup, prepareSetup, settleOptions } from '../core/serve/config.js';
import type { McpMountOptions } from '../core/serve/options.js';
import { validateMcpSchemas } from '../core/serve/validate.js';

/** A check's report, and the preparation it was made from when there was one. */
export interface Checked {
  report: ValidationReport;
  prepared?: { preparation: Preparation; setup: DocumentsSetup };
}

/**
 * `validateMcpSchemas`, keeping the preparation: every projection the mount serves is prepared, whatever a
 * mount would prepare lazily. When the options or the preparation throw, the report is the one
 * `validateMcpSchemas` gives for that (an `invalid-option` or `internal-error` issue), and there is nothing to emit.
 */
export function checkTools(tools: readonly AnyTool[], options: McpMountOptions): Checked {
  let prepared: Checked['prepared'];
  try {
    const config = settleOptions(options);
    prepared = { preparation: prepareTools(tools, prepareSetup(config)), setup: documentsSetup(config) };
  } catch {
    return { report: validateMcpSchemas(tools, options) };
  }
  return { report: reportOf(prepared.preparation), prepared };
}

/**
 * Writes the module, only for a check without errors (as `--write` does), and only when its text changed: a
 * build that watches the folder it writes to (`wrangler dev`'s `watch_dir`) must not see a new file each run.
 * Written to a temporary file and renamed, so a reader never sees half a module. Either way a line in `notes`.
 */
export async function emitDocuments(
  path: string | undefined,
  checked: Checked,
  command: string,
  cwd: string,
  notes: string[],
): Promise<void> {
  if (path === undefined) return;
  if (!checked.report.ok || !checked.prepared) {
    notes.push(`did not write ${path}: fix the errors first (a mount with these schemas serves nothing)`);
    return;
  }
  const { preparation, setup } = checked.prepared;
  const built = buildDocuments(preparation, setup, command);
  const text = documentsModule(built);
  const file = resolve(cwd, path);
  const tools = `${built.tools.length} tool${built.tools.length === 1 ? '' : 's'}`;
  if ((await readFile(file, 'utf8').catch(() => undefined)) === text) {
    notes.push(`${path} is up to date: ${tools}, for ${built.projections.served.join(', ')} (not written)`);
    return;
  }
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, text);
  await rename(temporary, file);
  notes.push(
    `wrote ${path}: ${tools}, ${built.documents.length} distinct documents, for ${built.projections.served.join(', ')}`,
  );
}

/**
 * `--verify FILE`: whether the documents module at `path` is exactly what `--emit` would write now. Each stale
 * tool (or the module as a whole) is a line in `notes`, with the command that writes it again (`emit`).
 * @returns `'ok'`, `'stale'` (exit 1), or undefined without `--verify`.
 */
export async function verifyDocumentsFile(
  path: string | undefined,
  checked: Checked,
  emit: string,
  load: (path: string) => Promise<unknown>,
  notes: string[],
): Promise<'ok' | 'stale' | undefined> {
  if (path === undefined) return undefined;
  if (!checked.report.ok || !checked.prepared) {
    notes.push(`did not verify ${path}: fix the errors first (no documents are written for these schemas)`);
    return 'stale';
  }
  const { preparation, setup } = checked.prepared;
  const expected = buildDocuments(preparation, setup, emit);
  let actual: unknown;
  try {
    actual = await load(path);
  } catch (error) {
    notes.push(
      `${path} is stale: it cannot be loaded (${error instanceof Error ? error.message : String(error)}); run \`${emit}\``,
    );
    return 'stale';
  }
  const stale = verifyDocuments(expected, actual);
  if (stale.length === 0) {
    notes.push(`${path} is current: ${expected.tools.length} tools, for ${expected.projections.served.join(', ')}`);
    return 'ok';
  }
  notes.push(`${path} is stale:`, ...stale.map((s) => `  ${s.reason}`));
  return 'stale';
}
