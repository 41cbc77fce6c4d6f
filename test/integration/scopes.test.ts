/**
 * Per-tool scopes and per-request tool sets from ONE mount, with real JWTs (signed and verified with
 * `jose`) and both official clients over real HTTP: `tools/list` shows what the token may call; a call
 * without the tool's scope gets HTTP 403 `insufficient_scope` before the handler runs (the SDK's
 * `scopeChallenge`, a step-up); `visibleTools` hides tools, and a hidden tool answers as an unknown one.
 */
import { Hono } from 'hono';
import { defineTool, type McpMountOptions, McpMountSchemaError, validateMcpSchemas } from 'mcp-mount';
import { createMcpFetchHandler } from 'mcp-mount/adapter';
import { mcp } from 'mcp-mount/hono';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { type DevIssuer, devIssuer, jwtVerifier } from '../../examples/shared/jwt.js';
import { connect, eras } from '../adapters/support/clients.js';
import { parseBody } from '../adapters/support/session.js';
import { jsonRpcHeaders, rpc } from '../adapters/support/tools.js';
import { mergedOptions } from '../support/options.js';
import { listen, type Running } from '../support/server.js';

const ISSUER = 'https://auth.example.com';
const AUDIENCE = 'https://mcp.example.com/mcp';
const ran: string[] = [];

const readNote = defineTool({
  name: 'read_note',
  input: z.object({ id: z.string() }),
  handler: ({ input }) => {
    ran.push('read_note');
    return { id: input.id, text: 'hello' };
  },
});
const archiveNote = defineTool({
  name: 'archive_note',
  scopes: ['notes:write'],
  input: z.object({ id: z.string() }),
  handler: ({ input }, ctx) => {
    ran.push('archive_note');
    return { archived: input.id, by: ctx.authInfo?.extra?.sub ?? null, scopes: ctx.authInfo?.scopes ?? null };
  },
});
const report = defineTool({
  name: 'usage_report',
  scopes: { anyOf: ['admin', 'reports:read'] },
  input: z.object({}),
  handler: () => {
    ran.push('usage_report');
    return { calls: 42 };
  },
});
const tools = [readNote, archiveNote, report];

let issuer: DevIssuer;
beforeAll(async () => {
  issuer = await devIssuer(ISSUER, AUDIENCE);
});
const token = (scope: string, sub = 'ada') => issuer.sign({ sub, scope });

async function serve(options: McpMountOptions = {}): Promise<Running> {
  const app = new Hono();
  const verify = jwtVerifier({ jwks: issuer.jwks, issuer: ISSUER, audience: AUDIENCE });
  app.all('/mcp', mcp(tools, mergedOptions({ access: { auth: { verify, required: false } } }, options)));
  return listen(app.fetch);
}

const post = async (url: string, body: string, bearer?: string) => {
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...jsonRpcHeaders, ...(bearer && { authorization: `Bearer ${bearer}` }) },
    body,
  });
  return { status: response.status, challenge: response.headers.get('www-authenticate'), text: await response.text() };
};
const callBody = (name: string, args: unknown = {}) => rpc('tools/call', { name, arguments: args });
const listed = (text: string) => (parseBody(text).result.tools as Array<{ name: string }>).map((t) => t.name);

