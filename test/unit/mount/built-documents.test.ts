/**
 * Build-time documents (docs/decisions/0024-build-time-documents.md, 0030): the emitted module round-trips
 * through `matchDocuments` to exactly what the preparation serves; every drift the startup stamp can see
 * (top-level keys, tools added or removed, options, versions) is a stale entry with a reason that names the
 * tool, what changed and the command to run; and `verifyDocuments` finds every drift of the documents
 * themselves, at any depth.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { buildDocuments, documentsModule } from '../../../src/core/documents/emit.js';
import { matchDocuments } from '../../../src/core/documents/read.js';
import { toolStamp } from '../../../src/core/documents/stamps.js';
import { verifyDocuments } from '../../../src/core/documents/verify.js';
import { type AnyTool, defineTool } from '../../../src/core/model/tool.js';
import { prepareTools } from '../../../src/core/prepare/prepare.js';
import { reportOf } from '../../../src/core/prepare/report.js';
import { documentsSetup, prepareSetup, settleOptions } from '../../../src/core/serve/config.js';
import type { McpMountOptions } from '../../../src/core/serve/options.js';

const COMMAND = 'mcp-mount check src/tools.ts --emit src/mcp-documents.js';
const scratch = mkdtempSync(join(tmpdir(), 'mcp-mount-documents-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Three tools, built fresh each call: a union input, an object with output and params, a plain one. */
function tools(change: { notifyVariant?: boolean; limit?: number } = {}): AnyTool[] {
  const variants = [
    z.object({ channel: z.literal('email'), to: z.email() }),
    z.object({ channel: z.literal('sms'), phone: z.string().min(5) }),
  ];
  if (change.notifyVariant) variants.push(z.object({ channel: z.literal('push'), device: z.string() }) as never);
  return [
    defineTool({
      name: 'notify',
      description: 'Send a notification.',
      input: z.discriminatedUnion('channel', variants as [(typeof variants)[0], ...typeof variants]),
      handler: () => 'sent',
    }),
    defineTool({
      name: 'search',
      params: z.object({ folder: z.string() }),
      input: z.object({
        query: z.string().min(1),
        limit: z
          .number()
          .int()
          .max(change.limit ?? 50)
          .default(10),
      }),
      output: z.object({ hits: z.array(z.object({ id: z.string() })) }),
      handler: () => ({ hits: [] }),
    }),
    defineTool({ name: 'ping', input: z.object({}), handler: () => 'pong' }),
  ];
}

let modules = 0;
/** The module text written to a file and imported, as a Worker's bundler or Node would load it. */
async function emitAndImport(list: AnyTool[], options: McpMountOptions): Promise<unknown> {
  const config = settleOptions(options);
  const text = documentsModule(
    buildDocuments(prepareTools(list, prepareSetup(config)), documentsSetup(config), COMMAND),
  );
  const file = join(scratch, `documents-${++modules}.mjs`);
  writeFileSync(file, text);
  return (await import(pathToFileURL(file).href)).default;
}

