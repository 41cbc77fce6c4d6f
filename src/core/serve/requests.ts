/**
 * The per-request path, in the order a request meets it: who is calling, what they may see, the message
 * read once (and refused where its revision refuses it: message-edges.ts), the envelope step, a call refused
 * for want of credentials, then one exchange through the SDK.
 */

import { authenticate } from '../access/auth.js';
import type { AccessPolicy } from '../access/settle.js';
import { whenSent } from '../http/responses.js';
import { isThenable } from '../json-schema/types.js';
import { countRequest, LET_IN, limitKey as limitKeyOf } from '../limits/rate.js';
import type { LimitsPolicy } from '../limits/settle.js';
import { remoteAddressOf, requestClient } from '../observe/client.js';
import { type Refusal, refusedWith } from '../observe/refusal.js';
import type { Observer } from '../observe/settle.js';
import { type KnownNames, startTrace } from '../observe/telemetry.js';
import type { Telemetry } from '../observe/telemetry-api.js';
import { readMessage } from './body.js';
import { type DirectCalls, directCalls } from './direct/call.js';
import { type DirectLists, directLists } from './direct/list.js';
import { type EnvelopePolicy, type MessageState, noMessage, readEnvelope } from './envelope.js';
import { type InFlightCalls, inFlightCalls } from './in-flight.js';
import { streamedWhenLong } from './keep-alive.js';
import { refusedMessage } from './message-edges.js';
import type { Registration } from './registration.js';
import type { FetchExtras, RequestState } from './request-state.js';
import { acceptPlan } from './sdk/accept.js';
import { type SdkExchange, sdkExchange } from './sdk/handler.js';
import type { SdkSetup } from './sdk/server.js';
import { toolList } from './sdk/tool-list.js';
import { type ToolSet, toolSet } from './tool-set.js';

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
  const mount = mountServing(setup, registrations);
  const close = async () => {
    mount.calls.close();
    mount.lists.close();
    await mount.sdk.close();
  };
  return { fetch: (request, extras) => serveRequest(mount, request, extras), close };
}

/** What every request of one mount is served with: built once per mount (`mountServing`), read per request. */
interface MountServing {
  readonly access: AccessPolicy;
  readonly limits: LimitsPolicy;
  readonly observer: Observer;
  readonly envelopePolicy: EnvelopePolicy;
  readonly tools: ToolSet;
  readonly sdk: SdkExchange;
  readonly calls: DirectCalls;
  readonly lists: DirectLists;
  /** The calls in flight a `notifications/cancelled` may reach (in-flight.ts). */
  readonly inFlight: InFlightCalls;
  /** `protocol.keepAliveMs`, and whether a call may be answered on a stream it did not open (keep-alive.ts). */
  readonly keepAlive: { readonly intervalMs: number; readonly streams: boolean };
  readonly outside: MessageState;
  readonly tracing: { readonly telemetry: Telemetry; readonly known: KnownNames } | undefined;
}

function mountServing(setup: RequestSetup, registrations: readonly Registration[]): MountServing {
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
  const lists = directLists(
    {
      responseMode: setup.sdk.protocol.responseMode,
      compressList: setup.sdk.protocol.compressList,
      enabled: setup.direct,
    },
    list,
    sdk,
  );
  // A request without a JSON-RPC message of its own: no method, no call, the default projection.
  const outside = noMessage(envelopePolicy.projection);
  // The tracer, and what span names and the duration histogram may name: the mount's own tools, prompts and
  // static resources, never a name a client made up. Built once, when the mount traces.
  const tracing = observer.telemetry && {
    telemetry: observer.telemetry,
    known: {
      tools: new Set(registrations.map((r) => r.name)),
      prompts: new Set(setup.sdk.surface.prompts),
      resources: new Set(setup.sdk.surface.resourceUris.keys()),
    },
  };
  const { keepAliveMs, responseMode } = setup.sdk.protocol;
  const keepAlive = { intervalMs: keepAliveMs, streams: keepAliveMs > 0 && responseMode !== 'json' };
  const inFlight = inFlightCalls();
  return { access, limits, observer, envelopePolicy, tools, sdk, calls, lists, inFlight, keepAlive, outside, tracing };
}

