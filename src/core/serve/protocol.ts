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
   * Checks a 2026-07-28 multi-round-trip `requestState` echoed by the client, before the handler runs (the
   * SDK's `requestState` option). Throw to refuse: the client gets `-32602` "Invalid or expired
   * requestState". What it resolves with is what `ctx.mcp.mcpReq.requestState()` returns. The SDK's
   * `createRequestStateCodec({ key }).verify` fits here (MCP 2026-07-28 basic/patterns/mrtr: state that
   * steers anything must be integrity-protected). Default: none, the raw string reaches the handler.
   * @throws TypeError at construction without a `verify` function.
   */
  requestState?: ServerOptions['requestState'];
}

/** The keys `protocol` takes: one list, tied to `ProtocolOptions` by the compiler. */
export const PROTOCOL_KEYS = optionKeys<ProtocolOptions>()(['logging', 'responseMode', 'requestState']);

/** `protocol`, defaulted. Frozen. */
export interface ProtocolPolicy {
  /** Declare the logging capability on every per-request server. */
  readonly logging: boolean;
  /** Default `'auto'`. */
  readonly responseMode: PerRequestResponseMode;
  /** Handed to every per-request server. */
  readonly requestState?: ServerOptions['requestState'];
}

/**
 * Settles `protocol`: `logging` off, `responseMode` `'auto'`, `requestState` as given (its `verify` only).
 * @throws TypeError for a `logging` that is not a boolean, a `responseMode` that names nothing, or a
 *   `requestState` without a `verify` function.
 * @example `settleProtocol({ logging: true })`
 */
export function settleProtocol(protocol: ProtocolOptions): ProtocolPolicy {
  booleanOption('protocol.logging', protocol.logging);
  const responseMode = oneOf('protocol.responseMode', protocol.responseMode, ['auto', 'sse', 'json'] as const, 'auto');
  const { requestState } = protocol;
  if (requestState !== undefined && typeof requestState?.verify !== 'function') {
    throw new TypeError(
      'mcp-mount: protocol.requestState must be { verify(state, ctx) }, e.g. createRequestStateCodec(...)',
    );
  }
  return Object.freeze({
    logging: protocol.logging === true,
    responseMode,
    ...(requestState && { requestState: Object.freeze({ verify: requestState.verify }) }),
  });
}
