/**
 * The per-request path, in the order a request meets it: who is calling, what they may see, the message
 * read once, the envelope step, a call refused for want of credentials, then one exchange through the SDK.
 */

import { authenticate } from '../access/auth.js';
import type { AccessPolicy } from '../access/settle.js';
import { limitKey as limitKeyOf, limitRequest } from '../limits/rate.js';
import type { LimitsPolicy } from '../limits/settle.js';
import { type Refusal, refusedWith } from '../observe/refusal.js';
import type { Observer } from '../observe/settle.js';
import { startTrace } from '../observe/telemetry.js';
import { readMessage } from './body.js';
import { directCalls } from './direct/call.js';
import { type EnvelopePolicy, noMessage, readEnvelope } from './envelope.js';
import type { Registration } from './registration.js';
import type { FetchExtras, RequestState } from './request-state.js';
import { sdkExchange } from './sdk/handler.js';
import type { SdkSetup } from './sdk/server.js';
import { toolList } from './sdk/tool-list.js';
import { toolSet } from './tool-set.js';

export interface RequestPath {
  fetch(request: Request, extras?: FetchExtras): Promise<Response>;
  close(): Promise<void>;
}

/** What the request path reads, each concern's policy: settled once per mount (handler.ts). */
export interface RequestSetup {
  readonly access: AccessPolicy;
  readonly limits: LimitsPolicy;
  readonly observer: Observer;
  readonly envelope: EnvelopePolicy;
  readonly sdk: SdkSetup;
  /** False while the mount serves every request through the SDK (`forceSdkPath`, handler.ts). */
  readonly direct: () => boolean;
}

export function serveRequests(setup: RequestSetup, registrations: readonly Registration[]): RequestPath {
  const { access, limits, observer, envelope: envelopePolicy } = setup;
  const tools = toolSet(registrations, access, observer);
  const list = toolList(registrations, access, envelopePolicy.projection, observer, tools);
  const sdk = sdkExchange(setup.sdk, tools, list);
  const calls = directCalls(
    {
      responseMode: setup.sdk.protocol.responseMode,
      logging: setup.sdk.protocol.logging,
      serverInfo: setup.sdk.server.implementation,
      called: tools.called,
      enabled: setup.direct,
    },
    sdk,
  );
  // A request without a JSON-RPC message of its own: no method, no call, the default projection.
  const outside = noMessage(envelopePolicy.projection);
  // The tracer, and what the duration histogram may name: the mount's own tools and prompts, never a name a
  // client made up. Built once, when the mount traces.
  const tracing = observer.telemetry && {
    telemetry: observer.telemetry,
    known: { tools: new Set(registrations.map((r) => r.name)), prompts: new Set(setup.sdk.surface.prompts) },
  };

  const fetch = async (request: Request, extras?: FetchExtras): Promise<Response> => {
    // Before the body is read: a request without valid credentials costs no more than its headers.
    const auth = await authenticate(access, observer, request, extras?.authInfo);
    if (!auth.ok) return auth.response;
    const { authInfo } = auth;
    const visible = await tools.visibility(request, authInfo, extras?.host);
    const limitKey = limitKeyOf(limits, request, authInfo, extras?.host);
    const plain: RequestState = { ...outside, extras, authInfo, visible, ...(limitKey !== undefined && { limitKey }) };
    const read = await readMessage(request, extras?.parsedBody, limits.maxRequestBodyBytes, observer, authInfo);
    if (read.kind === 'answered') return read.response;
    if (read.kind === 'sdk') return sdk.exchange(request, plain, { authInfo }, read.body);
    const envelope = readEnvelope(read.message, request, envelopePolicy, extras?.host);
    const trace = tracing && startTrace(tracing.telemetry, request, read.message, tracing.known);
    const state: RequestState = { ...plain, ...envelope.state, ...(trace && { trace }) };
    if (!trace) return answer(request, state, envelope.body);
    try {
      return trace.end(await trace.within(() => answer(request, state, envelope.body)));
    } catch (error) {
      trace.fail(error);
      throw error;
    }
  };

  /** A request whose message was read: refused for want of credentials or over its limit, or served. */
  const answer = async (request: Request, state: RequestState, parsedBody: unknown): Promise<Response> => {
    const refused = tools.refuseCall(request, state);
    if (refused) return refusedWith(observer, refused, { reason: 'missing-token', ...aboutCall(state) });
    // A call is limited where it runs (execute.ts), so the model gets an `isError` it can act on.
    const limited = state.method === 'tools/call' ? undefined : await limitRequest(limits, observer, state);
    if (limited) return limited;
    // One dispatch point: a plain call is served on the direct path (direct/), everything else by the SDK.
    const direct = state.method === 'tools/call' ? calls.serve(request, state, parsedBody) : undefined;
    return direct ?? sdk.exchange(request, state, { authInfo: state.authInfo, parsedBody });
  };

  const close = async () => {
    calls.close();
    await sdk.close();
  };
  return { fetch, close };
}

/** What a refusal of this request's call can say about it. */
function aboutCall(state: RequestState): Omit<Refusal, 'reason' | 'status' | 'message'> {
  return {
    ...(state.method !== undefined && { method: state.method }),
    ...(state.call && { tool: state.call.tool }),
    ...(state.call?.requestId !== undefined && { requestId: state.call.requestId }),
  };
}
