/**
 * Which tools one request sees: `tools/list` shows what the caller may see and call (`visibleTools`, then
 * `scopes` unless `listUnauthorizedTools`) among the tools its projection can serve, from the cache for a
 * single list (tool-list.ts), registered for a batch; a `tools/call` holds the called tool alone, looked up
 * by name, so its cost does not grow with the tool count. A hidden tool is held by nobody: its call gets the
 * SDK's unknown-tool answer. See docs/decisions/0012-access-control.md.
 */
import type { AuthInfo, RegisteredTool } from '@modelcontextprotocol/server';
import { authenticationRequired } from '../access/auth.js';
import { toolVisibility, type Visibility } from '../access/visibility.js';
import { observeCallRefusal } from '../observe/refusal.js';
import type { MountConfig } from './config.js';
import type { Registration } from './registration.js';
import type { RequestState } from './request-state.js';

export interface ToolSet {
  /** Runs `visibleTools` for this request (once), or undefined when every tool is visible. */
  visibility(request: Request, authInfo: AuthInfo | undefined, host: unknown): Promise<Visibility | undefined>;
  /** A 401 for a call to a visible tool with `scopes` that came without credentials, else undefined. */
  refuseCall(request: Request, state: RequestState): Response | undefined;
  /** Registers this request's tools on its server through `register` (a call, a batch; tool-list.ts lists). */
  populate(state: RequestState, register: (registration: Registration) => RegisteredTool): void;
  /** The tools this request's `tools/list` shows, in the mount's order; chooses its projection. */
  listed(state: RequestState): Registration[];
}

export function toolSet(registrations: readonly Registration[], config: MountConfig): ToolSet {
  const byName = new Map(registrations.map((r) => [r.name, r]));
  const visible = (r: Registration, state: RequestState) => state.visible?.(r) ?? true;
  const listed = (r: Registration, state: RequestState) =>
    r.listed(state.projection()) !== undefined &&
    visible(r, state) &&
    (config.access.listUnauthorizedTools || !r.scopes || r.scopes.permits(state.authInfo));
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

  return {
    visibility: (request, authInfo, host) => toolVisibility(config.access, request, authInfo, host),
    refuseCall(request, state) {
      const r = called(state);
      if (r?.scopes && state.authInfo === undefined)
        return authenticationRequired(config.access, request, r.scopes.requested);
      return undefined;
    },
    populate(state, register) {
      if (state.call !== undefined) {
        const r = called(state);
        if (r) register(r);
        else {
          placeholder(register);
          unknownTool(config, state);
        }
        return;
      }
      const tools = shown(state);
      for (const r of tools) register(r);
      if (tools.length === 0) placeholder(register);
    },
    listed: shown,
  };

  /**
   * The SDK answers `tools/list` and `tools/call` only once a tool is registered. Registering one and
   * removing it again leaves those answers (an empty list; "Tool x not found" for any name), so an
   * unknown and a hidden tool get the same answer, whatever else the mount serves.
   */
  function placeholder(register: (registration: Registration) => RegisteredTool) {
    const first = registrations[0];
    if (first) register(first).remove();
  }
}

/** A call to a tool that does not exist or is hidden, for the audit trail: one event, the SDK's words. */
function unknownTool(config: MountConfig, state: RequestState): void {
  const { tool } = state.call!;
  observeCallRefusal(config.observe, state, { reason: 'unknown-tool', message: `Tool ${tool} not found`, tool });
}
