/**
 * The list cache's own rules (tool-list.ts, list-cache.ts): which mounts mark `tools/list` private, and
 * that a list showing every tool is the one prebuilt buffer, a partial one the same entries joined.
 */
import { gunzipSync } from 'node:zlib';
import { defineTool, type McpMountOptions } from 'mcp-mount';
import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { gzipStart, gzipWith, zlib } from '../../../src/core/http/gzip.js';
import { prepareTools } from '../../../src/core/prepare/prepare.js';
import { callPolicy, type MountConfig, prepareSetup, settleOptions } from '../../../src/core/serve/config.js';
import { listEntries } from '../../../src/core/serve/list-cache.js';
import { registration } from '../../../src/core/serve/registration.js';
import { toolList, withListing } from '../../../src/core/serve/sdk/tool-list.js';
import { toolSet } from '../../../src/core/serve/tool-set.js';

const plain = defineTool({ name: 'plain', input: z.object({ a: z.string() }), handler: () => 'ok' });
const scoped = defineTool({ name: 'scoped', input: z.object({}), scopes: ['admin'], handler: () => 'ok' });
const other = defineTool({ name: 'other', description: 'o', input: z.object({ b: z.number() }), handler: () => 'ok' });

function registrations(tools: Parameters<typeof prepareTools>[0], options: McpMountOptions = {}) {
  const config = settleOptions({ schemaValidation: { policy: 'warn' }, ...options });
  const prepared = prepareTools(tools, prepareSetup(config)).tools;
  return { config, registrations: prepared.map((t) => registration(t, runOf(config))) };
}

function runOf(config: MountConfig) {
  const { limits, observe: observer } = config;
  return { served: config.prepare.projection.served, call: callPolicy(config), limits, observer, logging: false };
}

function hints(tools: Parameters<typeof prepareTools>[0], options: McpMountOptions = {}) {
  const { config, registrations: rs } = registrations(tools, options);
  return toolList(
    rs,
    config.access,
    config.prepare.projection,
    config.observe,
    toolSet(rs, config.access, config.observe),
  ).cacheHints;
}

const PRIVATE = { 'tools/list': { cacheScope: 'private' } };

describe('cacheScope of tools/list', () => {
  it('is left to the SDK (private, ttlMs 0 today) where every caller is listed the same tools', () => {
    expect(hints([plain, other])).toBeUndefined();
    expect(hints([plain, scoped], { access: { listUnauthorizedTools: true } })).toBeUndefined();
  });

  it('is private whatever the SDK defaults to where the list depends on the caller', () => {
    expect(hints([plain], { access: { visibleTools: () => ['plain'] } })).toEqual(PRIVATE);
    expect(hints([plain, scoped])).toEqual(PRIVATE);
    expect(hints([plain], { projection: 'auto' })).toEqual(PRIVATE);
    expect(hints([plain], { projection: () => 'flat' })).toEqual(PRIVATE);
  });
});

const decoder = new TextDecoder();
const text = (chunks: readonly Uint8Array[]) => chunks.map((c) => decoder.decode(c)).join('');
const names = (chunks: readonly Uint8Array[]) => JSON.parse(`[${text(chunks)}]`).map((t: { name: string }) => t.name);

describe('list entries', () => {
  it('serve every listed tool from one prebuilt buffer, and a subset as those entries joined', () => {
    const { registrations: rs } = registrations([plain, other, scoped]);
    const entries = listEntries(rs, 'faithful', 'modern');
    const every = entries.join(rs);
    expect(entries.join([...rs])).toBe(every);
    expect(every).toHaveLength(1);
    const all = JSON.parse(`[${text(every)}]`);
    expect(all.map((t: { name: string }) => t.name)).toEqual(['plain', 'other', 'scoped']);
    expect(JSON.parse(`[${text(entries.join([rs[0]!, rs[2]!]))}]`)).toEqual([all[0], all[2]]);
    expect(text(entries.join([]))).toBe('');
  });

  const many = Array.from({ length: 24 }, (_, i) =>
    defineTool({ name: `t${i}`, input: z.object({ [`k${i}`]: z.string() }), handler: () => 'ok' }),
  );

  it('serve a subset in a few runs of neighbours as views of the prebuilt buffer, with their commas', () => {
    const { registrations: rs } = registrations(many);
    const entries = listEntries(rs, 'faithful', 'legacy');
    const [buffer] = entries.join(rs);
    const cases: Array<[number[], number]> = [
      [[0, 1, 2], 1],
      [[3, 4, 9, 23], 3],
      [[23], 1],
      [[1, 3, 5, 7, 9, 11, 13, 15], 8],
    ];
    for (const [picked, runs] of cases) {
      const chunks = entries.join(picked.map((i) => rs[i]!));
      expect(chunks).toHaveLength(runs);
      for (const chunk of chunks) expect(chunk.buffer).toBe(buffer!.buffer);
      expect(names(chunks)).toEqual(picked.map((i) => `t${i}`));
    }
  });

  it('copy a subset in many runs, or out of order, into one buffer of those entries', () => {
    const { registrations: rs } = registrations(many);
    const entries = listEntries(rs, 'faithful', 'modern');
    const [buffer] = entries.join(rs);
    for (const picked of [
      [0, 2, 4, 6, 8, 10, 12, 14, 16],
      [5, 4],
      [1, 1],
    ]) {
      const chunks = entries.join(picked.map((i) => rs[i]!));
      expect(chunks).toHaveLength(1);
      expect(chunks[0]!.buffer).not.toBe(buffer!.buffer);
      expect(names(chunks)).toEqual(picked.map((i) => `t${i}`));
    }
  });
});

