/**
 * `mcp-mount/testing` against the real thing: every call made through `testMount` is also made through a
 * real HTTP server (Hono on a port) with the official client of the same era, on a mount with the same
 * options, and both must answer alike: status, result, and the repairs and ignored keys the tool and the
 * `onCall` hook see. Scopes, argument repair, the unknown-key notice and the per-client projection choice.
 */
import { type CallEvent, defineTool, type McpMountOptions } from 'mcp-mount';
import { testMount } from 'mcp-mount/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { connectV1, connectV2 } from '../../examples/shared/clients.js';
import { connect, type Era } from '../adapters/support/clients.js';
import { type Running, serveTools } from '../support/server.js';

// Bearer tokens must say when they expire (the SDK's rule); an hour from now.
const expiresAt = Math.floor(Date.now() / 1000) + 3600;
const WRITER = { token: 'writer-token', clientId: 'writer', scopes: ['notes:read', 'notes:write'], expiresAt };
const READER = { token: 'reader-token', clientId: 'reader', scopes: ['notes:read'], expiresAt };
const ran: string[] = [];

const archiveNote = defineTool({
  name: 'archive_note',
  scopes: ['notes:write'],
  input: z.object({ id: z.string() }),
  handler: ({ input }, ctx) => {
    ran.push('archive_note');
    return { archived: input.id, by: ctx.authInfo?.clientId ?? null };
  },
});
const searchNotes = defineTool({
  name: 'search_notes',
  input: z.object({
    tags: z.array(z.string()),
    orderBy: z.enum(['date', 'title']).optional(),
    // Nullable: `cursor` serves it as a plain string (Cursor refuses type lists), `flat` as ["string","null"].
    note: z.string().nullable().optional(),
  }),
  output: z.object({
    tags: z.array(z.string()),
    repairs: z.array(z.object({ path: z.string(), from: z.string() })),
    ignored: z.array(z.string()),
  }),
  // What the tool itself saw, so that the HTTP answer carries it too.
  handler: ({ input }, ctx) => ({
    tags: input.tags,
    repairs: [...ctx.repairs],
    ignored: ctx.ignoredKeys.map((k) => k.key),
  }),
});
const tools = [archiveNote, searchNotes];

/** The same options on both sides; each side's own `onCall` records what the mount reported. */
const optionsFor = (events?: CallEvent[]): McpMountOptions => ({
  projection: 'auto',
  access: { auth: { verify: (token) => [WRITER, READER].find((a) => a.token === token), required: false } },
  observe: {
    logger: { warn: () => {}, error: () => {} },
    ...(events && { onCall: (event: CallEvent) => events.push(event) }),
  },
});

/** The helper's era for each official client. */
const ERAS: ReadonlyArray<[Era, '2026-07-28' | '2025']> = [
  ['v2', '2026-07-28'],
  ['v1', '2025'],
];

const httpEvents: CallEvent[] = [];
const helperEvents: CallEvent[] = [];
const t = testMount(tools, optionsFor(helperEvents));
let server: Running;
// The helper always sets `onCall`; a mount without one takes another path to the argument check (one shared
// carrier per projection), so the answers are compared with that mount too.
let unobserved: Running;
beforeAll(async () => {
  server = await serveTools(tools, optionsFor(httpEvents));
  unobserved = await serveTools(tools, optionsFor());
});
afterAll(async () => {
  await server.close();
  await unobserved.close();
  await t.close();
});

/** The part of a result both sides decode the same way. */
/** What the report says a client of `projection` is listed, less the scoped tool no token may see. */
const listed = (projection: 'flat' | 'cursor') =>
  t.report.projections[projection]?.tools.filter((tool) => tool.name !== 'archive_note');

const outcome = (r: { isError?: boolean; content: unknown; structuredContent?: unknown }) => ({
  isError: r.isError ?? false,
  content: r.content,
  structuredContent: r.structuredContent,
});

/** One call through the official client over HTTP: its outcome (or refusal) and what `onCall` saw. */
async function overHttp(era: Era, name: string, args: Record<string, unknown>, token?: string, url = server.url) {
  const client = await connect(era, url, fetch, token === undefined ? {} : { token });
  try {
    httpEvents.length = 0;
    try {
      const result = await client.callTool(name, args);
      return { status: client.exchanges.at(-1)!.status, outcome: outcome(result), event: httpEvents.at(-1) };
    } catch {
      return { status: client.exchanges.at(-1)!.status, outcome: undefined, event: httpEvents.at(-1) };
    }
  } finally {
    await client.close();
  }
}

