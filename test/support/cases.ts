/**
 * Helpers for the case suites in test/cases: one real HTTP server per options-group, with both official
 * clients connected once, and assertions phrased as the case suites phrase them ("accepted", "isError
 * naming p", "passes Ajv, but Run rejects it").
 */
import { type AnyTool, defineTool, type McpMountOptions, type ValidationReport, validateMcpSchemas } from 'mcp-mount';
import { afterAll, beforeAll, expect, type Mock, vi } from 'vitest';
import type { z } from 'zod';
import { connectors, type McpClient } from '../../examples/shared/clients.js';
import { ajv, type Doc, isObject, pointersWith, unionsIn } from './documents.js';
import { mergedOptions } from './options.js';
import { type Running, serveTools, textOf } from './server.js';

// The document helpers live in documents.ts (shared with the unit suites); the case suites import them from here.
export { ajv, at, type Doc, pointersWith, typeSet, unionsIn } from './documents.js';

/** Marks `undefined` in what a handler received, so "the handler gets exactly X" also rules out `k: undefined`. */
export const UNDEFINED = '\u0000undefined';

/** `value` with every `undefined` replaced by `UNDEFINED`, as `caseTool` reports it. */
export function reveal(value: unknown): unknown {
  if (value === undefined) return UNDEFINED;
  if (Array.isArray(value)) return value.map(reveal);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, reveal(v)]));
  }
  return value;
}

/**
 * A tool named after the case it checks, whose handler returns, as JSON text, exactly what it received:
 * `{ params, input, extend, repairs }`, with `undefined` values made visible.
 */
export function caseTool(name: string, input?: z.ZodType, params?: z.ZodObject<z.ZodRawShape>): AnyTool {
  return defineTool({
    name,
    params: params as z.ZodObject<z.ZodRawShape> | undefined,
    input,
    handler: ({ params: p, input: i }, ctx) =>
      JSON.stringify({ params: reveal(p), input: reveal(i), extend: reveal(ctx.extend ?? null), repairs: ctx.repairs }),
  }) as AnyTool;
}

export interface Received {
  params: unknown;
  input: unknown;
  extend: unknown;
  repairs: Array<{ path: string; from: string }>;
}

export interface Outcome {
  isError: boolean;
  text: string;
  received?: Received;
  /** Text blocks after the handler's own (the ignored-keys notice), joined; `undefined` when none. */
  notice?: string;
}

/** Calls a case tool; `isError` results keep their text, successful ones are decoded. */
export async function call(client: McpClient, name: string, args: unknown): Promise<Outcome> {
  return outcomeOf(await client.callTool(name, args));
}

/** Decodes a result: the handler's JSON is its first text block; any later block is a notice of ours. */
function outcomeOf(result: { content: Array<{ type: string; text?: string }>; isError?: boolean }): Outcome {
  const text = textOf(result);
  if (result.isError) return { isError: true, text };
  const [own, ...after] = result.content;
  const notice = after.length > 0 ? after.map((c) => c.text ?? '').join('\n') : undefined;
  return { isError: false, text, received: JSON.parse(own?.text ?? ''), ...(notice !== undefined && { notice }) };
}

/** A tools/list entry. */
export interface Listed {
  name: string;
  inputSchema: Doc;
  outputSchema?: Doc;
}

/** One mount (one server, one connection per official client) shared by the tests of an options-group. */
export interface Group {
  readonly tools: readonly AnyTool[];
  readonly options: McpMountOptions;
  readonly url: string;
  readonly clients: readonly McpClient[];
  /** `validateMcpSchemas(tools, options)`, computed once. */
  readonly report: ValidationReport;
  /** The `logger.warn` / `logger.error` / `onCall` spies the mount got. */
  readonly warn: Mock;
  readonly error: Mock;
  readonly onCall: Mock;
  /** What `client` listed, by name. */
  listed(client: McpClient): Map<string, Listed>;
  /** The served `inputSchema` of `name` as `client` listed it; fails when the tool is not listed. */
  schema(client: McpClient, name: string): Doc;
  /** Runs `body` once per client, prefixing failures with the client's label. */
  each(body: (client: McpClient) => Promise<void>): Promise<void>;
}

/**
 * Serves `tools` with `options` (plus spies for `logger` and `onCall` unless given) for the tests of the
 * enclosing file or describe block, and connects one client of each era. Call at module or describe level.
 */
