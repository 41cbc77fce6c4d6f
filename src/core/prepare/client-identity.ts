/**
 * Who is asking for `tools/list`, as far as the request says, and the `projection: 'auto'` table that
 * maps it to a projection (docs/decisions/0014-per-client-projections.md).
 */
import type { ProjectionName } from '../projection/names.js';

/**
 * What a request says about its client.
 * - `name`, `version`: `clientInfo`, from the 2026-07-28 request `_meta`
 *   (`io.modelcontextprotocol/clientInfo`), or from `initialize` params.
 * - `userAgent`: the HTTP `User-Agent` header: the only hint a 2025-era stateless `tools/list` carries.
 * - `era`: `'2026-07-28'` when the request carries the 2026-07-28 `_meta` protocol version, else `'2025'`.
 */
export interface ClientIdentity {
  name?: string;
  version?: string;
  userAgent?: string;
  era: '2026-07-28' | '2025';
}

/**
 * The HTTP request a `tools/list` arrived on, for a projection function that decides by where or how a client
 * connects rather than by who it says it is: one URL per client family (`/mcp/gemini`), a header, a query
 * parameter. Read-only views; the body has been read already.
 * - `url`: the request URL, parsed (`url.pathname`, `url.searchParams`).
 * - `headers`: the request headers (read them; the SDK reads the same object after).
 * - `host`: what the adapter hands tools as `ctx.host` (Hono's `{ env, context }`, Express's request and
 *   response, Next.js's `{ context }` with the route params, the Worker's `{ env, ctx }`); undefined where the
 *   adapter has none.
 */
export interface ProjectionRequest {
  readonly url: URL;
  readonly headers: Headers;
  readonly host?: unknown;
}

/**
 * A `projection` function: run per `tools/list` of a choosing mount, with who the client says it is and the
 * request it came on; returns a projection the mount serves (docs/decisions/0014-per-client-projections.md).
 */
export type ProjectionChooser = (client: ClientIdentity, request: ProjectionRequest) => ProjectionName;

/** One row of the `auto` table: a client name or User-Agent pattern and the projection it gets. */
export interface AutoRule {
  /** Matched against `clientInfo.name` (whole name, case-insensitive). */
  name?: RegExp;
  /** Matched against the `User-Agent` header (anywhere, case-insensitive). */
  userAgent?: RegExp;
  projection: ProjectionName;
  /** The client this row is for. */
  client: string;
}

/**
 * The clients the profiles describe, by the `clientInfo.name` and `User-Agent` they are known to send.
 * The first matching row wins; a name match is tried before any User-Agent match.
 */
export const AUTO_PROJECTIONS: readonly AutoRule[] = Object.freeze(
  (
    [
      { client: 'Cursor', name: /^cursor(-vscode)?$/i, userAgent: /\bcursor\//i, projection: 'cursor' },
      {
        client: 'Claude (claude.ai, Desktop, Code)',
        name: /^claude(-ai|-code)?$/i,
        userAgent: /\bclaude-(code|user)\b/i,
        projection: 'anthropic',
      },
      {
        client: 'Gemini CLI',
        name: /^gemini-cli(-mcp-client)?$/i,
        userAgent: /\bgemini-?cli\b/i,
        projection: 'gemini',
      },
      {
        client: 'OpenAI (ChatGPT connectors, Responses API)',
        name: /^openai-mcp$/i,
        userAgent: /\bopenai-mcp\b/i,
        projection: 'openai-strict',
      },
      // Client libraries forward to whichever model the application picked, so their family cannot be known
      // from the request: they get `flat`, which each of them keeps whole (docs/decisions/0018-flat-for-clients-that-never-name-themselves.md).
      // Route them by URL instead (docs/guide/projections.md, One URL per family).
      {
        client: 'Vercel AI SDK (@ai-sdk/mcp)',
        name: /^ai-sdk-mcp-client$/i,
        userAgent: /\bai-sdk\//i,
        projection: 'flat',
      },
      { client: 'LangChain (@langchain/mcp-adapters)', name: /^@langchain\/mcp-adapters$/i, projection: 'flat' },
      {
        client: 'LM Studio, llama.cpp',
        name: /^(lm-?studio|llama\.?cpp)/i,
        userAgent: /\b(lm-?studio|llama\.?cpp)\b/i,
        projection: 'local-grammar',
      },
    ] satisfies AutoRule[]
  ).map((rule): AutoRule => Object.freeze(rule)),
);

/**
 * `projection: 'auto'`: the projection of the first `AUTO_PROJECTIONS` row the client matches, else `flat`:
 * a superset of what the tool accepts, which the measured client libraries (the AI SDK, LangChain, Mastra)
 * keep whole. Compose it to add your own, by identity or by request:
 *
 * @example
 * ```ts
 * import { autoProjection } from 'mcp-mount';
 * import { createMcpFetchHandler } from 'mcp-mount/adapter';
 *
 * const mcp = createMcpFetchHandler(tools, {
 *   projection: (client, request) =>
 *     request.url.pathname === '/mcp/gemini' ? 'gemini' : client.name === 'my-agent' ? 'faithful' : autoProjection(client),
 * });
 * ```
 */
export function autoProjection(client: ClientIdentity): ProjectionName {
  const byName = client.name === undefined ? undefined : AUTO_PROJECTIONS.find((r) => r.name?.test(client.name!));
  if (byName) return byName.projection;
  const byAgent =
    client.userAgent === undefined ? undefined : AUTO_PROJECTIONS.find((r) => r.userAgent?.test(client.userAgent!));
  return byAgent?.projection ?? 'flat';
}
