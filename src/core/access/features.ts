/**
 * One access model for what the `features` hook registers (prompts, resources, resource templates), as for
 * tools: hidden by `access.visibleFeatures` (left out of lists, not found on get or read), and held to its
 * SDK `scopeChallenge` (left out of lists unless `listUnauthorizedTools`; 403 `insufficient_scope` on get or
 * read, which the SDK answers before dispatch). See docs/decisions/0023-one-access-model.md.
 */
import {
  type AuthInfo,
  ProtocolError,
  ProtocolErrorCode,
  type ScopeChallengeHandler,
} from '@modelcontextprotocol/server';
import { isPlainObject } from '../json-schema/types.js';
import { ToolError } from '../model/tool-error.js';
import { maskedText } from '../observe/failure.js';
import { observeError } from '../observe/observe.js';
import type { RequestClient } from '../observe/options.js';
import { observeRefusal } from '../observe/refusal.js';
import type { Observer } from '../observe/settle.js';
import type { FeatureItem, VisibleFeatures } from './options.js';
import type { AccessPolicy } from './settle.js';

/** What the feature checks know of the request whose server the hook fills. */
export interface FeatureRequest {
  /** The JSON-RPC method of a single message. */
  readonly method?: string;
  /** Who is calling. */
  readonly authInfo?: AuthInfo;
  /** What the adapter hands over (`{}` when none). */
  readonly host: unknown;
  /** Where the request came from, for the audit trail. */
  readonly client?: RequestClient;
}

/** One item the hook registered on this request's server, and how to take it off again. */
export interface RegisteredFeature extends FeatureItem {
  /** Its scope challenge as the list filter asks it: not reported, since a list leaving it out refuses nothing. */
  challenge?: ScopeChallengeHandler;
  remove(): void;
}

/** The methods that list items: there, an item the caller may not use is left out. */
const LISTS: ReadonlySet<string> = new Set(['prompts/list', 'resources/list', 'resources/templates/list']);

// What a caller without a token is judged as by a scope challenge: a token with no scopes.
const NO_TOKEN: AuthInfo = Object.freeze({ token: '', clientId: '', scopes: Object.freeze([]) as never });

/** How the items the `features` hook registers are held to the access rules, for one request. */
export interface FeatureGuard {
  /**
   * An item's config with its `scopeChallenge` made to refuse a caller without a token (the SDK's
   * `requireScopes` leaves such a caller to an authentication gate, and on a mount whose auth is optional
   * there is none for prompts and resources), each 403 it decides reported to `observe.onRefusal`; and that
   * challenge as the list filter asks it (unreported).
   */
  config(itemConfig: unknown): { config: unknown; challenge?: ScopeChallengeHandler };
  /** `rest`, the registration's remaining arguments, with its handler (the last function) masked as a tool's. */
  handler(rest: unknown[], what: string): unknown[];
}

/** The guard for one request's items (serve/sdk/features.ts applies it to each registration). */
export function featureGuard(observer: Observer, state: FeatureRequest): FeatureGuard {
  return {
    config: (itemConfig) => guarded(itemConfig, observer, state),
    handler: (rest, what) => masked(rest, what, observer, state),
  };
}

/**
 * `rest` with its handler (the last function) wrapped as a tool's is: a `ProtocolError` (the SDK's answers,
 * meant for the client) and a `ToolError` pass as they are; anything else is logged and reported to `onError`
 * (phase `feature`) and the client sees `<what> failed (error id <id>)`, with the message under
 * `exposeErrors`.
 */
function masked(rest: unknown[], what: string, observer: Observer, state: FeatureRequest): unknown[] {
  const at = rest.length - 1;
  const handler = rest[at];
  if (typeof handler !== 'function') return rest;
  const wrapped = async (...args: unknown[]) => {
    try {
      return await handler(...args);
    } catch (error) {
      if (error instanceof ProtocolError) throw error;
      if (error instanceof ToolError) throw new ProtocolError(ProtocolErrorCode.InternalError, error.message);
      const errorId = observeError(observer, error, {
        phase: 'feature',
        ...(state.authInfo && { authInfo: state.authInfo }),
      });
      throw new ProtocolError(ProtocolErrorCode.InternalError, maskedText(observer, what, errorId, error));
    }
  };
  return [...rest.slice(0, at), wrapped];
}

function guarded(
  itemConfig: unknown,
  observer: Observer,
  state: FeatureRequest,
): { config: unknown; challenge?: ScopeChallengeHandler } {
  if (!isPlainObject(itemConfig) || typeof itemConfig.scopeChallenge !== 'function') return { config: itemConfig };
  const own = itemConfig.scopeChallenge as ScopeChallengeHandler;
  const challenge: ScopeChallengeHandler = (context) => own({ ...context, authInfo: context.authInfo ?? NO_TOKEN });
  // What the SDK asks before a get or read: refused is the 403 the caller gets, so it is an audit event.
  const reported: ScopeChallengeHandler = async (context) => {
    const refusal = await challenge(context);
    if (refusal) {
      observeRefusal(observer, {
        reason: 'insufficient-scope',
        status: 403,
        message: refusal.errorDescription ?? 'Insufficient scope',
        method: context.request.method,
        requestId: context.request.id,
        ...((context.authInfo ?? state.authInfo) && { authInfo: context.authInfo ?? state.authInfo }),
        ...(state.client && { client: state.client }),
      });
    }
    return refusal;
  };
  return { config: { ...itemConfig, scopeChallenge: reported }, challenge };
}

/**
 * Takes off `server` what this request may not see: every item `visibleFeatures` hides, and, on a list,
 * every item whose scope challenge refuses the caller (unless `listUnauthorizedTools`).
 */
export async function restrictFeatures(
  items: readonly RegisteredFeature[],
  access: AccessPolicy,
  state: FeatureRequest,
  request: Request,
): Promise<void> {
  if (items.length === 0) return;
  const visible = access.visibleFeatures
    ? asPredicate(await access.visibleFeatures({ authInfo: state.authInfo, request, host: state.host }))
    : undefined;
  const listing = state.method !== undefined && LISTS.has(state.method) && !access.listUnauthorizedTools;
  for (const item of items) {
    if (visible && !visible(item)) item.remove();
    else if (listing && item.challenge && (await refused(item.challenge, state.authInfo))) item.remove();
  }
}

async function refused(challenge: ScopeChallengeHandler, authInfo: AuthInfo | undefined): Promise<boolean> {
  const request = { jsonrpc: '2.0' as const, id: 0, method: 'prompts/get', params: {} };
  return (await challenge({ request, ...(authInfo && { authInfo }) })) !== undefined;
}

/** `visibleFeatures`' answer as a predicate. @throws TypeError for anything else (a 500 that onError sees). */
function asPredicate(answer: VisibleFeatures): (item: FeatureItem) => boolean {
  if (typeof answer === 'function')
    return (item) => answer({ kind: item.kind, name: item.name, uri: item.uri }) === true;
  if (answer instanceof Set) return (item) => answer.has(item.name);
  if (Array.isArray(answer)) {
    const names = new Set(answer);
    return (item) => names.has(item.name);
  }
  throw new TypeError('mcp-mount: visibleFeatures must return names (an array or a Set) or a predicate');
}
