/**
 * Seam (docs/design/sdk-seams.md, pinned by test/unit/serve/sdk-seams.test.ts): a task-capable `tools/call`
 * is answered from around the SDK's own handling of it, by replacing the request handler the SDK's `Protocol`
 * keeps for `tools/call` in its `_requestHandlers` map with one that calls it. The SDK's tools/call path turns
 * every throw of a tool callback into an `isError` result, adds `content: []` to a result without one, and
 * refuses a result without `structuredContent` for a tool with an output schema: neither `-32021` nor a
 * CreateTaskResult could pass through it. What the wrapper returns is still encoded by the SDK (`resultType`
 * kept on `tools/call`, `_meta` stamped), and what it throws is the request's JSON-RPC error. `next` may run
 * the SDK's handling again with a context carrying a round's answers, which the SDK hands the tool callback
 * as it is (the multi-round-trip fields of `ctx.mcpReq`).
 */
import type { McpServer, ServerContext } from '@modelcontextprotocol/server';
import { requestHandlers } from './request-handlers.js';

type Handler = (request: unknown, ctx: ServerContext) => Promise<unknown>;

/**
 * Makes `server` answer `tools/call` with what `around` returns; `next` runs the SDK's own handling (its
 * checks, the tool callback, the result's checks). Call after the tools are registered.
 * @throws Error when the SDK keeps no `tools/call` handler where this seam reads it (an SDK change).
 */
export function aroundToolsCall(
  server: McpServer,
  around: (ctx: ServerContext, next: (retry?: Retry) => Promise<unknown>) => Promise<unknown>,
): void {
  const handlers = requestHandlers<Handler>(server);
  const inner = handlers?.get('tools/call');
  if (!handlers || !inner) {
    throw new Error('mcp-mount: the SDK keeps no tools/call handler where the tasks seam reads it (sdk-seams.md)');
  }
  handlers.set('tools/call', (request, ctx) =>
    around(ctx, (retry) => inner(request, retry ? retried(ctx, retry) : ctx)),
  );
}

/** A later round of the same call: the answers to its input requests, and the state it asked to get back. */
export interface Retry {
  inputResponses: Readonly<Record<string, unknown>>;
  requestState?: string;
}

/**
 * The request's context as a multi-round-trip retry of it would carry it (`ctx.mcpReq.inputResponses`,
 * `ctx.mcpReq.requestState()`), for a task that resumes its handler with the answers `tasks/update` brought.
 */
function retried(ctx: ServerContext, retry: Retry): ServerContext {
  const { requestState } = retry;
  return {
    ...ctx,
    mcpReq: { ...ctx.mcpReq, inputResponses: { ...retry.inputResponses }, requestState: (() => requestState) as never },
  };
}
