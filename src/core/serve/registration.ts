/**
 * One tool as the per-request server registers it: built once per mount (carriers, config, the executor),
 * bound to a request's state when the SDK's factory runs.
 */
import type { ScopeChallengeHandler } from '@modelcontextprotocol/server';
import type { MountConfig } from '../mount/config.js';
import type { PreparedTool } from '../mount/prepare.js';
import type { AnyTool } from '../mount/tool.js';
import type { ProjectionName } from '../projection/names.js';
import { carrier } from './carrier.js';
import { type Executor, executor } from './execute.js';
import { inputCarrier, NO_CALLER } from './input-carrier.js';
import { observeRefusal } from './refusal.js';
import type { RequestState } from './request-state.js';
import { type ScopeRule, scopeRule } from './scopes.js';

export interface Registration {
  name: string;
  /** The definition, for `visibleTools` predicates. */
  tool: AnyTool;
  /** The tool's `scopes`, when it has any. */
  scopes?: ScopeRule;
  /** The projections that can list the tool (its root is an object there); a call may come from any. */
  projections: ReadonlySet<ProjectionName>;
  /** The `registerTool` config for one request: the fixed parts plus an input carrier that sees `state`. */
  config(state: RequestState): any;
  /** The tool callback: runs `extend.resolve`, the handler and the output check, and reports to the hooks. */
  run: Executor;
  /** The tool's `execution`, set on the registered tool: the SDK's `registerTool` config has no such field. */
  execution?: AnyTool['execution'];
}

/** Everything about one tool that does not change between requests. */
export function registration(prepared: PreparedTool, config: MountConfig): Registration {
  const scopes = scopeRule(prepared.scopes);
  const challenge = scopes && auditedChallenge(config, prepared.name, scopes);
  const fixed = new Map(config.projection.served.map((p) => [p, fixedConfig(prepared, challenge, p)]));
  // Most requests carry no envelope repair and no unfit `arguments`: they share one config per projection,
  // built here.
  const shared = new Map(
    config.projection.served.map((p) => [
      p,
      { ...fixed.get(p), inputSchema: inputCarrier(prepared, config, NO_CALLER, p) },
    ]),
  );
  // The check must see what the envelope step did to this request's arguments, which the SDK does not pass
  // to `validate`: such a call gets a carrier of its own. So does a call `onCall` observes or a span traces: a
  // refused call is reported from the check, which must know who made it.
  const ownCarrier = (call: RequestState['call']) =>
    call !== undefined &&
    (call.repairs.length > 0 ||
      call.unfit !== undefined ||
      config.onCall !== undefined ||
      config.telemetry !== undefined);
  const configFor = (state: RequestState) => {
    const projection = state.projection();
    if (!ownCarrier(state.call)) return shared.get(projection);
    return { ...fixed.get(projection), inputSchema: inputCarrier(prepared, config, state, projection) };
  };
  const projections = new Set(Object.keys(prepared.inputSchemas) as ProjectionName[]);
  const run = executor(prepared, config);
  const { execution } = prepared.tool;
  return {
    name: prepared.name,
    tool: prepared.tool,
    ...(scopes && { scopes }),
    projections,
    config: configFor,
    run,
    ...(execution && { execution }),
  };
}

/** The tool's scope challenge, with each 403 it decides reported to `onRefusal`. */
function auditedChallenge(config: MountConfig, tool: string, scopes: ScopeRule): ScopeChallengeHandler {
  return async (context) => {
    const challenge = await scopes.challenge(context);
    if (challenge) {
      const { id } = context.request;
      observeRefusal(config, {
        reason: 'insufficient-scope',
        status: 403,
        message: challenge.errorDescription ?? 'Insufficient scope',
        method: 'tools/call',
        tool,
        requestId: id,
        ...(context.authInfo && { authInfo: context.authInfo }),
      });
    }
    return challenge;
  };
}

/** The parts of the `registerTool` config that no request of `projection` changes. */
function fixedConfig(
  prepared: PreparedTool,
  challenge: ScopeChallengeHandler | undefined,
  projection: ProjectionName,
) {
  const { tool } = prepared;
  const served = prepared.outputSchemas?.[projection] ?? prepared.outputSchema;
  // The output is checked by the executor (once, with our error text, and visible to onCall/onError); the
  // SDK's own check through this carrier then only sees a value that already passed, so it passes it through.
  const outputSchema = served && tool.output ? carrier(served, (value) => ({ value })) : undefined;
  return {
    title: tool.title,
    description: tool.description,
    outputSchema,
    annotations: tool.annotations,
    icons: tool.icons,
    _meta: tool._meta,
    ...(challenge && { scopeChallenge: challenge }),
  };
}
