/**
 * What the store keeps of a call handed to a queue (`tasks.run`), for the consumer that claims its task: the
 * tool's name, the arguments as the client sent them, and what the handler may read of the caller. JSON both
 * ways, with nothing a caller's credential could be rebuilt from: the bearer token is never stored.
 */
import type { AuthInfo } from '@modelcontextprotocol/server';
import type { JsonObject, JsonValue } from './store.js';

/** A queued call, as the consumer reads it back. */
export interface QueuedCall {
  readonly tool: string;
  /** The arguments as the client sent them (after the envelope's fixes): the consumer parses them. */
  readonly arguments: JsonValue;
  /** The caller's token info without its token (`token: ''`); undefined for an anonymous caller. */
  readonly authInfo?: AuthInfo;
}

/**
 * The stored form of a queued call. Of `authInfo`, its client id, scopes, expiry, resource and `extra` (when
 * JSON carries it; left out when it does not), never `token`.
 */
export function queuedCall(tool: string, args: unknown, authInfo: AuthInfo | undefined): JsonObject {
  return {
    tool,
    arguments: jsonOf(args) ?? {},
    ...(authInfo && { authInfo: storedAuth(authInfo) }),
  };
}

/** A stored queued call read back; undefined when `call` is not one (a task the default run created). */
export function readQueuedCall(call: JsonValue): QueuedCall | undefined {
  if (typeof call !== 'object' || call === null || Array.isArray(call)) return undefined;
  const { tool, arguments: args, authInfo } = call;
  if (typeof tool !== 'string' || args === undefined) return undefined;
  return { tool, arguments: args, ...(isObject(authInfo) && { authInfo: authOf(authInfo) }) };
}

function storedAuth(authInfo: AuthInfo): JsonObject {
  const { clientId, scopes, expiresAt, resource, extra } = authInfo;
  const json = extra === undefined ? undefined : jsonOf(extra);
  return {
    clientId,
    scopes: [...scopes],
    ...(expiresAt !== undefined && { expiresAt }),
    ...(resource !== undefined && { resource: String(resource) }),
    ...(isObject(json) && { extra: json }),
  };
}

function authOf(stored: JsonObject): AuthInfo {
  const { clientId, scopes, expiresAt, resource, extra } = stored;
  return {
    token: '',
    clientId: typeof clientId === 'string' ? clientId : '',
    scopes: Array.isArray(scopes) ? scopes.filter((s): s is string => typeof s === 'string') : [],
    ...(typeof expiresAt === 'number' && { expiresAt }),
    ...(typeof resource === 'string' && URL.canParse(resource) && { resource: new URL(resource) }),
    ...(isObject(extra) && { extra }),
  };
}

/** `value` as JSON text would carry it, or undefined when it cannot be (a cycle, a BigInt). */
function jsonOf(value: unknown): JsonValue | undefined {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? undefined : (JSON.parse(text) as JsonValue);
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
