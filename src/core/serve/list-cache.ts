/**
 * The bytes of `tools/list` entries, built once per mount for each (projection, era) a request asks for, and
 * never parsed again: per request only the choice of entries remains (docs/decisions/0025-cached-tools-list.md).
 */
import type { McpRequestContext } from '@modelcontextprotocol/server';
import type { ToolDocuments } from '../mount/prepare.js';
import type { ProjectionName } from '../projection/names.js';
import type { Registration } from './registration.js';

/** The era a request's server serves: `modern` (2026-07-28) or `legacy` (2025). */
export type Era = McpRequestContext['era'];

/** One (projection, era)'s entries, as UTF-8 JSON. */
export interface ListEntries {
  /** The entries of the tools `visible` holds (a subset, in the mount's order), joined by commas. */
  join(visible: readonly Registration[]): Blob;
}

const encoder = new TextEncoder();

/**
 * The entries of one (projection, era), built from every registration its projection lists. They are kept as
 * a `Blob`, which a response body and a larger `Blob` take by reference: a list that shows every tool copies
 * nothing per request, a partial one copies its entries once.
 */
export function listEntries(registrations: readonly Registration[], projection: ProjectionName, era: Era): ListEntries {
  const parts = new Map<Registration, BlobPart>();
  for (const r of registrations) {
    const documents = r.listed(projection);
    if (documents) parts.set(r, encoder.encode(JSON.stringify(sdkEntry(r, documents, era))));
  }
  const every = joined([...parts.values()]);
  return {
    join(visible) {
      // The visible tools are a subset of the listed ones: as many means the same, served prebuilt.
      if (visible.length === parts.size) return every;
      return joined(visible.map((r) => parts.get(r)!));
    },
  };
}

/** `parts` joined by commas. */
function joined(parts: readonly BlobPart[]): Blob {
  const withCommas: BlobPart[] = [];
  for (const [i, part] of parts.entries()) {
    if (i > 0) withCommas.push(',');
    withCommas.push(part);
  }
  return new Blob(withCommas);
}

/**
 * The tool as the SDK's own `tools/list` handler builds it (`McpServer.setToolRequestHandlers`), field for
 * field and in its order, then as the era's codec encodes it:
 * - `inputSchema` is `{ type: 'object', ...document }`, as the SDK's `standardSchemaToJsonSchema` makes it of
 *   a carrier's document (ours is an object root already: `type` keeps its place and value);
 * - `outputSchema` is the document itself: the SDK keeps a root that has a `type`, and a served tool's output
 *   root is always `type: 'object'` (a tool whose output root is not an object is not served), so the 2025
 *   codec, which wraps a non-object output root in `{ result }`, never changes a served tool either;
 * - the 2026-07-28 codec deletes `execution`, which that revision no longer has; the 2025 codec keeps it.
 * Fields without a value are left out, as `JSON.stringify` leaves out the SDK's `undefined` ones.
 */
function sdkEntry(r: Registration, documents: ToolDocuments, era: Era): Record<string, unknown> {
  const { tool } = r;
  const entry: Record<string, unknown> = {
    name: r.name,
    title: tool.title,
    description: tool.description,
    inputSchema: { type: 'object', ...documents.inputSchema },
    annotations: tool.annotations,
    icons: tool.icons,
    execution: era === 'legacy' ? tool.execution : undefined,
    _meta: tool._meta,
  };
  if (documents.outputSchema && tool.output) entry.outputSchema = documents.outputSchema;
  return entry;
}
