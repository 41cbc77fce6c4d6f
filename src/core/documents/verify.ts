/**
 * `mcp-mount check --verify`: whether a documents module is exactly what `--emit` would write for these tools
 * and options now (docs/decisions/0032-documents-verified-at-build.md). The documents themselves are compared,
 * every projection's input and output document of every tool, so any change that changes what a client is
 * listed is found, at any depth: a field's type, an enum value, a default, a description. Meant for CI and for
 * the build step before a deploy; a mount's own startup check is the cheap stamp (read.ts).
 */
import type { BuiltDocuments, BuiltTool, StaleDocuments } from './read.js';
import { BUILT_DOCUMENTS_FORMAT } from './read.js';

/**
 * Every way `actual` (the default export of a documents module) differs from `expected` (what `--emit` builds
 * now), one entry per stale tool or, for the module as a whole, per reason; empty when they match. The
 * recorded `command` is not compared.
 *
 * @example
 * ```ts
 * const stale = verifyDocuments(buildDocuments(preparation, shape, command), (await import(file)).default);
 * if (stale.length > 0) process.exitCode = 1;
 * ```
 */
export function verifyDocuments(expected: BuiltDocuments, actual: unknown): StaleDocuments[] {
  const rerun = `run \`${expected.command ?? 'mcp-mount check <module> --emit <file>'}\` again`;
  const module = actual as Partial<BuiltDocuments> | null;
  if (typeof module !== 'object' || module === null || module.format !== BUILT_DOCUMENTS_FORMAT) {
    const format = typeof module === 'object' && module !== null ? JSON.stringify(module.format) : 'none';
    return [
      {
        kind: 'format',
        reason: `the documents are not a module of format ${BUILT_DOCUMENTS_FORMAT} (got ${format}); ${rerun}`,
      },
    ];
  }
  if (!Array.isArray(module.tools) || !Array.isArray(module.documents) || !Array.isArray(module.issues)) {
    return [{ kind: 'unreadable', reason: `the documents lack tools, issues or documents; ${rerun}` }];
  }
  const options = differingOptions(expected, module as BuiltDocuments);
  if (options.length > 0) {
    return [{ kind: 'options', reason: `the documents were built for other options: ${options.join(', ')}; ${rerun}` }];
  }
  return [...toolDifferences(expected, module as BuiltDocuments, rerun), ...issueDifference(expected, module, rerun)];
}

function differingOptions(expected: BuiltDocuments, actual: BuiltDocuments): string[] {
  const out: string[] = [];
  for (const key of Object.keys(expected.options) as Array<keyof BuiltDocuments['options']>) {
    const [was, now] = [actual.options?.[key], expected.options[key]];
    if (was !== now) out.push(`${key} ${String(was)} → ${now}`);
  }
  if (JSON.stringify(actual.projections) !== JSON.stringify(expected.projections)) out.push('the projections served');
  return out;
}

/** Each tool added, removed or changed, with what changed in it. */
function toolDifferences(expected: BuiltDocuments, actual: BuiltDocuments, rerun: string): StaleDocuments[] {
  const was = new Map(actual.tools.map((t) => [t.name, t]));
  const out: StaleDocuments[] = [];
  for (const tool of expected.tools) {
    const before = was.get(tool.name);
    was.delete(tool.name);
    if (!before) {
      out.push({ kind: 'added', tool: tool.name, reason: `tool "${tool.name}" is not in the documents; ${rerun}` });
      continue;
    }
    const what = changes(tool, expected, before, actual);
    if (what.length > 0) {
      out.push({ kind: 'changed', tool: tool.name, reason: `tool "${tool.name}": ${what.join(', ')}; ${rerun}` });
    }
  }
  for (const name of was.keys()) {
    out.push({
      kind: 'removed',
      tool: name,
      reason: `tool "${name}" is in the documents but no longer a tool; ${rerun}`,
    });
  }
  return out;
}

/** What differs between a tool's entries: each projection's documents, its required keys, its stamp. */
function changes(now: BuiltTool, expected: BuiltDocuments, was: BuiltTool, actual: BuiltDocuments): string[] {
  const text = (module: BuiltDocuments, index: number | undefined) =>
    index === undefined ? undefined : module.documents[index];
  const out: string[] = [];
  for (const projection of expected.projections.served) {
    if (text(expected, now.input[projection]) !== text(actual, was.input?.[projection])) {
      out.push(`its ${projection} input document changed`);
    }
    if (text(expected, now.output?.[projection]) !== text(actual, was.output?.[projection])) {
      out.push(`its ${projection} output document changed`);
    }
  }
  if (JSON.stringify(now.requiredKeys) !== JSON.stringify(was.requiredKeys)) out.push('its required keys changed');
  if (now.servable !== was.servable) out.push('whether it can be served changed');
  if (now.stamp !== was.stamp) out.push('its top-level keys changed');
  return out;
}

/** The probe's issues, compared whole: a tool's fields (icons, scopes, `_meta`) are checked by nothing else. */
function issueDifference(expected: BuiltDocuments, actual: Partial<BuiltDocuments>, rerun: string): StaleDocuments[] {
  if (JSON.stringify(actual.issues) === JSON.stringify(expected.issues)) return [];
  return [{ kind: 'changed', reason: `the probe's findings changed since the documents were built; ${rerun}` }];
}
