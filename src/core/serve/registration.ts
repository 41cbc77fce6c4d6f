/**
 * One tool as the per-request server registers it: built once per mount (carriers, config, the executor),
 * bound to a request's state when the SDK's factory runs.
 */
import {
  type CallToolResult,
  ProtocolError,
  ProtocolErrorCode,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { formatIssues } from '../messages/index.js';
import type { MountConfig } from '../mount/config.js';
import type { PreparedTool } from '../mount/prepare.js';
import type { AnyTool, ToolContext } from '../mount/tool.js';
import type { ProjectionName } from '../projection/names.js';
import { checkCall, type ParsedCall } from './call.js';
import { carrier } from './carrier.js';
import { failedCall } from './failure.js';
import { toolSignals } from './logging.js';
import { observeCall } from './observe.js';
import type { RequestState } from './request-state.js';
import { isInputRequired, toToolResult, withNotice, withStructured } from './result.js';
import { type ScopeRule, scopeRule } from './scopes.js';

/** What a carrier shared by every request knows of the request: nothing (see `configFor`). */
const NO_REQUEST: Caller = Object.freeze({});

/** What the input carrier knows of the request that made a call: the call's envelope, and who made it. */
type Caller = Pick<RequestState, 'call' | 'authInfo'>;

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
  run(parsed: ParsedCall & { started: number; args: unknown }, mcp: ServerContext, state: RequestState): Promise<any>;
}

/** What the hooks are told about who made a call and with what. */
function audit(state: Caller, args: unknown) {
  return { requestId: state.call?.requestId, authInfo: state.authInfo, args };
}

/** Everything about one tool that does not change between requests. */
export function registration(prepared: PreparedTool, config: MountConfig): Registration {
  const { tool } = prepared;
  // The check must see what the envelope step did to this request's arguments, which the SDK does not
  // pass to `validate`: a request that changed its envelope gets a carrier of its own.
  const inputFor = (state: Caller, projection: ProjectionName) =>
    carrier(prepared.inputSchemas[projection] ?? prepared.inputSchema, async (value) => {
      const started = performance.now();
      const check = await checkCall(prepared, value, config, state.call);
      if (check.ok) return { value: { ...check.value, started, args: value } };
      const error = check.messages.join('; ');
      observeCall(config, {
        ...audit(state, value),
        tool: prepared.name,
        ok: false,
        error,
        repairs: check.repairs,
        ignoredKeys: check.ignored,
        started,
      });
      return { issues: check.messages.map((message) => ({ message })) };
    });

  const output = tool.output;
  // The output is checked in `run` (once, with our error text, and visible to onCall/onError); the SDK's own
  // check through this carrier then only sees a value that already passed, so it passes it through.
  const outputSchema =
    prepared.outputSchema && output ? carrier(prepared.outputSchema, (value) => ({ value })) : undefined;

  const run: Registration['run'] = async (args, mcp, state) => {
    const base: Omit<ToolContext, 'extend'> = {
      request: mcp.http?.req,
      authInfo: mcp.http?.authInfo ?? state.authInfo,
      signal: mcp.mcpReq.signal,
      repairs: args.repairs,
      ignoredKeys: args.ignored,
      host: state.extras?.host ?? {},
      mcp,
      ...toolSignals(mcp, config, prepared.name),
    };
    const who = audit(state, args.args);
    const finish = (ok: boolean, error?: string, errorId?: string, inputRequired?: boolean) =>
      observeCall(config, {
        ...who,
        tool: prepared.name,
        ok,
        error,
        errorId,
        repairs: args.repairs,
        ignoredKeys: args.ignored,
        started: args.started,
        inputRequired,
      });
    // What the schema dropped reaches the model beside whatever the handler returned.
    const noticed = (result: CallToolResult) => withNotice(result, args.notice);
    const fail = (error: unknown) => {
      const failure = failedCall(config, prepared.name, error, who);
      finish(false, failure.text, failure.errorId);
      return noticed(failure.result);
    };
    try {
      const extend = prepared.extend?.resolve ? await prepared.extend.resolve(args.extend as never, base) : args.extend;
      const value = await tool.handler(
        { params: args.params as never, input: args.input as never },
        { ...base, extend },
      );
      const result = toToolResult(value, output !== undefined);
      // A round that asks the client for input is not the call's outcome: no output to check yet.
      if (isInputRequired(result)) {
        finish(true, undefined, undefined, true);
        return result;
      }
      if (!output || result.isError) {
        finish(!result.isError);
        return noticed(result);
      }
      const checked = await output.safeParseAsync(result.structuredContent);
      if (checked.success) {
        finish(true);
        return noticed(withStructured(result, checked.data, value));
      }
      // The handler broke its own contract: a server bug, masked like a throw (the issues may quote values).
      const text = `Output validation error: tool ${prepared.name} returned a value its output schema refuses: ${formatIssues(checked.error, output, result.structuredContent).join('; ')}`;
      return fail(new Error(text));
    } catch (error) {
      // The SDK's URL elicitation must reach the client as the protocol error it is.
      if (error instanceof ProtocolError && error.code === ProtocolErrorCode.UrlElicitationRequired) throw error;
      return fail(error);
    }
  };

  const scopes = scopeRule(prepared.scopes);
  const fixed = {
    title: tool.title,
    description: tool.description,
    outputSchema,
    annotations: tool.annotations,
    ...(scopes && { scopeChallenge: scopes.challenge }),
  };
  // Most requests carry no envelope repair and no unfit `arguments`: they share one config per projection,
  // built here.
  const shared = new Map(
    config.projection.served.map((p) => [p, { ...fixed, inputSchema: inputFor(NO_REQUEST, p) }] as const),
  );
  // A call observed by `onCall` gets one too: a refused call is reported from the check, which must know
  // who made it.
  const ownCarrier = (call: RequestState['call']) =>
    call !== undefined && (call.repairs.length > 0 || call.unfit !== undefined || config.onCall !== undefined);
  const configFor = (state: RequestState) => {
    const projection = state.projection();
    return ownCarrier(state.call) ? { ...fixed, inputSchema: inputFor(state, projection) } : shared.get(projection);
  };
  const projections = new Set(Object.keys(prepared.inputSchemas) as ProjectionName[]);
  return { name: prepared.name, tool, ...(scopes && { scopes }), projections, config: configFor, run };
}
