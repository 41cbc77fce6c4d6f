/**
 * node-llama-cpp, the JavaScript runtime for local models, against what a mount serves: for every tool of the
 * fixture, the grammar it builds from the served document (`llama.createGrammarForJsonSchema`, no model: its
 * prebuilt binary parses the grammar), whether every value the tool's Zod schema accepts can be written under
 * that grammar (the grammar's own matcher, `_testText`, on the text a constrained model writes) and passes
 * node-llama-cpp's check of the result (`grammar.parse`), and whether that text sent as a call reaches the
 * handler with the original parse. Values the Zod schema refuses, written the same way (with the keys a closed
 * object does not declare, as a client not held to the grammar sends them), must still be refused by the
 * call (`isError`). `grammarSweep` does the same over the projection property suite's random Zod schemas.
 *
 * "The text a constrained model writes" follows the served document as its grammar does: every key the
 * document lists, in its order, with `null` for a key the value leaves out; numbers in a form the grammar's
 * number rule takes; strings with every character outside printable ASCII escaped (a grammar counts a
 * character or an escape as one, JavaScript counts UTF-16 units), literals (`const`, `enum`, keys) as written.
 */
import type { AddressInfo } from 'node:net';
import { isDeepStrictEqual } from 'node:util';
import { serve } from '@hono/node-server';
import fc from 'fast-check';
import { Hono } from 'hono';
import { defineTool, type ProjectionName } from 'mcp-mount';
import { mcp } from 'mcp-mount/hono';
import { testMount } from 'mcp-mount/testing';
import { getLlama, type Llama, type LlamaJsonSchemaGrammar, LlamaLogLevel } from 'node-llama-cpp';
import type { z } from 'zod';
import { type Gen, rootArb } from '../unit/projection/arbitraries.js';
import { typedRootArb } from '../unit/projection/deep-arbitraries.js';
import { awkwardTools, GRAMMAR_VALUES, grammarTools, received, tools } from './fixture.js';

const ALL_TOOLS = [...tools, ...awkwardTools, ...grammarTools];

/** The mounts measured: what local models named as such get, and what unknown clients get. */
export const GRAMMAR_MOUNTS: readonly ProjectionName[] = ['local-grammar', 'flat'];

type Schema = Record<string, any>;

/** One tool under one mount. */
export interface GrammarRow {
  mount: ProjectionName;
  tool: string;
  listed: boolean;
  built: boolean;
  buildError?: string;
  valid: number;
  /** Valid values whose text the grammar takes whole. */
  written: number;
  /** ... and that `grammar.parse` returns. */
  parsed: number;
  /** ... and that, sent as a call, reach the handler as the original parse. */
  reached: number;
  /**
   * ... or as the original parse with `null` for a key the value left out, where the key's own schema takes
   * null (a nullable optional key, `z.unknown()`): the model's "none" and null are one spelling there.
   */
  nullKept: number;
  invalid: number;
  /** Values the Zod schema refuses whose call, written the same way, is refused (`isError`). */
  refused: number;
  /** The first value that failed, and how. */
  failure?: string;
}

/** node-llama-cpp's prebuilt CPU binary, as it ships on npm: no build, no download, no GPU probe. */
export function loadLlama(): Promise<Llama> {
  return getLlama({
    build: 'never',
    gpu: false,
    skipDownload: true,
    progressLogs: false,
    logLevel: LlamaLogLevel.error,
  });
}

/** Every fixture tool under each of `mounts`, one row per tool and mount. */
export async function measureGrammars(llama: Llama, mounts = GRAMMAR_MOUNTS): Promise<GrammarRow[]> {
  for (const tool of ALL_TOOLS) {
    const cases = GRAMMAR_VALUES[tool.name];
    if (!cases) throw new Error(`no grammar values for ${tool.name}`);
    for (const v of cases.valid) {
      if (!tool.input!.safeParse(v).success)
        throw new Error(`${tool.name}: a valid value is refused: ${JSON.stringify(v)}`);
    }
    for (const v of cases.invalid) {
      if (tool.input!.safeParse(v).success)
        throw new Error(`${tool.name}: an invalid value passes: ${JSON.stringify(v)}`);
    }
  }
  const app = new Hono();
  for (const projection of mounts) {
    app.all(
      `/mcp/${projection}`,
      mcp(ALL_TOOLS, { projection, schemaValidation: { policy: 'warn' }, observe: { logger: quiet } }),
    );
  }
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const url = (mount: string) => `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp/${mount}`;
  const rows: GrammarRow[] = [];
  try {
    for (const mount of mounts) {
      const listed = await rpc(url(mount), 'tools/list', {});
      const documents = new Map<string, Schema>(
        (listed.tools as Array<{ name: string; inputSchema: Schema }>).map((t) => [t.name, t.inputSchema]),
      );
      for (const tool of ALL_TOOLS)
        rows.push(await measureTool(llama, url(mount), mount, tool, documents.get(tool.name)));
    }
  } finally {
    server.close();
  }
  return rows;
}

