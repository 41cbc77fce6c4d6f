/**
 * Type tests for `ctx.host` on each adapter: a tool that declares no host sees `unknown` and mounts
 * everywhere; a tool that declares one adapter's host sees it typed and mounts only where that host is
 * handed over. Checked by `npm run typecheck`.
 */
import type { Request as ExpressRequest, Response as ExpressResponse } from 'express';
import type { Context, MiddlewareHandler } from 'hono';
import { Hono } from 'hono';
import { defineTool } from 'mcp-mount';
import { type ExpressHost, mcp as expressMcp } from 'mcp-mount/express';
import { type ExecutionContextLike, type FetchHost, mcp as fetchMcp } from 'mcp-mount/fetch';
import { type HonoHost, mcp as honoMcp } from 'mcp-mount/hono';
import { type NextHost, mcp as nextMcp } from 'mcp-mount/next';
import { describe, expectTypeOf, it } from 'vitest';

type AppEnv = { Bindings: { KV: { get(key: string): Promise<string | null> } }; Variables: { user: string } };
type WorkerEnv = { GREETING: string };

const anywhere = defineTool({
  name: 'anywhere',
  handler: (_args, ctx) => {
    expectTypeOf(ctx.host).toBeUnknown();
    // @ts-expect-error a tool that declares no host must narrow it first
    return ctx.host.env;
  },
});

const honoTool = defineTool.for<{ host: HonoHost<AppEnv> }>()({
  name: 'hono',
  handler: async (_args, ctx) => {
    expectTypeOf(ctx.host.env).toEqualTypeOf<AppEnv['Bindings']>();
    expectTypeOf(ctx.host.context).toEqualTypeOf<Context<AppEnv>>();
    expectTypeOf(ctx.host.context.get('user')).toEqualTypeOf<string>();
    return ctx.host.env.KV.get('k');
  },
});

const expressTool = defineTool.for<{ host: ExpressHost }>()({
  name: 'express',
  handler: (_args, ctx) => {
    expectTypeOf(ctx.host.req).toEqualTypeOf<ExpressRequest>();
    expectTypeOf(ctx.host.res).toEqualTypeOf<ExpressResponse>();
    return ctx.host.req.originalUrl;
  },
});

const workerTool = defineTool.for<{ host: FetchHost<WorkerEnv> }>()({
  name: 'worker',
  handler: (_args, ctx) => {
    expectTypeOf(ctx.host.env).toEqualTypeOf<WorkerEnv>();
    expectTypeOf(ctx.host.ctx).toEqualTypeOf<ExecutionContextLike | undefined>();
    ctx.host.ctx?.waitUntil(Promise.resolve());
    return ctx.host.env.GREETING;
  },
});

const nextTool = defineTool.for<{ host: NextHost<{ slug: string }> }>()({
  name: 'next',
  handler: async (_args, ctx) => {
    const params = await ctx.host.context.params;
    expectTypeOf(params).toEqualTypeOf<{ slug: string }>();
    return params.slug;
  },
});

describe('ctx.host', () => {
  it('a tool that declares no host mounts on every adapter', () => {
    honoMcp([anywhere]);
    expressMcp([anywhere]);
    fetchMcp([anywhere]);
    nextMcp([anywhere]);
  });

  it('Hono: the app env and context; the middleware is typed with that env', () => {
    const middleware = honoMcp([honoTool, anywhere]);
    expectTypeOf(middleware).toExtend<MiddlewareHandler<AppEnv>>();
    new Hono<AppEnv>().all('/mcp', middleware);
    // @ts-expect-error Express hands over { req, res }, not a Hono env and context
    expressMcp([honoTool]);
    // @ts-expect-error the fetch adapter has `env` but no Hono context
    fetchMcp([honoTool]);
  });

  it("Express: Express's own request and response", () => {
    expressMcp([expressTool, anywhere]);
    // @ts-expect-error Hono hands over { env, context }
    honoMcp([expressTool]);
    // @ts-expect-error Next.js hands over { context }
    nextMcp([expressTool]);
  });

  it("fetch: the Worker's env and ctx; fetch then needs the env", () => {
    const worker = fetchMcp([workerTool, anywhere]);
    void worker.fetch(new Request('http://h/mcp'), { GREETING: 'hi' });
    // @ts-expect-error the tools need a WorkerEnv, so fetch needs one
    void worker.fetch(new Request('http://h/mcp'));
    // untyped, as before: any env, optional
    void fetchMcp([anywhere]).fetch(new Request('http://h/mcp'));
    // @ts-expect-error Express hands over { req, res }
    expressMcp([workerTool]);
    // @ts-expect-error Next.js hands over { context }, no env
    nextMcp([workerTool]);
  });

  it("Next.js: the route's context, its params typed", () => {
    const { POST } = nextMcp([nextTool, anywhere]);
    void POST(new Request('http://h/mcp'), { params: Promise.resolve({ slug: 'a' }) });
    // @ts-expect-error the route's params are { slug: string }
    void POST(new Request('http://h/mcp'), { params: Promise.resolve({ id: 1 }) });
    // @ts-expect-error Hono's context is not a route context
    honoMcp([nextTool]);
    // @ts-expect-error the fetch adapter hands over { env, ctx }
    fetchMcp([nextTool]);
  });
});
