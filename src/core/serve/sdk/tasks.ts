/**
 * The tasks extension's methods on a per-request server: `tasks/get`, `tasks/update` and `tasks/cancel`
 * registered with explicit param schemas (the SDK's way for extension methods: on 2026-07-28 it dispatches
 * `tasks/get` and `tasks/cancel`, names it removed from core, only to a handler registered so; `tasks/update` is
 * no spec method at all). `tasks/result` and `tasks/list` stay unregistered: the 2026-07-28 codec answers them
 * `-32601`. The SDK checks the `Mcp-Name` header against `params.taskId` before any of these runs.
 */
import type { McpServer, ServerContext } from '@modelcontextprotocol/server';
import * as z from 'zod';
import type { JsonObject } from '../../tasks/store.js';

/** What answers each method: a result, or a throw carrying the JSON-RPC error's `code` (and `data`). */
export interface TaskMethods {
  get(taskId: string, ctx: ServerContext): Promise<JsonObject>;
  update(taskId: string, inputResponses: Readonly<Record<string, JsonObject>>, ctx: ServerContext): Promise<JsonObject>;
  cancel(taskId: string, ctx: ServerContext): Promise<JsonObject>;
}

const TaskParams = z.looseObject({ taskId: z.string() });

/**
 * Registers the three methods on `server`; a malformed request gets the SDK's `-32602` naming the param.
 * `tasks/update`'s `inputResponses` are read where the SDK lifts them from every request's params (a seam:
 * `ctx.mcpReq.inputResponses`, the multi-round-trip answers), keeping the entries that are objects.
 */
export function serveTaskMethods(server: McpServer, methods: TaskMethods): void {
  const low = server.server;
  low.setRequestHandler('tasks/get', { params: TaskParams }, (params, ctx) => methods.get(params.taskId, ctx) as never);
  low.setRequestHandler(
    'tasks/update',
    { params: TaskParams },
    (params, ctx) => methods.update(params.taskId, answersOf(ctx.mcpReq.inputResponses), ctx) as never,
  );
  low.setRequestHandler(
    'tasks/cancel',
    { params: TaskParams },
    (params, ctx) => methods.cancel(params.taskId, ctx) as never,
  );
}

/** The answers a `tasks/update` carried, as the SDK lifted them: each key whose answer is an object. */
function answersOf(lifted: Record<string, unknown> | undefined): Record<string, JsonObject> {
  const answers: Record<string, JsonObject> = {};
  for (const [key, value] of Object.entries(lifted ?? {})) {
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) answers[key] = value as JsonObject;
  }
  return answers;
}
