/**
 * The fields of a JSON-RPC request the SDK's error answers quote back as they were sent: the name of a tool
 * or prompt it does not hold (`Tool <name> not found`), the URI of a resource it does not hold, a protocol
 * revision it does not serve (`Unsupported protocol version: <revision>`, in the message and the data). A
 * field longer than anything that could be served is cut before the SDK sees it (`boundedText`), so those
 * answers stay within a small fixed budget; a value that could name something served is left as it is.
 */
import { isPlainObject } from '../json-schema/types.js';
import { boundedText } from './bounded.js';

/** A served tool's name has at most 64 characters (the probe's `invalid-tool-name` rule fails any longer). */
const TOOL_NAME_CHARS = 64;
/** Longer than any prompt name a server registers. */
const PROMPT_NAME_CHARS = 1024;
/** Longer than any resource URI a server serves (browsers long stopped at about 2,000), a template's expansion included. */
const URI_CHARS = 2048;
/** A protocol revision is a date, `YYYY-MM-DD`. */
const REVISION_CHARS = 64;

const PROTOCOL_VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';

/**
 * `message` (a single JSON-RPC message, or a batch of them), or a copy whose over-long quoted fields are cut.
 * Reads a handful of fields; copies only what it changes.
 */
export function withBoundedEchoes(message: unknown): unknown {
  if (Array.isArray(message)) {
    const bounded = message.map(withBoundedEchoes);
    return bounded.some((m, i) => m !== message[i]) ? bounded : message;
  }
  if (!isPlainObject(message) || !isPlainObject(message.params)) return message;
  const { method, params } = message;
  let changed: Record<string, unknown> | undefined;
  const cut = (key: string, value: unknown, max: number) => {
    if (typeof value !== 'string' || value.length <= max) return;
    changed ??= { ...params };
    changed[key] = boundedText(value, max);
  };
  if (method === 'tools/call') cut('name', params.name, TOOL_NAME_CHARS);
  if (method === 'prompts/get') cut('name', params.name, PROMPT_NAME_CHARS);
  if (typeof method === 'string' && method.startsWith('resources/')) cut('uri', params.uri, URI_CHARS);
  if (method === 'completion/complete' && isPlainObject(params.ref)) {
    const ref = params.ref;
    const name = typeof ref.name === 'string' && ref.name.length > PROMPT_NAME_CHARS;
    const uri = typeof ref.uri === 'string' && ref.uri.length > URI_CHARS;
    if (name || uri) {
      changed ??= { ...params };
      changed.ref = {
        ...ref,
        ...(name && { name: boundedText(ref.name as string, PROMPT_NAME_CHARS) }),
        ...(uri && { uri: boundedText(ref.uri as string, URI_CHARS) }),
      };
    }
  }
  const meta = params._meta;
  if (isPlainObject(meta)) {
    const revision = meta[PROTOCOL_VERSION_KEY];
    if (typeof revision === 'string' && revision.length > REVISION_CHARS) {
      changed ??= { ...params };
      changed._meta = { ...meta, [PROTOCOL_VERSION_KEY]: boundedText(revision, REVISION_CHARS) };
    }
  }
  return changed ? { ...message, params: changed } : message;
}