describe('gzip starts beside the list entries', () => {
  const many = Array.from({ length: 20 }, (_, i) =>
    defineTool({ name: `t${i}`, input: z.object({ [`k${i}`]: z.string() }), handler: () => 'ok' }),
  );
  const HEAD = '{"result":{"tools":[';

  it('deflate a (head, visible set) once, and decode to the head and those entries', () => {
    const { registrations: rs } = registrations(many);
    const entries = listEntries(rs, 'faithful', 'modern');
    const start = entries.gzipped(rs, HEAD)!;
    expect(entries.gzipped([...rs], HEAD)).toBe(start);
    const sse = entries.gzipped(rs, `event: message\ndata: ${HEAD}`)!;
    expect(sse).not.toBe(start);
    const some = [rs[2]!, rs[5]!];
    const partial = entries.gzipped(some, HEAD)!;
    expect(entries.gzipped([rs[2]!, rs[5]!], HEAD)).toBe(partial);
    for (const [got, visible, head] of [
      [start, rs, HEAD],
      [sse, rs, `event: message\ndata: ${HEAD}`],
      [partial, some, HEAD],
    ] as const) {
      const body = gzipWith(got, new TextEncoder().encode(']}}'));
      expect(gunzipSync(body).toString('utf8')).toBe(`${head}${text(entries.join(visible))}]}}`);
    }
  });

  it('keep at most 16 starts: a further visible set is answered uncompressed, never deflated per request', () => {
    const { registrations: rs } = registrations(many);
    const entries = listEntries(rs, 'faithful', 'legacy');
    const kept = rs.slice(0, 16).map((r) => entries.gzipped([r], HEAD));
    expect(kept.every((start) => start !== undefined)).toBe(true);
    expect(entries.gzipped([rs[16]!], HEAD)).toBeUndefined();
    expect(entries.gzipped(rs, HEAD)).toBeUndefined();
    expect(entries.gzipped([rs[3]!], HEAD)).toBe(kept[3]);
  });
});

describe('withListing', () => {
  const sentinel = '{"name":"mcp-mount-list-n","inputSchema":{"type":"object"}}';
  const entries = [new TextEncoder().encode('{"name":"a"}'), new TextEncoder().encode(',{"name":"b"}')];
  const sse = (id: number) =>
    new Response(`event: message\ndata: {"result":{"tools":[${sentinel}]},"jsonrpc":"2.0","id":${id}}\n\n`, {
      headers: { 'content-type': 'text/event-stream', 'content-length': '1' },
    });

  it('reads the SDK answer once, collapsing an event stream for a JSON client and splicing in the entries', async () => {
    const sent = sse(7);
    const read = vi.spyOn(sent, 'text');
    const answer = await withListing(sent, { sentinel, entries: () => entries }, { json: true });
    expect(read).toHaveBeenCalledTimes(1);
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(answer.headers.get('content-length')).toBeNull();
    expect(await answer.text()).toBe('{"result":{"tools":[{"name":"a"},{"name":"b"}]},"jsonrpc":"2.0","id":7}');
  });

  it('keeps the event stream for a client that takes one, and passes an answer without the sentinel', async () => {
    const answer = await withListing(sse(1), { sentinel, entries: () => entries }, { json: false });
    expect(answer.headers.get('content-type')).toBe('text/event-stream');
    expect(await answer.text()).toBe(
      'event: message\ndata: {"result":{"tools":[{"name":"a"},{"name":"b"}]},"jsonrpc":"2.0","id":1}\n\n',
    );
    const error = new Response('{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"no"}}', { status: 400 });
    const passed = await withListing(error, { sentinel, entries: () => entries }, { json: false });
    expect(passed.status).toBe(400);
    expect(await passed.text()).toContain('-32602');
  });

  const gzipped = (head: string) => gzipStart([new TextEncoder().encode(head), ...entries], zlib()!);

  it('gzips the answer from the kept start, with its length and Vary, decoding to the uncompressed bytes', async () => {
    const plain = await (await withListing(sse(7), { sentinel, entries: () => entries }, { json: true })).text();
    const answer = await withListing(sse(7), { sentinel, entries: () => [], gzipped }, { json: true }, true);
    expect(answer.headers.get('content-encoding')).toBe('gzip');
    expect(answer.headers.get('vary')).toBe('Accept-Encoding');
    const body = Buffer.from(await answer.arrayBuffer());
    expect(answer.headers.get('content-length')).toBe(String(body.length));
    expect(gunzipSync(body).toString('utf8')).toBe(plain);
  });

  it('says Vary but sends the list as it is when the client takes no gzip, or no start is kept', async () => {
    for (const [gzip, start] of [
      [false, gzipped],
      [true, () => undefined],
    ] as const) {
      const answer = await withListing(
        sse(1),
        { sentinel, entries: () => entries, gzipped: start },
        { json: false },
        gzip,
      );
      expect(answer.headers.get('content-encoding')).toBeNull();
      expect(answer.headers.get('vary')).toBe('Accept-Encoding');
      expect(await answer.text()).toContain('{"name":"a"},{"name":"b"}');
    }
  });

  it('says no Vary where the list is never compressed (off, or no zlib)', async () => {
    const answer = await withListing(sse(1), { sentinel, entries: () => entries, gzipped }, { json: false }, undefined);
    expect(answer.headers.get('vary')).toBeNull();
    expect(answer.headers.get('content-encoding')).toBeNull();
  });
});