describe.each(ERAS)('testMount answers as HTTP does (official client %s, era %s)', (clientEra, era) => {
  const client = { era };

  it('a scoped tool without a token: 401 before the handler, no onCall event', async () => {
    ran.length = 0;
    const r = await t.callTool('archive_note', { id: 'n-1' }, { client });
    const http = await overHttp(clientEra, 'archive_note', { id: 'n-1' });
    expect([r.status, http.status]).toEqual([401, 401]);
    expect(http.outcome).toBeUndefined();
    expect(r).toMatchObject({ isError: true, content: [], text: '', repairs: [], ignoredKeys: [] });
    expect(r.error?.message).toBe('invalid_token: Authentication required');
    expect(r.headers.get('www-authenticate')).toContain('scope="notes:write"');
    expect([r.event, http.event]).toEqual([undefined, undefined]);
    expect(ran).toEqual([]);
  });

  it('a scoped tool with an authInfo (or a bearer token) lacking the scope: 403 insufficient_scope', async () => {
    ran.length = 0;
    const withInfo = await t.callTool('archive_note', { id: 'n-1' }, { client, authInfo: READER });
    const withHeader = await t.callTool(
      'archive_note',
      { id: 'n-1' },
      { client, headers: { authorization: `Bearer ${READER.token}` } },
    );
    const http = await overHttp(clientEra, 'archive_note', { id: 'n-1' }, READER.token);
    expect([withInfo.status, withHeader.status, http.status]).toEqual([403, 403, 403]);
    for (const r of [withInfo, withHeader]) {
      expect(r.isError).toBe(true);
      expect(r.error?.message).toBe('insufficient_scope: Insufficient scope');
      expect(r.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
    }
    expect(ran).toEqual([]);
  });

  it('a scoped tool with the scope runs, with the caller as ctx.authInfo', async () => {
    const withInfo = await t.callTool('archive_note', { id: 'n-1' }, { client, authInfo: WRITER });
    const withHeader = await t
      .with({ headers: { authorization: `Bearer ${WRITER.token}` } })
      .callTool('archive_note', { id: 'n-1' }, { client });
    const http = await overHttp(clientEra, 'archive_note', { id: 'n-1' }, WRITER.token);
    expect(http.status).toBe(200);
    expect(outcome(withInfo)).toEqual(http.outcome);
    expect(outcome(withHeader)).toEqual(http.outcome);
    expect(JSON.parse(withInfo.text)).toEqual({ archived: 'n-1', by: 'writer' });
    expect(withInfo.event).toMatchObject({ tool: 'archive_note', ok: true, caller: { clientId: 'writer' } });
  });

  it('a repaired call: an array sent as JSON text', async () => {
    const args = { tags: '["cats","dogs"]' };
    helperEvents.length = 0;
    const r = await t.callTool('search_notes', args, { client });
    const http = await overHttp(clientEra, 'search_notes', args);
    expect(outcome(r)).toEqual(http.outcome);
    expect(outcome(r)).toEqual((await overHttp(clientEra, 'search_notes', args, undefined, unobserved.url)).outcome);
    expect(r.isError).toBe(false);
    expect(r.repairs).toEqual([{ path: 'tags', from: 'json-string' }]);
    expect(r.repairs).toEqual(http.event?.repairs);
    expect(r.structuredContent).toEqual({ tags: ['cats', 'dogs'], repairs: r.repairs, ignored: [] });
    // The user's own onCall still ran, with the event the helper returned.
    expect(helperEvents).toEqual([r.event]);
  });

  it('a misspelt key: run, with the notice naming the key it meant', async () => {
    const args = { tags: ['cats'], sortBy: 'date' };
    const r = await t.callTool('search_notes', args, { client });
    const http = await overHttp(clientEra, 'search_notes', args);
    expect(outcome(r)).toEqual(http.outcome);
    expect(outcome(r)).toEqual((await overHttp(clientEra, 'search_notes', args, undefined, unobserved.url)).outcome);
    expect(r.ignoredKeys).toEqual([{ path: 'sortBy', key: 'sortBy', didYouMean: 'orderBy' }]);
    expect(r.ignoredKeys).toEqual(http.event?.ignoredKeys);
    expect(r.text).toContain('did you mean `orderBy`?');
    expect(r.structuredContent).toMatchObject({ ignored: ['sortBy'] });
  });

  it('an invalid call and an unknown tool', async () => {
    const invalid = await t.callTool('search_notes', { tags: [1] }, { client });
    const http = await overHttp(clientEra, 'search_notes', { tags: [1] });
    expect(outcome(invalid)).toEqual(http.outcome);
    expect(outcome(invalid)).toEqual(
      (await overHttp(clientEra, 'search_notes', { tags: [1] }, undefined, unobserved.url)).outcome,
    );
    expect(invalid).toMatchObject({ status: 200, isError: true, event: { ok: false } });
    expect(invalid.text).toContain('tags[0]');
    const unknown = await t.callTool('no_such_tool', {}, { client });
    expect(unknown).toMatchObject({ status: 200, isError: true, error: { code: -32602 } });
    expect(unknown.error?.message).toContain('no_such_tool');
  });
});

describe('testMount.listTools: the projection chosen for the client', () => {
  it("lists a 2026-07-28 client named cursor-vscode what 'auto' serves Cursor, as the v2 client is listed", async () => {
    const list = await t.listTools({ client: { name: 'cursor-vscode' } });
    expect(list.status).toBe(200);
    expect(list.tools).toEqual(listed('cursor'));
    expect(list.tools).not.toEqual(listed('flat'));
    // Without a token the scoped tool is not listed.
    expect(list.tools.map((tool) => tool.name)).toEqual(['search_notes']);
    const sdk = await connectV2(server.url, { name: 'cursor-vscode' });
    try {
      expect(list.tools).toEqual((await sdk.listTools()).tools);
    } finally {
      await sdk.close();
    }
    const unnamed = await t.listTools();
    expect(unnamed.tools).toEqual(listed('flat'));
  });

  it('a 2025-era client is known by its User-Agent alone, as the v1 client is', async () => {
    const byName = await t.listTools({ client: { era: '2025', name: 'cursor-vscode' } });
    const byAgent = await t.listTools({ client: { era: '2025', userAgent: 'Cursor/1.2.3' } });
    expect(byName.tools).toEqual(listed('flat'));
    expect(byAgent.tools).toEqual(listed('cursor'));
    for (const [helper, persona] of [
      [byName, { name: 'cursor-vscode' }],
      [byAgent, { userAgent: 'Cursor/1.2.3' }],
    ] as const) {
      const sdk = await connectV1(server.url, persona);
      try {
        expect(helper.tools).toEqual((await sdk.listTools()).tools);
      } finally {
        await sdk.close();
      }
    }
  });

  it('lists what the caller may call', async () => {
    const list = await t.listTools({ authInfo: WRITER });
    expect(list.tools.map((tool) => tool.name)).toEqual(['archive_note', 'search_notes']);
  });
});

describe('testMount in parallel', () => {
  it('gives each call its own repairs and ignored keys, even when they run at once', async () => {
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        t.callTool('search_notes', i % 2 === 0 ? { tags: `["t${i}"]` } : { tags: [`t${i}`], sortBy: 'x' }),
      ),
    );
    results.forEach((r, i) => {
      expect(r.structuredContent).toMatchObject({ tags: [`t${i}`] });
      expect(r.repairs).toEqual(i % 2 === 0 ? [{ path: 'tags', from: 'json-string' }] : []);
      expect(r.ignoredKeys.map((k) => k.key)).toEqual(i % 2 === 0 ? [] : ['sortBy']);
    });
  });
});