describe('per-tool scopes', () => {
  let server: Running;
  beforeAll(async () => {
    server = await serve();
  });
  afterAll(() => server.close());

  it.each(eras.map((era) => [era]))(
    'client %s: a token without the scope does not see the tool, and its call gets 403 before the handler',
    async (era) => {
      const client = await connect(era, server.url, fetch, { token: await token('notes:read') });
      try {
        expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['read_note']);
        ran.length = 0;
        await expect(client.callTool('archive_note', { id: 'n-1' })).rejects.toThrow();
        expect(client.exchanges.at(-1)?.status).toBe(403);
        expect(ran).toEqual([]);
      } finally {
        await client.close();
      }
    },
  );

  it.each(eras.map((era) => [era]))(
    'client %s: a token with the scope sees the tool and calls it; ctx.authInfo is typed and populated',
    async (era) => {
      const client = await connect(era, server.url, fetch, { token: await token('notes:read notes:write') });
      try {
        expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['read_note', 'archive_note']);
        const result = await client.callTool('archive_note', { id: 'n-1' });
        expect(JSON.parse(result.content[0]!.text!)).toEqual({
          archived: 'n-1',
          by: 'ada',
          scopes: ['notes:read', 'notes:write'],
        });
      } finally {
        await client.close();
      }
    },
  );

  it('names the missing scope and the metadata in the 403 challenge', async () => {
    const refused = await post(server.url, callBody('archive_note', { id: 'n-1' }), await token('notes:read'));
    expect(refused.status).toBe(403);
    expect(refused.challenge).toMatch(
      /^Bearer error="insufficient_scope", error_description="Insufficient scope", scope="notes:write", resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp"$/,
    );
    expect(JSON.parse(refused.text)).toEqual({ error: 'insufficient_scope', error_description: 'Insufficient scope' });
  });

  it('any-of: one of the scopes suffices; the challenge asks for the first and describes the rest', async () => {
    const granted = await post(server.url, callBody('usage_report'), await token('reports:read'));
    expect(granted.status).toBe(200);
    expect(listed((await post(server.url, rpc('tools/list'), await token('reports:read'))).text)).toContain(
      'usage_report',
    );
    const refused = await post(server.url, callBody('usage_report'), await token('notes:read'));
    expect(refused.status).toBe(403);
    expect(refused.challenge).toContain('error_description="Requires one of: admin reports:read", scope="admin"');
  });

  it('without a token: scoped tools are not listed, and their call gets 401 naming the scopes', async () => {
    expect(listed((await post(server.url, rpc('tools/list'))).text)).toEqual(['read_note']);
    ran.length = 0;
    const refused = await post(server.url, callBody('archive_note', { id: 'n-1' }));
    expect(refused.status).toBe(401);
    expect(refused.challenge).toMatch(
      /^Bearer error="invalid_token", error_description="Authentication required", scope="notes:write", resource_metadata="/,
    );
    expect(ran).toEqual([]);
  });

  it('refuses at construction, under every policy, scopes that cannot mean anything: the same invalid-scopes issues validateMcpSchemas reports', () => {
    for (const scopes of [[], { anyOf: [] }, ['has space'], ['quote"'], { oneOf: ['a'] }, 'notes:write']) {
      const bad = defineTool({ name: 'bad', scopes: scopes as never, handler: () => 'x' });
      const label = JSON.stringify(scopes);
      const probed = validateMcpSchemas([bad, readNote]).issues;
      expect(
        probed.map((i) => `${i.tool} ${i.code} ${i.severity}`),
        label,
      ).toEqual(['bad invalid-scopes error']);
      expect(probed[0]!.message, label).toMatch(/^tool "bad": /);
      for (const policy of ['throw', 'warn', 'skip'] as const) {
        let thrown: unknown;
        try {
          mcp([bad, readNote], {
            schemaValidation: { policy },
            observe: { logger: { warn: vi.fn(), error: vi.fn() } },
          });
        } catch (error) {
          thrown = error;
        }
        expect(thrown, `${label} ${policy}`).toBeInstanceOf(McpMountSchemaError);
        expect((thrown as McpMountSchemaError).issues, `${label} ${policy}`).toEqual(probed);
        expect(String(thrown)).toContain('bad tool /scopes');
      }
    }
  });
});

