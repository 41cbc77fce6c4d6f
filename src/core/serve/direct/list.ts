/**
 * The direct path for `tools/list` (docs/decisions/0042-direct-tools-list.md): a plain list request is
 * answered without a per-request SDK server, transport or request copy, in the frame the SDK wrote for the
 * same kind of request, learnt once.
 *
 * The cached list (ADR 0025) already leaves the SDK nothing of a list but its frame: the text before and
 * after one sentinel tool (`{"result":{"tools":[`, then the era's stamps, the echoed id, the event framing),
 * and its status and headers. For a plain request that frame depends on nothing the client sends but the id
 * and what the frame key names (era, `MCP-Protocol-Version`, the JSON-only collapse of accept.ts); the first
 * plain list of each key is served by the SDK as before, and its frame kept, split at the id. Later ones
 * get that frame with their own id, around the same cached entries (and gzip start) the SDK's path sends.
 * The differential test (test/unit/serve/direct-list.test.ts) holds the bytes equal to the SDK's.
 */
import type { PerRequestResponseMode } from '@modelcontextprotocol/server';
import type { ListFrame, RequestState } from '../request-state.js';
import type { SdkExchange } from '../sdk/handler.js';
import { listAnswer, listGzip, type ToolList } from '../sdk/tool-list.js';
import { plainRequest, servedEra } from './eligible.js';
import type { CallId } from './encode.js';

export interface DirectLists {
  /** The answer to a list the direct path takes, or undefined: the SDK's path serves this request. */
  serve(request: Request, state: RequestState, message: unknown): Promise<Response> | undefined;
  /** Later lists go to the SDK's path, which refuses them once the mount is closed. */
  close(): void;
}

/** What the direct list reads of the mount. */
export interface DirectListSetup {
  /** `protocol.responseMode`: `'sse'` answers every 2026-07-28 request on a stream, left to the SDK. */
  readonly responseMode: PerRequestResponseMode;
  /** `protocol.compressList`. */
  readonly compressList: boolean;
  /** False once the mount is switched to the SDK's path alone (`forceSdkPath`, for the differential test). */
  readonly enabled: () => boolean;
}

/** A plain list request, as the rule reads it. */
interface ListPlan {
  readonly id: CallId;
  readonly era: 'legacy' | 'modern';
  /** What the SDK's frame for it depends on besides the id: era, protocol version, JSON-only collapse. */
  readonly key: string;
}

/** A frame learnt from the SDK, split where the id goes. */
interface LearntFrame {
  readonly head: string;
  /** The tail up to and including `"id":`. */
  readonly beforeId: string;
  /** The tail after the id: `}`, and the event's blank line on a stream. */
  readonly afterId: string;
  readonly status: number;
  readonly statusText: string;
  /** The answer's headers as the SDK sent them, copied per answer. */
  readonly headers: ReadonlyArray<[string, string]>;
}

export function directLists(setup: DirectListSetup, list: ToolList, sdk: SdkExchange): DirectLists {
  // Keyed by `ListPlan.key`: at most two eras times the few revisions the SDK serves times two framings.
  const frames = new Map<string, LearntFrame>();
  let closed = false;
  return {
    serve(request, state, message) {
      if (closed || !setup.enabled()) return undefined;
      const plan = listPlan(request, state, message, setup);
      if (!plan) return undefined;
      const frame = frames.get(plan.key);
      if (frame && chosen(state)) {
        const answer = listAnswer(
          framed(frame, plan.id),
          list.listing(state, plan.era),
          listGzip(setup.compressList, request),
        );
        return Promise.resolve(answer);
      }
      // The first of its kind: the SDK answers it, and its frame is kept where it splits at this id.
      const listFramed = (sent: ListFrame) => {
        const kept = learnt(sent, plan.id);
        if (kept && !frames.has(plan.key)) frames.set(plan.key, kept);
      };
      return sdk.exchange(request, { ...state, listFramed }, { authInfo: state.authInfo, parsedBody: message });
    },
    close() {
      closed = true;
    },
  };
}

/**
 * Whether the request's projection could be chosen. A projection function that throws is answered by the SDK's
 * path, as it always was (the SDK's own 500, which `onError` hears of as a transport error): it is asked once
 * more there, as a throw is not kept.
 */
function chosen(state: RequestState): boolean {
  try {
    state.projection();
    return true;
  } catch {
    return false;
  }
}

/** `frame` around `id`, with headers of its own. */
function framed(frame: LearntFrame, id: CallId): ListFrame {
  return {
    head: frame.head,
    tail: frame.beforeId + JSON.stringify(id) + frame.afterId,
    status: frame.status,
    statusText: frame.statusText,
    headers: new Headers(frame.headers as [string, string][]),
  };
}

/**
 * The SDK's frame split at the id it echoed (`"id":<id>}` at the very end of the message, as its JSON-RPC
 * response object puts it, before a stream's blank line), or undefined when it is not found there: such a
 * list is never served directly. Only a 200 is kept.
 */
function learnt(sent: ListFrame, id: CallId): LearntFrame | undefined {
  if (sent.status !== 200) return undefined;
  const afterId = sent.tail.endsWith('}\n\n') ? '}\n\n' : '}';
  const ending = `"id":${JSON.stringify(id)}${afterId}`;
  if (!sent.tail.endsWith(ending)) return undefined;
  return {
    head: sent.head,
    beforeId: `${sent.tail.slice(0, sent.tail.length - ending.length)}"id":`,
    afterId,
    status: sent.status,
    statusText: sent.statusText,
    headers: [...sent.headers],
  };
}

const LIST_PARAMS_KEYS: ReadonlySet<string> = new Set(['_meta']);

/**
 * The plan for a `tools/list` the direct path serves, or undefined. Taken only for a single JSON-RPC 2.0
 * request of exactly `jsonrpc`, `id` (a string or a safe integer), `method` and `params` (absent, or exactly
 * `_meta`: no `cursor`, which the SDK's path refuses), served in an era by the call's rule (eligible.ts: a
 * 2025-era `_meta` without progress token or reserved key and an `Accept` the legacy transport takes; a
 * 2026-07-28 envelope the SDK's classification accepts, its headers equal to the body's, no `Mcp-Name`, and
 * `responseMode` other than `'sse'`).
 */
function listPlan(
  request: Request,
  state: RequestState,
  message: unknown,
  setup: DirectListSetup,
): ListPlan | undefined {
  if (state.method !== 'tools/list') return undefined;
  const plain = plainRequest(message, LIST_PARAMS_KEYS);
  if (!plain) return undefined;
  const { id, meta } = plain;
  const served = servedEra(request, message, meta, setup, undefined);
  if (!served) return undefined;
  const version = request.headers.get('mcp-protocol-version') ?? '';
  return { id, era: served.era, key: `${served.era} ${version} ${served.json}` };
}
