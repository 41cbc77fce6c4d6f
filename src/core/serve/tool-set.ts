/**
 * Which tools one request sees: `tools/list` shows what the caller may see and call (`visibleTools`, then
 * `scopes` unless `listUnauthorizedTools`) among the tools its projection can serve, from the cache for a
 * single list (tool-list.ts), registered for a batch; a `tools/call` holds the called tool alone, looked up
 * by name, so its cost does not grow with the tool count. A hidden tool is held by nobody: its call gets the
 * SDK's unknown-tool answer. See docs/decisions/0012-access-control.md.
 */
import type { AuthInfo } from '@modelcontextprotocol/server';
import { authenticationRequired } from '../access/auth.js';
import type { AccessPolicy } from '../access/settle.js';
import { toolVisibility, type Visibility } from '../access/visibility.js';
import { observeCallRefusal } from '../observe/refusal.js';
import type { Observer } from '../observe/settle.js';
import type { Registration } from './registration.js';
import type { RequestState } from './request-state.js';

export interface ToolSet {
  /** Runs `visibleTools` for this request (once), or undefined (at once) when every tool is visible. */
  visibility(
    request: Request,
    authInfo: AuthInfo | undefined,
    host: unknown,
  ): Visibility | undefined | Promise<Visibility | undefined>;
  /** A 401 for a call to a visible tool with `scopes` that came without credentials, else undefined. */
  refuseCall(request: Request, state: RequestState): Response | undefined;
  /**
   * The tools this request's server holds (a call, a batch; a single list is answered from the cache): the
   * called tool alone, or none when it is unknown or hidden (reported to `onRefusal`); for a batch, what the
   * caller may see.
   */
  held(state: RequestState): readonly Registration[];
  /** The tool a call names, when this request may call it; undefined (reported to nobody) otherwise. */
  called(state: RequestState): Registration | undefined;
  /** The tools this request's `tools/list` shows, in the mount's order; chooses its projection. */
  listed(state: RequestState): Registration[];
  /**
   * Whether this request may still reach a task's tool, by its name: the tool is served, visible to it
   * (`visibleTools`) and its token holds the tool's `scopes`. Undefined when the mount has no such rule (every
   * tool is reachable). A task stored without its tool's name, or whose tool is no longer served, is reached by
   * nobody once there are rules: nothing says whom it would be shown to.
   */
  reaches(state: RequestState): ((tool: string | undefined) => boolean) | undefined;
}

export function toolSet(registrations: readonly Registration[], access: AccessPolicy, observer: Observer): ToolSet {
  const byName = new Map(registrations.map((r) => [r.name, r]));
  const visible = (r: Registration, state: RequestState) => state.visible?.(r) ?? true;
  const listed = (r: Registration, state: RequestState) =>
    r.listed(state.projection()) !== undefined &&
    visible(r, state) &&
    (access.listUnauthorizedTools || !r.scopes || r.scopes.permits(state.authInfo));
  const shown = (state: RequestState) => {
    // Chosen here, now that the SDK has accepted the request, before any tool is listed.
    state.projection();
    return registrations.filter((r) => listed(r, state));
  };
  /** The called tool, when this request may call it. */
  const called = (state: RequestState) => {
    const r = state.call && byName.get(state.call.tool);
    return r && visible(r, state) ? r : undefined;
  };

  const ruled = access.visibleTools !== undefined || registrations.some((r) => r.scopes !== undefined);

  return {
    visibility: (request, authInfo, host) => toolVisibility(access, request, authInfo, host),
    refuseCall(request, state) {
      const r = called(state);
      if (r?.scopes && state.authInfo === undefined) return authenticationRequired(access, request, r.scopes.requested);
      return undefined;
    },
    held(state) {
      if (state.call === undefined) return shown(state);
      const r = called(state);
      if (r) return [r];
      unknownTool(observer, state);
      return [];
    },
    called,
    listed: shown,
    reaches(state) {
      if (!ruled) return undefined;
      return (tool) => {
        const r = tool === undefined ? undefined : byName.get(tool);
        return r !== undefined && visible(r, state) && (!r.scopes || r.scopes.permits(state.authInfo));
      };
    },
  };
}

/** A call to a tool that does not exist or is hidden, for the audit trail: one event, the SDK's words. */
function unknownTool(observer: Observer, state: RequestState): void {
  const { tool } = state.call!;
  observeCallRefusal(observer, state, { reason: 'unknown-tool', message: `Tool ${tool} not found`, tool });
}
