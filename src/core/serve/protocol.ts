/**
 * The `protocol` options: MCP features the per-request servers declare or pass to the SDK, settled once per
 * mount into the `ProtocolPolicy` the per-request server (sdk/server.ts) and `ctx.log` read.
 */
import type { PerRequestResponseMode, ServerOptions } from '@modelcontextprotocol/server';
import { booleanOption, oneOf, optionKeys } from '../settle/checks.js';

/** MCP protocol features the per-request servers declare or pass to the SDK. */
export interface ProtocolOptions {
  /**
   * Declare the `logging` capability: `logging/setLevel` is answered and `ctx.log` sends
   * `notifications/message` (MCP 2025-11-25 server/utilities/logging; in 2026-07-28 only at or above the
   * level a request's `_meta` asks for). Default false: `ctx.log` then sends nothing.
   */
  logging?: boolean;
  /**
   * How a 2026-07-28 exchange is answered (the SDK's `responseMode`): `'auto'` (default) a JSON body unless
   * the handler sends a notification (progress, a log message) before its result, then an event stream;
   * `'sse'` always a stream; `'json'` never a stream, and every notification sent before the result is
   * dropped. 2025-era requests are always answered on a stream.
   * @throws TypeError at construction for any other value.
   */
  responseMode?: PerRequestResponseMode;
  /**
   * Milliseconds between SSE comments (`: keepalive`) on a call's answer while it carries nothing else, so a
   * proxy that cuts idle connections does not cut a long call. Every event stream gets them (2025-era calls,
   * `responseMode: 'sse'`, a stream a notification opened); under `'auto'`, a 2026-07-28 call still running
   * after one interval, whose client accepts `text/event-stream`, is answered on a stream from then on (its
   * result the stream's one message). A JSON answer (`'json'`, or a client that accepts JSON only) cannot
   * carry a comment. Default 15000 (the SDK's `DEFAULT_SSE_KEEP_ALIVE_MS`); 0 sends none.
   * @throws TypeError at construction for anything but an integer from 0 to 2147483647.
   */
  keepAliveMs?: number;
  /**
   * Checks a 2026-07-28 multi-round-trip `requestState` echoed by the client, before the handler runs (the
   * SDK's `requestState` option). Throw to refuse: the client gets `-32602` "Invalid or expired
   * requestState". What it resolves with is what `ctx.mcp.mcpReq.requestState()` returns. The SDK's
   * `createRequestStateCodec({ key }).verify` fits here (MCP 2026-07-28 basic/patterns/mrtr: state that
   * steers anything must be integrity-protected). Default: none, the raw string reaches the handler.
   * @throws TypeError at construction without a `verify` function.
   */
  requestState?: ServerOptions['requestState'];
  /**
   * Send `tools/list` gzip-encoded (`Content-Encoding: gzip`, with `Vary: Accept-Encoding`) to a client whose
   * `Accept-Encoding` accepts gzip, as the official clients' `fetch`, httpx, Go and browsers do, and decode it
   * transparently. The entries are deflated once per projection and visible set, on the first list that asks;
   * a request adds only its own few bytes (docs/decisions/0041-gzip-tools-list.md). Where the runtime has no
   * node:zlib (a Worker without `nodejs_compat`) the list is sent as it is. Default true; false sends it as it
   * is everywhere. An app's own compression (Hono's `compress()`, Express's `compression`) skips an answer that
   * already carries `Content-Encoding`, and compresses the rest.
   * @throws TypeError at construction for anything but a boolean.
   */
  compressList?: boolean;
}

/** The keys `protocol` takes: one list, tied to `ProtocolOptions` by the compiler. */
export const PROTOCOL_KEYS = optionKeys<ProtocolOptions>()([
  'logging',
  'responseMode',
  'keepAliveMs',
  'requestState',
  'compressList',
]);

/** `protocol`, defaulted. Frozen. */
export interface ProtocolPolicy {
  /** Declare the logging capability on every per-request server. */
  readonly logging: boolean;
  /** Default `'auto'`. */
  readonly responseMode: PerRequestResponseMode;
  /** Default 15000; 0: no keep-alive comments. */
  readonly keepAliveMs: number;
  /** Handed to every per-request server. */
  readonly requestState?: ServerOptions['requestState'];
  /** Default true: `tools/list` gzip-encoded for a client that accepts it. */
  readonly compressList: boolean;
}

/**
 * Settles `protocol`: `logging` off, `responseMode` `'auto'`, `keepAliveMs` 15000, `requestState` as given (its
 * `verify` only), `compressList` on.
 * @throws TypeError for a `logging` or `compressList` that is not a boolean, a `responseMode` that names nothing, a `keepAliveMs`
 *   that is not an integer from 0 to 2147483647, or a `requestState` without a `verify` function.
 * @example `settleProtocol({ logging: true })`
 */
export function settleProtocol(protocol: ProtocolOptions): ProtocolPolicy {
  booleanOption('protocol.logging', protocol.logging);
  booleanOption('protocol.compressList', protocol.compressList);
  const responseMode = oneOf('protocol.responseMode', protocol.responseMode, ['auto', 'sse', 'json'] as const, 'auto');
  const keepAliveMs = keepAliveInterval(protocol.keepAliveMs);
  const { requestState } = protocol;
  if (requestState !== undefined && typeof requestState?.verify !== 'function') {
    throw new TypeError(
      'mcp-mount: protocol.requestState must be { verify(state, ctx) }, e.g. createRequestStateCodec(...)',
    );
  }
  return Object.freeze({
    logging: protocol.logging === true,
    responseMode,
    keepAliveMs,
    compressList: protocol.compressList !== false,
    ...(requestState && { requestState: Object.freeze({ verify: requestState.verify }) }),
  });
}

/** The SDK's `DEFAULT_SSE_KEEP_ALIVE_MS`: the interval of its own streams when it is handed none. */
const DEFAULT_KEEP_ALIVE_MS = 15_000;
/** The longest delay a timer takes (2^31 - 1 ms); the SDK arms none past it either. */
const MAX_TIMER_MS = 2 ** 31 - 1;

function keepAliveInterval(value: unknown): number {
  if (value === undefined) return DEFAULT_KEEP_ALIVE_MS;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0 || value > MAX_TIMER_MS) {
    throw new TypeError(
      `mcp-mount: protocol.keepAliveMs must be an integer from 0 (none) to ${MAX_TIMER_MS} (milliseconds), got ${String(value)}`,
    );
  }
  return value;
}
