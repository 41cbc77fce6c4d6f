/**
 * A `tools/list` that costs close to nothing (docs/decisions/0025-cached-tools-list.md). The request's server
 * registers no tool: its `tools/list` answers with one sentinel tool whose name is a per-mount random nonce, so
 * the SDK still does everything around the result (the request's validation, the era's codec: `resultType`,
 * `ttlMs`/`cacheScope`, the serverInfo `_meta`; JSON or SSE framing; errors). Once the SDK has answered, the
 * sentinel's JSON text in that small body is replaced by the cached entries of the tools this caller may see.
 */
import type { McpServer, McpServerOptions } from '@modelcontextprotocol/server';
import type { AccessPolicy } from '../../access/settle.js';
import { acceptsGzip } from '../../http/accept-encoding.js';
import { type GzipStart, gzipWith, zlib } from '../../http/gzip.js';
import type { Observer } from '../../observe/settle.js';
import type { ProjectionPolicy } from '../../prepare/settle.js';
import { type Era, type ListEntries, listEntries } from '../list-cache.js';
import type { Registration } from '../registration.js';
import type { ListFrame, RequestState } from '../request-state.js';
import type { ToolSet } from '../tool-set.js';
import { type AcceptPlan, collapsed, collapses } from './accept.js';

/** What one request's `tools/list` answer is to become: the sentinel's text, and the bytes in its place. */
export interface Listing {
  sentinel: string;
  /** UTF-8 chunks, in order (list-cache.ts); made only for a list sent uncompressed. */
  entries: () => readonly Uint8Array[];
  /** The gzip start of `head` and these entries, deflated once and kept (list-cache.ts); undefined: none. */
  gzipped?: (head: string) => GzipStart | undefined;
  /** What listing threw (a `visibleTools` predicate), for the exchange to rethrow as the mount's 500. */
  failure?: { error: unknown };
}

export interface ToolList {
  /**
   * The per-request server's cache hints: `tools/list` `cacheScope: 'private'` where the list can differ
   * from one caller to the next (`visibleTools`, a `projection` chosen per client, scoped tools hidden from
   * callers without them), so that no shared cache may keep it (SEP-2549), whatever the SDK's default.
   */
  cacheHints?: McpServerOptions['cacheHints'];
  /**
   * Installs `server`'s `tools/list` handler for this request. When the SDK dispatches the request, the
   * projection is chosen, the visible tools found, and `record` given the listing to splice in (`withListing`).
   */
  serve(server: McpServer, state: RequestState, era: Era, record: (listing: Listing) => void): void;
  /**
   * The listing of this request: its projection chosen, the tools it may see found. Throws what choosing or
   * finding throws (a projection function, a `visibleTools` predicate): the mount's 500.
   */
  listing(state: RequestState, era: Era): Listing;
}

interface Sentinel {
  tool: { name: string; inputSchema: { type: 'object' } };
  text: string;
}

/** The mount's `tools/list`, over the tools `tools` shows each request. */
export function toolList(
  registrations: readonly Registration[],
  access: AccessPolicy,
  projection: ProjectionPolicy,
  observer: Observer,
  tools: ToolSet,
): ToolList {
  // Made on the first list, not at the mount: a Worker may not make random values in its global scope.
  let sentinel: Sentinel | undefined;
  const caches = new Map<string, ListEntries>();
  const entriesFor = (state: RequestState, era: Era) => {
    const projection = state.projection();
    const key = `${projection} ${era}`;
    const cached = caches.get(key);
    if (cached?.intact()) return cached;
    if (cached) {
      observer.logger.warn(
        'mcp-mount: a reader of a tools/list response transferred its bytes; the list is built again. Response chunks are shared by every list: never transfer or write into them',
      );
    }
    const entries = listEntries(registrations, projection, era);
    caches.set(key, entries);
    return entries;
  };
  // The list can differ from one caller to the next: `visibleTools`, a projection chosen per client, scoped
  // tools hidden from callers without them.
  const perCaller =
    access.visibleTools !== undefined ||
    projection.choose !== undefined ||
    (!access.listUnauthorizedTools && registrations.some((r) => r.scopes));
  const listing = (state: RequestState, era: Era): Listing => {
    sentinel ??= newSentinel();
    const cache = entriesFor(state, era);
    const visible = tools.listed(state);
    return {
      sentinel: sentinel.text,
      entries: () => cache.join(visible),
      gzipped: (head) => cache.gzipped(visible, head),
    };
  };
  return {
    ...(perCaller && { cacheHints: PRIVATE_LIST }),
    listing,
    serve(server, state, era, record) {
      // Chosen while the SDK builds the server, as for any request that lists tools: a projection function
      // that throws is the mount's 500 that onError sees, never an error text in the result.
      state.projection();
      server.server.setRequestHandler('tools/list', () => {
        sentinel ??= newSentinel();
        try {
          record(listing(state, era));
        } catch (error) {
          // A `visibleTools` predicate runs here, inside the SDK's handler, which would answer with its text:
          // recorded instead, it is the mount's 500 that onError sees, as it is for a call.
          record({ sentinel: sentinel.text, entries: () => [], failure: { error } });
        }
        return { tools: [sentinel.tool] };
      });
    },
  };
}