export function mountGroup(tools: readonly AnyTool[], options: McpMountOptions = {}): Group {
  const warn = vi.fn();
  const error = vi.fn();
  const onCall = vi.fn();
  const full: McpMountOptions = mergedOptions({ observe: { logger: { warn, error }, onCall } }, options);
  let running: Running | undefined;
  let report: ValidationReport | undefined;
  const clients: McpClient[] = [];
  const lists = new Map<McpClient, Map<string, Listed>>();

  beforeAll(async () => {
    report = validateMcpSchemas(tools, full);
    running = await serveTools(tools, full);
    for (const connect of connectors) {
      const client = await connect(running.url);
      clients.push(client);
      const { tools: listed } = await client.listTools();
      lists.set(client, new Map(listed.map((t) => [t.name, t as Listed])));
    }
  });
  afterAll(async () => {
    for (const client of clients.splice(0)) await client.close();
    await running?.close();
  });

  const group: Group = {
    tools,
    options: full,
    warn,
    error,
    onCall,
    get url() {
      if (!running) throw new Error('group not started');
      return running.url;
    },
    get clients() {
      return clients;
    },
    get report() {
      if (!report) throw new Error('group not started');
      return report;
    },
    listed: (client) => lists.get(client)!,
    schema(client, name) {
      const tool = lists.get(client)?.get(name);
      if (!tool)
        throw new Error(
          `${name} is not in tools/list (${client.label}); listed: ${[...(lists.get(client)?.keys() ?? [])].join(', ')}`,
        );
      return tool.inputSchema;
    },
    async each(body) {
      expect(clients.length).toBe(connectors.length);
      for (const client of clients) {
        try {
          await body(client);
        } catch (e) {
          if (e instanceof Error) e.message = `[${client.label}] ${e.message}`;
          throw e;
        }
      }
    },
  };
  return group;
}

/** Asserts that tools/list serves exactly `report.tools` (same names, order and documents) to every client of each group. */
export async function expectListMatchesReport(...groups: Group[]): Promise<void> {
  for (const g of groups) await expectGroupListMatchesReport(g);
}

async function expectGroupListMatchesReport(g: Group): Promise<void> {
  await g.each(async (client) => {
    const listed = [...g.listed(client).values()];
    expect(listed.map((t) => t.name)).toEqual(g.report.tools.map((t) => t.name));
    for (const tool of g.report.tools) {
      const served = g.listed(client).get(tool.name)!;
      expect(served.inputSchema, tool.name).toEqual(tool.inputSchema);
      if (tool.outputSchema) expect(served.outputSchema, tool.name).toEqual(tool.outputSchema);
    }
  });
}

// --- documents --------------------------------------------------------------------------------

/** A node without its pure annotations (description, title, examples, ...); `default` is kept. */
export function bare(node: Doc): Doc {
  if (!isObject(node)) return node;
  const { description: _d, title: _t, examples: _e, $comment: _c, deprecated: _p, ...rest } = node;
  return rest;
}

/** The `enum` of a node as a sorted list, for set comparisons. */
export function enumSet(node: Doc): unknown[] {
  return Array.isArray(node?.enum) ? [...node.enum].sort() : [];
}

/** Asserts a served node is a flat object: `type:"object"` and no `oneOf`/`anyOf`/`allOf` anywhere inside. */
export function expectFlatObject(node: Doc, label = ''): void {
  expect(node?.type, `${label} type`).toBe('object');
  expect([...unionsIn(node), ...pointersWith(node, 'allOf')], `${label} unions left`).toEqual([]);
}

// --- calls ------------------------------------------------------------------------------------

/**
 * True when an isError text names `path` as the path of a failure: a failing path that is `path` or lies
 * under it (`cfg` names `cfg.x:`). Paths print as `a.b[0].c:` at the start of a failure line, or as a
 * list of keys (`a, b: unrecognized keys`).
 */
export function namesPath(text: string, path: string): boolean {
  const escaped = path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // A group of unknown keys prints as one list: `tool, toolCallId: unrecognized keys`.
  return new RegExp(`(?:^|[\\s,;(])${escaped}(?:[.[][^\\s:,;]*)?(?:, [^\\s:,;]+)*:`).test(text);
}

/** The Ajv verdict on `value` for a served document, with errors for failure messages. */
export function ajvCheck(schema: Doc, value: unknown): { ok: boolean; errors: string } {
  const validate = ajv.compile(schema);
  const ok = validate(value) === true;
  return { ok, errors: JSON.stringify(validate.errors) };
}

export interface Expected {
  input?: unknown;
  params?: unknown;
  extend?: unknown;
}