describe('build-time documents', () => {
  it('round-trip: every served projection, as text and object, exactly what the preparation serves', async () => {
    const options: McpMountOptions = { projection: 'auto' };
    const built = await emitAndImport(tools(), options);
    const config = settleOptions(options);
    const preparation = prepareTools(tools(), prepareSetup(config));
    const report = reportOf(preparation);
    const match = matchDocuments(tools(), documentsSetup(config), built);
    expect(match.stale).toEqual([]);
    expect([...match.matched.keys()]).toEqual(['notify', 'search', 'ping']);
    expect(match.issues).toEqual(JSON.parse(JSON.stringify(report.issues)));
    for (const prepared of preparation.tools) {
      const matched = match.matched.get(prepared.name)!;
      expect(matched.servable).toBe(true);
      expect(matched.requiredKeys).toEqual(prepared.requiredKeys);
      expect(matched.projections).toEqual(config.prepare.projection.served.filter((p) => prepared.documents(p)));
      for (const projection of config.prepare.projection.served) {
        expect(matched.inputSchema(projection)).toEqual(prepared.documents(projection)?.inputSchema);
        expect(matched.inputText(projection)).toBe(JSON.stringify(prepared.documents(projection)?.inputSchema));
        expect(matched.outputSchema(projection)).toEqual(prepared.documents(projection)?.outputSchema);
      }
    }
    // Parsed once per distinct document, shared and frozen.
    const search = match.matched.get('search')!;
    expect(search.inputSchema('flat')).toBe(search.inputSchema('flat'));
    expect(Object.isFrozen(search.inputSchema('flat')!.properties)).toBe(true);
  });

  it('quotes what a single-quoted literal must escape', async () => {
    const odd = defineTool({
      name: 'odd',
      description: "it's",
      input: z.object({ "it's": z.string().describe("a \\ b\nc \u2028 'd'") }),
      handler: () => '',
    });
    const built = (await emitAndImport([odd], {})) as { documents: string[] };
    const config = settleOptions({});
    const prepared = prepareTools([odd], prepareSetup(config)).tools[0]!;
    expect(built.documents).toEqual([JSON.stringify(prepared.documents('faithful')!.inputSchema)]);
    expect(matchDocuments([odd], documentsSetup(config), built).stale).toEqual([]);
  });

  it('holds each distinct document once', () => {
    const many = Array.from({ length: 20 }, (_, i) =>
      defineTool({ name: `t${i}`, input: z.object({ q: z.string() }), handler: () => '' }),
    );
    const config = settleOptions({ projection: 'auto' });
    const built = buildDocuments(prepareTools(many, prepareSetup(config)), documentsSetup(config));
    expect(built.tools.length).toBe(20);
    expect(built.documents.length).toBeLessThanOrEqual(config.prepare.projection.served.length);
    expect(new Set(built.tools.map((t) => t.input.flat)).size).toBe(1);
  });

  it('the module says it is generated, by which command, and loads as an ES module', () => {
    const config = settleOptions({});
    const text = documentsModule(
      buildDocuments(prepareTools(tools(), prepareSetup(config)), documentsSetup(config), `${COMMAND}\nx`),
    );
    expect(text.split('\n')[0]).toBe(
      `// Generated by \`${COMMAND} x\` (mcp-mount build-time documents, format 4). Do not edit:`,
    );
    expect(text).toMatch(
      /\nconst documents = \[\n( {2}'.*',\n)+\];\nconst compact = JSON\.parse\('.*'\);\nconst issues = \[\];\nfor .*\nexport default \{ \.\.\.JSON\.parse\('.*'\), issues, documents \};\n$/,
    );
  });

  it('a tool whose top-level keys changed is stale at startup, naming what changed and the command', async () => {
    const built = await emitAndImport(tools(), { flattenUnionInput: true });
    const config = settleOptions({ flattenUnionInput: true });
    const match = matchDocuments(tools({ notifyVariant: true }), documentsSetup(config), built);
    expect([...match.matched.keys()]).toEqual(['search', 'ping']);
    expect(match.stale).toEqual([
      {
        kind: 'changed',
        tool: 'notify',
        reason: `tool "notify" changed since the documents were built: input schema's top-level keys; run \`${COMMAND}\` again`,
      },
    ]);
    expect(match.issues.every((i) => i.tool !== 'notify')).toBe(true);
  });

  it('a change below the top level passes the startup stamp: it is what --verify catches', async () => {
    const built = await emitAndImport(tools(), { flattenUnionInput: true });
    const config = settleOptions({ flattenUnionInput: true });
    expect(matchDocuments(tools({ limit: 60 }), documentsSetup(config), built).stale).toEqual([]);
    const now = buildDocuments(
      prepareTools(tools({ limit: 60 }), prepareSetup(config)),
      documentsSetup(config),
      COMMAND,
    );
    expect(verifyDocuments(now, built).map((s) => s.tool)).toEqual(['search']);
  });

  it('a tool added or removed is stale', async () => {
    const built = await emitAndImport(tools().slice(0, 2), {});
    const match = matchDocuments([tools()[0]!, tools()[2]!], documentsSetup(settleOptions({})), built);
    expect(match.stale.map((s) => [s.kind, s.tool])).toEqual([
      ['added', 'ping'],
      ['removed', 'search'],
    ]);
    expect(match.stale[0]!.reason).toBe(
      `tool "ping" is not in the documents (added since they were built); run \`${COMMAND}\` again`,
    );
  });

  it('other options, another format or no module at all: every tool is stale, with one reason', async () => {
    const built = (await emitAndImport(tools(), {})) as Record<string, unknown>;
    const cases: Array<[unknown, McpMountOptions, string, RegExp]> = [
      [
        built,
        { flattenUnionInput: true },
        'options',
        /projections served \(default:served\) faithful:faithful → flat:flat/,
      ],
      [built, { schemaValidation: { profiles: ['gemini'] } }, 'options', /the schemaValidation options changed/],
      [{ ...built, format: 1 }, {}, 'format', /format 1, and this version of mcp-mount reads format 4/],
      [{ ...built, format: 3 }, {}, 'format', /format 3, and this version of mcp-mount reads format 4/],
      [
        { ...built, options: { ...(built.options as object), zod: '4.0.0' } },
        {},
        'options',
        /the Zod version 4\.0\.0 → /,
      ],
      [
        { ...built, options: { ...(built.options as object), mount: '0.0.9' } },
        {},
        'options',
        /the mcp-mount version 0\.0\.9 → \d+\.\d+\.\d+/,
      ],
      [
        { ...built, options: { ...(built.options as { mount: string }), mount: undefined } },
        {},
        'options',
        /the mcp-mount version unrecorded → /,
      ],
      [undefined, {}, 'format', /not an object; expected the default export of a module written by/],
      [{ format: 4 }, {}, 'format', /lack tools, issues, documents or options/],
    ];
    for (const [module, options, kind, reason] of cases) {
      const match = matchDocuments(tools(), documentsSetup(settleOptions(options)), module);
      expect(match.matched.size).toBe(0);
      expect(match.stale).toHaveLength(1);
      expect(match.stale[0]!.kind).toBe(kind);
      expect(match.stale[0]!.reason).toMatch(reason);
    }
    // The policy does not shape documents: it only decides what a mount does with errors.
    const warn = matchDocuments(
      tools(),
      documentsSetup(settleOptions({ schemaValidation: { policy: 'warn' } })),
      built,
    );
    expect(warn.stale).toEqual([]);
  });

  it('a module whose indexes point nowhere is stale for that tool', async () => {
    const built = (await emitAndImport(tools(), {})) as { documents: string[] };
    const match = matchDocuments(tools(), documentsSetup(settleOptions({})), {
      ...built,
      documents: built.documents.slice(0, 1),
    });
    expect(match.stale.map((s) => s.tool)).not.toContain(match.matched.keys().next().value);
    expect(match.stale.some((s) => /refers to documents the module does not hold/.test(s.reason))).toBe(true);
  });
});

