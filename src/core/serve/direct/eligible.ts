/**
 * Which `tools/call` the direct path serves: the fallback rule. A call is served there only when every step
 * the SDK's path would take before the tool's callback is known to pass, and to pass the same way whatever
 * the tool does; anything else goes the SDK's path from the start (docs/decisions/0035-direct-tools-call.md).
 * The rule reads the SDK's own classification (`classifyInboundRequest`) and otherwise asks for the plain
 * shape of a call, so a request the SDK would refuse, or serve with something the direct path does not
 * write, is never taken.
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  classifyInboundRequest,
  LOG_LEVEL_META_KEY,
  type PerRequestResponseMode,
  PROTOCOL_VERSION_META_KEY,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/server';
import { isPlainObject } from '../../json-schema/types.js';
import type { Registration } from '../registration.js';
import type { RequestState } from '../request-state.js';
import { acceptPlan } from '../sdk/accept.js';
import type { CallId } from './encode.js';

/** A call the direct path serves, as read from its message and headers. */
export interface DirectPlan {
  readonly registration: Registration;
  readonly era: 'legacy' | 'modern';
  readonly id: CallId;
  /** What the SDK would hand the input check: the call's `arguments`, `{}` when absent. */
  readonly arguments: Record<string, unknown>;
  /** `ctx.mcp.mcpReq._meta` and `.envelope`, as the SDK lifts them. */
  readonly meta: Record<string, unknown> | undefined;
  readonly envelope: Record<string, unknown> | undefined;
  /** A 2025-era client that takes JSON only: its answer is the JSON-RPC response alone (accept.ts). */
  readonly json: boolean;
  /** The tool is registered with an output schema: the SDK wants `structuredContent` on a result that is no error. */
  readonly withOutput: boolean;
}

/** The mount's settings the rule reads. */
export interface DirectPolicy {
  /** `protocol.responseMode`: `'sse'` answers every 2026-07-28 call on a stream, which the direct path leaves to the SDK. */
  readonly responseMode: PerRequestResponseMode;
  /** The tool a call names, when the caller may call it (tool-set.ts). */
  called(state: RequestState): Registration | undefined;
}

/** The revisions the SDK serves with a per-request envelope (its `SUPPORTED_MODERN_PROTOCOL_VERSIONS`). */
const MODERN_REVISIONS: ReadonlySet<string> = new Set(['2026-07-28']);
/** The envelope keys the SDK lifts out of `_meta`, in its order. */
const ENVELOPE_KEYS = [
  PROTOCOL_VERSION_META_KEY,
  CLIENT_INFO_META_KEY,
  CLIENT_CAPABILITIES_META_KEY,
  LOG_LEVEL_META_KEY,
];
const ENVELOPE_KEY_SET: ReadonlySet<string> = new Set(ENVELOPE_KEYS);
const LEGACY_VERSIONS: ReadonlySet<string> = new Set(SUPPORTED_PROTOCOL_VERSIONS);

/**
 * The plan for a `tools/call` whose message (after the envelope step) is `message`, or undefined when the
 * SDK's path serves it. Taken only for:
 * - a single JSON-RPC 2.0 request of exactly `jsonrpc`, `id` (a string or a safe integer), `method` and
 *   `params`, whose `params` are exactly `name`, `arguments` (absent or an object without an own
 *   `__proto__`) and `_meta`: no progress token, task, `inputResponses` or `requestState`;
 * - in the 2025 era: no envelope claim (the SDK's classification), an `MCP-Protocol-Version` the legacy
 *   transport serves or none, an `Accept` it takes (accept.ts), and `_meta` without `progressToken` or any
 *   `io.modelcontextprotocol/` key;
 * - in the 2026-07-28 era: an envelope the SDK's classification accepts for a revision it serves, the
 *   `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` headers present and equal to the body's, `_meta`
 *   of envelope keys alone, and `responseMode` other than `'sse'`;
 * - a tool the caller may call, whose `scopes` (if any) the caller's credentials satisfy (else the SDK's
 *   scope preflight answers 403), with no `execution`, no `x-mcp-header` in its input document (the SDK's
 *   `Mcp-Param` check), and no output document whose root is not an object (the 2025 codec wraps such
 *   results).
 */
