/**
 * The web-standard handler every adapter wraps, over a mount's preparation: serves each request through the
 * SDK v2 handler (stateless; 2026-07-28 and 2025-era clients) with a fresh `McpServer` per request. Its
 * `fetch` always resolves to a `Response`.
 */

import { isPreflight, preflight, withCors } from '../access/cors.js';
import { checkOrigin } from '../access/origin.js';
import type { AccessPolicy } from '../access/settle.js';
import { jsonRpcError } from '../http/responses.js';
import type { Preparation } from '../model/prepared.js';
import { requestClient } from '../observe/client.js';
import { observeError } from '../observe/observe.js';
import { refusedWith } from '../observe/refusal.js';
import type { Observer } from '../observe/settle.js';
import { servedTools } from '../prepare/policy.js';
import type { ValidationReport } from '../prepare/report.js';
import { reportOf } from '../prepare/report.js';
import type { TaskJob } from '../tasks/options.js';
import { callPolicy, type MountConfig } from './config.js';
import { registration } from './registration.js';
import type { FetchExtras } from './request-state.js';
import { type RequestPath, serveRequests } from './requests.js';
import { type TaskRunReport, taskConsumer } from './task-consumer.js';

export type { FetchExtras } from './request-state.js';

/** The web-standard core every adapter wraps; `Host` is what its `fetch` hands tools as `ctx.host`. */
export interface McpFetchHandler<Host = unknown> {
  /**
   * Serves one HTTP request (POST JSON-RPC; GET/DELETE are answered as the SDK's stateless serving does).
   * A request whose `Origin` or `Host` is not allowed gets 403 first (`access.checkOrigin`); with `cors`, a
   * preflight from an allowed origin gets 204, and responses to it carry CORS headers.
   * Never rejects: a failure inside becomes a JSON-RPC 500 (-32603) whose message carries an error id, and is
   * logged with that id (`observe.logger`) and reported to `onError`.
   * A `tools/list` body is streamed from bytes the mount keeps for every list (ADR 0025): read, pipe or
   * decode it, but never write into or transfer its chunks.
   */
  fetch(request: Request, extras?: FetchExtras<Host>): Promise<Response>;
  /** Aborts in-flight exchanges. */
  close(): Promise<void>;
  /**
   * Runs a task handed to a queue (`tasks.run`), in a queue's worker: call it with the job the hook was given,
   * on a mount serving the same tools with the same `tasks.store`. Claims the task with a lease (a job
   * delivered twice, or to two workers, runs once: the other gets `{ ran: false }`), checks and parses the
   * stored arguments with the tool's schema, runs the handler with `ctx.signal` (aborted on the client's
   * cancel, a lost lease, `task.timeoutMs`), `ctx.task.status` and input rounds (`inputRequired`), heartbeats
   * every third of `tasks.leaseMs`, and settles the task. `ctx.authInfo` is the caller's without its token
   * (`token: ''`: tokens are never stored); `ctx.request` is undefined; `extras.host` is `ctx.host`. Resolves
   * when the task has ended, with how (`TaskRunReport`); the handler's throws end the task as in the accepting
   * process and never reject this.
   * @throws TypeError (a rejection) for a mount without `tasks`, or a job without a `taskId`; what the store
   *   rejects with when it fails to claim (the queue may deliver the job again: the claim is fenced).
   * @example
   * ```ts
   * new Worker('mcp-tasks', (job) => mount.runTask(job.data), { connection });
   * ```
   */
  runTask(job: TaskJob, extras?: Pick<FetchExtras<Host>, 'host'>): Promise<TaskRunReport>;
  /**
   * The startup probe's report for this mount: `projections[name].tools` are exactly what `tools/list` serves a
   * client of that projection; `tools`, the default projection's.
   */
  readonly report: ValidationReport;
}

/**
 * Serves a preparation: the policy applied to what it found at construction, one registration per served tool,
 * and the request path behind the guard. The report is built the first time it is read (it prepares every
 * projection).
 * @throws McpMountSchemaError as `servedTools` does.
 */
export function serveMount<Host>(config: MountConfig, preparation: Preparation): McpFetchHandler<Host> {
  const { access, limits, observe: observer, prepare, protocol } = config;
  const run = {
    served: prepare.projection.served,
    call: callPolicy(config),
    limits,
    observer,
    logging: protocol.logging,
    ...(config.tasks && { tasks: config.tasks }),
  };
  const registrations = servedTools(preparation, prepare, observer).map((t) => registration(t, run));
  const sdk = {
    server: config.server,
    protocol,
    surface: preparation.surface,
    access,
    observer,
    maxRequestBodyBytes: limits.maxRequestBodyBytes,
    projection: prepare.projection,
    ...(config.tasks && { tasks: config.tasks }),
  };
  const envelope = {
    json: config.arguments.repair.json,
    argumentLimits: limits.argumentLimits,
    projection: prepare.projection,
  };
  const paths = { direct: true };
  const serve = serveRequests({ access, limits, observer, envelope, sdk, direct: () => paths.direct }, registrations);
  let report: ValidationReport | undefined;
  const handler: McpFetchHandler<Host> = {
    get report() {
      report ??= reportOf(preparation);
      return report;
    },
    close: serve.close,
    fetch: guarded(access, observer, serve.fetch),
    runTask: taskConsumer(
      { ...(config.tasks && { tasks: config.tasks }), observer, projection: prepare.projection },
      registrations,
    ),
  };
  switches.set(handler, paths);
  return handler;
}

const switches = new WeakMap<object, { direct: boolean }>();

/**
 * Serves every later request of `handler` through the SDK's path alone (no direct path for `tools/call`), so
 * a test can compare the two paths' answers byte for byte.
 * @internal exported for its tests alone
 */
export function forceSdkPath(handler: McpFetchHandler<any>): void {
  const paths = switches.get(handler);
  if (!paths) throw new TypeError('mcp-mount: forceSdkPath takes a handler made by serveMount');
  paths.direct = false;
}

/**
 * The guard around the request path: the Origin and Host check first, before the body or any credential is
 * read; a CORS preflight answered; CORS headers on every answer; and any failure inside turned into a JSON-RPC
 * 500 that `onError` sees, so the returned `fetch` never rejects.
 */
function guarded(access: AccessPolicy, observer: Observer, serve: RequestPath['fetch']): McpFetchHandler['fetch'] {
  return async (request, extras) => {
    // The browser origin CORS answers: only one the Origin check let in.
    let allowed: string | undefined;
    try {
      const origin = checkOrigin(access.origin, request);
      if (!origin.ok) {
        const client = requestClient(observer, request, extras?.remoteAddress);
        return await refusedWith(observer, origin.response, { reason: origin.reason, ...(client && { client }) });
      }
      allowed = access.cors && origin.origin;
      if (access.cors && allowed && isPreflight(request)) return preflight(access.cors, allowed, request);
      return withCors(access.cors, allowed, await serve(request, extras));
    } catch (error) {
      const errorId = observeError(observer, error, { phase: 'request' });
      return withCors(access.cors, allowed, jsonRpcError(500, -32603, `Internal server error (error id ${errorId})`));
    }
  };
}