const quiet = { warn() {}, error() {} };

async function measureTool(
  llama: Llama,
  url: string,
  mount: ProjectionName,
  tool: { name: string; input?: z.ZodType },
  document: Schema | undefined,
): Promise<GrammarRow> {
  const { valid, invalid } = GRAMMAR_VALUES[tool.name]!;
  const row: GrammarRow = {
    mount,
    tool: tool.name,
    listed: document !== undefined,
    built: false,
    valid: valid.length,
    written: 0,
    parsed: 0,
    reached: 0,
    nullKept: 0,
    invalid: invalid.length,
    refused: 0,
  };
  const fail = (what: string) => {
    row.failure ??= what;
  };
  if (!document) return row;
  let grammar: LlamaJsonSchemaGrammar<any>;
  try {
    grammar = await llama.createGrammarForJsonSchema(document as never);
    row.built = true;
  } catch (error) {
    row.buildError = (error as Error).message.split('\n')[0];
    return row;
  }
  const writer = new ModelWriter(document);
  for (const value of valid) {
    const text = writer.write(value, document);
    // The grammar ends a generation with four newlines (what its `stopGenerationTriggers` stop on).
    if (!(grammar as unknown as { _testText(t: string): boolean })._testText(`${text}\n\n\n\n`)) {
      fail(`grammar refuses ${text}`);
      continue;
    }
    row.written++;
    let args: unknown;
    try {
      args = grammar.parse(text);
    } catch (error) {
      fail(`parse refuses ${text}: ${(error as Error).message}`);
      continue;
    }
    row.parsed++;
    const outcome = await callOnce(url, tool.name, args);
    const expected = tool.input!.parse(value);
    if (outcome.isError) fail(`call refused ${text}: ${outcome.text}`);
    else if (isDeepStrictEqual(outcome.received, expected)) row.reached++;
    else if (sameButNulls(outcome.received, expected, value)) row.nullKept++;
    else fail(`handler got ${JSON.stringify(outcome.received)} for ${text}, the parse is ${JSON.stringify(expected)}`);
  }
  const unheld = new ModelWriter(document, { undeclared: true });
  for (const value of invalid) {
    const text = unheld.write(value, document);
    const outcome = await callOnce(url, tool.name, JSON.parse(text));
    if (outcome.isError && outcome.received === undefined) row.refused++;
    else fail(`invalid ${text} reached the handler`);
  }
  return row;
}

/** One `tools/call`: whether it was refused, its text, and what the handler received (once, or not at all). */
async function callOnce(url: string, name: string, args: unknown) {
  received.length = 0;
  const result = await rpc(url, 'tools/call', { name, arguments: args });
  const text = (result.content as Array<{ text?: string }> | undefined)?.map((c) => c.text ?? '').join(' ') ?? '';
  if (received.length > 1) throw new Error(`${name} ran ${received.length} times`);
  return { isError: result.isError === true, text: text.slice(0, 200), received: received[0] };
}

/** A stateless 2025-era JSON-RPC request over HTTP; the `result`, or a thrown protocol error. */
async function rpc(url: string, method: string, params: unknown): Promise<Record<string, any>> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const text = await response.text();
  const json = text.startsWith('{') ? text : (text.split('\n').find((l) => l.startsWith('data: ')) ?? '').slice(6);
  const body = JSON.parse(json);
  if (body.error) throw new Error(`${method}: ${JSON.stringify(body.error)}`);
  return body.result;
}

/** What the random sweep found, in totals. */
export interface SweepResult {
  schemas: number;
  /** Schemas whose tool the mount serves under `local-grammar`. */
  served: number;
  built: number;
  values: number;
  written: number;
  parsed: number;
  reached: number;
  nullKept: number;
  /**
   * Calls refused, or parsed by another member, where the schema holds a plain (not discriminated) union of
   * objects: null for a key one member declares and another ignores stays null there
   * (docs/design/projections.md), so such a call can fail or pick another member. Counted, not hidden.
   */
  plainUnion: number;
  failures: string[];
}