export function directPlan(
  request: Request,
  state: RequestState,
  message: unknown,
  policy: DirectPolicy,
): DirectPlan | undefined {
  const call = plainCall(state, message);
  if (!call) return undefined;
  const { id, params, args, meta } = call;
  const served = servedEra(request, message, meta, policy, params.name as string);
  if (!served) return undefined;
  const { era, envelope, json } = served;
  const registration = policy.called(state);
  if (!registration || registration.execution) return undefined;
  // The SDK's scope preflight challenges exactly the calls its rule does not permit (access/scopes.ts):
  // those it answers, with its 403 and the audit event.
  if (registration.scopes && !registration.scopes.permits(state.authInfo)) return undefined;
  const config = registration.adoptable(state.projection());
  if (!plainTool(config)) return undefined;
  // Not asked: whether the client has already gone. The SDK's path serves such a call too (its handler runs),
  // and reading `request.signal` would make one on the Node bridge for every call.
  return {
    registration,
    era,
    id: id as CallId,
    arguments: (args as Record<string, unknown> | undefined) ?? {},
    // In 2026-07-28 every key of `_meta` is an envelope key, lifted out: the handlers see none.
    meta: era === 'legacy' ? (meta as Record<string, unknown> | undefined) : undefined,
    envelope,
    json,
    withOutput: config.outputSchema !== undefined,
  };
}

/** A request's parts, read from a message of the plain shape (`plainRequest`). */
export interface PlainRequest {
  readonly id: CallId;
  /** Absent, or an object of the keys the method's rule allows. */
  readonly params: Record<string, unknown> | undefined;
  readonly meta: Record<string, unknown> | undefined;
}

/**
 * The parts of a message of the plain shape both direct paths ask for, or undefined: a single JSON-RPC 2.0
 * request of exactly `jsonrpc`, `id` (a string or a safe integer), `method` and `params` (absent, or an object
 * of `paramsKeys` alone), whose `_meta` is absent or an object without an own `__proto__` (the SDK's schemas
 * drop that key, so a handler would see another `_meta`).
 */
export function plainRequest(message: unknown, paramsKeys: ReadonlySet<string>): PlainRequest | undefined {
  if (!isPlainObject(message)) return undefined;
  for (const key in message) if (!MESSAGE_KEYS.has(key)) return undefined;
  const { id, params } = message;
  if (message.jsonrpc !== '2.0' || !(typeof id === 'string' || Number.isSafeInteger(id))) return undefined;
  if (params === undefined) return { id: id as CallId, params: undefined, meta: undefined };
  if (!isPlainObject(params)) return undefined;
  for (const key in params) if (!paramsKeys.has(key)) return undefined;
  const meta = params._meta;
  if (meta !== undefined && (!isPlainObject(meta) || Object.hasOwn(meta, '__proto__'))) return undefined;
  return { id: id as CallId, params, meta: meta as Record<string, unknown> | undefined };
}

/** A call's parts, read from a message of the plain shape (the rule's first item). */
interface PlainCall extends PlainRequest {
  readonly params: Record<string, unknown>;
  readonly args: unknown;
}

/** The parts of a `tools/call` whose message has the plain shape, or undefined: the SDK's path serves it. */
function plainCall(state: RequestState, message: unknown): PlainCall | undefined {
  if (state.method !== 'tools/call' || state.call === undefined) return undefined;
  const plain = plainRequest(message, PARAMS_KEYS);
  const params = plain?.params;
  if (!params || typeof params.name !== 'string') return undefined;
  const args = params.arguments;
  if (args !== undefined && (!isPlainObject(args) || Object.hasOwn(args, '__proto__'))) return undefined;
  return { ...plain, params, args };
}

/**
 * How a plain request is served, by the SDK's classification of it: the era's part of the rule, else
 * undefined. `name` is the called tool's (its `Mcp-Name` header must say the same in 2026-07-28), undefined
 * for a request that names none (then no `Mcp-Name` is sent). A plain request with a 2025-era or no
 * `MCP-Protocol-Version` and a `_meta` without progress token or protocol key is one the SDK classifies
 * `legacy` with no claim (pinned in sdk-seams.test.ts, generated): the classification, a parse of the whole
 * message by the SDK's schemas, is skipped for it.
 */
