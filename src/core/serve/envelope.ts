/**
 * The envelope step: the one reading of a request's JSON-RPC message. Everything later in the request (the
 * tool set, the per-request server, the argument check) reads what it built, never the message again; only
 * the SDK reads the body itself, from the copy handed to it here.
 */
import * as z from 'zod';
import { isPlainObject } from '../json-schema/types.js';
import type { ArgumentLimits } from '../limits/settle.js';
import { withBoundedEchoes } from '../messages/echoed-fields.js';
import type { ClientIdentity } from '../prepare/client-identity.js';
import { chooseProjection, clientIdentity } from '../prepare/projection-choice.js';
import type { ProjectionPolicy } from '../prepare/settle.js';
import type { ProjectionName } from '../projection/names.js';
import { type Repair, repairArgs } from '../repair/index.js';

/** What the message says, as every later step of the request reads it. */
export interface MessageState {
  /** The method of a single JSON-RPC message (not a batch): `tools/call` and `tools/list` skip the `features` hook. */
  method?: string;
  /** A single `tools/call` naming a tool: the per-request server then holds that tool alone. */
  call?: CallEnvelope;
  /**
   * The projection this request's `tools/list` is served in. Chosen on first use, which comes only once the
   * SDK has accepted the request (so a malformed request gets the SDK's 400, never the mount's function),
   * then kept; the mount's default when it does not choose per client or nothing lists tools.
   */
  projection(): ProjectionName;
}

/** One `tools/call` as the envelope step left it for the argument check. */
interface CallEnvelope {
  /** The tool it names. */
  tool: string;
  /** Its JSON-RPC id, for audit. */
  requestId?: string | number;
  /** Repairs made before the SDK saw the call (the whole `arguments` sent as JSON text). */
  repairs: readonly Repair[];
  /**
   * `arguments` the SDK's request schema would refuse (not an object, nor text holding one): the SDK is handed
   * `{}` in their place, and the check judges this value (call.ts refuses it, naming the root).
   */
  unfit?: { value: unknown };
}

/** What the envelope step reads: `arguments.json`, the argument caps (`limits`), and the projection policy. */
export interface EnvelopePolicy {
  /** Parse the whole `arguments` sent as JSON text (`arguments.json`). */
  readonly json: boolean;
  readonly argumentLimits: ArgumentLimits;
  readonly projection: ProjectionPolicy;
}

/** The state of a request that carries no JSON-RPC message of its own (GET, DELETE, a body the SDK reads). */
export function noMessage(projection: ProjectionPolicy): MessageState {
  return { projection: () => projection.default };
}

// Stands for "the arguments object" when the whole `arguments` arrives as one JSON string.
const ARGUMENTS_OBJECT = z.looseObject({});

/**
 * Reads the parsed message once: its method, the call it makes, who lists tools. Returns that, and the message
 * to hand to the SDK: the same one, or a copy whose `tools/call` envelope was fixed where the SDK's request
 * schema would refuse it with `-32602` before any tool saw the call:
 * - `params: []` (how PHP and other clients encode an empty map) is read as no params, on every method;
 * - `arguments: null` is treated as no arguments, i.e. `{}`; so are `""` and `[]`, reported as the repair
 *   `{ path: '', from: 'empty-arguments' }` (the tool's schema then judges `{}` as it judges any call);
 * - the whole `arguments` sent as one JSON string holding an object is parsed (`repair.json`), within the
 *   mount's argument limits and without prototype keys;
 * - any other `arguments` becomes `{}` for the SDK and is kept as `unfit`, for the check to refuse;
 * - a field the SDK's errors quote back (an unknown tool's name, a protocol revision) and longer than anything
 *   served is cut, so no answer echoes it whole (messages/echoed-fields.ts).
 * JSON-RPC batches (gone since MCP 2025-06-18) pass through untouched but for that cut. Without `repair` (a
 * call over its rate window, answered without being checked) `arguments` sent as text are not parsed: the SDK
 * is handed `{}`. What it read is written into `state` (the request's own, made once per request), whose
 * `projection` is left as it is (the mount's default) unless this request lists tools for a client the mount
 * chooses a projection for.
 */
