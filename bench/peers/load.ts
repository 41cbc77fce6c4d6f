/**
 * The peer benchmark's load: 2025-06-18 JSON-RPC POSTs (no session, no `initialize`: every server here is
 * stateless or answers without one) on keep-alive connections (an undici `Pool` of `CONCURRENCY` connections,
 * one request in flight on each), and the check of every answer. A fast wrong answer does not count: each
 * answer is classified (`ok`, `refused`, or wrong) and only the answers a scenario accepts count towards a rate.
 *
 * Every request carries its own JSON-RPC id, fixed-width (7 digits), so that a server sharing one transport
 * across requests (@hono/mcp) cannot hand one request another's answer unnoticed, and so that an answer's
 * bytes differ from the last checked answer only in the id: an answer whose bytes equal the last fully
 * checked one apart from the id (at the same offset, and equal to this request's) gets that one's class
 * without parsing it again. Any other answer is parsed and checked in full.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { Pool } from 'undici';
import { CALL_ARGUMENTS, CALLED, EXPECTED_TEXT, TOOLS } from '../fixtures/object-union-calls.js';

export type ScenarioKey = 'list' | 'list-gzip' | 'call' | 'repair' | 'invalid';
export type AnswerClass = 'ok' | 'refused' | 'wrong';

export interface Scenario {
  key: ScenarioKey;
  label: string;
  method: string;
  params: Record<string, unknown>;
  /** The classes of answer this scenario accepts as correct. */
  accepts: readonly AnswerClass[];
  /** Sent as `accept-encoding`; a gzip-encoded answer is decoded, then checked as any other. */
  acceptEncoding?: string;
}

export const SCENARIOS: readonly Scenario[] = [
  { key: 'list', label: 'tools/list', method: 'tools/list', params: {}, accepts: ['ok'] },
  {
    // What fetch (the official clients', browsers') sends on every request; a server may answer either way.
    key: 'list-gzip',
    label: 'tools/list, gzip accepted',
    method: 'tools/list',
    params: {},
    accepts: ['ok'],
    acceptEncoding: 'gzip, deflate',
  },
  {
    key: 'call',
    label: 'tools/call, valid',
    method: 'tools/call',
    params: { name: CALLED, arguments: CALL_ARGUMENTS.valid },
    accepts: ['ok'],
  },
  {
    // A server without repair refuses this call, which is its right answer; which one it gave is reported.
    key: 'repair',
    label: 'tools/call, "5" for a number',
    method: 'tools/call',
    params: { name: CALLED, arguments: CALL_ARGUMENTS.repair },
    accepts: ['ok', 'refused'],
  },
  {
    key: 'invalid',
    label: 'tools/call, invalid',
    method: 'tools/call',
    params: { name: CALLED, arguments: CALL_ARGUMENTS.invalid },
    accepts: ['refused'],
  },
];

const HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-06-18',
};

/** Ids are 7 digits wide, so every answer of one server to one scenario has the same length. */
let nextId = 1_000_000;
function newId(): number {
  nextId = nextId >= 9_999_999 ? 1_000_001 : nextId + 1;
  return nextId;
}

/** The request body with `id` spliced in, built from two fixed halves. */
function bodyMaker(scenario: Scenario): (id: number) => string {
  const marker = 1_234_567;
  const text = JSON.stringify({ jsonrpc: '2.0', id: marker, method: scenario.method, params: scenario.params });
  const [head, tail] = text.split(String(marker)) as [string, string];
  return (id) => head + id + tail;
}

/** The JSON-RPC message in an answer: the JSON body, or the SSE `data:` line that answers `id`. */
function messageOf(body: string, contentType: string, id: number): Record<string, any> | undefined {
  if (!contentType.includes('text/event-stream')) return JSON.parse(body);
  for (const line of body.split('\n')) {
    if (!line.startsWith('data:')) continue;
    const message = JSON.parse(line.slice(5));
    if (message && typeof message === 'object' && message.id === id) return message;
  }
  return undefined;
}