describe('testMount: the rest of an exchange', () => {
  const paged = defineTool({
    name: 'paged',
    input: z.object({ pages: z.number().int() }),
    handler: async ({ input }, ctx) => {
      for (let page = 1; page <= input.pages; page++) await ctx.progress(page, { total: input.pages });
      return 'done';
    },
  });
  const progress = testMount([paged]);

  it.each(ERAS.map(([, era]) => [era]))(
    'era %s: progress sent on the call comes back as notifications',
    async (era) => {
      const r = await progress.callTool('paged', { pages: 2 }, { client: { era }, meta: { progressToken: 'p-1' } });
      expect(r.text).toBe('done');
      expect(r.notifications).toEqual([
        { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p-1', progress: 1, total: 2 } },
        { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p-1', progress: 2, total: 2 } },
      ]);
      const quiet = await progress.callTool('paged', { pages: 2 }, { client: { era } });
      expect(quiet.notifications).toEqual([]);
    },
  );

  it('holds the example of its docstring', async () => {
    const searchNotes = defineTool({
      name: 'search_notes',
      description: 'Search notes by text.',
      input: z.object({ query: z.string().min(1), limit: z.number().int().max(50).default(10) }),
      handler: ({ input }) => ({ query: input.query, results: [] }),
    });
    const example = testMount([searchNotes], { projection: 'auto' });
    const r = await example.callTool('search_notes', { query: 'cats', limit: '5' });
    expect(r.isError).toBe(false);
    expect(r.repairs).toEqual([{ path: 'limit', from: 'number-string' }]);
    expect((await example.listTools({ client: { name: 'cursor' } })).tools).toEqual(
      example.report.projections.cursor?.tools,
    );
  });
});
