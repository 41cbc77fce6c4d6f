/**
 * Tasks on Cloudflare Workers handed to Cloudflare Queues (docs/guide/cloudflare-workers.md#tasks-on-a-queue):
 * the Worker that answers `/mcp` keeps its tasks in a Durable Object (`TaskStoreObject`) and sends each to the
 * `TASK_QUEUE` queue (`tasks.run`); the same Worker consumes the queue (`queue`), running each job with
 * `handler.runTask`, in an invocation of its own (a consumer's limits, not a request's). Start it with
 * `npx wrangler dev -c examples/cloudflare-worker/tasks-queue/wrangler.jsonc` (local queues and Durable Objects).
 *
 * The Cloudflare types are written out below, as much as the recipe uses, so the example needs no
 * `@cloudflare/workers-types`; in an app, use its `Queue<TaskJob>`, `MessageBatch<TaskJob>`,
 * `DurableObjectNamespace` and `ExecutionContext`, which these match.
 */
import { defineTool, type TaskJob } from 'mcp-mount';
import { type ExecutionContextLike, mcp } from 'mcp-mount/fetch';
import {
  createDurableObjectTaskStore,
  type DurableObjectNamespaceLike,
  TaskStoreObject,
} from 'mcp-mount/tasks/durable-object';
import * as z from 'zod';

/** The Durable Object class the store's binding names (wrangler.jsonc). */
export { TaskStoreObject };

/** As much of Cloudflare's `Queue<Body>` as the recipe uses: the producer binding. */
interface QueueLike<Body> {
  send(body: Body): Promise<void>;
}

/** As much of Cloudflare's `MessageBatch<Body>` as the recipe uses: what `queue` receives. */
interface MessageBatchLike<Body> {
  readonly messages: readonly {
    readonly body: Body;
    readonly attempts: number;
    ack(): void;
    retry(options?: { delaySeconds?: number }): void;
  }[];
}

interface Env {
  /** The Durable Object namespace of `TaskStoreObject`: the tasks every isolate reads. */
  TASKS: DurableObjectNamespaceLike;
  /** The queue tasks are sent to, and consumed from. */
  TASK_QUEUE: QueueLike<TaskJob>;
}

/** A task that takes longer than a request may keep a Worker going. */
const crawl = defineTool({
  name: 'crawl',
  description: 'Crawl a site and count its pages.',
  input: z.object({ site: z.url(), pages: z.number().int().min(1).max(50).default(3) }),
  task: { support: 'required', ttlMs: 86_400_000 },
  handler: async ({ input }, ctx) => {
    for (let page = 1; page <= input.pages; page++) {
      ctx.signal.throwIfAborted(); // a tasks/cancel reaches the consumer's run at its next heartbeat
      await ctx.task?.status(`page ${page} of ${input.pages}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return `crawled ${input.pages} pages of ${input.site}`;
  },
});

// The store needs the bindings, which a Worker first sees with a request (or a batch): one mount per isolate.
let mount: ReturnType<typeof mcp<Env>> | undefined;
const mountFor = (env: Env) =>
  (mount ??= mcp<Env>([crawl], {
    path: '/mcp',
    tasks: {
      store: createDurableObjectTaskStore({ namespace: env.TASKS }),
      // Each task becomes one message; awaited, so the send is done before the client gets its task.
      run: (job) => env.TASK_QUEUE.send(job),
      // This example has no auth: every caller shares one owner. Put `access.auth` in front in an app.
      anonymousOwner: () => 'example',
    },
  }));

export default {
  fetch(request: Request, env: Env, ctx: ExecutionContextLike): Promise<Response> {
    return mountFor(env).fetch(request, env, ctx);
  },

  /** The consumer: each message's job run on the mount, concurrently within the batch. */
  async queue(batch: MessageBatchLike<TaskJob>, env: Env, ctx: ExecutionContextLike): Promise<void> {
    const { handler } = mountFor(env);
    await Promise.all(
      batch.messages.map(async (message) => {
        try {
          // Resolves once the task has ended ({ ran: true, status }), or at once when the claim is refused
          // ({ ran: false, reason }: the job ran already, runs elsewhere, or its task is gone): ack both.
          await handler.runTask(message.body, { host: { env, ctx } });
          message.ack();
        } catch {
          // The store failed to claim the task: retry later (the claim is fenced, so the task still runs once).
          message.retry({ delaySeconds: Math.min(60, 2 ** message.attempts) });
        }
      }),
    );
  },
};
