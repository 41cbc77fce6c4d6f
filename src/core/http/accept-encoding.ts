/**
 * `Accept-Encoding` (RFC 9110 section 12.5.3), read for one question: may this answer be sent gzip-encoded?
 */

/**
 * True when `value` (null when the header is absent) accepts `gzip` at least as much as `identity`. A coding
 * is accepted with the `q` of its own entry (`x-gzip` counts as `gzip`, section 8.4.1.3), else with the `q` of
 * `*`; `q=0` refuses. `identity` takes its own entry's `q`, else `*`'s, else it is acceptable by default, ranked
 * as the least preferred coding listed (as `negotiator`, under Express's `compression`, ranks it), so
 * `gzip;q=0.5` alone still means gzip. A tie goes to gzip. No header, or an empty one, asks for no coding:
 * never gzip. Linear in the header's length.
 */
export function acceptsGzip(value: string | null): boolean {
  if (value === null) return false;
  let gzip: number | undefined;
  let identity: number | undefined;
  let any: number | undefined;
  let least = 1;
  for (const part of value.split(',')) {
    const [coding = '', ...params] = part.split(';');
    const name = coding.trim().toLowerCase();
    if (name === '') continue;
    const q = qualityOf(params);
    if (q > 0) least = Math.min(least, q);
    if (name === 'gzip' || name === 'x-gzip') gzip = Math.max(gzip ?? 0, q);
    else if (name === 'identity') identity = q;
    else if (name === '*') any = q;
  }
  const gzipQ = gzip ?? any ?? 0;
  const identityQ = identity ?? any ?? least;
  return gzipQ > 0 && gzipQ >= identityQ;
}

/** The `q` among a coding's parameters: 1 when absent; a malformed one reads as 0, the safe side (RFC 9110 12.4.2). */
function qualityOf(params: readonly string[]): number {
  for (const param of params) {
    const [name = '', value] = param.split('=');
    if (name.trim().toLowerCase() !== 'q') continue;
    const text = value?.trim() ?? '';
    return QVALUE.test(text) ? Number(text) : 0;
  }
  return 1;
}

/** RFC 9110's `qvalue`: 0 to 1 with at most three decimals. */
const QVALUE = /^(0(\.\d{0,3})?|1(\.0{0,3})?)$/;
