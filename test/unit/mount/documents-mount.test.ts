/**
 * A mount given build-time documents (docs/decisions/0024-build-time-documents.md): it serves exactly what a
 * mount without them serves, fails on documents that no longer describe a tool (or prepares that tool under
 * `documents.stale: 'prepare'`), and the prebuilt entry serves documents only.
 */

import { defineTool, type McpMountOptions, McpMountSchemaError, validateMcpSchemas } from 'mcp-mount';
import { createMcpFetchHandler, createPrebuiltMcpFetchHandler } from 'mcp-mount/adapter';
import { mcp } from 'mcp-mount/fetch/prebuilt';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { buildDocuments } from '../../../src/core/documents/emit.js';
import type { AnyTool } from '../../../src/core/model/tool.js';
import { prepareTools } from '../../../src/core/prepare/prepare.js';
import { documentsSetup, prepareSetup, settleOptions } from '../../../src/core/serve/config.js';

const echo = ({ input }: { input: unknown }) => ({ content: [{ type: 'text' as const, text: JSON.stringify(input) }] });
const media = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('image'), url: z.string(), width: z.number().int().optional() }),
  z.object({ kind: z.literal('video'), url: z.string(), seconds: z.number() }),
]);
const tag = (labels: z.ZodType) =>
  defineTool({
    name: 'tag',
    input: z.object({ labels }),
    output: z.object({ count: z.number() }),
    handler: () => ({ structuredContent: { count: 1 }, content: [] }),
  });
/** `tag` with a key more: a change the startup stamp sees (a change below the top level is --verify's). */
const retagged = () => ({
  ...tag(z.array(z.string())),
  input: z.object({ labels: z.string(), note: z.string().optional() }),
});
const tools: AnyTool[] = [
  defineTool({ name: 'post', input: z.object({ text: z.string(), media: z.array(media) }), handler: echo }),
  tag(z.record(z.string(), z.string())),
];
const options: McpMountOptions = { projection: 'auto' };

/** What `mcp-mount check --emit` writes for these tools and options, as the module's default export. */
function documentsOf(of: readonly AnyTool[], with_: McpMountOptions) {
  const config = settleOptions(with_);
  return JSON.parse(
    JSON.stringify(buildDocuments(prepareTools(of, prepareSetup(config)), documentsSetup(config), 'npm run build:mcp')),
  );
}

const request = (body: object, userAgent: string) =>
  new Request('http://localhost/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', 'user-agent': userAgent },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, ...body }),
  });
const quiet = { logger: { warn: () => {}, error: () => {} } };

