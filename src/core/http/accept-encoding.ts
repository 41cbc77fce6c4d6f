/**
 * `Accept-Encoding` (RFC 9110 section 12.5.3), read for one question: may this answer be sent gzip-encoded?
 */

/**
 * True when `value` (null when the header is absent) accepts `gzip` at least as much as `identity`. A coding
 * is accepted with the `q` of its own entry (`x-gzip` counts as `gzip`, section 8.4.1.3), else with the `q` of
 * `*`; `q=0` refuses, and so does a `q` that is no number from 0 to 1 (the safe side). `identity` takes its own
 * entry's `q`, else `*`'s, else it is acceptable by default, ranked as the least preferred coding listed (as
 * `negotiator`, under Express's `compression`, ranks it), so `gzip;q=0.5` alone still means gzip. A tie goes
 * to gzip. No header, or an empty one, asks for no coding: never gzip. Linear in the header's length.
 */
export function acceptsGzip(value: string | null): boolean {
  // Keyed by what the client wrote: a Map, so `__proto__` or `constructor` is a coding like any other.
  const q = new Map<string, number>();
  let least = 1;
  for (const part of value?.split(',') ?? []) {
    const [coding = '', ...params] = part.toLowerCase().split(';');
    const param = params.find((p) => p.split('=')[0]!.trim() === 'q');
    const quality = param === undefined ? 1 : Number(param.slice(param.indexOf('=') + 1).trim() || Number.NaN);
    const name = coding.trim() === 'x-gzip' ? 'gzip' : coding.trim();
    const accepted = quality >= 0 && quality <= 1 ? quality : 0;
    if (accepted > 0) least = Math.min(least, accepted);
    if (name) q.set(name, Math.max(q.get(name) ?? 0, accepted));
  }
  const gzip = q.get('gzip') ?? q.get('*') ?? 0;
  return gzip > 0 && gzip >= (q.get('identity') ?? q.get('*') ?? least);
}
