/** The `limits` options: what one request may cost. */

/**
 * What one request may cost (docs/design/repair.md, Limits).
 * @throws TypeError at construction for a limit that is not a positive integer.
 */
export interface LimitsOptions {
  /**
   * Request bodies over this many bytes get 413 before they are parsed. Default 4 MiB (4,194,304 bytes, the
   * SDK's default). The two argument limits below bound what a body within it can cost.
   */
  maxRequestBodyBytes?: number;
  /**
   * Most nesting levels of arrays and objects in a call's `arguments` (the arguments object is level 1),
   * sent as values or written as JSON text inside a string. Checked first, in one linear pass, before any
   * other step reads the arguments (Zod's parse included, which recurses per level): a call nested deeper
   * gets `isError` naming the first path past the limit. Default 64; real arguments rarely pass 10.
   * See docs/design/repair.md, Limits.
   */
  maxArgumentDepth?: number;
  /**
   * Most values (objects, arrays, scalars) in a call's `arguments`, counted in that same pass; a call with
   * more gets `isError`. JSON text that repair parses may hold as many again. Default 1,000,000: a 4 MiB
   * body holds at most about 2,000,000 (`[0,0,…]`).
   */
  maxArgumentValues?: number;
  /**
   * How long a call may run, in milliseconds, for every tool without its own `timeoutMs`: past it,
   * `ctx.signal` aborts and the client gets `isError` `Tool <name> timed out after <N> s` (and `onRefusal`
   * hears `timeout`). Default none.
   */
  timeoutMs?: number;
  /**
   * Rate limits per caller and per tool, on `rate-limiter-flexible` (docs/guide/limits.md): in memory by
   * default, or in a store the replicas share (`store`). Every request is counted as it arrives, before any
   * repair or validation (a call with invalid arguments or to an unknown tool included). A limited
   * `tools/call` gets `isError` `Tool <name> is rate limited: retry in <N> s`, unchecked and unrun; any other
   * limited request HTTP 429 with `Retry-After`; both reach `onRefusal` (`rate-limited`). Default none.
   */
  rate?: RateLimitOptions;
  /**
   * Most `tools/call`s one caller may have running at once, on this instance (the key is the rate limit's).
   * One more gets `isError` `Tool <name>: <N> calls of this caller are already running; retry when one
   * finishes` and `onRefusal` hears `concurrency`. A call answered at its `timeoutMs` holds its slot until
   * its handler actually settles. Default none.
   * @throws TypeError at construction when not a positive integer.
   */
  concurrency?: number;
}

/** A window: `points` requests per `durationSeconds`. */
export interface RateWindow {
  points: number;
  durationSeconds: number;
}

/**
 * `limits.rate`. Each window counts per caller: the token's subject (`extra.sub`) when the verifier put one,
 * else its `clientId`; an anonymous request is counted under what `key` returns, and is not limited without
 * it (one shared bucket would let one client starve the rest).
 *
 * @example
 * ```ts
 * import { RateLimiterRedis } from 'rate-limiter-flexible';
 * limits: {
 *   rate: {
 *     perCaller: { points: 120, durationSeconds: 60 },
 *     perTool: { search_web: { points: 10, durationSeconds: 60 } },
 *     key: ({ request }) => request.headers.get('cf-connecting-ip') ?? undefined,
 *     store: (options) => new RateLimiterRedis({ storeClient: redis, ...options }),
 *   },
 * }
 * ```
 */
export interface RateLimitOptions {
  /**
   * Requests of any method per caller, each counted as it arrives, whatever becomes of it (a `tools/call`
   * counts here and in its tool's window; each message of a batch counts).
   */
  perCaller?: RateWindow;
  /** Calls of the named tool per caller, whatever their arguments. */
  perTool?: Readonly<Record<string, RateWindow>>;
  /**
   * The key of an anonymous request, or undefined: not limited. `remoteAddress` is the client's address, where
   * the adapter knows it or `observe.remoteAddressHeader` names a proxy's header (`key: ({ remoteAddress }) =>
   * remoteAddress`). Runs once per request, before the body is read; a throw is a JSON-RPC 500 that `onError`
   * sees.
   */
  key?: (context: { request: Request; host: unknown; remoteAddress?: string }) => string | undefined;
  /**
   * Builds each window's limiter: `rate-limiter-flexible`'s `RateLimiterMemory` by default; pass e.g.
   * `(options) => new RateLimiterRedis({ storeClient: redis, ...options })` so every replica counts in one
   * place. `keyPrefix` separates the windows (and mounts sharing a store: see `name`).
   */
  store?: (options: { points: number; duration: number; keyPrefix: string }) => RateLimiter;
}

/**
 * What `limits.rate.store` returns: any `rate-limiter-flexible` limiter. `consume` resolves when the points
 * were taken, rejects with its result (`msBeforeNext`) when the window is full, and with an `Error` when the
 * store failed (the request is then served, and the error logged: a store outage does not take the server
 * down).
 */
export interface RateLimiter {
  consume(key: string, points?: number): Promise<unknown>;
}