/** Checks one answer in full: the JSON-RPC envelope, then what the scenario expects. */
export function classify(scenario: Scenario, status: number, contentType: string, body: string, id: number) {
  const wrong = (why: string) => ({ cls: 'wrong' as const, why });
  if (status !== 200) return wrong(`HTTP ${status}: ${body.slice(0, 200)}`);
  let message: Record<string, any> | undefined;
  try {
    message = messageOf(body, contentType, id);
  } catch {
    return wrong(`not JSON: ${body.slice(0, 200)}`);
  }
  if (!message) return wrong(`no message answering id ${id}: ${body.slice(0, 200)}`);
  if (message.jsonrpc !== '2.0' || message.id !== id) return wrong(`not the answer to id ${id}`);
  if (message.error) {
    // A JSON-RPC invalid-params error is how some servers refuse arguments; anything else is wrong.
    return scenario.method === 'tools/call' && message.error.code === -32602
      ? { cls: 'refused' as const, why: '-32602' }
      : wrong(`error ${JSON.stringify(message.error).slice(0, 200)}`);
  }
  const result = message.result;
  if (!result || typeof result !== 'object') return wrong('no result');
  if (scenario.method === 'tools/list') {
    const tools = result.tools as Array<{ name: string; inputSchema?: { type?: string } }> | undefined;
    if (!Array.isArray(tools) || tools.length !== TOOLS) return wrong(`${tools?.length} tools listed`);
    const names = new Set(tools.map((t) => t.name));
    for (let i = 0; i < TOOLS; i++) if (!names.has(`tool_${i}`)) return wrong(`tool_${i} not listed`);
    if (!tools.every((t) => t.inputSchema?.type === 'object')) return wrong('an inputSchema not an object');
    return { cls: 'ok' as const, why: '' };
  }
  const content = result.content as Array<{ type: string; text?: string }> | undefined;
  if (!Array.isArray(content) || typeof content[0]?.text !== 'string') return wrong('no text content');
  if (result.isError === true) return { cls: 'refused' as const, why: 'isError' };
  return content[0].text === EXPECTED_TEXT
    ? { cls: 'ok' as const, why: '' }
    : wrong(`answered ${content[0].text.slice(0, 200)}`);
}

/** The last answer checked in full, to recognise the same answer again by its bytes. */
interface Known {
  bytes: Buffer;
  contentType: string;
  /** Offset of the id's digits in `bytes`. */
  at: number;
  cls: AnswerClass;
  why: string;
}

export interface BatchResult {
  /** Answers the scenario accepts. */
  accepted: number;
  /** Answers of each class, and transport failures as `failed`. */
  classes: Record<AnswerClass | 'failed', number>;
  /** How the server refused (`isError`, `-32602`), when it did. */
  refusedAs: Set<string>;
  /** The first few wrong answers, for the report. */
  wrongSamples: string[];
  /** Answers that came gzip-encoded (decoded before they were checked). */
  gzipped: number;
  /** Wall time of the batch, ms (until the last request in flight is answered). */
  ms: number;
  /** The server process's CPU time over the batch, ms (user + system, every thread). */
  serverCpuMs: number;
  /** This process's CPU time over the batch, ms. */
  clientCpuMs: number;
}

/** CPU time of process `pid` (user + system, every thread), ms, from /proc/<pid>/stat. */
export function processCpuMs(pid: number, ticksPerSecond: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
}

/** A server under load: its pool of keep-alive connections and the last answer checked per scenario. */
export class Target {
  readonly pool: Pool;
  private readonly known = new Map<ScenarioKey, Known>();

  constructor(
    readonly key: string,
    readonly label: string,
    readonly pid: number,
    origin: string,
    connections: number,
  ) {
    this.pool = new Pool(origin, { connections, pipelining: 1, keepAliveTimeout: 60_000 });
  }