describe('a mount given build-time documents', () => {
  const documents = documentsOf(tools, options);

  it('lists, per family, exactly what a mount without them lists, and reports the same', async () => {
    const built = createPrebuiltMcpFetchHandler(tools, { ...options, documents, observe: quiet });
    const live = createMcpFetchHandler(tools, { ...options, observe: quiet });
    for (const agent of ['some-agent/1', 'claude-code/1', 'gemini-cli/1', 'openai-mcp/1', 'cursor/1']) {
      const [a, b] = await Promise.all(
        [built, live].map(async (h) => (await h.fetch(request({ method: 'tools/list' }, agent))).text()),
      );
      expect(JSON.parse(a!), agent).toEqual(JSON.parse(b!));
    }
    expect(built.report).toEqual(validateMcpSchemas(tools, options));
  });

  it('lists byte for byte what a mount without them lists, in both eras, every field of an entry included', async () => {
    const rich: AnyTool[] = [
      defineTool({
        name: 'rich',
        title: 'Every field',
        description: 'Has "quotes", $& and \u2028 in it',
        input: z.object({ q: media, limit: z.number().int().default(10) }),
        output: z.object({ items: z.array(z.string()) }),
        annotations: { readOnlyHint: true },
        icons: [{ src: 'https://example.com/i.png', mimeType: 'image/png' }],
        execution: { taskSupport: 'forbidden' },
        _meta: { 'example.com/x': { inputSchema: [1] } },
        handler: () => ({ structuredContent: { items: [] }, content: [] }),
      }),
      ...tools,
    ];
    const modern = (body: object) =>
      new Request('http://localhost/mcp', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/list',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          ...body,
          params: {
            _meta: {
              'io.modelcontextprotocol/protocolVersion': '2026-07-28',
              'io.modelcontextprotocol/clientCapabilities': {},
              'io.modelcontextprotocol/clientInfo': { name: 'test', version: '1.0.0' },
            },
          },
        }),
      });
    const built = createPrebuiltMcpFetchHandler(rich, {
      ...options,
      documents: documentsOf(rich, options),
      observe: quiet,
    });
    const live = createMcpFetchHandler(rich, { ...options, observe: quiet });
    for (const agent of ['some-agent/1', 'gemini-cli/1']) {
      for (const make of [() => request({ method: 'tools/list' }, agent), () => modern({ method: 'tools/list' })]) {
        const [a, b] = await Promise.all([built, live].map(async (h) => (await h.fetch(make())).text()));
        expect(a).toContain('"outputSchema":{"type":"object"');
        expect(a).toBe(b);
      }
    }
  });

  it('parses calls with the Zod schemas, repairs included', async () => {
    const built = createPrebuiltMcpFetchHandler(tools, { ...options, documents });
    const args = { text: 'hi', media: JSON.stringify([{ kind: 'video', url: 'u', seconds: '3' }]) };
    const answer = await built.fetch(request({ method: 'tools/call', params: { name: 'post', arguments: args } }, 'x'));
    const text = ((await answer.json()) as { result: { content: Array<{ text: string }> } }).result.content[0]!.text;
    expect(JSON.parse(text)).toEqual({ text: 'hi', media: [{ kind: 'video', url: 'u', seconds: 3 }] });
    const bad = await built.fetch(
      request({ method: 'tools/call', params: { name: 'post', arguments: { text: 1, media: [] } } }, 'x'),
    );
    expect(JSON.stringify(await bad.json())).toMatch(/text: expected string, received number/);
  });

  it('serves a recursive (z.lazy) tool built in another module instance, as a fresh startup meets it', async () => {
    // The documents are written after conversion has resolved every z.lazy; a Worker's startup fingerprints
    // schemas nothing has resolved yet.
    const tree = () => {
      const node: z.ZodType = z.lazy(() => z.object({ label: z.string(), children: z.array(node) }));
      return [defineTool({ name: 'tree', input: z.object({ root: node }), handler: echo })];
    };
    const written = documentsOf(tree(), {});
    const handler = createPrebuiltMcpFetchHandler(tree(), { documents: written, observe: quiet });
    const listed = await (await handler.fetch(request({ method: 'tools/list' }, 'some-agent/1'))).json();
    expect(listed.result.tools.map((t: { name: string }) => t.name)).toEqual(['tree']);
  });

  it('fails the mount when a tool changed since, naming it, what changed and the command', () => {
    const changed = [tools[0]!, retagged()];
    const mount = () => createPrebuiltMcpFetchHandler(changed, { ...options, documents });
    expect(mount).toThrow(McpMountSchemaError);
    expect(mount).toThrow(
      /tag .*stale-documents: tool "tag" changed since the documents were built: input schema's top-level keys; run `npm run build:mcp` again/,
    );
    expect(() => createMcpFetchHandler(changed, { ...options, documents })).toThrow(/stale-documents/);
  });

  it('fails for a tool added, and for documents of other options; a tool removed is a warning', () => {
    const added = [...tools, defineTool({ name: 'extra', input: z.object({}), handler: echo })];
    expect(() => mcp(added, { ...options, documents })).toThrow(/tool "extra" is not in the documents/);
    expect(() => mcp(tools, { projection: 'flat', documents })).toThrow(/other options/);
    const warnings: string[] = [];
    const one = createPrebuiltMcpFetchHandler([tools[0]!], {
      ...options,
      documents,
      observe: { logger: { warn: (m: string) => warnings.push(m), error: () => {} } },
    });
    expect(one.report.issues).toContainEqual(
      expect.objectContaining({ tool: 'tag', code: 'stale-documents', severity: 'warning' }),
    );
    // The mount starts, so the warning is logged: nothing about stale documents passes in silence.
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/tool "tag" is in the documents but not in the mount/);
    // And a mount that fails for a changed tool names the removed one too.
    const changedAndRemoved = [retagged()].map((t) => ({ ...t, name: 'post' }));
    expect(() => createPrebuiltMcpFetchHandler(changedAndRemoved, { ...options, documents })).toThrow(
      /tool "tag" is in the documents but not in the mount/,
    );
  });

  it("under documents.stale: 'prepare', prepares the stale tool at startup with one warning, and serves it", async () => {
    const changed = [tools[0]!, retagged()];
    const warnings: string[] = [];
    const handler = createMcpFetchHandler(changed, {
      ...options,
      documents: { module: documents, stale: 'prepare' },
      observe: { logger: { warn: (m: string) => warnings.push(m), error: () => {} } },
    });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/starts with these warnings\n.*tool "tag" changed.*prepared at startup/);
    expect(handler.report.projections.flat!.tools).toEqual(
      validateMcpSchemas(changed, options).projections.flat!.tools,
    );
  });

  it("runs the features hook once at construction under documents.stale: 'prepare', as without documents", async () => {
    const changed = [tools[0]!, retagged()];
    const runs: boolean[] = [];
    const features = (server: { registerPrompt: (...args: never[]) => unknown }, ctx: { probe: boolean }) => {
      runs.push(ctx.probe);
      server.registerPrompt('hello' as never, {} as never, (() => ({ messages: [] })) as never);
    };
    const handler = createMcpFetchHandler(changed, {
      ...options,
      documents: { module: documents, stale: 'prepare' },
      server: { features: features as never },
      observe: quiet,
    });
    expect(runs).toEqual([true]);
    const listed = await handler.fetch(request({ method: 'prompts/list' }, 'some-agent/1'));
    expect(await listed.text()).toContain('"hello"');
    expect(runs).toEqual([true, false]);
  });

  it("the prebuilt entry takes documents only: no documents, or documents.stale: 'prepare', is a TypeError", () => {
    expect(() => createPrebuiltMcpFetchHandler(tools, {} as never)).toThrow(/serves build-time documents only/);
    expect(() => createPrebuiltMcpFetchHandler(tools, { documents: { module: documents, stale: 'prepare' } })).toThrow(
      /documents.stale: 'prepare' needs the preparation/,
    );
    expect(() => createMcpFetchHandler(tools, { documents: { module: documents, stale: 'later' as 'fail' } })).toThrow(
      /documents.stale must be one of fail, prepare, got later/,
    );
    expect(() => createMcpFetchHandler(tools, { documents: { module: documents, when: 1 } as never })).toThrow(
      /documents.when is not an option; documents takes module, stale/,
    );
  });
});
