/**
 * Messages refused as soon as they are read, where the SDK would answer them otherwise than their revision
 * says (the table, with the source of each rule: docs/design/protocol-edges.md):
 * - a JSON-RPC batch from a client of a revision without batches: `-32600` on a 400. MCP 2025-06-18 removed
 *   batching, and 2025-11-25 and 2026-07-28 take one message per POST (basic/transports); the SDK served such
 *   a batch, or refused the 2026-07-28 header as an unsupported version. A client that names no revision is
 *   read as 2025-03-26 (2025-11-25 basic/transports, Protocol Version Header), which has batches: served.
 * Constant work: one header.
 */
import { jsonRpcError } from '../http/responses.js';

/** The revisions a client may name in `MCP-Protocol-Version` whose POST body is one message, never a batch. */
const WITHOUT_BATCHES: ReadonlySet<string> = new Set(['2025-06-18', '2025-11-25', '2026-07-28']);

/** The answer to a message its revision refuses before the SDK reads it, or undefined to serve it. */
export function refusedMessage(message: unknown, request: Request): Response | undefined {
  if (Array.isArray(message)) return refusedBatch(request);
  return undefined;
}

function refusedBatch(request: Request): Response | undefined {
  const revision = request.headers.get('mcp-protocol-version')?.trim();
  if (revision === undefined || !WITHOUT_BATCHES.has(revision)) return undefined;
  return jsonRpcError(
    400,
    -32600,
    `Invalid Request: MCP ${revision} takes one JSON-RPC message per request, not a batch (batches were removed in 2025-06-18)`,
  );
}