  /** Sends one request of `scenario`; resolves to the answer's class (never rejects). */
  async send(scenario: Scenario, body: (id: number) => string, out: BatchResult): Promise<void> {
    const id = newId();
    let status: number;
    let contentType: string;
    let bytes: Buffer;
    try {
      const headers = scenario.acceptEncoding ? { ...HEADERS, 'accept-encoding': scenario.acceptEncoding } : HEADERS;
      const response = await this.pool.request({ path: '/mcp', method: 'POST', headers, body: body(id) });
      status = response.statusCode;
      contentType = String(response.headers['content-type'] ?? '');
      const chunks: Buffer[] = [];
      for await (const chunk of response.body) chunks.push(chunk as Buffer);
      bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
      const encoding = response.headers['content-encoding'];
      if (encoding === 'gzip') {
        // undici's Pool does not decode: done here, as fetch would, and counted.
        bytes = gunzipSync(bytes);
        out.gzipped++;
      } else if (encoding !== undefined) throw new Error(`content-encoding ${String(encoding)} not read here`);
    } catch (error) {
      out.classes.failed++;
      if (out.wrongSamples.length < 3) out.wrongSamples.push(`request failed: ${(error as Error).message}`);
      return;
    }
    const { cls, why } = this.check(scenario, status, contentType, bytes, id);
    out.classes[cls]++;
    if (scenario.accepts.includes(cls)) out.accepted++;
    if (cls === 'refused') out.refusedAs.add(why);
    if (cls === 'wrong' && out.wrongSamples.length < 3) out.wrongSamples.push(why);
  }

  private check(scenario: Scenario, status: number, contentType: string, bytes: Buffer, id: number) {
    const known = this.known.get(scenario.key);
    if (status === 200 && known && sameApartFromId(known, bytes, contentType, id)) return known;
    const result = classify(scenario, status, contentType, bytes.toString('utf8'), id);
    const at = bytes.indexOf(`"id":${id}`);
    if (status === 200 && at >= 0) this.known.set(scenario.key, { bytes, contentType, at: at + 5, ...result });
    return result;
  }

  /**
   * One batch: `concurrency` requests in flight until `ms` have passed, then the ones in flight are awaited.
   * The server's CPU is read from /proc before and after.
   */
  async batch(scenario: Scenario, ms: number, concurrency: number, ticks: number): Promise<BatchResult> {
    const body = bodyMaker(scenario);
    const out: BatchResult = {
      accepted: 0,
      classes: { ok: 0, refused: 0, wrong: 0, failed: 0 },
      refusedAs: new Set(),
      wrongSamples: [],
      gzipped: 0,
      ms: 0,
      serverCpuMs: 0,
      clientCpuMs: 0,
    };
    const cpu0 = processCpuMs(this.pid, ticks);
    const client0 = process.cpuUsage();
    const started = performance.now();
    const deadline = started + ms;
    const worker = async () => {
      while (performance.now() < deadline) await this.send(scenario, body, out);
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    out.ms = performance.now() - started;
    const client = process.cpuUsage(client0);
    out.clientCpuMs = (client.user + client.system) / 1000;
    out.serverCpuMs = processCpuMs(this.pid, ticks) - cpu0;
    return out;
  }
}

/** Whether `bytes` equal `known`'s apart from the id's digits, which must be `id`'s. */
function sameApartFromId(known: Known, bytes: Buffer, contentType: string, id: number): boolean {
  const digits = String(id);
  const { at } = known;
  return (
    contentType === known.contentType &&
    bytes.length === known.bytes.length &&
    bytes.toString('latin1', at, at + digits.length) === digits &&
    bytes.compare(known.bytes, 0, at, 0, at) === 0 &&
    bytes.compare(known.bytes, at + digits.length, bytes.length, at + digits.length, bytes.length) === 0
  );
}

/** The full answer of `target` to one request of `scenario`: the raw route serves these bytes. */
export async function sampleAnswer(target: Target, scenario: Scenario) {
  const id = 1_234_567;
  const response = await target.pool.request({
    path: '/mcp',
    method: 'POST',
    headers: HEADERS,
    body: bodyMaker(scenario)(id),
  });
  const text = await response.body.text();
  const [head, tail] = text.split(`"id":${id}`) as [string, string | undefined];
  if (tail === undefined) throw new Error(`no "id":${id} in ${target.key}'s answer to ${scenario.key}`);
  return { contentType: String(response.headers['content-type']), head: `${head}"id":`, tail };
}
