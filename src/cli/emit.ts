/**
 * `--emit FILE`: the build-time documents module (docs/decisions/0024-build-time-documents.md), written from the
 * same preparation the check reports on, so the documents are exactly those the check vetted.
 */
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { buildDocuments, documentsModule } from '../core/documents/emit.js';
import type { Preparation } from '../core/model/prepared.js';
import type { AnyTool } from '../core/model/tool.js';
import { prepareTools } from '../core/prepare/prepare.js';
import { reportOf, type ValidationReport } from '../core/prepare/report.js';
import { type MountConfig, prepareSetup, settleOptions } from '../core/serve/config.js';
import type { McpMountOptions } from '../core/serve/options.js';
import { validateMcpSchemas } from '../core/serve/validate.js';

/** A check's report, and the preparation it was made from when there was one. */
export interface Checked {
  report: ValidationReport;
  prepared?: { preparation: Preparation; config: MountConfig };
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
    prepared = { preparation: prepareTools(tools, prepareSetup(config)), config };
  } catch {
    return { report: validateMcpSchemas(tools, options) };
  }
  return { report: reportOf(prepared.preparation), prepared };
}

/** Writes the module, only for a check without errors (as `--write` does); either way a line in `notes`. */
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
  const { preparation, config } = checked.prepared;
  const built = buildDocuments(preparation, config, command);
  await writeFile(resolve(cwd, path), documentsModule(built));
  const tools = `${built.tools.length} tool${built.tools.length === 1 ? '' : 's'}`;
  notes.push(
    `wrote ${path}: ${tools}, ${built.documents.length} distinct documents, for ${built.projections.served.join(', ')}`,
  );
}