/**
 * "Accepted": the value passes Ajv on the served schema and the call is not `isError`; when `expected`
 * is given, the handler got exactly that (deep-equal, `undefined` visible).
 */
export async function expectAccepted(
  g: Group,
  client: McpClient,
  name: string,
  args: unknown,
  expected?: Expected,
): Promise<Received> {
  const schema = g.schema(client, name);
  const verdict = ajvCheck(schema, args);
  expect(verdict.ok, `Ajv should accept ${JSON.stringify(args)}: ${verdict.errors}`).toBe(true);
  return expectHandlerGets(client, name, args, expected);
}

/** The call is not `isError` and the handler got `expected` (no Ajv check: for values sent in a repairable form). */
export async function expectHandlerGets(
  client: McpClient,
  name: string,
  args: unknown,
  expected?: Expected,
): Promise<Received> {
  const out = await call(client, name, args);
  expect(out.isError, `call ${name} ${JSON.stringify(args)} should succeed: ${out.text}`).toBe(false);
  const received = out.received!;
  if (expected && 'input' in expected) expect(received.input, 'handler input').toEqual(expected.input);
  if (expected && 'params' in expected) expect(received.params, 'handler params').toEqual(expected.params);
  if (expected && 'extend' in expected) expect(received.extend, 'handler extend').toEqual(expected.extend);
  return received;
}

/**
 * "isError naming p": an `isError` result (not a JSON-RPC error) whose text names every path in `paths`.
 * With `ajv: true` ("passes Ajv, but Run rejects it") the value must also pass Ajv on the served schema.
 */
export async function expectRefused(
  g: Group,
  client: McpClient,
  name: string,
  args: unknown,
  paths: readonly string[],
  opts: { ajv?: boolean; notPaths?: readonly string[] } = {},
): Promise<string> {
  if (opts.ajv) {
    const verdict = ajvCheck(g.schema(client, name), args);
    expect(verdict.ok, `Ajv should accept ${JSON.stringify(args)}: ${verdict.errors}`).toBe(true);
  }
  const out = await call(client, name, args);
  expect(out.isError, `call ${name} ${JSON.stringify(args)} should be isError, got ${out.text}`).toBe(true);
  for (const p of paths) expect(namesPath(out.text, p), `isError text should name ${p}: ${out.text}`).toBe(true);
  for (const p of opts.notPaths ?? [])
    expect(namesPath(out.text, p), `isError text should not name ${p}: ${out.text}`).toBe(false);
  return out.text;
}

/** Issues of one tool in a report (optionally one code), as `code@path[severity]` for readable failures. */
export function issuesOf(report: ValidationReport, tool: string) {
  return report.issues.filter((i) => i.tool === tool);
}

/** Error-level issues of `tool`; an empty list means a default ('throw') mount serves it. */
export function errorsOf(report: ValidationReport, tool: string): string[] {
  return issuesOf(report, tool)
    .filter((i) => i.severity === 'error')
    .map((i) => `${i.code}@${i.path}${i.profile ? `[${i.profile}]` : ''}`);
}

// --- raw JSON-RPC -------------------------------------------------------------------------------

/** Marks "no `arguments` member at all" for `rawCall`. */
export const NO_ARGUMENTS = Symbol('no arguments');

/** A raw call's result decoded like `call`. */
export async function rawOutcome(
  url: string,
  name: string,
  args: unknown,
  extra?: Record<string, unknown>,
): Promise<Outcome> {
  const message = await rawCall(url, name, args, extra);
  expect(message.error, `JSON-RPC error for ${name}: ${JSON.stringify(message.error)}`).toBeUndefined();
  return outcomeOf(message.result!);
}

/**
 * A `tools/call` POSTed by hand (stateless server, no session), for envelopes the official clients do
 * not produce, such as `arguments: null`. Returns the JSON-RPC message.
 */
export async function rawCall(
  url: string,
  name: string,
  args: unknown,
  extra: Record<string, unknown> = {},
  protocolVersion = '2025-06-18',
): Promise<{ result?: { content: Array<{ type: string; text?: string }>; isError?: boolean }; error?: unknown }> {
  const params: Record<string, unknown> = { name, ...extra };
  if (args !== NO_ARGUMENTS) params.arguments = args;
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': protocolVersion,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params }),
  });
  const body = await response.text();
  const json = response.headers.get('content-type')?.includes('text/event-stream')
    ? body
        .split('\n')
        .filter((l) => l.startsWith('data: '))
        .map((l) => JSON.parse(l.slice(6)))
        .find((m) => m.id === 1)
    : JSON.parse(body);
  return json;
}
