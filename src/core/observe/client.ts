/**
 * Where a request came from, for the audit events (`onRefusal`, `onCall`) and `limits.rate.key`: the client's
 * address, from the header `observe.remoteAddressHeader` names when set and present (a proxy's), else from the
 * adapter (`FetchExtras.remoteAddress`); its `User-Agent` and `Origin`. Each value as sent, cut after 256
 * characters. A few header reads, and only where something listens.
 */
import { boundedText } from '../messages/bounded.js';
import type { RequestClient } from './options.js';
import type { Observer } from './settle.js';

/** Characters of a header an event carries. */
const CLIENT_VALUE_CHARS = 256;

/**
 * The client's address: the last entry of the `remoteAddressHeader` header (the one the nearest proxy wrote,
 * `for=` read out of a `Forwarded` entry), else `fromAdapter`. Undefined when neither says.
 */
export function remoteAddressOf(observer: Observer, request: Request, fromAdapter?: string): string | undefined {
  const header = observer.remoteAddressHeader;
  const sent = header === undefined ? null : request.headers.get(header);
  const address = sent === null ? fromAdapter : lastEntry(sent);
  return address === undefined || address === '' ? undefined : boundedText(address, CLIENT_VALUE_CHARS);
}

/** Where the request came from, when a hook will hear of it; undefined when no hook listens. */
export function requestClient(observer: Observer, request: Request, fromAdapter?: string): RequestClient | undefined {
  if (!observer.onRefusal && !observer.onCall) return undefined;
  const remoteAddress = remoteAddressOf(observer, request, fromAdapter);
  const userAgent = request.headers.get('user-agent');
  const origin = request.headers.get('origin');
  return {
    ...(remoteAddress !== undefined && { remoteAddress }),
    ...(userAgent !== null && { userAgent: boundedText(userAgent, CLIENT_VALUE_CHARS) }),
    ...(origin !== null && { origin: boundedText(origin, CLIENT_VALUE_CHARS) }),
  };
}

/** `a, b, c` → `c`; `for=192.0.2.60;proto=http, for="[2001:db8::1]:4711"` → `[2001:db8::1]:4711`. */
function lastEntry(value: string): string {
  const last = value.slice(value.lastIndexOf(',') + 1).trim();
  const forwarded = /(?:^|;)\s*for=("?)([^";]*)\1/i.exec(last);
  return forwarded ? forwarded[2]!.trim() : last;
}
