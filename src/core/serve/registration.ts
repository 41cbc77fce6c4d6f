/**
 * One tool as the per-request server registers it: built once per mount (carriers, config, the executor),
 * bound to a request's state when the SDK's factory runs.
 */
import type { ScopeChallengeHandler } from '@modelcontextprotocol/server';
import { type ScopeRule, scopeRule } from '../access/scopes.js';
import type { CallPolicy } from '../arguments/call.js';
import { perProjection } from '../model/per-projection.js';
import type { PreparedTool, ToolDocuments } from '../model/prepared.js';
import { type AnyTool, listedExecution } from '../model/tool.js';
import type { RequestClient } from '../observe/options.js';
import { observeRefusal } from '../observe/refusal.js';
import type { Observer } from '../observe/settle.js';
import type { ProjectionName } from '../projection/names.js';
import { settleToolTask, type TasksPolicy, type ToolTaskPolicy } from '../tasks/settle.js';
import { type Executor, executor, type RunPolicy } from './execute.js';
import { inputCarrier, listedDocuments, NO_CALLER } from './input-carrier.js';
import type { RequestState } from './request-state.js';
import { carrier } from './sdk/carrier.js';

export interface Registration {
  name: string;
  /** The definition, for `visibleTools` predicates. */
  tool: AnyTool;
  /** The tool's `scopes`, when it has any. */
  scopes?: ScopeRule;
  /**
   * What `projection` lists the tool with, or undefined where it is not listed; a call may come from any
   * projection. Prepared on first use (docs/decisions/0026-projections-prepared-on-first-use.md).
   */
  listed(projection: ProjectionName): ToolDocuments | undefined;
  /** The `registerTool` config for one request: the fixed parts plus an input carrier that sees `state`. */
  config(state: RequestState): any;
  /** The tool callback: runs `extend.resolve`, the handler and the output check, and reports to the hooks. */
  run: Executor;
  /**
   * The `registerTool` config for a call already checked and run on the direct path (direct/call.ts): the
   * fixed parts plus an input carrier that passes the value through, so nothing is checked twice.
   */
  adoptable(projection: ProjectionName): any;
  /**
   * The tool's `execution`, set on the registered tool: the SDK's `registerTool` config has no such field.
   * For a tool with `task`, `{ taskSupport: 'forbidden' }`: the 2025-era lists it appears in are served plain
   * calls only (ADR 0036).
   */
  execution?: AnyTool['execution'];
  /** The tool's `task`, settled; undefined for a tool that never runs as a task. */
  task?: ToolTaskPolicy;
}

/** What a tool's registration reads: the projections served, the argument check's policy, and the run's. */
export interface RegistrationPolicy extends RunPolicy {
  readonly served: readonly ProjectionName[];
  readonly call: CallPolicy;
  /** The mount's `tasks`; undefined when it runs none. */
  readonly tasks?: TasksPolicy;
}

/** Everything about one tool that does not change between requests. */
export function registration(prepared: PreparedTool, setup: RegistrationPolicy): Registration {
  const { served, observer, call: policy } = setup;
  const scopes = scopeRule(prepared.scopes);
  const challenge = scopes && auditedChallenge(observer, prepared.name, scopes);
  const fixed = perProjection((p) => fixedConfig(listedDocuments(prepared, p, served), prepared.tool, challenge));
  // Most requests carry no envelope repair and no unfit `arguments`: they share one config per projection,
  // built when first needed.
  const shared = perProjection((p) => ({
    ...fixed(p),
    inputSchema: inputCarrier(prepared, served, observer, policy, NO_CALLER, p),
  }));
  // The check must see what the envelope step did to this request's arguments, which the SDK does not pass
  // to `validate`: such a call gets a carrier of its own. So does a call `onCall` observes or a span traces: a
  // refused call is reported from the check, which must know who made it.
  const ownCarrier = (call: RequestState['call']) =>
    call !== undefined &&
    (call.repairs.length > 0 ||
      call.unfit !== undefined ||
      observer.onCall !== undefined ||
      observer.telemetry !== undefined);
  const configFor = (state: RequestState) => {
    const projection = state.projection();
    // A call over its rate window is answered without a check: its carrier must know.
    const config =
      !ownCarrier(state.call) && !state.limited
        ? shared(projection)
        : { ...fixed(projection), inputSchema: inputCarrier(prepared, served, observer, policy, state, projection) };
    // The SDK hands the challenge only the JSON-RPC request: where it came from is this request's to add.
    if (!scopes || !state.client) return config;
    return { ...config, scopeChallenge: auditedChallenge(observer, prepared.name, scopes, state.client) };
  };
  const task = settleToolTask(prepared.tool, setup.tasks);
  const adoptable = perProjection((p) => ({
    ...fixed(p),
    inputSchema: carrier(listedDocuments(prepared, p, served).inputSchema, (value) => ({ value })),
  }));
  const run = executor(prepared, setup);
  const execution = listedExecution(prepared.tool);
  return {
    name: prepared.name,
    tool: prepared.tool,
    ...(scopes && { scopes }),
    listed: prepared.documents,
    config: configFor,
    run,
    adoptable,
    ...(execution && { execution }),
    ...(task && { task }),
  };
}

/** The tool's scope challenge, with each 403 it decides reported to `onRefusal`. */
function auditedChallenge(
  observer: Observer,
  tool: string,
  scopes: ScopeRule,
  client?: RequestClient,
): ScopeChallengeHandler {
  return async (context) => {
    const challenge = await scopes.challenge(context);
    if (challenge) {
      const { id } = context.request;
      observeRefusal(observer, {
        reason: 'insufficient-scope',
        status: 403,
        message: challenge.errorDescription ?? 'Insufficient scope',
        method: 'tools/call',
        tool,
        requestId: id,
        ...(context.authInfo && { authInfo: context.authInfo }),
        ...(client && { client }),
      });
    }
    return challenge;
  };
}

/** The parts of the `registerTool` config that no request of one projection changes. */
function fixedConfig(documents: ToolDocuments, tool: AnyTool, challenge: ScopeChallengeHandler | undefined) {
  const served = documents.outputSchema;
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