export function readEnvelope(
  sent: unknown,
  request: Request,
  policy: EnvelopePolicy,
  state: MessageState & { readonly extras?: { readonly host?: unknown } | undefined },
  repair = true,
): unknown {
  const message = withBoundedEchoes(withoutEmptyParams(sent));
  const single = isPlainObject(message) ? message : undefined;
  const method = typeof single?.method === 'string' ? single.method : undefined;
  const fixed = method === 'tools/call' && single ? fixArguments(single, policy, repair) : undefined;
  state.method = method;
  state.call = single && fixed ? calledTool(single, fixed) : undefined;
  const client = listingClient(policy.projection, request, message, method);
  if (client) {
    const host = state.extras?.host;
    let chosen: ProjectionName | undefined;
    state.projection = () => {
      chosen ??= chooseProjection(policy.projection, client, request, host);
      return chosen;
    };
  }
  return fixed?.body ?? message;
}

interface FixedArguments {
  /** The message with `arguments` replaced, when they had to be. */
  body?: unknown;
  repairs: readonly Repair[];
  unfit?: { value: unknown };
}

/** A `tools/call` message's `arguments`, fixed where the SDK would refuse them; text parsed only with `repair`. */
function fixArguments(message: Record<string, unknown>, policy: EnvelopePolicy, repair: boolean): FixedArguments {
  const params = message.params;
  if (!isPlainObject(params) || !('arguments' in params) || isPlainObject(params.arguments)) return UNCHANGED;
  const sent = params.arguments;
  const withArguments = (args: Record<string, unknown>) => ({ ...message, params: { ...params, arguments: args } });
  if (sent === null) return { body: withArguments({}), repairs: [] };
  if (sent === '' || (Array.isArray(sent) && sent.length === 0)) {
    return { body: withArguments({}), repairs: [EMPTY_ARGUMENTS] };
  }
  if (typeof sent === 'string' && policy.json && repair) {
    // The text is parsed within the mount's argument limits, as JSON text anywhere inside the arguments is.
    const repaired = repairArgs(sent, ARGUMENTS_OBJECT, {
      json: true,
      scalars: false,
      maxDepth: policy.argumentLimits.maxDepth,
      maxNodes: policy.argumentLimits.maxValues,
    });
    if (isPlainObject(repaired.value)) return { body: withArguments(repaired.value), repairs: repaired.repairs };
  }
  // A client mistake the tool answers with `isError` naming the root, like any invalid call, rather than the
  // SDK's -32602 request dump.
  return { body: withArguments({}), repairs: [], unfit: { value: sent } };
}

/** `arguments` the SDK takes as sent: one object for every such call. */
const UNCHANGED: FixedArguments = Object.freeze({ repairs: Object.freeze([]) });

const EMPTY_ARGUMENTS: Repair = Object.freeze({ path: '', from: 'empty-arguments' });

/**
 * The message without `params` when they are an empty array: JSON-RPC 2.0 allows by-position params, MCP
 * uses none, and an empty list means none (the SDK's request schema refuses it with 400). A batch, any other
 * `params`, passes through.
 */
function withoutEmptyParams(message: unknown): unknown {
  if (!isPlainObject(message) || !Array.isArray(message.params) || message.params.length > 0) return message;
  const { params: _empty, ...rest } = message;
  return rest;
}

/** The call a `tools/call` message makes, when it names a tool (else the SDK refuses the request). */
function calledTool(message: Record<string, unknown>, fixed: FixedArguments): CallEnvelope | undefined {
  const params = message.params;
  if (!isPlainObject(params) || typeof params.name !== 'string') return undefined;
  const { id } = message;
  return {
    tool: params.name,
    requestId: typeof id === 'string' || typeof id === 'number' ? id : undefined,
    repairs: fixed.repairs,
    unfit: fixed.unfit,
  };
}

/**
 * Who asks for `tools/list`, when the mount chooses a projection per client: a single `tools/list`, or the
 * first one in a 2025-era batch. Only a list shows documents; a call parses with the Zod schema whatever the
 * client was shown.
 */
function listingClient(
  projection: ProjectionPolicy,
  request: Request,
  message: unknown,
  method: string | undefined,
): ClientIdentity | undefined {
  if (!projection.choose) return undefined;
  const listing = Array.isArray(message)
    ? message.find((m) => isPlainObject(m) && m.method === 'tools/list')
    : method === 'tools/list'
      ? message
      : undefined;
  return listing === undefined ? undefined : clientIdentity(request, listing);
}
