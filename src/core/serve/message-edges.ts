/**
 * Messages refused as soon as they are read, where the SDK would answer them otherwise than their revision
 * says (the table, with the source of each rule: docs/design/protocol-edges.md):
 * - a JSON-RPC batch from a client of a revision without batches: `-32600` on a 400. MCP 2025-06-18 removed
 *   batching, and 2025-11-25 and 2026-07-28 take one message per POST (basic/transports); the SDK served such
 *   a batch, or refused the 2026-07-28 header as an unsupported version. A client that names no revision is
 *   read as 2025-03-26 (2025-11-25 basic/transports, Protocol Version Header), which has batches: served.
 * - a request whose `_meta` is malformed (no object, a `progressToken` neither a string nor a number, a
 *   reserved key of the wrong type): `-32602` on a 400, where the SDK's JSON-RPC check answered `-32600`.
 *   Since 2025-11-25, `_meta` belongs to each request's params, not to JSON-RPC's request object (the
 *   schema's `JSONRPCRequest`), so it is the params that are invalid, not the request.
 * Constant work: one header; fixed keys, and the SDK's own JSON-RPC check of a message it refused, once more
 * without its `_meta`.
 */
import { isJSONRPCRequest } from '@modelcontextprotocol/server';
import { jsonRpcError } from '../http/responses.js';
import { isPlainObject } from '../json-schema/types.js';

/** The revisions a client may name in `MCP-Protocol-Version` whose POST body is one message, never a batch. */
const WITHOUT_BATCHES: ReadonlySet<string> = new Set(['2025-06-18', '2025-11-25', '2026-07-28']);

/** The answer to a message its revision refuses before the SDK reads it, or undefined to serve it. */
export function refusedMessage(message: unknown, request: Request): Response | undefined {
  if (Array.isArray(message)) return refusedBatch(request);
  if (isPlainObject(message)) return refusedMeta(message);
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

function refusedMeta(message: Record<string, unknown>): Response | undefined {
  const { params, id } = message;
  if (!isPlainObject(params) || !('_meta' in params) || isJSONRPCRequest(message)) return undefined;
  const { _meta: _malformed, ...rest } = params;
  // Only a request the SDK takes once its `_meta` is gone: anything else keeps the SDK's own answer.
  if (!isJSONRPCRequest({ ...message, params: rest })) return undefined;
  return jsonRpcError(
    400,
    -32602,
    'Invalid params: _meta must be an object whose progressToken is a string or a number and whose reserved keys hold what the protocol defines',
    typeof id === 'string' || typeof id === 'number' ? id : null,
  );
}