describe('a scoped tool on a mount without auth', () => {
  it('is a scopes-without-auth warning of the mount; the mount starts, and logs it under policy warn', () => {
    const warn = vi.fn();
    const handler = createMcpFetchHandler(tools, {
      schemaValidation: { policy: 'warn' },
      observe: { logger: { warn, error: vi.fn() } },
    });
    const warned = handler.report.issues.filter((i) => i.code === 'scopes-without-auth');
    expect(warned.map((i) => `${i.tool} ${i.severity}`)).toEqual(['archive_note warning', 'usage_report warning']);
    expect(warned[0]!.message).toContain("Express's req.auth");
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toMatch(/\[warning\] archive_note tool \/scopes scopes-without-auth: /);
    expect(() =>
      createMcpFetchHandler(tools, { observe: { logger: { warn: vi.fn(), error: vi.fn() } } }),
    ).not.toThrow();
  });

  it('is logged once at construction under the default policy too, since the mount starts', () => {
    const warn = vi.fn();
    createMcpFetchHandler(tools, { observe: { logger: { warn, error: vi.fn() } } });
    expect(warn).toHaveBeenCalledTimes(1);
    const logged = String(warn.mock.calls[0]![0]);
    expect(logged).toMatch(/^mcp-mount: the mount starts with these warnings/);
    expect(logged).toMatch(/archive_note tool \/scopes scopes-without-auth: /);
    expect(logged).toMatch(/usage_report tool \/scopes scopes-without-auth: /);
  });

  it('is what the warning says: hidden and 401 without an upstream authInfo, listed with one', async () => {
    const handler = createMcpFetchHandler(tools, { observe: { logger: { warn: vi.fn(), error: vi.fn() } } });
    const request = (body: string) =>
      new Request('http://127.0.0.1/mcp', { method: 'POST', headers: jsonRpcHeaders, body });
    expect(listed(await (await handler.fetch(request(rpc('tools/list')))).text())).toEqual(['read_note']);
    expect((await handler.fetch(request(callBody('archive_note', { id: 'n-1' })))).status).toBe(401);
    const authInfo = { token: 'upstream', clientId: 'gateway', scopes: ['notes:write'] };
    const upstream = await handler.fetch(request(rpc('tools/list')), { authInfo });
    expect(listed(await upstream.text())).toEqual(['read_note', 'archive_note']);
  });

  it('is no issue on a mount with auth', () => {
    const handler = createMcpFetchHandler(tools, { access: { auth: { verify: () => undefined, required: false } } });
    expect(handler.report.issues).toEqual([]);
  });
});

describe('listUnauthorizedTools', () => {
  it('lists every tool, and the call without the scope still gets 403', async () => {
    const server = await serve({ access: { listUnauthorizedTools: true } });
    try {
      const bearer = await token('notes:read');
      expect(listed((await post(server.url, rpc('tools/list'), bearer)).text)).toEqual([
        'read_note',
        'archive_note',
        'usage_report',
      ]);
      expect((await post(server.url, callBody('archive_note', { id: 'n-1' }), bearer)).status).toBe(403);
    } finally {
      await server.close();
    }
  });
});

describe('visibleTools: role-based tool sets from one mount', () => {
  let server: Running;
  let asked = 0;
  beforeAll(async () => {
    // Support staff (subject `support`) see the reading tool only; everyone else sees what scopes allow.
    server = await serve({
      access: {
        visibleTools: ({ authInfo }) => {
          asked++;
          return authInfo?.extra?.sub === 'support' ? ['read_note'] : () => true;
        },
      },
    });
  });
  afterAll(() => server.close());

  it('serves different tool sets to different tokens', async () => {
    const all = 'notes:read notes:write admin';
    expect(listed((await post(server.url, rpc('tools/list'), await token(all, 'ada'))).text)).toEqual([
      'read_note',
      'archive_note',
      'usage_report',
    ]);
    expect(listed((await post(server.url, rpc('tools/list'), await token(all, 'support'))).text)).toEqual([
      'read_note',
    ]);
  });

  it('answers a call to a hidden tool exactly as an unknown tool, with no scope challenge', async () => {
    const support = await token('notes:read notes:write', 'support');
    ran.length = 0;
    const hidden = await post(server.url, callBody('archive_note', { id: 'n-1' }), support);
    const unknown = await post(server.url, callBody('no_such_tool', { id: 'n-1' }), support);
    expect([hidden.status, hidden.challenge]).toEqual([200, null]);
    expect(hidden.text.replace('archive_note', '<name>')).toBe(unknown.text.replace('no_such_tool', '<name>'));
    expect(hidden.text).toContain('Tool archive_note not found');
    expect(ran).toEqual([]);
    // Even a token lacking the scope gets "not found", not a 403 that would tell the tool exists.
    const weak = await post(server.url, callBody('archive_note', { id: 'n-1' }), await token('', 'support'));
    expect([weak.status, weak.text.includes('not found')]).toEqual([200, true]);
  });

  it('asks once per request', async () => {
    asked = 0;
    await post(server.url, callBody('read_note', { id: 'n-1' }), await token('notes:read'));
    await post(server.url, rpc('tools/list'), await token('notes:read'));
    expect(asked).toBe(2);
  });

  it('answers a list of nothing with an empty list', async () => {
    const none = await serve({ access: { visibleTools: () => [] } });
    try {
      expect(listed((await post(none.url, rpc('tools/list'))).text)).toEqual([]);
    } finally {
      await none.close();
    }
  });
});
