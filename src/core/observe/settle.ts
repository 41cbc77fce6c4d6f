/** The `observe` options, settled once per mount into the `Observer` every other concern reports through. */
import { hookOption, optionKeys } from '../settle/checks.js';
import type { CallEvent, ErrorInfo, ObserveOptions, RefusalEvent, TaskEvent } from './options.js';
import { settleTelemetry, type Telemetry } from './telemetry-api.js';

/** The keys `observe` takes: one list, tied to `ObserveOptions` by the compiler. */
export const OBSERVE_KEYS = optionKeys<ObserveOptions>()([
  'onCall',
  'onError',
  'onRefusal',
  'onTask',
  'logger',
  'redact',
  'exposeErrors',
  'openTelemetry',
  'remoteAddressHeader',
]);

/** What the mount reports through: `observe`, defaulted (`logger` is `console`). Frozen. */
export interface Observer {
  readonly logger: Pick<Console, 'warn' | 'error'>;
  readonly onCall?: (event: CallEvent) => void;
  readonly onError?: (error: unknown, info: ErrorInfo) => void;
  /** The audit trail of refusals. */
  readonly onRefusal?: (event: RefusalEvent) => void;
  /** What tasks do. */
  readonly onTask?: (event: TaskEvent) => void;
  readonly redact?: (args: Record<string, unknown>, tool: string) => unknown;
  /** Unexpected handler errors show their message to the client. */
  readonly exposeErrors: boolean;
  /** The tracer and histogram; undefined without `openTelemetry`. */
  readonly telemetry?: Telemetry;
  /** `remoteAddressHeader`, lower case; undefined: the adapter's address. */
  readonly remoteAddressHeader?: string;
}

/**
 * Settles `observe`: hooks checked to be functions, `logger` defaulted to `console`.
 * @throws TypeError for a hook that is not a function, an `openTelemetry` that is not the API module, or a
 *   `remoteAddressHeader` that is not a header name.
 * @example `settleObserve({ onError: (error, info) => report(error, info.errorId) })`
 */
export function settleObserve(observe: ObserveOptions): Observer {
  const telemetry = settleTelemetry(observe.openTelemetry, undefined);
  for (const key of ['onCall', 'onError', 'redact', 'onRefusal', 'onTask'] as const)
    hookOption(`observe.${key}`, observe[key]);
  const header = observe.remoteAddressHeader;
  if (header !== undefined && (typeof header !== 'string' || !HEADER_NAME.test(header))) {
    throw new TypeError(`mcp-mount: observe.remoteAddressHeader must be a header name, got ${String(header)}`);
  }
  return Object.freeze({
    exposeErrors: observe.exposeErrors === true,
    logger: observe.logger ?? console,
    ...(observe.onCall && { onCall: observe.onCall }),
    ...(observe.onError && { onError: observe.onError }),
    ...(observe.redact && { redact: observe.redact }),
    ...(observe.onRefusal && { onRefusal: observe.onRefusal }),
    ...(observe.onTask && { onTask: observe.onTask }),
    ...(telemetry && { telemetry }),
    ...(header !== undefined && { remoteAddressHeader: header.toLowerCase() }),
  });
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
