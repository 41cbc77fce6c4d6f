/**
 * A 2026-07-28 input request the client cannot answer. A tool that returns `inputRequired(...)` asking for an
 * elicitation, a sampling or the roots of a client that declared no such capability (its request's
 * `io.modelcontextprotocol/clientCapabilities`) gets, from the SDK, the protocol error -32021 (HTTP 400): the
 * model sees nothing and the client library throws. The 2025-era path already answers such a call with an
 * `isError` result the model can read; this gives 2026-07-28 clients the same, naming what the tool needed.
 */
import {
  type CallToolResult,
  CLIENT_CAPABILITIES_META_KEY,
  type InputRequiredResult,
} from '@modelcontextprotocol/server';
import { isPlainObject } from '../json-schema/types.js';

/** The client capability each kind of input request needs (MCP 2026-07-28, multi round-trip requests). */
const NEEDS: Readonly<Record<string, string>> = Object.freeze({
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
});

/**
 * The `isError` result for `result` when the request's client declared none of a capability one of its input
 * requests needs, else undefined (the result goes to the client as it is). Only the top-level capability is
 * judged here; a finer mismatch (URL elicitation from a form-only client) is still the SDK's -32021. Outside
 * 2026-07-28 serving (no envelope) it gives undefined: the SDK's 2025-era path answers with `isError` itself.
 */
export function unanswerableInput(
  result: InputRequiredResult,
  envelope: Record<string, unknown> | undefined,
): CallToolResult | undefined {
  if (envelope === undefined || !isPlainObject(result.inputRequests)) return undefined;
  const declared = envelope[CLIENT_CAPABILITIES_META_KEY];
  const capabilities = isPlainObject(declared) ? declared : {};
  const lines: string[] = [];
  for (const [key, entry] of Object.entries(result.inputRequests)) {
    const method = isPlainObject(entry) && typeof entry.method === 'string' ? entry.method : undefined;
    const capability = method === undefined ? undefined : NEEDS[method];
    if (capability === undefined || capabilities[capability] !== undefined) continue;
    lines.push(
      `This tool needs input '${key}' (${method}${describe(entry)}), but this client declared no ${capability} capability, so it cannot be asked; call the tool with what it needs, or from a client that supports ${capability}.`,
    );
  }
  return lines.length > 0 ? { content: [{ type: 'text', text: lines.join('\n') }], isError: true } : undefined;
}

/** What an input request asks for, when it says: an elicitation's message. */
function describe(entry: unknown): string {
  const params = isPlainObject(entry) ? entry.params : undefined;
  const message = isPlainObject(params) && typeof params.message === 'string' ? params.message : undefined;
  return message === undefined ? '' : `: ${JSON.stringify(message)}`;
}