const PRIVATE_LIST: McpServerOptions['cacheHints'] = Object.freeze({ 'tools/list': { cacheScope: 'private' } });

function newSentinel(): Sentinel {
  const tool = { name: `mcp-mount-list-${crypto.randomUUID()}`, inputSchema: { type: 'object' as const } };
  return { tool, text: JSON.stringify(tool) };
}

/**
 * Whether a list may be sent gzip-encoded to `request`'s client: undefined when it never is on this mount and
 * runtime (`protocol.compressList` false, or no zlib), else whether its `Accept-Encoding` accepts gzip.
 */
export function listGzip(compressList: boolean, request: Request): boolean | undefined {
  if (!compressList || !zlib()) return undefined;
  return acceptsGzip(request.headers.get('accept-encoding'));
}

/**
 * `response` as the client accepts it (`plan`: an event stream collapsed to JSON, accept.ts), with the
 * sentinel's first occurrence replaced by the listing's entries (the result precedes the echoed id in the
 * SDK's answer, and nothing a client sends can hold a nonce it never saw). The SDK's small body is read once,
 * to its end; the entries are sent as they are (`listAnswer`). A body without the sentinel (an error) is
 * passed on as it was. `framed` hears of the frame around the sentinel, before the answer is made.
 */
export async function withListing(
  response: Response,
  listing: Listing,
  plan: AcceptPlan,
  gzip?: boolean,
  framed?: (frame: ListFrame) => void,
): Promise<Response> {
  if (!response.body) return response;
  const collapse = collapses(response, plan);
  const read = await response.text();
  const { body: text, headers } = collapse
    ? collapsed(read, response.headers)
    : { body: read, headers: new Headers(response.headers) };
  headers.delete('content-length');
  const { status, statusText } = response;
  const at = text.indexOf(listing.sentinel);
  if (at < 0) return new Response(text, { status, statusText, headers });
  const frame = {
    head: text.slice(0, at),
    tail: text.slice(at + listing.sentinel.length),
    status,
    statusText,
    headers,
  };
  framed?.({ ...frame, headers: new Headers(headers) });
  return listAnswer(frame, listing, gzip);
}

/**
 * A list's answer: `frame`'s head, the listing's entries, its tail. The entries are sent as they are, never
 * parsed, copied or re-encoded: the body is a stream of the head, the entries' chunks and the tail. With
 * `gzip` true (`listGzip`), the body is one gzip member instead: the head and entries as deflated once and kept
 * (`Listing.gzipped`), the tail added per request (http/gzip.ts), with its `Content-Length`; with `gzip`
 * defined, the list says `Vary: Accept-Encoding`, so that a cache keys it by that header. `frame.headers` are
 * the answer's own (not copied).
 */
export function listAnswer(frame: ListFrame, listing: Listing, gzip: boolean | undefined): Response {
  const { headers } = frame;
  const init = { status: frame.status, statusText: frame.statusText, headers };
  const tail = encoder.encode(frame.tail);
  if (gzip !== undefined) headers.append('vary', 'Accept-Encoding');
  const start = gzip ? listing.gzipped?.(frame.head) : undefined;
  if (start) {
    const body = gzipWith(start, tail);
    headers.set('content-encoding', 'gzip');
    headers.set('content-length', String(body.byteLength));
    // workerd (with nodejs_compat, where zlib exists) would otherwise encode the body again.
    return new Response(body, { ...init, encodeBody: 'manual' } as ResponseInit);
  }
  return new Response(chunksOf([encoder.encode(frame.head), ...listing.entries(), tail]), init);
}

const encoder = new TextEncoder();

/** A stream of `chunks`, all enqueued at once: they are in memory already. */
function chunksOf(chunks: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}