export function servedEra(
  request: Request,
  message: unknown,
  meta: Record<string, unknown> | undefined,
  policy: Pick<DirectPolicy, 'responseMode'>,
  name: string | undefined,
): Pick<DirectPlan, 'era' | 'envelope' | 'json'> | undefined {
  const { headers } = request;
  const version = headers.get('mcp-protocol-version');
  const legacy = (version === null || LEGACY_VERSIONS.has(version)) && (meta === undefined || plainLegacyMeta(meta));
  if (legacy) return legacyAccept(headers);
  const outcome = classifyInboundRequest({
    httpMethod: 'POST',
    body: message,
    ...(version !== null && { protocolVersionHeader: version }),
    ...optional('mcpMethodHeader', headers.get('mcp-method')),
    ...optional('mcpNameHeader', headers.get('mcp-name')),
  });
  // Any other legacy outcome (a version the legacy transport does not serve, a reserved `_meta` key) is
  // the SDK's to answer.
  if (outcome.kind !== 'modern' || outcome.messageKind !== 'request') return undefined;
  const revision = outcome.classification.revision;
  if (policy.responseMode === 'sse' || revision === undefined || !MODERN_REVISIONS.has(revision)) return undefined;
  if (version !== revision || headers.get('mcp-method') === null || headers.get('mcp-name') !== (name ?? null)) {
    return undefined;
  }
  if (meta === undefined) return undefined;
  const envelope: Record<string, unknown> = {};
  for (const key in meta) if (!ENVELOPE_KEY_SET.has(key)) return undefined;
  for (const key of ENVELOPE_KEYS) if (key in meta) envelope[key] = meta[key];
  return { era: 'modern', envelope, json: false };
}

// The two ways a 2025-era call is answered: one object each, not one per call.
const LEGACY_STREAM = Object.freeze({ era: 'legacy', envelope: undefined, json: false } as const);
const LEGACY_JSON = Object.freeze({ era: 'legacy', envelope: undefined, json: true } as const);

/** A 2025-era call, on the `Accept` the legacy transport would be handed (accept.ts), when it takes it. */
function legacyAccept(headers: Headers): Pick<DirectPlan, 'era' | 'envelope' | 'json'> | undefined {
  const plan = acceptPlan(headers.get('accept'));
  const seen = plan.sdkAccept ?? headers.get('accept') ?? '';
  if (!seen.includes('application/json') || !seen.includes('text/event-stream')) return undefined;
  return plan.json ? LEGACY_JSON : LEGACY_STREAM;
}

const MESSAGE_KEYS: ReadonlySet<string> = new Set(['jsonrpc', 'id', 'method', 'params']);
const PARAMS_KEYS: ReadonlySet<string> = new Set(['name', 'arguments', '_meta']);

function optional<K extends string>(key: K, value: string | null): { [k in K]?: string } {
  return (value === null ? {} : { [key]: value }) as { [k in K]?: string };
}

/** 2025-era `_meta` the SDK hands on as it is: no progress token, no key the protocol reserves. */
function plainLegacyMeta(meta: Record<string, unknown>): boolean {
  for (const key in meta) if (key === 'progressToken' || key.startsWith('io.modelcontextprotocol/')) return false;
  return true;
}

/** Per `registerTool` config (one per tool and projection): whether the SDK serves its calls without a check of its own. */
const plainTools = new WeakMap<object, boolean>();

function plainTool(config: {
  inputSchema: { '~standard': { jsonSchema: { input(): unknown } } };
  outputSchema?: { '~standard': { jsonSchema: { output(): unknown } } };
}): boolean {
  let plain = plainTools.get(config);
  if (plain === undefined) {
    // Read once per config: the documents are frozen.
    const input = JSON.stringify(config.inputSchema['~standard'].jsonSchema.input());
    const output = config.outputSchema?.['~standard'].jsonSchema.output() as { type?: unknown } | undefined;
    plain = !input.includes('"x-mcp-header"') && (output === undefined || output.type === 'object');
    plainTools.set(config, plain);
  }
  return plain;
}