/** One request, from its headers: authenticated, its message read, then counted (traced when the mount traces). */
async function serveRequest(mount: MountServing, request: Request, extras?: FetchExtras): Promise<Response> {
  const { access, limits, observer, tools, sdk, outside, tracing } = mount;
  // Where it came from, for the audit events: only read when a hook listens.
  const client = requestClient(observer, request, extras?.remoteAddress);
  // Before the body is read: a request without valid credentials costs no more than its headers. Each is a
  // value, not a promise, where the mount has no such rule: nothing to wait for.
  const checked = authenticate(access, observer, request, extras?.authInfo, client);
  const auth = isThenable(checked) ? await checked : checked;
  if (!auth.ok) return auth.response;
  const { authInfo } = auth;
  const seen = tools.visibility(request, authInfo, extras?.host);
  const visible = isThenable(seen) ? await seen : seen;
  // The address the audit events carry, when a hook listens; read again only for a rate key without one.
  const address =
    limits.rate && (client ? client.remoteAddress : remoteAddressOf(observer, request, extras?.remoteAddress));
  const limitKey = limitKeyOf(limits, request, authInfo, extras?.host, address);
  // The request's one state, every field present from the start and filled in as the request is read (its
  // message, trace, count, cancel): each step writes its part, where a copy per step cost a spread of the
  // whole state two or three times a call.
  const state: RequestState = {
    method: undefined,
    call: undefined,
    projection: outside.projection,
    extras,
    authInfo,
    visible,
    limitKey,
    limited: undefined,
    trace: undefined,
    client,
    cancel: undefined,
  };
  const reading = readMessage(request, extras?.parsedBody, limits.maxRequestBodyBytes, observer, authInfo, client);
  // The read is a promise of the runtime's realm where the body is read (the Edge sandbox's host's).
  const read = isThenable(reading) ? await reading : reading;
  if (read.kind === 'answered') return read.response;
  if (read.kind === 'sdk') {
    const count = await countRequest(limits, observer, undefined, state);
    return count.response ?? sdk.exchange(request, state, { authInfo }, read.body);
  }
  const trace = tracing && startTrace(tracing.telemetry, request, read.message, tracing.known);
  if (!trace) return counted(mount, request, state, read.message);
  state.trace = trace;
  try {
    return trace.end(await trace.within(() => counted(mount, request, state, read.message)));
  } catch (error) {
    trace.fail(error);
    throw error;
  }
}

/**
 * A request whose message was read: counted in its caller's rate windows before anything repairs or
 * validates it (limits/rate.ts), then its envelope read (a call over a window gets no repair), then served.
 * Not `async`: without rate windows there is nothing to count, and no turn of the event loop to spend on it.
 */
function counted(mount: MountServing, request: Request, state: RequestState, message: unknown): Promise<Response> {
  const { limits, observer } = mount;
  if (!limits.rate) return enveloped(mount, request, state, message, LET_IN);
  return countRequest(limits, observer, message, state).then((count) =>
    enveloped(mount, request, state, message, count),
  );
}

/** A counted request: answered with its refusal, or its envelope read and served. */
function enveloped(
  mount: MountServing,
  request: Request,
  state: RequestState,
  message: unknown,
  count: Awaited<ReturnType<typeof countRequest>>,
): Promise<Response> {
  if (count.response) return Promise.resolve(count.response);
  const refused = refusedMessage(message, request);
  if (refused) return Promise.resolve(refused);
  state.limited = count.limited;
  const body = readEnvelope(message, request, mount.envelopePolicy, state, !count.limited);
  return answer(mount, request, state, body);
}

/** A request whose message was read and counted: refused for want of credentials, or served. */
function answer(mount: MountServing, request: Request, state: RequestState, parsedBody: unknown): Promise<Response> {
  const { tools, observer, sdk, inFlight } = mount;
  const refused = tools.refuseCall(request, state);
  if (refused) return Promise.resolve(refusedWith(observer, refused, { reason: 'missing-token', ...aboutCall(state) }));
  // A cancel reaches the caller's own call in flight here; the notification is then answered as before.
  if (state.method === 'notifications/cancelled') inFlight.cancel(parsedBody, state.authInfo);
  if (state.method === 'tools/list') {
    return (
      mount.lists.serve(request, state, parsedBody) ??
      sdk.exchange(request, state, { authInfo: state.authInfo, parsedBody })
    );
  }
  if (state.method !== 'tools/call') return sdk.exchange(request, state, { authInfo: state.authInfo, parsedBody });
  const tracked = inFlight.track(state.call, state.authInfo);
  if (!tracked) return keptAlive(mount, request, served(mount, request, state, parsedBody));
  state.cancel = tracked.cancel;
  return trackedCall(mount, request, state, parsedBody, tracked.end);
}

/**
 * One dispatch point: a plain call is served on the direct path (direct/), everything else by the SDK. A call
 * over its rate window is the SDK's, whose executor answers it unrun (limits/rate.ts).
 */
function served(mount: MountServing, request: Request, call: RequestState, parsedBody: unknown): Promise<Response> {
  return (
    (!call.limited && mount.calls.serve(request, call, parsedBody)) ||
    mount.sdk.exchange(request, call, { authInfo: call.authInfo, parsedBody })
  );
}

/** A call a `notifications/cancelled` can reach: let go of (`end`) once its answer is sent, or on a throw. */
async function trackedCall(
  mount: MountServing,
  request: Request,
  call: RequestState,
  parsedBody: unknown,
  end: () => void,
): Promise<Response> {
  try {
    return whenSent(await keptAlive(mount, request, served(mount, request, call, parsedBody)), end);
  } catch (error) {
    end();
    throw error;
  }
}

/** A call's answer, on a stream of its own once it is late, where the client takes one (keep-alive.ts). */
function keptAlive(mount: MountServing, request: Request, answer: Promise<Response>): Promise<Response> {
  const { intervalMs, streams } = mount.keepAlive;
  if (!streams || acceptPlan(request.headers.get('accept')).json) return answer;
  return streamedWhenLong(answer, intervalMs, mount.observer);
}

/** What a refusal of this request's call can say about it. */
function aboutCall(state: RequestState): Omit<Refusal, 'reason' | 'status' | 'message'> {
  return {
    ...(state.method !== undefined && { method: state.method }),
    ...(state.call && { tool: state.call.tool }),
    ...(state.call?.requestId !== undefined && { requestId: state.call.requestId }),
    ...(state.client && { client: state.client }),
  };
}
