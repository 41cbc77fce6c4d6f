/**
 * `Accept` negotiation for a POST, the same on every adapter and in both eras. The Streamable HTTP transport
 * (MCP 2025-11-25 basic/transports) lets a server answer a request with one JSON object or an SSE stream; the
 * SDK's 2025-era path refuses (406) any `Accept` that does not spell out both `application/json` and
 * `text/event-stream`, so `Accept: *\/*`, `application/json` alone or no `Accept` at all (which HTTP reads as
 * "anything", RFC 9110 section 12.5.1) never reached a tool. Here a client that accepts JSON at all is
 * answered in JSON, and one that accepts only SSE in SSE; the SDK is handed the `Accept` it requires.
 */

/** What the client's `Accept` allows, and what the SDK is handed. */
export interface AcceptPlan {
  /** The `Accept` to hand the SDK in place of the client's; undefined: the client's as it is. */
  sdkAccept?: string;
  /** True when an SSE answer must be collapsed into the one JSON-RPC response the client accepts. */
  json: boolean;
}

const BOTH = 'application/json, text/event-stream';
export const AS_SENT: AcceptPlan = Object.freeze({ json: false });

/**
 * The plan for a POST with this `Accept` value (null when absent). A client naming both types gets the
 * SDK's own answer. One that accepts JSON (`application/json`, `application/*`, `*\/*`, no `Accept`) but
 * names no `text/event-stream` gets JSON; one that accepts `text/event-stream` alone gets SSE; one that
 * accepts neither (a zero `q` counts as not accepted) gets the SDK's own answer (406 in 2025-era serving).
 * Linear in the header's length.
 */
export function acceptPlan(accept: string | null): AcceptPlan {
  // What the official clients send, every call: the rule below answers it the same.
  if (accept === CLIENTS_ACCEPT) return AS_SENT;
  const ranges = accept === null || accept.trim() === '' ? [WILDCARD] : mediaRanges(accept);
  const json = quality(ranges, 'application', 'json');
  const sse = quality(ranges, 'text', 'event-stream');
  if (json.q > 0 && sse.q > 0 && json.exact && sse.exact) return AS_SENT;
  if (json.q > 0 && (sse.q === 0 || !sse.exact)) return { sdkAccept: BOTH, json: true };
  if (sse.q > 0) return { sdkAccept: BOTH, json: false };
  return AS_SENT;
}

const CLIENTS_ACCEPT = 'application/json, text/event-stream';

interface MediaRange {
  type: string;
  subtype: string;
  q: number;
}

const WILDCARD: MediaRange = Object.freeze({ type: '*', subtype: '*', q: 1 });

/** The media ranges of an `Accept` value, lower-cased, each with its `q` (1 when absent or unreadable). */
function mediaRanges(accept: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const part of accept.split(',')) {
    const [media = '', ...params] = part.split(';');
    const [type = '', subtype = ''] = media.trim().toLowerCase().split('/');
    if (!type || !subtype) continue;
    let q = 1;
    for (const param of params) {
      const [name, value] = param.split('=');
      if (name?.trim().toLowerCase() !== 'q' || value === undefined) continue;
      const parsed = Number(value.trim());
      if (Number.isFinite(parsed)) q = Math.min(Math.max(parsed, 0), 1);
    }
    ranges.push({ type, subtype, q });
  }
  return ranges;
}

/**
 * The `q` of the most specific range matching `type/subtype` (RFC 9110 section 12.5.1), 0 when none does;
 * `exact` when that range names the type itself.
 */
function quality(ranges: readonly MediaRange[], type: string, subtype: string): { q: number; exact: boolean } {
  let best: { q: number; rank: number } = { q: 0, rank: -1 };
  for (const range of ranges) {
    const rank =
      range.type === type && range.subtype === subtype
        ? 2
        : range.type === type && range.subtype === '*'
          ? 1
          : range.type === '*' && range.subtype === '*'
            ? 0
            : -1;
    if (rank > best.rank) best = { q: range.q, rank };
  }
  return { q: best.q, exact: best.rank === 2 };
}

/**
 * `response` as the client accepts it: unchanged unless the plan asks for JSON and the SDK answered with an
 * event stream (`collapses`), which is then read to its end and answered with the JSON-RPC response(s) it
 * carried (`collapsed`).
 */
export async function asAccepted(response: Response, plan: AcceptPlan): Promise<Response> {
  if (!collapses(response, plan)) return response;
  const { body, headers } = collapsed(await response.text(), response.headers);
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

/** True when the plan asks for JSON and `response` is an event stream. */
export function collapses(response: Response, plan: AcceptPlan): boolean {
  const type = response.headers.get('content-type')?.toLowerCase() ?? '';
  return plan.json && type.startsWith('text/event-stream') && response.body !== null;
}

/**
 * The JSON body an event stream's text collapses to, and its headers: the JSON-RPC response(s) it carried, as
 * the SDK's own JSON response mode answers (notifications sent before the result are dropped: a client that
 * takes no stream cannot receive them). A stream that carried no response keeps its text and headers.
 */
export function collapsed(stream: string, sent: Headers): { body: string; headers: Headers } {
  const answers = responsesIn(stream);
  const headers = new Headers(sent);
  if (answers.length === 0) return { body: stream, headers };
  headers.set('content-type', 'application/json');
  // The stream's own headers (`no-transform` would keep any proxy or middleware from compressing the JSON).
  for (const name of ['content-length', 'cache-control', 'connection', 'x-accel-buffering']) headers.delete(name);
  return { body: answers.length === 1 ? answers[0]! : `[${answers.join(',')}]`, headers };
}

/** The JSON-RPC responses (a result or an error, with an id) among an event stream's `data` fields. */
function responsesIn(stream: string): string[] {
  const answers: string[] = [];
  for (const event of stream.split(/\r?\n\r?\n/)) {
    const data = event
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(line.startsWith('data: ') ? 6 : 5))
      .join('\n');
    if (data === '') continue;
    try {
      const message = JSON.parse(data);
      if (message && 'id' in message && ('result' in message || 'error' in message)) answers.push(data);
    } catch {
      // Not JSON: a comment or keep-alive, nothing a JSON client needs.
    }
  }
  return answers;
}