describe('toolStamp', () => {
  const base = { name: 'a', input: z.object({ q: z.string() }), handler: () => '' };
  const stamp = (tool: object, options: McpMountOptions = {}) =>
    toolStamp(tool as AnyTool, settleOptions(options).arguments.extend);

  it("covers each slice's top-level keys and whether extend applies; nothing below them, no field", () => {
    const stamps = [
      stamp(base),
      stamp({ ...base, input: z.object({ q: z.string(), n: z.number() }) }),
      stamp({ ...base, params: z.object({ id: z.string() }) }),
      stamp({ ...base, output: z.object({ ok: z.boolean() }) }),
      stamp({ ...base, input: z.union([z.object({ q: z.string() }), z.object({ r: z.string() })]) }),
      stamp(base, { arguments: { extend: { schema: z.object({ tenant: z.string() }) } } }),
    ];
    expect(new Set(stamps).size).toBe(stamps.length);
    for (const same of [
      { ...base, description: 'Another text' },
      { ...base, title: 'A', scopes: ['notes:read'], icons: [{ src: 'https://example.com/a.png' }] },
      { ...base, input: z.object({ q: z.number().default(1) }) },
    ]) {
      expect(stamp(same)).toBe(stamp(base));
    }
    const filtered = { arguments: { extend: { schema: z.object({ tenant: z.string() }), filter: () => false } } };
    expect(stamp(base, filtered)).toBe(stamp(base));
  });

  // A shape written with getters (recursion) is resolved as Zod resolves it on the first parse: the mount reads
  // those keys anyway, to split a call's arguments. What could differ from one startup to the next (a default
  // factory, a transform) never runs, and neither does a z.lazy.
  it("runs no default factory, transform or z.lazy of the schema author's", () => {
    let ran = 0;
    const counted = () => {
      ran++;
      return 'x';
    };
    const node: z.ZodType = z.lazy(() => {
      ran++;
      return z.object({ next: node.optional() });
    });
    const tool = {
      ...base,
      input: z.object({
        q: z.string().default(counted),
        t: z.string().transform(counted),
        tree: node,
      }),
    };
    expect(JSON.parse(stamp(tool))[1]).toEqual(['q', 't', 'tree']);
    expect(ran).toBe(0);
  });
});

