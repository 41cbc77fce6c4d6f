/**
 * Requests the protocol says to refuse, refused on each per-request server with the code its revision names
 * where the SDK's own answer differs (the table, with the source of each rule: docs/design/protocol-edges.md):
 * - a list request with a `cursor`: no list here is paginated (the SDK's `McpServer` and the cached
 *   `tools/list` send every item at once), so every cursor is one the server never issued: `-32602` (MCP
 *   server/utilities/pagination, both revisions), where the SDK answered with the whole list;
 * - a request whose params the spec's request schema refuses (a log level that is not one, a prompt argument
 *   that is no string, a completion ref of no known type, a missing name or uri): `-32602`, where the SDK's
 *   request check throws a plain `Error` that goes out as `-32603` with Zod's issues;
 * - a resource the server does not have: `-32002` on the 2025 era (2025-11-25 server/resources), `-32602` with
 *   `data.uri` on 2026-07-28 (SEP-2164), where the SDK sends `-32602` on every revision (`eraErrorCode`, the
 *   one place a code differs between the eras).
 *
 * Leans on one SDK internal, the `Server`'s map of request handlers (`_requestHandlers`), each wrapped once
 * every handler is in place; and on the public `Transport.send` of the transport the SDK connects.
 */
import {
  type JSONRPCMessage,
  type McpRequestContext,
  type McpServer,
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  specTypeSchemas,
} from '@modelcontextprotocol/server';
import { isPlainObject } from '../../json-schema/types.js';
import { formatPath } from '../../messages/path.js';
import { requestHandlers } from './request-handlers.js';

type Era = McpRequestContext['era'];
type Handler = (request: { method: string; params?: unknown }, ctx: unknown) => unknown;

/** The lists a client pages through with `cursor`. */
const LISTS: ReadonlySet<string> = new Set([
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
]);

/** The spec's request schema (the SDK's `specTypeSchemas`) of each method a per-request server answers. */
const REQUEST_TYPES: Readonly<Record<string, keyof typeof specTypeSchemas>> = {
  ping: 'PingRequest',
  'tools/list': 'ListToolsRequest',
  'tools/call': 'CallToolRequest',
  'prompts/list': 'ListPromptsRequest',
  'prompts/get': 'GetPromptRequest',
  'resources/list': 'ListResourcesRequest',
  'resources/templates/list': 'ListResourceTemplatesRequest',
  'resources/read': 'ReadResourceRequest',
  'resources/subscribe': 'SubscribeRequest',
  'resources/unsubscribe': 'UnsubscribeRequest',
  'completion/complete': 'CompleteRequest',
  'logging/setLevel': 'SetLevelRequest',
};

const CURSOR_REFUSED = 'Invalid cursor: this server sends every item in one page and never issues a cursor';

/**
 * Wraps every request handler `server` holds, and, for a 2025-era exchange, what its transport sends. Call
 * once the server holds all its handlers (the hook has run, the tools are registered).
 */
export function guardEdges(server: McpServer, era: Era): void {
  const handlers = requestHandlers<Handler>(server);
  if (handlers) for (const [method, handler] of handlers) handlers.set(method, gated(method, handler));
  // The 2026-07-28 codes are the SDK's own: only a 2025-era answer is translated.
  if (era === 'legacy') sendInEra(server, era);
}

/**
 * The JSON-RPC error code `error` carries in `era`: the one place a code differs between the eras. A
 * resource not found is `-32602` with `data: { uri }` and nothing else (the SDK's `ResourceNotFoundError`,
 * 2026-07-28's code since SEP-2164); 2025-11-25 names `-32002` for it (server/resources, Error Handling).
 * @internal exported for its tests alone
 */
export function eraErrorCode(era: Era, error: { code: number; data?: unknown }): number {
  if (era === 'legacy' && error.code === ProtocolErrorCode.InvalidParams && isResourceNotFound(error.data)) {
    return ProtocolErrorCode.ResourceNotFound;
  }
  return error.code;
}

/** The handler, behind the refusals the SDK does not make (above). */
function gated(method: string, handler: Handler): Handler {
  const listing = LISTS.has(method);
  return async (request, ctx) => {
    if (listing && isPlainObject(request.params) && request.params.cursor !== undefined) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, CURSOR_REFUSED);
    }
    try {
      return await handler(request, ctx);
    } catch (error) {
      throw (await refusal(method, request, error)) ?? error;
    }
  };
}

/**
 * What `error` becomes on the wire, when not itself: a plain error (no JSON-RPC code) from a request the spec's
 * schema refuses is that request's `-32602`; a `-32002` a read callback threw (the 2025 code) is the SDK's
 * resource not found, so that each era gets its code. Any other error passes as it is (a failure of the
 * server's own is still `-32603`).
 */
async function refusal(method: string, request: { params?: unknown }, error: unknown): Promise<unknown> {
  if (method === 'resources/read' && isRecord(error) && error.code === ProtocolErrorCode.ResourceNotFound) {
    const uri = isPlainObject(request.params) ? request.params.uri : undefined;
    if (typeof uri === 'string') return new ResourceNotFoundError(uri, messageOf(error));
  }
  if (isRecord(error) && typeof error.code === 'number') return undefined;
  const type = REQUEST_TYPES[method];
  if (type === undefined) return undefined;
  const checked = await specTypeSchemas[type]['~standard'].validate(request);
  if (!checked.issues) return undefined;
  return new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `Invalid params for ${method}: ${issuesText(checked.issues)}`,
  );
}

interface Issue {
  message: string;
  path?: ReadonlyArray<PropertyKey | { key: PropertyKey }>;
}

/** The first issues, each as `path: message`, cut short: paths may hold keys a client chose. */
function issuesText(issues: readonly Issue[]): string {
  const shown = issues.slice(0, MAX_ISSUES).map((issue) => {
    const path = formatPath((issue.path ?? []).map((s) => (typeof s === 'object' ? s.key : s)));
    return `${cut(path || '(root)', 80)}: ${cut(issue.message, 120)}`;
  });
  const more = issues.length - shown.length;
  return more > 0 ? `${shown.join('; ')}; and ${more} more` : shown.join('; ');
}

const MAX_ISSUES = 3;

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** `server`'s transport, once connected, sends every JSON-RPC error with the code `era` names for it. */
function sendInEra(server: McpServer, era: Era): void {
  const connect = server.connect.bind(server);
  server.connect = (transport) => {
    const send = transport.send.bind(transport);
    transport.send = (message, options) => send(inEra(era, message), options);
    return connect(transport);
  };
}

function inEra(era: Era, message: JSONRPCMessage): JSONRPCMessage {
  if (!('error' in message)) return message;
  const code = eraErrorCode(era, message.error);
  return code === message.error.code ? message : { ...message, error: { ...message.error, code } };
}

/** The SDK's reading of a resource not found: `data` is `{ uri }` and nothing else. */
function isResourceNotFound(data: unknown): boolean {
  if (!isPlainObject(data) || typeof data.uri !== 'string') return false;
  return Object.keys(data).length === 1;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function messageOf(error: Record<string, unknown>): string | undefined {
  return typeof error.message === 'string' ? error.message : undefined;
}