/**
 * The same measurement over the projection property suite's random Zod schemas (unions nested deep with every
 * collision kind, optional, nullable and defaulted fields, records, tuples, intersections, recursion), each
 * served under `local-grammar` by a mount of its own and called in process (`mcp-mount/testing`). Fixed seed.
 */
export async function grammarSweep(llama: Llama, runs = 200, seed = 20261205): Promise<SweepResult> {
  const cases = fc.sample(
    fc
      .oneof(rootArb(4), typedRootArb(3))
      .chain((gen: Gen) =>
        fc
          .array(gen.value, { minLength: 6, maxLength: 6 })
          .map((values) => ({ gen, values: values.map((v) => JSON.parse(JSON.stringify(v ?? null))) })),
      ),
    { numRuns: runs, seed },
  );
  const out: SweepResult = {
    schemas: cases.length,
    served: 0,
    built: 0,
    values: 0,
    written: 0,
    parsed: 0,
    reached: 0,
    nullKept: 0,
    plainUnion: 0,
    failures: [],
  };
  for (const [n, { gen, values }] of cases.entries()) {
    const got: unknown[] = [];
    const tool = defineTool({
      name: 't',
      input: gen.schema,
      handler: ({ input }: { input: unknown }) => {
        got.push(input);
        return 'ok';
      },
    } as never);
    const mount = testMount([tool], {
      projection: 'local-grammar',
      schemaValidation: { policy: 'warn' },
      observe: { logger: quiet },
    });
    const document = mount.report.projections['local-grammar']?.tools[0]?.inputSchema as Schema | undefined;
    if (!document) continue;
    out.served++;
    const fail = (what: string) =>
      out.failures.push(
        `#${n} ${gen.label}: ${what}\n  document: ${JSON.stringify(document)}`.slice(
          0,
          Number(process.env.FAILURE_CHARS ?? 4000),
        ),
      );
    let grammar: LlamaJsonSchemaGrammar<any>;
    try {
      grammar = await llama.createGrammarForJsonSchema(document as never);
      out.built++;
    } catch (error) {
      fail(`no grammar: ${(error as Error).message}`);
      continue;
    }
    const writer = new ModelWriter(document);
    for (const value of values) {
      const parsed = gen.schema.safeParse(value);
      if (!parsed.success) continue;
      out.values++;
      const text = writer.write(value, document);
      if (!(grammar as unknown as { _testText(t: string): boolean })._testText(`${text}\n\n\n\n`)) {
        fail(`grammar refuses ${text}`);
        continue;
      }
      out.written++;
      let args: unknown;
      try {
        args = grammar.parse(text);
      } catch (error) {
        fail(`parse refuses ${text}: ${(error as Error).message}`);
        continue;
      }
      out.parsed++;
      got.length = 0;
      const call = await mount.callTool('t', args);
      if (!call.isError && isDeepStrictEqual(got[0], parsed.data)) out.reached++;
      else if (!call.isError && sameButNulls(got[0], parsed.data, value)) out.nullKept++;
      else if (hasPlainUnion(gen.schema)) out.plainUnion++;
      else if (call.isError) fail(`call refused ${text}: ${call.text.slice(0, 300)}`);
      else fail(`handler got ${JSON.stringify(got[0])} for ${text}, the parse is ${JSON.stringify(parsed.data)}`);
    }
    await mount.close();
  }
  return out;
}

/** True when the schema holds a `z.union` (not a discriminated one) anywhere. */
function hasPlainUnion(schema: unknown, seen = new Set<unknown>()): boolean {
  if (typeof schema !== 'object' || schema === null || seen.has(schema)) return false;
  seen.add(schema);
  const def = (schema as { def?: Record<string, unknown> }).def;
  if (!def) return false;
  if (def.type === 'union' && def.discriminator === undefined) return true;
  const children: unknown[] = [];
  for (const value of Object.values(def)) {
    if (Array.isArray(value)) children.push(...value);
    else if (value && typeof value === 'object' && 'def' in value) children.push(value);
    else if (value && typeof value === 'object') children.push(...Object.values(value));
  }
  if (def.type === 'lazy' && typeof def.getter === 'function') children.push((def.getter as () => unknown)());
  return children.some((c) => hasPlainUnion(c, seen));
}