describe('verifyDocuments', () => {
  const options: McpMountOptions = { flattenUnionInput: true };
  const emitNow = (list: AnyTool[], given: McpMountOptions = options) => {
    const config = settleOptions(given);
    return buildDocuments(prepareTools(list, prepareSetup(config)), documentsSetup(config), COMMAND);
  };

  it('passes the documents --emit wrote for the same tools and options', async () => {
    const built = await emitAndImport(tools(), options);
    expect(verifyDocuments(emitNow(tools()), built)).toEqual([]);
  });

  it('names each tool whose documents changed, at any depth: a type, an enum value, a default', async () => {
    const built = await emitAndImport(tools(), options);
    const changed = (edit: (list: AnyTool[]) => AnyTool[]) => verifyDocuments(emitNow(edit(tools())), built);
    const searchWith = (input: z.ZodType) => (list: AnyTool[]) =>
      list.map((t) => (t.name === 'search' ? { ...t, input } : t));
    const field = changed(searchWith(z.object({ query: z.number(), limit: z.number().int().max(50).default(10) })));
    const enumValue = changed((list) =>
      list.map((t) => (t.name === 'ping' ? { ...t, input: z.object({ mode: z.enum(['a', 'b']) }) } : t)),
    );
    const byDefault = changed(
      searchWith(z.object({ query: z.string().min(1), limit: z.number().int().max(50).default(20) })),
    );
    for (const [stale, tool] of [
      [field, 'search'],
      [enumValue, 'ping'],
      [byDefault, 'search'],
    ] as const) {
      expect(stale.map((s) => s.tool)).toEqual([tool]);
      expect(stale[0]!.reason).toMatch(
        new RegExp(
          `^tool "${tool}": its flat input document changed.*run \`${COMMAND.replace(/[.]/g, '\\.')}\` again$`,
        ),
      );
    }
    const enumAdded = verifyDocuments(
      emitNow(
        tools().map((t) => (t.name === 'ping' ? { ...t, input: z.object({ mode: z.enum(['a', 'b', 'c']) }) } : t)),
      ),
      await emitAndImport(
        tools().map((t) => (t.name === 'ping' ? { ...t, input: z.object({ mode: z.enum(['a', 'b']) }) } : t)),
        options,
      ),
    );
    expect(enumAdded.map((s) => s.tool)).toEqual(['ping']);
  });

  it('names a tool added or removed', async () => {
    const built = await emitAndImport(tools().slice(0, 2), options);
    expect(verifyDocuments(emitNow([tools()[0]!, tools()[2]!]), built).map((s) => [s.kind, s.tool])).toEqual([
      ['added', 'ping'],
      ['removed', 'search'],
    ]);
  });

  it('fails documents written for other options, another mcp-mount or another Zod', async () => {
    const built = (await emitAndImport(tools(), options)) as { options: Record<string, string> };
    expect(verifyDocuments(emitNow(tools(), { projection: 'auto' }), built)[0]!.kind).toBe('options');
    for (const part of ['mount', 'zod']) {
      const other = { ...built, options: { ...built.options, [part]: '0.0.1' } };
      const [stale] = verifyDocuments(emitNow(tools()), other);
      expect(stale!.kind).toBe('options');
      expect(stale!.reason).toMatch(new RegExp(`^the documents were built for other options: ${part} 0\\.0\\.1 → `));
    }
    expect(verifyDocuments(emitNow(tools()), { format: 3 })[0]!.kind).toBe('format');
  });
});