/**
 * `got` equals `want` except at object keys `sent` (the value as the caller meant it) left out and `got` holds
 * as null: there the model's "none" was null, which the key's own schema takes, so it reached the handler as
 * null (where the parse of the value meant gave no key, or the key's default).
 */
function sameButNulls(got: unknown, want: unknown, sent: unknown): boolean {
  if (Array.isArray(got) && Array.isArray(want)) {
    return (
      got.length === want.length &&
      got.every((g, i) => sameButNulls(g, want[i], Array.isArray(sent) ? sent[i] : undefined))
    );
  }
  if (isObject(got) && isObject(want)) {
    const meant = isObject(sent) ? sent : {};
    for (const key of new Set([...Object.keys(got), ...Object.keys(want)])) {
      if (!Object.hasOwn(meant, key) && got[key] === null) continue;
      if (!Object.hasOwn(got, key) || !Object.hasOwn(want, key)) return false;
      if (!sameButNulls(got[key], want[key], meant[key])) return false;
    }
    return true;
  }
  return isDeepStrictEqual(got, want);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** node-llama-cpp's number rule: at most 16 digits before the point, 16 after it, and in the exponent. */
const GRAMMAR_NUMBER = /^-?(?:0|[1-9]\d{0,15})(?:\.\d{1,16})?(?:[eE][-+]?(?:0|[1-9]\d{0,15}))?$/;

/** Writes a value as a model held to the document's grammar writes it (see the file comment). */
export class ModelWriter {
  /**
   * `undeclared`: keys a closed object does not declare are written too, as a client not held to the grammar
   * sends them (for values the schema must still refuse).
   */
  constructor(
    private readonly root: Schema,
    private readonly options: { undeclared?: boolean } = {},
  ) {}

  write(value: unknown, schema: unknown): string {
    const resolved = this.resolve(schema);
    if (!isObject(resolved)) return writeAny(value);
    const s: Schema = resolved;
    if (Array.isArray(s.oneOf) || Array.isArray(s.anyOf)) {
      const members: unknown[] = s.oneOf ?? s.anyOf;
      const member = members.find((m) => this.admits(m, value));
      return this.write(value, member ?? {});
    }
    if ('const' in s || Array.isArray(s.enum)) return JSON.stringify(value);
    if (isObject(value)) {
      const properties: Schema = isObject(s.properties) ? s.properties : {};
      const parts = Object.keys(properties).map(
        (key) => `${JSON.stringify(key)}:${key in value ? this.write(value[key], properties[key]) : 'null'}`,
      );
      // Keys the object does not declare, where it takes them; a closed one's cannot be written (Zod drops a
      // strip object's anyway).
      const open =
        this.options.undeclared === true || (s.additionalProperties !== undefined && s.additionalProperties !== false);
      for (const [key, v] of Object.entries(value)) {
        if (!Object.hasOwn(properties, key) && open)
          parts.push(`${writeString(key)}:${this.write(v, s.additionalProperties)}`);
      }
      return `{${parts.join(',')}}`;
    }
    if (Array.isArray(value)) {
      const prefix: unknown[] = Array.isArray(s.prefixItems) ? s.prefixItems : [];
      return `[${value.map((v, i) => this.write(v, i < prefix.length ? prefix[i] : s.items)).join(',')}]`;
    }
    return writeAny(value);
  }

  private resolve(schema: unknown): unknown {
    let s = schema;
    for (let i = 0; i < 64 && isObject(s) && typeof s.$ref === 'string'; i++) {
      const ref: string = s.$ref;
      s = ref === '#' ? this.root : this.root.$defs?.[decodeURIComponent(ref.replace('#/$defs/', ''))];
    }
    return s;
  }

  /** Whether `member` (a union's member) is the one for `value`: its types, literals or members take the value's type. */
  private admits(member: unknown, value: unknown): boolean {
    const resolved = this.resolve(member);
    if (!isObject(resolved)) return resolved !== false;
    const m: Schema = resolved;
    if ('const' in m) return isDeepStrictEqual(m.const, value);
    if (Array.isArray(m.enum)) return m.enum.some((v: unknown) => isDeepStrictEqual(v, value));
    const union: unknown[] | undefined = m.oneOf ?? m.anyOf;
    if (Array.isArray(union)) return union.some((u) => this.admits(u, value));
    if (m.type === undefined) return true;
    const types: string[] = Array.isArray(m.type) ? m.type : [m.type];
    const kind = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
    return types.includes(kind) || (kind === 'number' && types.includes('integer') && Number.isInteger(value));
  }
}

function writeAny(value: unknown): string {
  if (typeof value === 'string') return writeString(value);
  if (typeof value === 'number') return writeNumber(value);
  if (Array.isArray(value)) return `[${value.map(writeAny).join(',')}]`;
  if (isObject(value))
    return `{${Object.entries(value)
      .map(([k, v]) => `${writeString(k)}:${writeAny(v)}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

function writeNumber(value: number): string {
  const plain = JSON.stringify(value);
  return GRAMMAR_NUMBER.test(plain) ? plain : value.toExponential();
}

/** Every UTF-16 unit outside printable ASCII as `\uXXXX`: one grammar character per JavaScript one. */
function writeString(value: string): string {
  let out = '"';
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    const ch = value[i]!;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (code < 0x20 || code > 0x7e) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

/** The table: tools x grammar built x values taken, per mount. */
export function grammarTable(rows: GrammarRow[]): string {
  const lines = [
    '| mount | tool | grammar built | valid values written / parsed / reach the handler as parsed (null kept) | invalid values refused |',
    '| --- | --- | --- | --- | --- |',
  ];
  for (const r of rows) {
    const built = !r.listed ? 'not listed' : r.built ? 'yes' : `no: ${r.buildError}`;
    lines.push(
      `| ${r.mount} | ${r.tool} | ${built} | ${r.written} / ${r.parsed} / ${r.reached} (${r.nullKept}) of ${r.valid} | ${r.refused} of ${r.invalid} |`,
    );
  }
  for (const mount of new Set(rows.map((r) => r.mount))) {
    const of = rows.filter((r) => r.mount === mount);
    const sum = (k: 'valid' | 'written' | 'parsed' | 'reached' | 'nullKept') => of.reduce((n, r) => n + r[k], 0);
    const whole = of.filter((r) => r.built && r.parsed === r.valid).length;
    lines.push(
      `| ${mount} | all ${of.length} | ${of.filter((r) => r.built).length}, ${whole} taking every value | ${sum('written')} / ${sum('parsed')} / ${sum('reached')} (${sum('nullKept')}) of ${sum('valid')} | ${of.reduce((n, r) => n + r.refused, 0)} of ${of.reduce((n, r) => n + r.invalid, 0)} |`,
    );
  }
  return lines.join('\n');
}

/** The sweep in one line. */
export function sweepLine(r: SweepResult): string {
  return `local-grammar over ${r.schemas} random Zod schemas (${r.served} served): ${r.built} grammars built; of ${r.values} valid values ${r.written} written, ${r.parsed} parsed, ${r.reached} reach the handler as parsed, ${r.nullKept} with null kept, ${r.plainUnion} in a plain union's limit; ${r.failures.length} failures${r.failures.length > 0 ? `\n${r.failures.slice(0, 5).join('\n')}` : ''}`;
}

/**
 * What the suite asserts: under `local-grammar` every fixture tool is listed and its grammar built, every
 * valid value written, parsed and reaching the handler as parsed (or with null kept for a key that takes
 * null), every invalid one refused; the random sweep builds every grammar and meets no failure.
 */
export function grammarChecks(rows: readonly GrammarRow[], sweep: SweepResult): Array<[string, boolean]> {
  const checks: Array<[string, boolean]> = [];
  for (const r of rows.filter((row) => row.mount === 'local-grammar')) {
    const what = `node-llama-cpp local-grammar ${r.tool}`;
    checks.push([`${what}: grammar built`, r.listed && r.built]);
    checks.push([
      `${what}: every valid value written, parsed and reaching the handler${r.failure ? ` (${r.failure.slice(0, 300)})` : ''}`,
      r.written === r.valid && r.parsed === r.valid && r.reached + r.nullKept === r.valid,
    ]);
    checks.push([`${what}: every invalid value refused`, r.refused === r.invalid]);
  }
  checks.push([
    `node-llama-cpp local-grammar sweep: every served schema's grammar built`,
    sweep.built === sweep.served,
  ]);
  checks.push([`node-llama-cpp local-grammar sweep: no failure`, sweep.failures.length === 0]);
  checks.push([
    `node-llama-cpp local-grammar sweep: every valid value written and parsed`,
    sweep.written === sweep.values && sweep.parsed === sweep.values,
  ]);
  return checks;
}
